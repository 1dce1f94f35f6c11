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

/// Issue 40: a `kubectl get events` table without `-n` and without a NAMESPACE column lists the
/// user's context namespace, which the input does not name. A quota refusal in it made a finding
/// about `ResourceQuota default/compute` that said "no Pods of namespace default were pasted" and
/// asked for `-n default`; and an admission webhook's refusal of `kubectl apply -f deploy.yaml` asked
/// for `kubectl get object deploy.yaml`.
#[test]
fn a_refusal_without_a_namespace_is_not_placed_in_default() {
    let table = "$ kubectl get events\nLAST SEEN   TYPE      REASON         OBJECT               MESSAGE\n3m          Warning   FailedCreate   replicaset/web-7d9f  Error creating: pods \"web-7d9f-abc\" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=2, limited: cpu=2\n";
    let apply = "$ kubectl apply -f deploy.yaml\nError from server: error when creating \"deploy.yaml\": admission webhook \"vpod.kb.io\" denied the request: image must be from registry.corp\n";
    for text in [table, apply] {
        let report = analyze(&[Source::new("paste", text)]);
        let f = report.diagnosis().unwrap();
        assert_eq!(f.subject.namespace, None, "{:?}", f.subject);
        let said: Vec<&str> = std::iter::once(f.summary.as_str())
            .chain(f.cannot_establish.iter().map(|c| c.as_str()))
            .collect();
        assert!(said.iter().all(|s| !s.contains("default")), "{said:?}");
        assert!(
            f.next_steps.iter().all(|s| !s.contains("-n default")),
            "{:?}",
            f.next_steps
        );
        assert!(
            f.next_steps.iter().all(|s| !s.contains("deploy.yaml")),
            "{:?}",
            f.next_steps
        );
        assert!(says_not_stated(f), "{:?}", f.cannot_establish);
    }
}
