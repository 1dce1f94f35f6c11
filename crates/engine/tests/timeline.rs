//! The timeline of a whole analysis: ages placed against the capture moment, order, and what is
//! flagged as before its object existed.

use faultline_engine::model::instant::Instant;
use faultline_engine::model::timeline::{human, place};
use faultline_engine::{analyze, analyze_with, Options, Source};

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  creationTimestamp: \"2026-03-02T10:00:00Z\"\nspec:\n  containers: []\n";
const TABLE: &str = "$ kubectl -n shop get events\nLAST SEEN   TYPE      REASON    OBJECT    MESSAGE\n90s         Warning   Failed    pod/web   Error: ErrImagePull\n2m          Normal    Pulling   pod/web   Pulling image \"x\"\n";

fn times(report: &faultline_engine::Report) -> Vec<(&str, &str, bool)> {
    report
        .timeline
        .iter()
        .map(|e| (e.time.as_str(), e.reason.as_str(), e.before_object_existed))
        .collect()
}

#[test]
fn ages_put_the_capture_no_earlier_than_their_objects_creation() {
    let report = analyze(&[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)]);
    // The Pod was created at 10:00:00 and an event about it is 2m old: the capture was at
    // 10:02:00 or later, not at 10:00:00 (the newest timestamp), which put both events before
    // the Pod existed.
    let capture = report.capture.as_ref().unwrap();
    assert_eq!(capture.time, "2026-03-02T10:02:00Z");
    assert_eq!(capture.basis, faultline_engine::CaptureBasis::AgeAnchor);
    let anchor = capture.anchor.as_ref().unwrap();
    assert_eq!((anchor.reason.as_str(), anchor.age), ("Pulling", 120));
    assert_eq!(anchor.created, "2026-03-02T10:00:00Z");
    assert_eq!(
        times(&report),
        [
            ("2026-03-02T10:00:00Z", "Created", false),
            ("2026-03-02T10:00:00Z", "Pulling", false),
            ("2026-03-02T10:00:30Z", "Failed", false)
        ]
    );
    let failed = &report.timeline[2];
    assert_eq!(failed.age, Some(90), "the age is kept as an age");
    assert_eq!(
        failed.estimated_from.as_deref(),
        Some("age 1m30s before 2026-03-02T10:02:00Z, the earliest capture the ages allow: no event before its object's creation")
    );
    assert_eq!(report.timeline[0].estimated_from, None);
    assert_eq!(report.timeline[0].age, None);
    let at = |i: usize| {
        report.timeline[i]
            .at
            .as_ref()
            .map(|a| (a.source.as_str(), a.line))
    };
    assert_eq!(at(2), Some(("events.txt", 3)), "a table row is cited by its line");
    assert_eq!(
        at(0),
        Some(("pod.yaml", 6)),
        "creation is cited at metadata.creationTimestamp"
    );
}

#[test]
fn a_newer_timestamp_than_the_ages_require_is_the_capture() {
    let pod = POD.replace(
        "spec:\n",
        "  deletionTimestamp: \"2026-03-02T10:30:00Z\"\nspec:\n",
    );
    let report = analyze(&[Source::new("pod.yaml", pod), Source::new("events.txt", TABLE)]);
    let capture = report.capture.as_ref().unwrap();
    assert_eq!(
        (capture.time.as_str(), capture.basis, capture.anchor.is_none()),
        (
            "2026-03-02T10:30:00Z",
            faultline_engine::CaptureBasis::NewestTimestamp,
            true
        )
    );
    let failed = report.timeline.iter().find(|e| e.reason == "Failed").unwrap();
    assert_eq!(failed.time, "2026-03-02T10:28:30Z");
    assert!(failed
        .estimated_from
        .as_deref()
        .unwrap()
        .ends_with("the newest timestamp in the input"));
}

#[test]
fn a_capture_time_set_by_the_user_wins() {
    let options = Options {
        captured_at: Some("2026-03-02T10:05:00Z".parse().unwrap()),
        ..Options::default()
    };
    let report = analyze_with(
        &[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)],
        &options,
    );
    assert_eq!(
        report.capture.as_ref().unwrap().basis,
        faultline_engine::CaptureBasis::Set
    );
    let failed = report.timeline.iter().find(|e| e.reason == "Failed").unwrap();
    assert_eq!(failed.time, "2026-03-02T10:03:30Z");
    assert!(failed
        .estimated_from
        .as_deref()
        .unwrap()
        .ends_with("the capture time you set"));
}

#[test]
fn entries_a_set_capture_puts_before_their_object_are_flagged_not_moved() {
    let options = Options {
        captured_at: Some("2026-03-02T10:01:00Z".parse().unwrap()),
        ..Options::default()
    };
    let report = analyze_with(
        &[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)],
        &options,
    );
    assert_eq!(
        times(&report),
        [
            ("2026-03-02T09:59:00Z", "Pulling", true),
            ("2026-03-02T09:59:30Z", "Failed", true),
            ("2026-03-02T10:00:00Z", "Created", false)
        ]
    );
}

#[test]
fn the_timeline_is_placed_again_from_the_report_alone() {
    let mut report = analyze(&[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)]);
    let inferred = report.capture.clone();
    let set = place(&mut report.timeline, Instant::parse("2026-03-02T10:01:00Z"));
    assert_eq!(set.unwrap().time, "2026-03-02T10:01:00Z");
    assert_eq!(report.timeline[0].reason, "Pulling");
    assert!(report.timeline[0].before_object_existed);
    // Back to the inferred moment: the same entries in the same order as the analysis made.
    let again = place(&mut report.timeline, None);
    assert_eq!(again, inferred);
    let fresh = analyze(&[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)]);
    assert_eq!(times(&report), times(&fresh));
}

