//! Names from structure, never guessed (issue 38, item 4): a next command never holds an empty or
//! guessed name or namespace. Where the input does not state the namespace (a `kubectl get pods`
//! table without `-A`: the user's context namespace), the commands write `'<namespace>'`, never
//! `default`; where it does not give the name, `'<name>'`, never `''`; and the finding says so.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, Finding, Source};

fn says_not_stated(f: &Finding) -> bool {
    f.cannot_establish
        .iter()
        .any(|c| c.message().is_some_and(|m| m.id() == "common.not-stated"))
}

#[test]
fn a_namespace_the_input_does_not_state_is_a_placeholder_never_default() {
    let table = "$ kubectl get pods\nNAME                        READY   STATUS             RESTARTS      AGE\napi-6c7d8f9b5-mm2pq         0/1     CrashLoopBackOff   7 (2m ago)    14m\n";
    let report = analyze(&[Source::new("paste", table)]);
    let f = report.diagnosis().unwrap();
    assert_eq!(f.subject.name, "api-6c7d8f9b5-mm2pq");
    assert!(!f.next_steps.is_empty());
    for step in &f.next_steps {
        assert!(!step.contains("-n default"), "{step}");
    }
    assert!(
        f.next_steps.iter().any(|s| s.contains("-n '<namespace>'")),
        "{:?}",
        f.next_steps
    );
    assert!(says_not_stated(f), "{:?}", f.cannot_establish);

    // With the namespace in the table, the commands name it and nothing is said.
    let table = "$ kubectl get pods -A\nNAMESPACE   NAME                        READY   STATUS             RESTARTS      AGE\nshop        api-6c7d8f9b5-mm2pq         0/1     CrashLoopBackOff   7 (2m ago)    14m\n";
    let report = analyze(&[Source::new("paste", table)]);
    let f = report.diagnosis().unwrap();
    assert!(
        f.next_steps.iter().any(|s| s.contains("-n shop")),
        "{:?}",
        f.next_steps
    );
    assert!(f.next_steps.iter().all(|s| !s.contains("<namespace>")));
    assert!(!says_not_stated(f));
}

/// A real paste whose names were redacted (../shared/corpus/wild/09): no command with `''`.
#[test]
fn a_name_the_input_does_not_give_is_a_placeholder_never_empty() {
    let case = common::corpus().join("wild/09-secret-version-mismatch-redacted-node");
    let report = analyze(&common::case_sources(&case));
    let unnamed: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.subject.name.is_empty())
        .collect();
    assert!(!unnamed.is_empty());
    for f in &report.findings {
        for step in &f.next_steps {
            assert!(!step.contains(" '' ") && !step.ends_with(" ''"), "{step}");
        }
    }
    for f in unnamed {
        if f.next_steps.iter().any(|s| s.contains("'<name>'")) {
            assert!(says_not_stated(f), "{:?}", f.cannot_establish);
        }
    }
    assert!(report
        .findings
        .iter()
        .flat_map(|f| &f.next_steps)
        .any(|s| s.contains("'<name>'")));
}
