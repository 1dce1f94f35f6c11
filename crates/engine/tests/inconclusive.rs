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

/// Issue 40, item 3: an inconclusive report says in plain words what was read and what was not
/// (never a bare "Input errors"), matches the paste guide's entry to the symptom the input shows (a
/// Service's describe is "Service not answering", not "API errors"), and offers the one paste most
/// likely to decide, built from the names the input states; in English and in Chinese.
#[test]
fn an_inconclusive_report_says_what_it_read_and_the_one_paste_that_decides() {
    use faultline_engine::{render, Lang};
    let service = "$ kubectl describe svc billing-api -n billing\nName:              billing-api\nNamespace:         billing\nSelector:          app=billing-api\nType:              ClusterIP\nIP:                10.96.12.7\nPort:              http  80/TCP\nTargetPort:        8080/TCP\nEndpoints:         10.244.3.22:8080\nEvents:            <none>\n";
    // A describe whose kind nothing tells (its head only, no command line).
    let unknown = "Name:         billing-api-7c9f5-x2k8d\nNamespace:    billing\nStatus:       Running\n";
    let mut report = analyze(&[Source::new("svc.txt", service), Source::new("paste", unknown)]);
    assert_eq!(report.verdict, Verdict::Inconclusive);
    assert_eq!(render::guide::matching(&report), Some("service-not-answering"));
    let command = "kubectl get endpointslices -n billing -l kubernetes.io/service-name=billing-api -o yaml";
    assert_eq!(report.paste_next.as_deref(), Some(command));
    let en = render::verdict_sentence(&report, render::words(Lang::En)).unwrap();
    assert!(en.contains("read 1 Service"), "{en}");
    assert!(
        en.contains("paste, line 1: cannot tell which kind of object"),
        "{en}"
    );
    assert!(en.contains(command), "{en}");
    assert!(!en.contains("Input errors"), "{en}");
    let markdown = render::markdown(&report, Lang::En);
    assert!(markdown.contains("## What could not be read"), "{markdown}");
    assert!(!markdown.contains("Input errors"), "{markdown}");
    report.localize(Lang::Zh);
    let zh = render::verdict_sentence(&report, render::words(Lang::Zh)).unwrap();
    assert!(zh.starts_with("无法判断：Faultline 读取了 1 个 Service"), "{zh}");
    assert!(zh.contains("paste 第 1 行："), "{zh}");
    assert!(zh.contains(&format!("粘贴 `{command}` 的输出。")), "{zh}");
    assert!(!zh.contains("输入错误"), "{zh}");

    // The Service's slices pasted too: the next most telling paste, never the same one again.
    let slices = "$ kubectl get endpointslices -n billing -l kubernetes.io/service-name=billing-api -o yaml\napiVersion: v1\nkind: List\nitems: []\n";
    let report = analyze(&[
        Source::new("svc.txt", service),
        Source::new("paste", unknown),
        Source::new("slices.txt", slices),
    ]);
    let next = report.paste_next.as_deref().unwrap();
    assert_ne!(next, command);
    assert!(!next.contains("describe service billing-api"), "{next}");
}