/// The app's image-pull sample, as kubectl printed it: the Pod was created at 09:35:34 and its
/// Scheduled event is 4m31s old, so the pulls 11–26s old happened near 09:39:50, after the
/// creation; against the newest timestamp (09:35:36) they fell before it.
#[test]
fn the_image_pull_samples_failures_come_after_the_pods_creation() {
    let report = analyze(&[
        Source::new(
            "pod.yaml",
            include_str!("../../../static/samples/image-pull/pod.yaml"),
        ),
        Source::new(
            "events.txt",
            include_str!("../../../static/samples/image-pull/events.txt"),
        ),
    ]);
    let capture = report.capture.as_ref().unwrap();
    assert_eq!(capture.time, "2025-02-11T09:40:05Z");
    assert_eq!(capture.basis, faultline_engine::CaptureBasis::AgeAnchor);
    let created = report
        .timeline
        .iter()
        .position(|e| e.source == "created")
        .unwrap();
    let failed: Vec<usize> = (0..report.timeline.len())
        .filter(|&i| report.timeline[i].reason == "Failed")
        .collect();
    assert_eq!(failed.len(), 3);
    assert!(failed.iter().all(|&i| i > created), "{:?}", times(&report));
    assert!(report.timeline.iter().all(|e| !e.before_object_existed));
    let first = &report.timeline[failed[0]];
    assert_eq!(
        (first.time.as_str(), first.age),
        ("2025-02-11T09:39:39Z", Some(26))
    );
}

#[test]
fn entries_are_in_time_order_and_equal_times_keep_the_input_order() {
    // Three pods created out of order, two of them at the same second: "zeta" before "alpha"
    // in the input.
    let pod = |name: &str, time: &str| {
        POD.replace("name: web", &format!("name: {name}"))
            .replace("2026-03-02T10:00:00Z", time)
    };
    let text = [
        pod("late", "2026-03-02T11:00:00Z"),
        pod("zeta", "2026-03-02T10:30:00Z"),
        pod("alpha", "2026-03-02T10:30:00Z"),
        pod("early", "2026-03-02T09:00:00Z"),
    ]
    .join("---\n");
    let report = analyze(&[Source::new("pods.yaml", text)]);
    let names: Vec<&str> = report.timeline.iter().map(|e| e.subject.name.as_str()).collect();
    assert_eq!(names, ["early", "zeta", "alpha", "late"]);
}

#[test]
fn without_any_absolute_time_ages_keep_their_order_and_no_time() {
    let report = analyze(&[Source::new("events.txt", TABLE)]);
    let entries: Vec<(&str, &str)> = report
        .timeline
        .iter()
        .map(|e| (e.time.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(entries, [("", "Pulling"), ("", "Failed")]);
    assert!(report.timeline[0]
        .estimated_from
        .as_deref()
        .unwrap()
        .contains("no absolute time"));
}

#[test]
fn human_ages() {
    assert_eq!(human(271), "4m31s");
    assert_eq!(human(120), "2m");
    assert_eq!(human(7500), "2h5m");
    assert_eq!(human(273_600), "3d4h");
    assert_eq!(human(9), "9s");
}

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/timeline")
        .join(name)
}

/// Issue 40: a journal with `-- Logs begin at …` (minikube#9122, verbatim). Its lines carry no year;
/// the header gives it, so the kubelet's fatal line is placed on the timeline at its time, and the
/// header's `end at` is the capture moment.
#[test]
fn a_journals_known_lines_are_placed_at_their_time_and_its_end_is_the_capture() {
    let report = analyze(&[Source::new(
        "journal",
        std::fs::read_to_string(fixture("journal-minikube-bootstrap-kubeconfig.txt")).unwrap(),
    )]);
    let capture = report.capture.as_ref().unwrap();
    assert_eq!(capture.time, "2020-08-30T17:23:29Z");
    assert_eq!(capture.basis, faultline_engine::CaptureBasis::NewestTimestamp);
    let logged: Vec<_> = report.timeline.iter().filter(|e| e.source == "log").collect();
    assert_eq!(logged.len(), 1, "{:?}", report.timeline);
    let entry = logged[0];
    assert!(entry.time.starts_with("2020-08-30T16:59:57"), "{}", entry.time);
    assert_eq!(
        (entry.subject.kind.as_str(), entry.subject.name.as_str()),
        ("Component", "kubelet")
    );
    assert!(entry.warning);
    assert!(entry
        .message
        .as_str()
        .starts_with("failed to run Kubelet: unable to load bootstrap kubeconfig"));
    assert_eq!(entry.at.as_ref().map(|a| a.line), Some(13));
    assert!(entry.age.is_none() && entry.estimated_from.is_none());
}

/// A journal of info lines only (kubernetes#112874, verbatim) still dates the input: an events
/// table pasted with it is placed against its `end at`, not left "with no absolute time".
#[test]
fn a_journals_end_dates_the_ages_pasted_with_it() {
    let report = analyze(&[
        Source::new(
            "journal",
            std::fs::read_to_string(fixture("journal-kubelet-info-only.txt")).unwrap(),
        ),
        Source::new("events.txt", TABLE),
    ]);
    assert!(
        report.timeline.iter().all(|e| e.source != "log"),
        "no known line, no log entry"
    );
    assert_eq!(report.capture.as_ref().unwrap().time, "2022-10-05T06:43:42Z");
    let entries: Vec<(&str, &str)> = report
        .timeline
        .iter()
        .map(|e| (e.time.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        entries,
        [
            ("2022-10-05T06:41:42Z", "Pulling"),
            ("2022-10-05T06:42:12Z", "Failed")
        ]
    );
    // Without the journal, the same table has no time.
    let alone = analyze(&[Source::new("events.txt", TABLE)]);
    assert!(alone.capture.is_none());
}
