//! Issue 38: what the engine cannot read is never called healthy. A table row the excerpt cut
//! mid-line is unknown, never failing; a line that reads like a failure and that no reader and no
//! catalog entry knows makes the verdict `inconclusive`, and the report quotes it.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use faultline_engine::{analyze, Severity, Source, Verdict};

#[test]
fn a_cut_last_row_is_unknown_not_failing_and_makes_the_report_inconclusive() {
    let text = "$ kubectl get pods -n kube-system\nNAME                               READY   STATUS    RESTARTS   AGE\ncoredns-5d78c9869d-7xk2p           1/1     Running   0          3d\netcd-cp-1                          1/1     Running   0          3d\nkube-controller-manager-cp-1       0/1     Cra";
    let report = analyze(&[Source::new("paste", text)]);
    assert!(
        report.findings.iter().all(|f| f.severity == Severity::Info),
        "{:?}",
        report.findings
    );
    assert_eq!(report.verdict, Verdict::Inconclusive);
    let cut: Vec<_> = report
        .unread
        .iter()
        .map(|u| (u.line, u.reason_id.as_str()))
        .collect();
    assert_eq!(cut, [(5, "cut-row")]);
    // The same row whole is a fault.
    let whole = text.replace("0/1     Cra", "0/1     CrashLoopBackOff   14 (2m ago)   3d");
    let report = analyze(&[Source::new("paste", whole)]);
    assert_eq!(report.verdict, Verdict::Fault);
    assert!(report.unread.is_empty());
}

#[test]
fn a_failure_looking_line_nothing_knows_is_quoted_and_never_no_fault() {
    let text = "$ kubectl get pods -n shop\nNAME                        READY   STATUS    RESTARTS   AGE\ncheckout-6f9c4b7d85-x7k2p   1/1     Running   0          2d\n\nBut every call to checkout from the frontend fails with: upstream request timeout after 15000ms\n";
    let report = analyze(&[Source::new("paste", text)]);
    assert_eq!(report.verdict, Verdict::Inconclusive);
    let quoted: Vec<_> = report
        .unread
        .iter()
        .map(|u| (u.line, u.reason_id.as_str()))
        .collect();
    assert_eq!(quoted, [(5, "failure-looking")]);
    // Without that line the same table is read and judged healthy.
    let healthy = text.lines().take(3).collect::<Vec<_>>().join("\n");
    let report = analyze(&[Source::new("paste", healthy)]);
    assert_eq!(report.verdict, Verdict::NoFault);
}
