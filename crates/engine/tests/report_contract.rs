//! The JSON report is a public contract (DESIGN.md): its field names and shapes are fixed here.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use faultline_engine::{analyze, Source};
use serde_json::Value;

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  uid: u-1\n  creationTimestamp: \"2026-10-27T08:00:00Z\"\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ErrImagePull\n---\napiVersion: v1\nkind: Event\nmetadata:\n  name: web.1\n  namespace: shop\ninvolvedObject:\n  kind: Pod\n  name: web\n  namespace: shop\ntype: Warning\nreason: Failed\ncount: 3\nlastTimestamp: \"2026-10-27T08:00:03Z\"\nmessage: 'Failed to pull image \"shop/web:9\": not found'\n";

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<_> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn report_json_has_exactly_the_contract_fields() {
    let report = analyze(&[
        Source::new("pods.yaml", POD),
        Source::new("bad.json", "{\"kind\": "),
    ]);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        keys(&json),
        [
            "capture",
            "counts",
            "errors",
            "findings",
            "inputs",
            "objects",
            "relations",
            "ruled_out",
            "timeline",
            "unread",
            "verdict"
        ]
    );
    // `ruled_out` (what was considered and ruled out, by which line) was added on purpose (issue
    // 39): here scheduling, by the Pod's `spec.nodeName`. `decide` is written only when two causes
    // remain close.
    assert_eq!(
        keys(&json["ruled_out"][0]),
        ["because", "because_message", "boundary", "evidence"]
    );
    assert_eq!(json["ruled_out"][0]["boundary"], "scheduling");
    assert_eq!(json["ruled_out"][0]["evidence"]["path"], "spec.nodeName");
    assert_eq!(json["ruled_out"][0]["because_message"]["id"], "judge.scheduled");
    assert!(json.get("decide").is_none(), "{json}");
    // `capture` (when the input was captured, and how that is known) was added on purpose: here
    // the newest timestamp, the event's.
    assert_eq!(
        json["capture"],
        serde_json::json!({"time": "2026-10-27T08:00:03Z", "basis": "newest-timestamp"})
    );
    // `verdict` and `unread` were added to the contract on purpose (DESIGN.md).
    assert_eq!(json["verdict"], "fault");
    assert_eq!(json["unread"], serde_json::json!([]));
    // `kinds` was added to the contract on purpose: objects by kind, per input; so was `sha256`
    // (issue 41), the hash of the input's text, which `faultline verify` checks.
    assert_eq!(
        keys(&json["inputs"][0]),
        ["documents", "format", "kinds", "objects", "sha256", "source"]
    );
    assert_eq!(
        json["inputs"][0]["sha256"],
        faultline_engine::sha256_hex(POD.as_bytes())
    );
    assert_eq!(
        json["inputs"][0]["kinds"],
        serde_json::json!({"Event": 1, "Pod": 1})
    );
    assert_eq!(json["inputs"][0]["format"], "yaml-documents");
    assert_eq!(json["counts"], serde_json::json!({"Event": 1, "Pod": 1}));
    // `structured` (the error as a message: `{"id", "args"}`) was added on purpose.
    assert_eq!(
        keys(&json["errors"][0]),
        ["column", "line", "message", "source", "structured"]
    );
    assert_eq!(keys(&json["errors"][0]["structured"]), ["args", "id"]);
    assert_eq!(json["errors"][0]["source"], "bad.json");
    let finding = &json["findings"][0];
    assert_eq!(
        keys(finding),
        [
            "boundary",
            "cannot_establish",
            "cannot_establish_messages",
            "components",
            "confidence",
            "confidence_note",
            "confidence_note_message",
            "evidence",
            "message",
            "next_steps",
            "node",
            "rule",
            "severity",
            "subject",
            "summary"
        ]
    );
    // `message` and `cannot_establish_messages` (the texts as messages, `{"id", "args"}`, for tools
    // that render their own words) were added to the contract on purpose (issue 24).
    assert_eq!(finding["message"]["id"], "image-pull-failed.pull");
    assert_eq!(finding["message"]["args"]["subject"]["name"], "web");
    assert_eq!(finding["message"]["args"]["image"], "shop/web:9");
    assert_eq!(
        finding["cannot_establish_messages"].as_array().map(Vec::len),
        finding["cannot_establish"].as_array().map(Vec::len)
    );
    assert_eq!(finding["boundary"], "node-runtime");
    // `confidence` and its note (why, and what would raise it) were added on purpose (issue 39):
    // the Pod's own status says it cannot pull.
    assert_eq!(finding["confidence"], "established");
    assert_eq!(
        finding["confidence_note_message"]["id"],
        "judge.established-by-state"
    );
    // `components` (what the finding implicates on the architecture diagram, declared with its
    // rule) and `node` (the node it is about) were added to the contract on purpose.
    assert_eq!(
        finding["components"],
        serde_json::json!(["kubelet", "container-runtime"])
    );
    assert_eq!(finding["node"], "n1");
    assert_eq!(finding["severity"], "error");
    assert_eq!(
        finding["subject"],
        serde_json::json!({"kind": "Pod", "namespace": "shop", "name": "web", "uid": "u-1"})
    );
    assert_eq!(keys(&finding["evidence"][0]), ["line", "path", "source", "value"]);
    let entry = json["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["source"] == "event")
        .unwrap();
    // `at` (where the fact was read) and `warning` (a Warning event, written only when true) were
    // added to the contract on purpose.
    assert_eq!(
        keys(entry),
        ["at", "count", "message", "reason", "source", "subject", "time", "warning"]
    );
    assert_eq!(entry["warning"], true);
    let created = &json["timeline"][0];
    assert!(
        created.get("warning").is_none(),
        "written only when true: {created}"
    );
    assert_eq!(
        entry["at"],
        serde_json::json!({"source": "pods.yaml", "line": 38})
    );
    assert_eq!(entry["time"], "2026-10-27T08:00:03Z");
    assert_eq!(entry["count"], 3);
    // The timeline is in time order: the Pod's creation comes before the event.
    assert_eq!(json["timeline"][0]["source"], "created");

    // `objects` and `relations` (the object graph) were added to the contract on purpose. Events
    // are not objects of the graph; an object referred to but not pasted is, marked `missing`.
    let objects = json["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 2, "{objects:?}");
    let pod = &objects[0];
    assert_eq!(
        keys(pod),
        ["at", "containers", "facts", "phase", "reason", "ref", "state"]
    );
    // `state` (failing or ok as the object's status states it; absent when unknown) was added to
    // the contract on purpose: the map draws it.
    assert_eq!(pod["state"], "failing");
    assert_eq!(
        pod["ref"],
        serde_json::json!({"kind": "Pod", "namespace": "shop", "name": "web"}),
        "the identity without the uid"
    );
    assert_eq!(pod["at"], serde_json::json!({"source": "pods.yaml", "line": 1}));
    assert_eq!(pod["phase"], "Pending");
    assert_eq!(pod["reason"], "ErrImagePull");
    assert_eq!(pod["containers"], serde_json::json!([0, 1]));
    let facts: Vec<(&str, &str)> = pod["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["fact"].as_str().unwrap(), f["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        facts,
        [
            ("scheduled", "yes"),
            ("container-running", "no"),
            ("pod-ready", "unknown"),
            ("selected-by-service", "unknown"),
            ("eligible-for-traffic", "unknown")
        ]
    );
    assert_eq!(keys(&pod["facts"][1]), ["evidence", "fact", "state"]);
    assert_eq!(
        pod["facts"][1]["evidence"][0]["path"],
        "status.containerStatuses[0].state.waiting.reason"
    );
    assert!(pod["facts"][2].get("evidence").is_none(), "unknown cites nothing");
    assert_eq!(
        objects[1],
        serde_json::json!({"ref": {"kind": "Node", "name": "n1"}, "missing": true})
    );
    assert_eq!(
        json["relations"],
        serde_json::json!([{"from": 0, "to": 1, "kind": "runs-on", "path": "spec.nodeName"}])
    );
}

#[test]
fn the_same_input_gives_the_same_report() {
    let sources = [Source::new("pods.yaml", POD)];
    assert_eq!(analyze(&sources), analyze(&sources));
}

/// The verdict says what the input amounts to, and never calls unread text healthy: a healthy object
/// read whole is `no-fault`; prose, random bytes and describe fields without their object are
/// `inconclusive`, with the unread lines listed where they are.
#[test]
fn the_verdict_is_never_no_fault_about_text_that_was_not_read() {
    let verdict = |text: &str| {
        let report = analyze(&[Source::new("paste", text)]);
        serde_json::to_value(&report).unwrap()
    };
    let healthy = POD
        .split("---")
        .next()
        .unwrap()
        .replace("phase: Pending", "phase: Running")
        .replace("ready: false", "ready: true")
        .replace(
            "      waiting:\n        reason: ErrImagePull\n",
            "      running:\n        startedAt: \"2026-10-27T08:00:05Z\"\n",
        );
    assert_eq!(verdict(&healthy)["verdict"], "no-fault");
    assert_eq!(
        verdict("My pod does not start and I do not know why.\n")["verdict"],
        "inconclusive"
    );
    let bytes: String = (0..3000u32)
        .map(|i| char::from_u32(0x21 + (i * 7919) % 90).unwrap())
        .collect();
    assert_eq!(verdict(&bytes)["verdict"], "inconclusive");
    let fragment =
        verdict("...\nAllocated resources:\n  Resource  Requests  Limits\n  cpu       100m (5%)  1 (50%)\n");
    assert_eq!(fragment["verdict"], "inconclusive");
    // `reason_message` (the reason as a message, `{"id", "args"}`) was added on purpose (issue 24).
    assert_eq!(
        keys(&fragment["unread"][0]),
        [
            "end_line",
            "line",
            "reason",
            "reason_id",
            "reason_message",
            "source"
        ]
    );
    assert_eq!(
        fragment["unread"][0]["reason_message"]["id"],
        "reading.describe-fragment"
    );
    assert_eq!(fragment["unread"][0]["line"], 2);
    assert_eq!(fragment["unread"][0]["reason_id"], "describe-fragment");
    assert_eq!(fragment["unread"][1]["line"], 3);
    assert_eq!(fragment["unread"][1]["end_line"], 4);
    // The Events section alone is read, and the fault it shows is found.
    let events = verdict("Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  61s   default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\n");
    assert_eq!(events["verdict"], "fault");
    assert_eq!(events["findings"][0]["boundary"], "scheduling");
}

/// The Kubernetes judgements the app draws are the report's (issue 26): the components a finding
/// implicates, the state of each object, and the workload each object belongs to.
#[test]
fn the_report_carries_components_object_state_and_workloads() {
    const LIST: &str = "apiVersion: v1\nkind: List\nitems:\n- kind: Deployment\n  metadata: {name: web, namespace: shop}\n  spec: {replicas: 2}\n  status: {replicas: 2, readyReplicas: 1}\n- kind: ReplicaSet\n  metadata:\n    name: web-7d9f8c6b5\n    namespace: shop\n    ownerReferences: [{kind: Deployment, name: web, controller: true}]\n- kind: Pod\n  metadata:\n    name: web-7d9f8c6b5-x2k4q\n    namespace: shop\n    ownerReferences: [{kind: ReplicaSet, name: web-7d9f8c6b5, controller: true}]\n  spec: {nodeName: n1, containers: [{name: app, image: shop/web:1}]}\n  status:\n    phase: Running\n    conditions: [{type: Ready, status: 'True'}]\n    containerStatuses: [{name: app, ready: true, restartCount: 0, state: {running: {}}}]\n- kind: Pod\n  metadata: {name: web-canary1, namespace: shop}\n  spec: {nodeName: n1, containers: [{name: app, image: shop/web:2}]}\n  status:\n    phase: Pending\n    containerStatuses: [{name: app, ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull}}}]\n- kind: Pod\n  metadata: {name: api-6d8f7b9c4-q2w8x, namespace: shop}\n  spec: {containers: []}\n";
    let report = analyze(&[Source::new("list.yaml", LIST)]);
    let state = |name: &str| {
        report
            .objects
            .iter()
            .find(|o| o.object.name == name)
            .map(|o| o.state)
            .unwrap()
    };
    use faultline_engine::{Component, ObjectState};
    assert_eq!(state("web-7d9f8c6b5-x2k4q"), ObjectState::Ok);
    assert_eq!(state("web-canary1"), ObjectState::Failing);
    assert_eq!(state("web"), ObjectState::Failing, "1 of 2 replicas ready");
    assert_eq!(state("n1"), ObjectState::Unknown, "a Node not pasted");
    let pull = report
        .findings
        .iter()
        .find(|f| f.rule == "image-pull-failed")
        .unwrap();
    assert_eq!(pull.components, [Component::Kubelet, Component::Runtime]);
    assert_eq!(pull.node.as_deref(), Some("n1"));
    let workload = |name: &str| {
        report
            .workloads
            .iter()
            .find(|w| w.object.name == name)
            .map(|w| (w.workload.as_str(), w.guessed))
    };
    assert_eq!(workload("web-7d9f8c6b5-x2k4q"), Some(("web", false)), "stated");
    assert_eq!(workload("web-7d9f8c6b5"), Some(("web", false)));
    assert_eq!(workload("web"), Some(("web", false)), "the top of a stated chain");
    assert_eq!(workload("api-6d8f7b9c4-q2w8x"), Some(("api", true)), "guessed");
    assert_eq!(workload("web-canary1"), None, "not a generated name: no workload");
    let json = serde_json::to_value(&report).unwrap();
    let workloads = json["workloads"].as_array().unwrap();
    let keyed: Vec<Vec<&str>> = workloads.iter().map(keys).collect();
    assert!(keyed.contains(&vec!["guessed", "ref", "workload"]), "{keyed:?}");
    assert!(
        keyed.contains(&vec!["ref", "workload"]),
        "`guessed` only when true"
    );
}

/// A symptom that takes its cause's boundary is drawn where its cause is: a rollout stalled by an
/// image that cannot be pulled lights the kubelet and the runtime, not the Service.
#[test]
fn a_symptom_that_takes_its_causes_boundary_takes_its_components() {
    use faultline_engine::Component;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/rules/rollout-not-progressing/fires-traced-to-image-pull.yaml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let report = analyze(&[Source::new("rollout.yaml", text)]);
    let rollout = report
        .findings
        .iter()
        .find(|f| f.rule == "rollout-not-progressing")
        .unwrap();
    assert!(rollout.explained_by.is_some());
    assert_eq!(rollout.components, [Component::Kubelet, Component::Runtime]);
}

fn fixture(path: &str) -> Source {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/rules/");
    Source::new(path, std::fs::read_to_string(format!("{root}{path}")).unwrap())
}

/// `affects` (DESIGN.md, "affected workloads") was added to the contract on purpose: the workloads a
/// finding hurts, each `{kind, namespace, name}` without a uid, written only when there is one. The
/// subject is the object at fault: a quota's refusal names the ResourceQuota, and the ReplicaSet it
/// refused goes up to its Deployment in `affects`.
#[test]
fn a_finding_lists_the_workloads_it_affects() {
    let report = analyze(&[fixture(
        "quota-exceeded-on-create/fires-replicaset-failedcreate-with-quota.yaml",
    )]);
    let json = serde_json::to_value(&report).unwrap();
    let finding = &json["findings"][0];
    assert_eq!(finding["rule"], "quota-exceeded-on-create");
    assert_eq!(
        finding["subject"],
        serde_json::json!({"kind": "ResourceQuota", "namespace": "shop", "name": "compute"})
    );
    assert_eq!(
        finding["affects"],
        serde_json::json!([{"kind": "Deployment", "namespace": "shop", "name": "web"}])
    );
    // A Pod's finding affects the Pod's Deployment, by its owner reference and pod-template-hash.
    let owned = POD.replacen(
        "  uid: u-1\n",
        "  uid: u-1\n  labels:\n    pod-template-hash: 84b6d9c7f5\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: web-84b6d9c7f5\n    uid: u-2\n    controller: true\n",
        1,
    );
    let json = serde_json::to_value(analyze(&[Source::new("pods.yaml", owned)])).unwrap();
    assert_eq!(
        json["findings"][0]["affects"],
        serde_json::json!([{"kind": "Deployment", "namespace": "shop", "name": "web"}])
    );
    // A bare Pod affects no other workload: the key is not written.
    let json = serde_json::to_value(analyze(&[Source::new("pods.yaml", POD)])).unwrap();
    assert!(
        json["findings"][0].get("affects").is_none(),
        "{}",
        json["findings"][0]
    );
    // A claim's finding affects the Pod that waits for it (a StatefulSet's, named by hand: not
    // guessed), which is also the subject of the symptom listed under it.
    let report = analyze(&[fixture("pvc-pending/fires-provisioning-failed.yaml")]);
    let claim = &report.findings[0];
    assert_eq!(claim.rule, "pvc-pending");
    assert_eq!(
        claim.affects.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["Pod db/db-0"]
    );
    assert!(report.findings[1..]
        .iter()
        .any(|f| f.explained_by.is_some() && claim.affects.contains(&f.subject)));
    // A report without the key (an older one) still reads.
    let mut old = serde_json::to_value(&report).unwrap();
    old["findings"][0].as_object_mut().unwrap().remove("affects");
    let back: faultline_engine::Report = serde_json::from_value(old).unwrap();
    assert!(back.findings[0].affects.is_empty());
}

/// Entries known only by age keep it (`age`, `first_age`: seconds before the capture); the capture
/// is the earliest moment the ages allow (`basis: age-anchor`, with the `anchor` that says so); an
/// entry placed before its object's creation says `before_object_existed`.
#[test]
fn aged_entries_keep_their_age_and_the_capture_says_how_it_is_known() {
    // A Pod created at 08:00:00 and `kubectl get events` printed later: its Scheduled event is
    // 10m old, so the capture was at 08:10:00 or later.
    let table = "LAST SEEN   TYPE      REASON      OBJECT    MESSAGE\n10m         Normal    Scheduled   pod/web   Successfully assigned shop/web to n1\n21s         Warning   Failed      pod/web   Error: ErrImagePull\n";
    let pod = POD.split("---").next().unwrap();
    let report = analyze(&[Source::new("pods.yaml", pod), Source::new("events.txt", table)]);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(keys(&json["capture"]), ["anchor", "basis", "time"]);
    assert_eq!(json["capture"]["time"], "2026-10-27T08:10:00Z");
    assert_eq!(json["capture"]["basis"], "age-anchor");
    // The table was printed without a namespace: the event's subject is `pod/web`, the one Pod of
    // that name.
    assert_eq!(
        json["capture"]["anchor"],
        serde_json::json!({
            "subject": {"kind": "Pod", "name": "web"},
            "reason": "Scheduled",
            "age": 600,
            "created": "2026-10-27T08:00:00Z"
        })
    );
    let failed = json["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["reason"] == "Failed")
        .unwrap();
    assert_eq!(
        keys(failed),
        [
            "age",
            "at",
            "count",
            "estimated_from",
            "estimated_from_message",
            "message",
            "reason",
            "source",
            "subject",
            "time",
            "warning"
        ]
    );
    assert_eq!(failed["age"], 21);
    assert_eq!(failed["time"], "2026-10-27T08:09:39Z");

    let early = faultline_engine::Options {
        captured_at: Some("2026-10-27T08:05:00Z".parse().unwrap()),
        ..Default::default()
    };
    let report = faultline_engine::analyze_with(
        &[Source::new("pods.yaml", pod), Source::new("events.txt", table)],
        &early,
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["capture"],
        serde_json::json!({"time": "2026-10-27T08:05:00Z", "basis": "set"})
    );
    let timeline = json["timeline"].as_array().unwrap();
    assert_eq!(timeline[0]["reason"], "Scheduled", "kept where its time puts it");
    assert_eq!(timeline[0]["before_object_existed"], true);
    assert!(timeline[1..]
        .iter()
        .all(|e| e.get("before_object_existed").is_none()));
}
