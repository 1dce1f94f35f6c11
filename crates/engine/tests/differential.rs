//! Differential diagnosis (issue 39): the cause heads the report and its loud symptoms sit under it;
//! a known cause is judged at the boundary where the fault lies, not where it was reported.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, Boundary, Severity, Source};

fn fixture(name: &str) -> Source {
    let path = common::repo().join("tests/fixtures/differential").join(name);
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

/// A frontend failing its readiness probe because the product catalog it names in its environment
/// cannot be scheduled: the catalog's Pod heads the report, the frontend's probe is its symptom.
#[test]
fn a_callers_probe_failures_sit_under_the_callees_fault() {
    let sources = [
        fixture("caller-probes-fail-callee-unschedulable.yaml"),
        fixture("caller-probes-fail-callee-unschedulable-events.txt"),
    ];
    for order in [[0, 1], [1, 0]] {
        let report = analyze(&[sources[order[0]].clone(), sources[order[1]].clone()]);
        let top = report.diagnosis().unwrap();
        assert_eq!(top.rule, "pod-unschedulable");
        assert_eq!(top.subject.name, "productcatalogservice-5f9c8d7b6-7tq2m");
        let probe = report
            .findings
            .iter()
            .find(|f| f.rule == "readiness-probe-failing")
            .unwrap();
        assert_eq!(
            probe.severity,
            Severity::Warning,
            "a symptom is no error of its own"
        );
        let cause = probe.explained_by.as_ref().unwrap();
        assert_eq!(
            (cause.rule.as_str(), &cause.subject),
            ("pod-unschedulable", &top.subject)
        );
    }
    // Without the environment that names the catalog, nothing ties them: two faults.
    let text = sources[0]
        .text
        .replace("productcatalogservice:3550", "localhost:3550");
    let report = analyze(&[Source::new("pods.yaml", text), sources[1].clone()]);
    let probe = report
        .findings
        .iter()
        .find(|f| f.rule == "readiness-probe-failing")
        .unwrap();
    assert!(probe.explained_by.is_none());
}

fn unschedulable(message: &str) -> Boundary {
    let text = format!(
        "$ kubectl get events -n shop\nLAST SEEN   TYPE      REASON             OBJECT          MESSAGE\n2m          Warning   FailedScheduling   pod/web-0       {message}\n"
    );
    let report = analyze(&[Source::new("events.txt", text)]);
    let top = report.diagnosis().unwrap();
    assert_eq!(top.rule, "pod-unschedulable", "{message}");
    top.boundary
}

/// The scheduler reports it, but the fault is the Nodes' when every node was refused for its
/// condition, and storage's when the Pod waits for its claims; otherwise it is a constraint.
#[test]
fn a_refusal_for_a_node_condition_or_a_claim_is_judged_where_the_fault_is() {
    assert_eq!(
        unschedulable("0/3 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."),
        Boundary::NodeRuntime
    );
    assert_eq!(
        unschedulable("0/2 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
        Boundary::NodeRuntime
    );
    assert_eq!(
        unschedulable("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."),
        Boundary::ZoneNetworkStorage
    );
    assert_eq!(
        unschedulable("0/3 nodes are available: 3 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."),
        Boundary::ZoneNetworkStorage
    );
    assert_eq!(
        unschedulable("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
        Boundary::Scheduling
    );
}
