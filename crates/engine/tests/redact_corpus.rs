//! False positives of the secret scan on real input (issue 42): every case of the shared corpus
//! (cases, real captures, pastes from the wild), every real paste of `tests/fixtures/pastes`, every
//! rule fixture and built-in sample (kubectl output of every kind the rules read), redacted. What is replaced there is counted by the rule or kind that replaced it, and the
//! diagnosis of each redacted copy must be the original's — the same findings, each at the same
//! boundary about the same object — so no replacement hides a name the diagnosis needs.
//! `REDACT_FP_SHOW=1 cargo test -p faultline-engine --test redact_corpus -- --nocapture` prints every
//! value replaced, with its input and line, for reading.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stdout)]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use faultline_engine::redact::{redact, ScanOptions};
use faultline_engine::{analyze, Report, Source};

/// Every input set: a corpus case's folder, a paste's, a built-in sample's, or a rule fixture file.
fn input_sets() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for group in ["cases", "real/troubleshoot", "wild"] {
        out.extend(
            common::sorted_entries(&common::corpus().join(group))
                .into_iter()
                .filter(|p| p.is_dir()),
        );
    }
    out.extend(
        common::sorted_entries(&common::repo().join("tests/fixtures/pastes"))
            .into_iter()
            .filter(|p| p.is_dir()),
    );
    out.extend(
        common::sorted_entries(&common::repo().join("static/samples"))
            .into_iter()
            .filter(|p| p.is_dir()),
    );
    out.extend(common::input_files(|p| {
        p.starts_with(common::repo().join("tests/fixtures/rules"))
            || p.starts_with(common::repo().join("tests/fixtures/layouts"))
    }));
    out
}

/// The inputs of a set: a folder's files, or the file.
fn sources(set: &std::path::Path) -> Vec<Source> {
    if set.is_dir() {
        return common::case_sources(set);
    }
    let text = std::fs::read_to_string(set).unwrap();
    vec![Source::new(set.file_name().unwrap().to_string_lossy(), text)]
}

fn diagnosis(report: &Report) -> Vec<(String, &'static str, String)> {
    report
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.boundary.id(), f.subject.to_string()))
        .collect()
}

#[test]
fn redacting_real_input_replaces_little_and_keeps_every_diagnosis() {
    let show = std::env::var("REDACT_FP_SHOW").is_ok();
    let sets = input_sets();
    assert!(sets.len() > 400, "{}", sets.len());
    let mut by_name: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut changed = Vec::new();
    for dir in &sets {
        let sources = sources(dir);
        let copy = redact(&sources, &ScanOptions::default());
        for hit in &copy.hits {
            *by_name.entry(hit.name()).or_default() += 1;
            if show {
                let text = &sources[hit.input].text;
                println!(
                    "{}/{}:{} {} {:?}",
                    dir.file_name().unwrap().to_string_lossy(),
                    sources[hit.input].name,
                    hit.line,
                    hit.name(),
                    &text[hit.start..hit.end]
                );
            }
        }
        if copy.hits.is_empty() {
            continue;
        }
        let (before, after) = (analyze(&sources), analyze(&copy.sources));
        if diagnosis(&before) != diagnosis(&after) {
            changed.push(format!(
                "{}: {:?}\n  became {:?}",
                dir.display(),
                diagnosis(&before),
                diagnosis(&after)
            ));
        }
    }
    let total: usize = by_name.values().sum();
    println!("replaced in {} input sets: {total} ({by_name:?})", sets.len());
    assert!(changed.is_empty(), "{}", changed.join("\n"));
    // This real input holds no secret, and nothing in it is replaced: a rule set update or a new
    // detector that replaces something here is seen, and read.
    assert_eq!(total, 0, "{total} replaced: {by_name:?}");
}
