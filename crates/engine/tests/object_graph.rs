//! The report's object graph (`objects`, `relations`): what the object map draws and the five facts
//! its panel shows, from the article's experiment 3 and from an owner chain stated by
//! ownerReferences.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, FactKind, FactState, RelationKind, Report, Source};

fn find(report: &Report, kind: &str, name: &str) -> usize {
    report
        .objects
        .iter()
        .position(|o| o.object.kind == kind && o.object.name == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in {:#?}", report.objects))
}

fn related(report: &Report, from: usize, kind: RelationKind) -> Vec<usize> {
    report
        .relations
        .iter()
        .filter(|r| r.from == from && r.kind == kind)
        .map(|r| r.to)
        .collect()
}

fn facts(report: &Report, index: usize) -> Vec<(FactKind, FactState)> {
    report.objects[index]
        .facts
        .iter()
        .map(|f| (f.fact, f.state))
        .collect()
}

#[test]
fn experiment_3_shows_the_service_slice_endpoints_not_ready_and_their_pods() {
    let dir = common::corpus().join("cases/03-exp3-readiness-always-fails-yaml");
    let report = analyze(&common::case_sources(&dir));
    let service = find(&report, "Service", "echo");
    let slice = find(&report, "EndpointSlice", "echo-tq8fz");
    assert_eq!(related(&report, slice, RelationKind::EndpointsOf), [service]);
    let endpoints = &report.objects[slice].endpoints;
    assert_eq!(endpoints.len(), 2);
    let pods = related(&report, slice, RelationKind::EndpointIs);
    for (endpoint, pod) in endpoints.iter().zip(&pods) {
        assert_eq!(
            (endpoint.ready, endpoint.serving, endpoint.terminating),
            (Some(false), Some(false), Some(false))
        );
        assert_eq!(endpoint.target, Some(*pod));
        assert!(!endpoint.inferred);
        assert_eq!(report.objects[*pod].object.kind, "Pod");
        assert_eq!(report.objects[*pod].phase.as_deref(), Some("Running"));
        assert_eq!(report.objects[*pod].containers, Some([0, 1]));
    }
    let mut selected = related(&report, service, RelationKind::Selects);
    selected.sort_unstable();
    let mut listed = pods.clone();
    listed.sort_unstable();
    assert_eq!(selected, listed, "the Service selects the Pods its slice lists");

    // The Service's five facts: containers run, but Pods are not ready, so the listed addresses
    // are not eligible, and the pasted curl fails.
    assert_eq!(
        facts(&report, service),
        [
            (FactKind::ContainerRunning, FactState::Yes),
            (FactKind::PodReady, FactState::No),
            (FactKind::AddressPresent, FactState::Yes),
            (FactKind::EligibleForTraffic, FactState::No),
            (FactKind::BusinessResponse, FactState::No),
        ]
    );
    let eligible = &report.objects[service].facts[3];
    assert_eq!(eligible.objects, [slice]);
    assert_eq!(eligible.evidence[0].path, "endpoints[0].conditions.ready");
    assert_eq!(eligible.evidence[0].value, "false");
    // The rule says the same, in its words.
    let finding = report
        .findings
        .iter()
        .find(|f| f.rule == "service-endpoints-not-serving")
        .unwrap();
    assert!(finding.summary.contains(
        "Five facts — container running: proven; Pod ready: disproven; address present: proven; \
         eligible for traffic: disproven; business response: disproven."
    ));

    // A Pod's side: scheduled, running, not ready, selected by echo, listed not ready by the slice.
    assert_eq!(
        facts(&report, pods[0]),
        [
            (FactKind::Scheduled, FactState::Yes),
            (FactKind::ContainerRunning, FactState::Yes),
            (FactKind::PodReady, FactState::No),
            (FactKind::SelectedByService, FactState::Yes),
            (FactKind::EligibleForTraffic, FactState::No),
        ]
    );
    assert_eq!(report.objects[pods[0]].facts[3].objects, [service]);
    assert_eq!(report.objects[pods[0]].facts[4].objects, [slice]);

    // The ReplicaSet and the Nodes are referred to but not pasted; events are not objects.
    let rs = related(&report, pods[0], RelationKind::OwnedBy);
    assert_eq!(rs.len(), 1);
    assert!(report.objects[rs[0]].missing && report.objects[rs[0]].at.is_none());
    assert!(report.objects.iter().all(|o| o.object.kind != "Event"));
    assert!(report.objects.iter().all(|o| o.object.uid.is_none()));
}

const CHAIN: &str = "apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: storefront, namespace: shop, uid: d-1}
  spec:
    replicas: 2
    selector: {matchLabels: {app: shop}}
  status: {replicas: 2, readyReplicas: 1, availableReplicas: 1}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: blue
    namespace: shop
    uid: rs-1
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: storefront, uid: d-1}]
  spec:
    replicas: 2
    selector: {matchLabels: {app: shop}}
  status: {replicas: 2}
