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

/// Issue 39, "the command that decides": a container OOM-killed on a node that reports
/// MemoryPressure — its own limit, or the node out of memory? Both are current faults of one Pod's
/// world at different boundaries, so the report names the command that tells them apart and what
/// each answer means, and neither is more than likely. Pasting that command's output (the node's
/// SystemOOM events) decides: the node's pressure heads, the OOM kill sits under it as a symptom,
/// ruled out with the line that demotes it, and nothing is left to decide.
#[test]
fn two_close_causes_get_the_command_that_decides_and_its_output_decides() {
    use faultline_engine::Confidence;
    let pod_and_node = fixture("oom-killed-on-node-under-memory-pressure.yaml");
    let report = analyze(std::slice::from_ref(&pod_and_node));
    let decide = report.decide.as_ref().expect("two close causes: a decider");
    let rules: Vec<&str> = decide.between.iter().map(|c| c.rule.as_str()).collect();
    assert_eq!(rules.len(), 2);
    assert!(
        rules.contains(&"container-oom-killed") && rules.contains(&"node-under-pressure"),
        "{rules:?}"
    );
    assert_eq!(decide.between[decide.tested].rule, "node-under-pressure");
    assert!(
        decide
            .command
            .starts_with("kubectl describe node ip-10-0-3-17.ec2.internal"),
        "{}",
        decide.command
    );
    assert_eq!(decide.if_shown.message().unwrap().id(), "judge.system-oom");
    assert_eq!(decide.if_not.message().unwrap().id(), "judge.own-limit");
    for cause in &decide.between {
        let f = report.findings.iter().find(|f| f.rule == cause.rule).unwrap();
        assert_eq!(
            f.confidence,
            Confidence::Likely,
            "{}: competing, so likely",
            f.rule
        );
    }

    let events = fixture("oom-killed-node-describe-system-oom.txt");
    let report = analyze(&[pod_and_node, events]);
    assert!(report.decide.is_none(), "decided: {:?}", report.decide);
    let top = report.diagnosis().unwrap();
    assert_eq!(top.rule, "node-under-pressure");
    assert_eq!(top.confidence, Confidence::Established);
    let oom = report
        .findings
        .iter()
        .find(|f| f.rule == "container-oom-killed")
        .unwrap();
    assert_eq!(oom.explained_by.as_ref().unwrap().rule, "node-under-pressure");
    let ruled = report
        .ruled_out
        .iter()
        .find(|r| {
            r.finding
                .as_ref()
                .is_some_and(|c| c.rule == "container-oom-killed")
        })
        .expect("the OOM kill is considered and ruled out");
    assert_eq!(ruled.because.message().unwrap().id(), "judge.explained-by");
    assert!(ruled.evidence.is_some(), "with the line that demotes it");
}

/// Two faults of unrelated objects in one namespace (a DaemonSet's hostPath mount, a Deployment's
/// image) are two faults, not two hypotheses: no decider. A real capture from troubleshoot.
#[test]
fn unrelated_faults_are_not_competing_hypotheses() {
    let case = common::corpus().join("real/troubleshoot/containercreating-failedmount-hostpath-json");
    let report = analyze(&common::case_sources(&case));
    let roots = report
        .findings
        .iter()
        .filter(|f| f.explained_by.is_none() && f.severity == Severity::Error)
        .count();
    assert!(roots >= 2, "two faults: {roots}");
    assert!(report.decide.is_none(), "{:?}", report.decide);
}

/// "Considered and ruled out" names the boundaries a line shows working: a Pod that cannot pull its
/// image was scheduled (its `spec.nodeName`) and its node is Ready (the Ready condition), each with
/// its line, and the boundary the fault is at is not among them.
#[test]
fn boundaries_shown_working_are_ruled_out_by_their_line() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: api-5c8d9f7b6-q7x2z\n  namespace: shop\nspec:\n  nodeName: worker-3\n  containers:\n  - name: api\n    image: registry.example.com/shop/api:2.4.1\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: api\n    image: registry.example.com/shop/api:2.4.1\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: Back-off pulling image \"registry.example.com/shop/api:2.4.1\"\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-3\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n    reason: KubeletReady\n    message: kubelet is posting ready status\n";
    let report = analyze(&[Source::new("pod.yaml", pod)]);
    assert_eq!(report.diagnosis().unwrap().rule, "image-pull-failed");
    let scheduling = report
        .ruled_out
        .iter()
        .find(|r| r.boundary == Boundary::Scheduling)
        .unwrap();
    let e = scheduling.evidence.as_ref().unwrap();
    assert_eq!(
        (e.path.as_str(), e.line, e.value.as_str()),
        ("spec.nodeName", 7, "worker-3")
    );
    let node = report
        .ruled_out
        .iter()
        .find(|r| r.because.message().is_some_and(|m| m.id() == "judge.node-ready"));
    // The fault is at node-runtime (the kubelet cannot pull): the node being Ready rules nothing
    // out there, so it is not listed.
    assert!(node.is_none(), "{node:?}");
    assert!(report
        .ruled_out
        .iter()
        .all(|r| r.boundary != Boundary::NodeRuntime));
}

