//! `systemctl status kubelet`, `etcdctl member list` and the prose around them are not kubectl
//! output: they never become Kubernetes objects, alone or right after a table that is read
//! (`tests/fixtures/not-kubectl/`, real pastes).

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, report::Verdict, Source};

fn read(name: &str) -> faultline_engine::Report {
    let path = common::repo().join("tests/fixtures/not-kubectl").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    analyze(&[Source::new(name, text)])
}

#[test]
fn service_manager_and_etcdctl_output_alone_is_no_object_and_no_verdict_of_health() {
    for name in [
        "systemctl-status-kubelet-kind-521.txt",
        "systemctl-exited-etcdctl-hard-way-439.txt",
    ] {
        let report = read(name);
        assert!(
            report.objects.iter().all(|o| o.missing),
            "{name}: {:?}",
            report.objects
        );
        assert!(report.findings.is_empty(), "{name}: {:?}", report.findings);
        // Nothing Faultline could judge: never "nothing points to a fault".
        assert_eq!(report.verdict, Verdict::Inconclusive, "{name}");
    }
}

#[test]
fn systemctl_lines_right_after_a_get_nodes_table_are_not_nodes() {
    let report = read("get-nodes-then-systemctl.txt");
    let nodes: Vec<&str> = report
        .objects
        .iter()
        .filter(|o| !o.missing && o.object.kind == "Node")
        .map(|o| o.object.name.as_str())
        .collect();
    assert_eq!(
        nodes,
        ["master.vagrant.vm", "worker1.vagrant.vm", "worker2.vagrant.vm"]
    );
    assert_eq!(report.objects.iter().filter(|o| !o.missing).count(), 3);
    let first = &report.findings[0];
    assert_eq!(
        (first.rule.as_str(), first.subject.name.as_str()),
        ("node-not-ready", "worker2.vagrant.vm")
    );
}