- apiVersion: v1
  kind: Pod
  metadata:
    name: alpha
    namespace: shop
    labels: {app: shop}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: blue, uid: rs-1}]
  spec:
    nodeName: n1
    containers: [{name: app, image: shop:1}]
  status:
    phase: Running
    conditions: [{type: Ready, status: 'True'}]
    containerStatuses:
    - {name: app, ready: true, restartCount: 2, image: shop:1, imageID: '', state: {running: {startedAt: '2026-01-01T00:00:00Z'}}}
- apiVersion: v1
  kind: Pod
  metadata:
    name: beta
    namespace: shop
    labels: {app: shop}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: green, uid: rs-2}]
  spec:
    containers: [{name: app, image: shop:1}]
  status:
    phase: Pending
    conditions: [{type: PodScheduled, status: 'False', reason: Unschedulable}]
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status:
    conditions: [{type: Ready, status: 'False'}]
";

#[test]
fn owner_references_make_the_chain_whatever_the_names() {
    let report = analyze(&[Source::new("chain.yaml", CHAIN)]);
    let deployment = find(&report, "Deployment", "storefront");
    let blue = find(&report, "ReplicaSet", "blue");
    let alpha = find(&report, "Pod", "alpha");
    let beta = find(&report, "Pod", "beta");
    let node = find(&report, "Node", "n1");
    assert_eq!(related(&report, blue, RelationKind::OwnedBy), [deployment]);
    assert_eq!(related(&report, alpha, RelationKind::OwnedBy), [blue]);
    assert_eq!(related(&report, alpha, RelationKind::RunsOn), [node]);
    let green = related(&report, beta, RelationKind::OwnedBy);
    assert_eq!(green.len(), 1);
    let green = &report.objects[green[0]];
    assert_eq!((green.object.name.as_str(), green.missing), ("green", true));
    assert!(related(&report, beta, RelationKind::RunsOn).is_empty());

    let replicas = report.objects[deployment].replicas.unwrap();
    assert_eq!(
        (replicas.desired, replicas.ready, replicas.available),
        (Some(2), Some(1), Some(1))
    );
    let rs = report.objects[blue].replicas.unwrap();
    assert_eq!(
        (rs.desired, rs.ready, rs.available),
        (Some(2), Some(0), Some(0)),
        "a status the API wrote leaves zero counts out"
    );
    assert_eq!(report.objects[alpha].restarts, 2);
    assert_eq!(report.objects[node].phase.as_deref(), Some("NotReady"));
    assert_eq!(
        facts(&report, beta)[0],
        (FactKind::Scheduled, FactState::No),
        "PodScheduled=False"
    );
    // Without a Service in the input, what the Services do is unknown, never a yes.
    assert_eq!(
        facts(&report, alpha)[3],
        (FactKind::SelectedByService, FactState::Unknown)
    );
    assert_eq!(
        facts(&report, alpha)[4],
        (FactKind::EligibleForTraffic, FactState::Unknown)
    );
}

#[test]
fn an_object_pasted_twice_is_one_object() {
    let table = "NAMESPACE   NAME    READY   STATUS    RESTARTS   AGE\nshop        alpha   1/1     Running   2          5m\n";
    let report = analyze(&[Source::new("get.txt", table), Source::new("chain.yaml", CHAIN)]);
    let pods: Vec<_> = report
        .objects
        .iter()
        .filter(|o| o.object.kind == "Pod" && o.object.name == "alpha")
        .collect();
    assert_eq!(pods.len(), 1, "{pods:#?}");
    assert_eq!(
        pods[0].at.as_ref().map(|a| a.source.as_str()),
        Some("get.txt"),
        "the first copy keeps its place"
    );
    assert_eq!(pods[0].phase.as_deref(), Some("Running"));
    let alpha = find(&report, "Pod", "alpha");
    assert_eq!(
        related(&report, alpha, RelationKind::OwnedBy).len(),
        1,
        "the yaml copy's owner is the object's"
    );
}

/// A report cites its input's name once per timeline entry, object and piece of evidence: every
/// citation shares the one name, whatever its length, rather than holding a copy of it.
#[test]
fn every_line_cited_shares_its_inputs_name() {
    let name = "incidents/2025-02-11/cluster-dump-6-pods.yaml";
    let dump = include_str!("../../../tests/fixtures/ingest/gen-dump-6-pods.yaml");
    let report = analyze(&[Source::new(name, dump)]);
    let mut cited: Vec<&faultline_engine::report::Name> = Vec::new();
    cited.extend(
        report
            .timeline
            .iter()
            .filter_map(|e| e.at.as_ref())
            .map(|at| &at.source),
    );
    for object in &report.objects {
        cited.extend(object.at.as_ref().map(|at| &at.source));
        cited.extend(object.facts.iter().flat_map(|f| &f.evidence).map(|e| &e.source));
    }
    cited.extend(
        report
            .findings
            .iter()
            .flat_map(|f| &f.evidence)
            .map(|e| &e.source),
    );
    assert!(cited.len() > 100, "{} citations", cited.len());
    assert!(cited.iter().all(|c| c.as_str() == name));
    assert!(cited
        .iter()
        .all(|c| faultline_engine::report::Name::ptr_eq(c, cited[0])));
}
