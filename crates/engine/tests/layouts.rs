//! Reading that does not depend on the layout (issue 38, item 3): the same facts in the layouts a
//! user's copy leaves them in — rows whose header and command were cut, prose around them, a
//! describe cut to its head and its Events inside a fence after a sentence, `.status` printed by
//! `jq` (no kind), a List after a prompt that ends in a right prompt, `-`/`+` rows of a diff, `> `
//! quoted rows — each give the same diagnosis about the same object.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use faultline_engine::{analyze, Boundary, Source};

fn diagnosis(text: &str) -> (String, Boundary, String, Option<String>) {
    let report = analyze(&[Source::new("paste", text)]);
    let top = report
        .diagnosis()
        .unwrap_or_else(|| panic!("no diagnosis for:\n{text}\n{report:?}"));
    (
        top.rule.clone(),
        top.boundary,
        top.subject.name.to_string(),
        top.subject.namespace.as_ref().map(ToString::to_string),
    )
}

const ROWS: &str = "web-7d9f8c6b5-x2k4q    0/1     CrashLoopBackOff   7 (2m ago)    14m\nweb-7d9f8c6b5-p9t7m    1/1     Running            0             14m\n";

#[test]
fn get_pods_rows_without_header_or_command() {
    let crash = (
        "container-crash-looping".to_string(),
        Boundary::Application,
        "web-7d9f8c6b5-x2k4q".to_string(),
        None,
    );
    assert_eq!(diagnosis(ROWS), crash);
    // Between sentences, blank lines around.
    assert_eq!(
        diagnosis(&format!("my pods keep restarting:\n\n{ROWS}\nany idea?\n")),
        crash
    );
    // `-A -o wide`: the namespace first, the node after.
    let wide = "shop   web-7d9f8c6b5-x2k4q    0/1     ImagePullBackOff   0    14m   10.1.2.3   worker-1   <none>   <none>\n";
    assert_eq!(
        diagnosis(wide),
        (
            "image-pull-failed".into(),
            Boundary::NodeRuntime,
            "web-7d9f8c6b5-x2k4q".into(),
            Some("shop".into())
        )
    );
    // A sentence with a slash and numbers is no row.
    let report = analyze(&[Source::new(
        "paste",
        "we run 3/3 replicas   since Monday   2 restarts   5d\n",
    )]);
    assert!(report.objects.is_empty(), "{:?}", report.objects);
}

#[test]
fn a_describe_cut_to_its_head_and_events_inside_a_fence_after_prose() {
    let text = "Here is the describe:\n```bash\nName:         api-5c8d9f7b6-q7x2z\nNamespace:    shop\nStatus:       Pending\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  30s   default-scheduler  0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.\n```\n";
    assert_eq!(
        diagnosis(text),
        (
            "pod-unschedulable".into(),
            Boundary::Scheduling,
            "api-5c8d9f7b6-q7x2z".into(),
            Some("shop".into())
        )
    );
}

#[test]
fn kindless_status_a_list_after_a_right_prompt_diff_and_quote_prefixes() {
    let jq = "$ kubectl get pod web-0 -n shop -o json | jq .status\n{\n  \"phase\": \"Pending\",\n  \"conditions\": [\n    {\n      \"type\": \"PodScheduled\",\n      \"status\": \"False\",\n      \"reason\": \"Unschedulable\",\n      \"message\": \"0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\"\n    }\n  ],\n  \"qosClass\": \"Burstable\"\n}\n";
    let (rule, boundary, name, _) = diagnosis(jq);
    assert_eq!(
        (rule.as_str(), boundary, name.as_str()),
        ("pod-unschedulable", Boundary::Scheduling, "web-0")
    );

    let list = "➜  ~ kubectl get pods -o yaml                                   1 ↵\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: api-0\n    namespace: shop\n  status:\n    phase: Pending\n    conditions:\n    - type: PodScheduled\n      status: \"False\"\n      reason: Unschedulable\n      message: \"0/3 nodes are available: 3 Insufficient cpu.\"\nkind: List\nmetadata:\n  resourceVersion: \"\"\n";
    let (rule, _, name, _) = diagnosis(list);
    assert_eq!((rule.as_str(), name.as_str()), ("pod-unschedulable", "api-0"));

    let diff = "```diff\n NAME                   READY   STATUS             RESTARTS   AGE\n-web-7d9f8c6b5-x2k4q    1/1     Running            0          14m\n+web-7d9f8c6b5-x2k4q    0/1     CrashLoopBackOff   7          24m\n```\n";
    let (rule, _, name, _) = diagnosis(diff);
    assert_eq!(
        (rule.as_str(), name.as_str()),
        ("container-crash-looping", "web-7d9f8c6b5-x2k4q")
    );

    let quoted = "> $ kubectl get events -n shop\n> LAST SEEN   TYPE      REASON    OBJECT                   MESSAGE\n> 2m          Warning   BackOff   pod/api-5c8d9f7b6-q7x2z   Back-off restarting failed container app in pod api-5c8d9f7b6-q7x2z_shop(1a2b)\n";
    assert_eq!(
        diagnosis(quoted),
        (
            "container-crash-looping".into(),
            Boundary::Application,
            "api-5c8d9f7b6-q7x2z".into(),
            Some("shop".into())
        )
    );
}
