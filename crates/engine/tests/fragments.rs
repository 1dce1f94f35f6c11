//! Fragments of describe output read without the rest (issue 38: reading that does not depend on
//! the layout).

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
/// Issue 38: a container's block quoted from `Last State:` down, without `Name:` or `State:`, is a
/// Pod of unknown name with that container's last termination.
#[test]
fn a_last_state_block_without_its_pod_is_read() {
    let text = "the pod keeps restarting, describe shows:\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Mon, 30 Nov 2026 10:01:12 +0000\n      Finished:     Mon, 30 Nov 2026 10:03:40 +0000\n    Ready:          False\n    Restart Count:  7\n";
    let report = faultline_engine::analyze(&[faultline_engine::Source::new("paste", text)]);
    let top = report.diagnosis().expect("a finding");
    assert_eq!(top.rule, "container-oom-killed");
    assert_eq!(top.subject.kind, "Pod");
    assert!(top
        .evidence
        .iter()
        .any(|e| e.line == 3 && e.value.contains("OOMKilled")));
    assert!(report.unread.is_empty(), "{:?}", report.unread);
}