/// Issue 39, quota refusals of objects other than Pods: a Service refused by an object-count quota
/// does not exist, so the client that calls it (its log ends with the name not resolving) crash-loops;
/// a claim refused by a `requests.storage` quota does not exist, so the Pod that mounts it cannot be
/// scheduled. The refusal heads; the loud symptom sits under it, ruled out by the refusal's line.
#[test]
fn a_refused_service_or_claim_explains_what_needs_it() {
    for (file, symptom, refused) in [
        (
            "service-refused-by-quota-client-crashloops.txt",
            "container-crash-looping",
            "cartservice",
        ),
        (
            "claim-refused-by-storage-quota-pod-pending.txt",
            "pod-unschedulable",
            "warehouse-data",
        ),
    ] {
        let report = analyze(&[fixture(file)]);
        let top = report.diagnosis().unwrap();
        assert_eq!(top.rule, "quota-exceeded-on-create", "{file}");
        assert!(
            top.affects.iter().any(|a| a.name == refused),
            "{file}: {:?}",
            top.affects
        );
        let s = report.findings.iter().find(|f| f.rule == symptom).unwrap();
        assert_eq!(
            s.explained_by.as_ref().unwrap().rule,
            "quota-exceeded-on-create",
            "{file}"
        );
        assert!(
            report
                .ruled_out
                .iter()
                .any(|r| r.finding.as_ref().is_some_and(|c| c.rule == symptom)),
            "{file}"
        );
    }
    // Without the refusal, the client's log is the diagnosis (issue 44): it says which dependency
    // it cannot reach, and the crash loop follows from that.
    let text = fixture("service-refused-by-quota-client-crashloops.txt")
        .text
        .lines()
        .filter(|l| !l.starts_with("Error from server"))
        .collect::<Vec<_>>()
        .join("\n");
    let report = analyze(&[Source::new("paste", text)]);
    assert_eq!(report.diagnosis().unwrap().rule, "dependency-failing");
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "container-crash-looping" && f.explained_by.is_some()));
}

/// Issue 39, nothing acting read as nothing wrong: Pods Pending with the namespace's events pasted
/// and none about them (no FailedScheduling, no Scheduled) were never tried by a scheduler. A quota
/// refusal of the Deployment's previous ReplicaSet, followed by its new ReplicaSet creating Pods, is
/// history, not the cause. With kube-system's Pods pasted, the crash-looping scheduler heads and the
/// untried Pods sit under it.
#[test]
fn pods_no_scheduler_tried_are_not_a_stale_admission_refusal() {
    let pods = fixture("pods-untried-beside-a-stale-quota-refusal.txt");
    let report = analyze(std::slice::from_ref(&pods));
    let top = report.diagnosis().unwrap();
    assert_eq!(
        (top.rule.as_str(), top.boundary),
        ("scheduler-not-running", Boundary::ControlPlane)
    );
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.rule != "quota-exceeded-on-create" || f.severity == Severity::Info),
        "the old ReplicaSet's refusal is history"
    );
    let report = analyze(&[pods, fixture("pods-untried-scheduler-crashlooping.txt")]);
    let top = report.diagnosis().unwrap();
    assert_eq!(top.rule, "control-plane-component-failing");
    assert_eq!(top.subject.name, "kube-scheduler-cp-1");
    let untried = report
        .findings
        .iter()
        .find(|f| f.rule == "scheduler-not-running")
        .unwrap();
    assert_eq!(untried.explained_by.as_ref().unwrap().subject, top.subject);
}

/// Issue 39, wrong wiring: a caller configured with a port its Service does not expose restarts;
/// the configuration line heads and the crash loop sits under it.
#[test]
fn a_caller_wired_to_a_port_its_service_lacks_explains_its_crash_loop() {
    let report = analyze(&[fixture("caller-crashloops-on-a-port-its-service-lacks.yaml")]);
    let top = report.diagnosis().unwrap();
    assert_eq!(top.rule, "env-port-not-a-service-port");
    assert_eq!(top.subject.name, "checkoutservice-5d7c9b8f6-h2x9k");
    let crash = report
        .findings
        .iter()
        .find(|f| f.rule == "container-crash-looping")
        .unwrap();
    assert_eq!(
        crash.explained_by.as_ref().unwrap().rule,
        "env-port-not-a-service-port"
    );
}

/// Issue 39, wrong wiring: a Service whose selector wants the version its Pods no longer have (a
/// rollout from v1 to v2) selects nothing; the finding names the Pods that miss it by one label and
/// the label, and cites that label's line.
#[test]
fn a_selector_of_another_version_names_the_pods_it_misses() {
    let path = common::repo()
        .join("tests/fixtures/rules/service-endpoints-not-serving/fires-selector-wants-another-version.yaml");
    let report = analyze(&[Source::new(
        "objects.yaml",
        std::fs::read_to_string(path).unwrap(),
    )]);
    let top = report.diagnosis().unwrap();
    assert_eq!(
        (top.rule.as_str(), top.subject.name.as_str()),
        ("service-endpoints-not-serving", "reviews")
    );
    assert!(
        top.summary.contains("version=v1") && top.summary.contains("version=v2"),
        "{}",
        top.summary.as_str()
    );
    assert!(
        top.evidence
            .iter()
            .any(|e| e.path == "metadata.labels[\"version\"]" && e.value == "v2"),
        "{:?}",
        top.evidence
    );
}

/// Issue 39, nothing acting: a Service with ready endpoints that clients cannot reach because no
/// kube-proxy programs it (its DaemonSet 0 ready, its Pods crash-looping). The component heads; its
/// Pods' crash loops sit under it, and the Service is not reported healthy-but-failing.
#[test]
fn endpoints_nothing_programs_point_at_kube_proxy() {
    let report = analyze(&[fixture("endpoints-ready-kube-proxy-crashlooping.txt")]);
    let top = report.diagnosis().unwrap();
    assert_eq!(top.rule, "cluster-component-failing");
    assert_eq!(top.subject.name, "kube-proxy");
    let loops: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "container-crash-looping")
        .collect();
    assert_eq!(loops.len(), 3);
    assert!(loops
        .iter()
        .all(|f| f.explained_by.as_ref().is_some_and(|c| c.subject == top.subject)));
}
