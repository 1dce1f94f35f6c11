//! The report's order (issue 22): a current fault outranks superseded history; an info note is never
//! first while an error or a warning is reported; the diagnosis line never comes from an info note.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use faultline_engine::{analyze, render, Lang, Report, Severity, Source, Verdict};

fn source(path: &Path) -> Source {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

/// Every rule fixture, in path order.
fn fixtures() -> Vec<PathBuf> {
    let root = common::repo().join("tests/fixtures/rules");
    common::sorted_entries(&root)
        .into_iter()
        .filter(|d| d.is_dir())
        .flat_map(|d| common::sorted_entries(&d))
        .collect()
}

/// The fixtures where a failure is followed by recovery (`*-recovered-*`).
fn recovered() -> Vec<PathBuf> {
    let found: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains("-recovered-"))
        .collect();
    assert!(found.len() >= 8, "{} recovered fixtures", found.len());
    found
}

fn serious(report: &Report) -> bool {
    report
        .findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error | Severity::Warning))
}

/// The orderings every report holds.
fn assert_ranked(what: &str, report: &Report) {
    if serious(report) {
        let first = &report.findings[0];
        assert_ne!(first.severity, Severity::Info, "{what}: an info note is first");
        assert_eq!(report.verdict, Verdict::Fault, "{what}");
    }
    // Every info note after every error and warning.
    let last_serious = report.findings.iter().rposition(|f| f.severity != Severity::Info);
    let first_info = report.findings.iter().position(|f| f.severity == Severity::Info);
    if let (Some(serious), Some(info)) = (last_serious, first_info) {
        assert!(info > serious, "{what}: an info note ranks above a fault");
    }
    match report.diagnosis() {
        Some(top) => {
            assert_ne!(top.severity, Severity::Info, "{what}");
            assert_eq!(
                Some(top),
                report.findings.iter().find(|f| f.severity != Severity::Info)
            );
        }
        None => assert!(!serious(report), "{what}: a fault without a diagnosis"),
    }
}

#[test]
fn a_recovered_failure_is_history_never_an_error_or_a_warning() {
    for path in recovered() {
        let report = analyze(&[source(&path)]);
        let name = path.display();
        for f in &report.findings {
            assert_eq!(f.severity, Severity::Info, "{name}: {} is not history", f.rule);
        }
        for f in report
            .findings
            .iter()
            .filter(|f| f.summary.starts_with("History"))
        {
            assert!(f.summary.contains("recovered ("), "{name}: {}", f.summary);
            assert!(!f.evidence.is_empty(), "{name}: history without evidence");
        }
        assert_ne!(report.verdict, Verdict::Fault, "{name}");
        assert!(report.diagnosis().is_none(), "{name}");
    }
}

/// Each recovered failure pasted with each current fault of another fixture: the fault comes first,
/// the history after it, and the diagnosis is the fault's.
#[test]
fn a_current_fault_outranks_superseded_history() {
    let faults: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("fires-"))
        .filter(|p| serious(&analyze(&[source(p)])))
        .collect();
    assert!(faults.len() > 20);
    let mut pairs = 0;
    for history in recovered() {
        for fault in &faults {
            if fault == &history {
                continue;
            }
            let alone = analyze(&[source(fault)]);
            let report = analyze(&[source(&history), source(fault)]);
            let what = format!("{} + {}", history.display(), fault.display());
            assert_ranked(&what, &report);
            let top = report.diagnosis().unwrap();
            assert_eq!(
                (top.rule.as_str(), &top.subject),
                (alone.findings[0].rule.as_str(), &alone.findings[0].subject),
                "{what}: history changed the diagnosis"
            );
            pairs += 1;
        }
    }
    assert!(pairs > 100, "{pairs}");
}

/// Every fixture and every corpus case, as pasted.
#[test]
fn info_is_never_first_and_never_the_diagnosis() {
    for path in fixtures() {
        assert_ranked(&path.display().to_string(), &analyze(&[source(&path)]));
    }
    let corpus = common::corpus();
    for group in ["cases", "real/troubleshoot", "wild"] {
        for dir in common::sorted_entries(&corpus.join(group))
            .into_iter()
            .filter(|d| d.is_dir())
        {
            let sources: Vec<Source> = common::sorted_entries(&dir)
                .iter()
                .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "expect.json"))
                .map(|p| source(p))
                .collect();
            assert_ranked(&dir.display().to_string(), &analyze(&sources));
        }
    }
}

/// Info notes only: no boundary line in the exports, and the verdict is not a fault.
#[test]
fn the_diagnosis_line_never_names_an_info_note() {
    let path = recovered()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("liveness-probe-failing"))
        .unwrap();
    let report = analyze(&[source(&path)]);
    assert!(!report.findings.is_empty());
    assert!(report.findings.iter().all(|f| f.severity == Severity::Info));
    assert!(report.diagnosis().is_none());
    let words = render::words(Lang::En);
    let markdown = render::markdown(&report, Lang::En);
    assert!(
        !markdown.contains(&format!("**{}:**", words.boundary)),
        "{markdown}"
    );
    let html = render::html(&report, Lang::En);
    assert!(!html.contains("<p class=\"boundary\">"), "{html}");
}
