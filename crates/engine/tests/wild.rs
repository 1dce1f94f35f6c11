//! The wild corpus (`../shared/corpus/wild`): 42 pastes copied verbatim from public issue threads,
//! each with the diagnosis its thread supports. Scored as `../shared/tools/score.py --ignore-info
//! --silent-report` scores the CLI: a faulty case is right when its first error or warning finding
//! is at the expected boundary (or one the case also accepts); a healthy case (`none`) is right when
//! no finding is an error. No faulty case may be silent or called `no-fault`.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, Severity, Verdict};
use serde_json::Value;

/// The share of cases that must be right (issue 21: at least 90 %).
const FLOOR: f64 = 0.90;

/// The cases whose first error or warning finding names the expected subject (kind and name) must
/// not fall under this (a ratchet: raise it when more are right).
const SUBJECTS_FLOOR: usize = 18;

#[test]
fn the_wild_corpus_is_read_and_judged() {
    let root = common::corpus().join("wild");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expect.json").is_file())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 42, "the whole wild corpus");
    let (mut right, mut silent, mut subjects) = (0, Vec::new(), 0);
    let mut misses = Vec::new();
    let mut subject_misses = Vec::new();
    let mut called_healthy = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
        let report = analyze(&common::case_sources(dir));
        let want = expect["boundary"].as_str().unwrap();
        let weighty: Vec<_> = report
            .findings
            .iter()
            .filter(|f| matches!(f.severity, Severity::Error | Severity::Warning))
            .collect();
        let good = if want == "none" {
            report.findings.iter().all(|f| f.severity != Severity::Error)
        } else {
            if weighty.is_empty() {
                silent.push(name.clone());
            }
            if report.verdict == Verdict::NoFault {
                called_healthy.push(name.clone());
            }
            let accepted: Vec<&str> = std::iter::once(want)
                .chain(
                    expect["also_acceptable"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str),
                )
                .collect();
            let top = weighty.first();
            if let (Some(top), Some(subject)) = (top, expect["subject"].as_object()) {
                if top.subject.kind == subject["kind"].as_str().unwrap_or_default()
                    && top.subject.name == subject["name"].as_str().unwrap_or_default()
                {
                    subjects += 1;
                } else {
                    subject_misses.push(format!(
                        "{name}: want {} {}, got {}",
                        subject["kind"].as_str().unwrap_or_default(),
                        subject["name"].as_str().unwrap_or_default(),
                        top.subject
                    ));
                }
            }
            top.is_some_and(|f| accepted.contains(&f.boundary.id()))
        };
        if good {
            right += 1;
        } else {
            let got = weighty.first().map_or("no finding".to_string(), |f| {
                format!("{} {}", f.rule, f.boundary.id())
            });
            misses.push(format!("{name}: want {want}, got {got}"));
        }
    }
    let share = right as f64 / dirs.len() as f64;
    println!(
        "wild corpus: {right}/{} right ({:.0} %), subject of the first finding right in {subjects}, silent faulty cases: {}",
        dirs.len(),
        share * 100.0,
        silent.len()
    );
    for miss in &misses {
        println!("  miss: {miss}");
    }
    for miss in &subject_misses {
        println!("  subject: {miss}");
    }
    assert!(
        silent.is_empty(),
        "faulty cases with no error or warning finding: {silent:?}"
    );
    assert!(
        called_healthy.is_empty(),
        "faulty cases with verdict no-fault: {called_healthy:?}"
    );
    assert!(
        subjects >= SUBJECTS_FLOOR,
        "the subject of the first finding is right in {subjects}, under {SUBJECTS_FLOOR}: {subject_misses:#?}"
    );
    assert!(
        share >= FLOOR,
        "{right}/{} right is under {FLOOR}: {misses:#?}",
        dirs.len()
    );
}
