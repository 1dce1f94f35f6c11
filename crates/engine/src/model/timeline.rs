//! Every dated fact on one axis: events (by effective last time, like `kubectl events`), object
//! creation, condition transitions and container starts and terminations.
//!
//! Tables and describe output give ages (`4m31s`), not times. Each such entry keeps its age
//! (`age`) and is placed against the capture moment ([`place`]): a time the user sets, else the
//! earliest moment the input allows — the newest absolute timestamp, or later when an age says so
//! (an event cannot be older than its object: an event 4m31s old about a Pod created at 09:35:34
//! puts the capture at 09:40:05 or later). Each placed entry says so in `estimated_from`. An entry
//! that still falls before its object's creation (a capture time set too early, an event of an
//! earlier object of the same name) is flagged `before_object_existed`, not moved. Without any
//! absolute time, entries keep an empty `time` and their order by age.

use crate::message::timeline::Msg;
use crate::message::Message;
use compact_str::ToCompactString;
use k8s_openapi::jiff::Timestamp;

use super::instant::Instant;
use super::Model;
use crate::ingest::Typed;
use crate::report::{AgeAnchor, Capture, CaptureBasis, ObjectRef, SourceLine, Text, TimelineEntry};

/// One dated fact before it becomes an entry.
struct Fact<'a> {
    subject: &'a ObjectRef,
    source: &'a str,
    reason: &'a str,
    message: String,
    /// The engine's words for a state change (`message` is then their English).
    structured: Option<Message>,
    count: u32,
    /// A `Warning` event.
    warning: bool,
    at: Option<SourceLine>,
}

/// Every dated fact, in time order, and the capture moment the aged ones are placed against.
pub fn build(model: &Model<'_>, captured_at: Option<Timestamp>) -> (Vec<TimelineEntry>, Option<Capture>) {
    let mut entries: Vec<(Timestamp, TimelineEntry)> = Vec::new();
    let mut push = |time: Timestamp, fact: Fact<'_>| {
        entries.push((
            time,
            TimelineEntry {
                structured: fact.structured,
                estimated_from_message: None,
                time: time.to_compact_string(),
                subject: fact.subject.clone(),
                source: fact.source.into(),
                reason: fact.reason.into(),
                message: fact.message,
                count: fact.count,
                warning: fact.warning,
                estimated_from: None,
                age: None,
                first_age: None,
                before_object_existed: false,
                at: fact.at,
            },
        ));
    };
    for event in &model.events {
        if let Some(time) = event.last {
            let at = model.event_source_line(event);
            let message = event.message.clone();
            push(
                time,
                Fact {
                    subject: &event.subject,
                    source: "event",
                    reason: &event.reason,
                    message,
                    structured: None,
                    count: event.count,
                    warning: event.is_warning(),
                    at,
                },
            );
        }
    }
    for object in model.objects {
        let at = |path: &str| model.source_line(object, path);
        let time = |path: &str| {
            object
                .locate(path)
                .and_then(|(_, n)| n.as_str()?.parse::<Timestamp>().ok())
        };
        let id = &object.id;
        for (path, reason) in [
            ("metadata.creationTimestamp", "Created"),
            ("metadata.deletionTimestamp", "Deleting"),
        ] {
            if let Some(t) = time(path) {
                let source = if reason == "Created" { "created" } else { "deleted" };
                push(
                    t,
                    Fact {
                        subject: id,
                        source,
                        reason,
                        message: String::new(),
                        structured: None,
                        count: 1,
                        warning: false,
                        at: at(path),
                    },
                );
            }
        }
        let Typed::Pod(pod) = &object.typed else {
            continue;
        };
        let Some(status) = &pod.status else {
            continue;
        };
        for (i, condition) in status.conditions.iter().flatten().enumerate() {
            if let Some(time) = &condition.last_transition_time {
                // `Ready=False` as the reason keeps which condition changed; kubelet's own reason
                // and message (`ContainersNotReady: containers with unready status: [app]`) follow.
                let transition = format!("{}={}", condition.type_, condition.status);
                let message = [condition.reason.as_deref(), condition.message.as_deref()]
                    .into_iter()
                    .flatten()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(": ");
                let path = format!("status.conditions[{i}].lastTransitionTime");
                push(
                    time.0,
                    Fact {
                        subject: id,
                        source: "condition",
                        reason: &transition,
                        message,
                        structured: None,
                        count: 1,
                        warning: false,
                        at: at(&path),
                    },
                );
            }
        }
        let groups = [
            ("initContainerStatuses", &status.init_container_statuses),
            ("containerStatuses", &status.container_statuses),
        ];
        for (group, statuses) in groups {
            for (i, container) in statuses.iter().flatten().enumerate() {
                for (state_key, state) in [("state", &container.state), ("lastState", &container.last_state)]
                {
                    let Some(state) = state else { continue };
                    let base = format!("status.{group}[{i}].{state_key}");
                    let started: Message = Msg::ContainerStarted {
                        container: container.name.as_str().into(),
                    }
                    .into();
                    if let Some(t) = state.running.as_ref().and_then(|r| r.started_at.as_ref()) {
                        let path = format!("{base}.running.startedAt");
                        push(
                            t.0,
                            Fact {
                                subject: id,
                                source: "container-started",
                                reason: "Started",
                                message: started.render(crate::lang::Lang::En),
                                structured: Some(started.clone()),
                                count: 1,
                                warning: false,
                                at: at(&path),
                            },
                        );
                    }
                    if let Some(done) = &state.terminated {
                        if let Some(t) = &done.started_at {
                            let path = format!("{base}.terminated.startedAt");
                            push(
                                t.0,
                                Fact {
                                    subject: id,
                                    source: "container-started",
                                    reason: "Started",
                                    message: started.render(crate::lang::Lang::En),
                                    structured: Some(started.clone()),
                                    count: 1,
                                    warning: false,
                                    at: at(&path),
                                },
                            );
                        }
                        if let Some(t) = &done.finished_at {
                            let reason = done.reason.clone().unwrap_or_else(|| "Terminated".into());
                            let message: Message = Msg::ContainerExited {
                                container: container.name.as_str().into(),
                                code: done.exit_code,
                            }
                            .into();
                            let path = format!("{base}.terminated.finishedAt");
                            push(
                                t.0,
                                Fact {
                                    subject: id,
                                    source: "container-terminated",
                                    reason: &reason,
                                    message: message.render(crate::lang::Lang::En),
                                    structured: Some(message),
                                    count: 1,
                                    warning: false,
                                    at: at(&path),
                                },
                            );
                        }
                    }
                }
            }
        }
    }
    // Stable: equal times keep the order in which they were found (input order). The entries are
    // big (a quarter of a KB): `sort_by_cached_key` sorts (time, index) pairs and then moves each
    // entry into place once, where sorting the entries themselves moved them about log2(n) times.
    entries.sort_by_cached_key(|(time, _)| *time);
    let mut out: Vec<TimelineEntry> = entries.into_iter().map(|(_, entry)| entry).collect();
    out.extend(aged_entries(model));
    let capture = place(
        &mut out,
        captured_at.and_then(|t| Instant::new(t.as_second(), t.subsec_nanosecond().unsigned_abs())),
    );
    for entry in &mut out {
        let Some(age) = entry.age else { continue };
        let message: Message = match &capture {
            Some(c) => Msg::AgeBefore {
                age: human(age),
                capture: c.time.to_string(),
                set_by_user: c.basis == CaptureBasis::Set,
                anchored: c.basis == CaptureBasis::AgeAnchor,
            }
            .into(),
            None => Msg::AgeOnly { age: human(age) }.into(),
        };
        entry.estimated_from = Some(message.render(crate::lang::Lang::En));
        entry.estimated_from_message = Some(message);
    }
    // The report keeps this: up to half of it would be growth room otherwise.
    out.shrink_to_fit();
    (out, capture)
}

/// Entries for events known only by their age (`time` empty until [`place`]d), oldest first; equal
/// ages keep input order.
fn aged_entries(model: &Model<'_>) -> Vec<TimelineEntry> {
    let mut aged: Vec<TimelineEntry> = Vec::new();
    for event in model.events.iter().filter(|e| e.last.is_none()) {
        let Some(age) = event.last_age else { continue };
        aged.push(TimelineEntry {
            structured: None,
            estimated_from_message: None,
            time: Text::default(),
            subject: event.subject.clone(),
            source: "event".into(),
            reason: event.reason.clone(),
            message: event.message.clone(),
            count: event.count,
            warning: event.is_warning(),
            estimated_from: None,
            age: Some(age),
            first_age: event.first_age.filter(|f| *f >= age),
            before_object_existed: false,
            at: model.event_source_line(event),
        });
    }
    aged.sort_by_key(|e| std::cmp::Reverse(e.age));
    aged
}

/// Places the entries known only by age ([`TimelineEntry::age`]) against the capture moment, puts
/// every entry in time order (stable) and flags those before their subject's creation; returns the
/// capture moment. `captured_at`: the moment the user set; without it, the earliest the entries
/// allow — the newest absolute time, or an object's creation plus the age of the oldest event about
/// it when that is later. Reads only the entries (creations are their `created` entries), so the
/// app re-anchors a report's timeline without reading the inputs again. `estimated_from` is left
/// as it was.
pub fn place(entries: &mut [TimelineEntry], captured_at: Option<Instant>) -> Option<Capture> {
    let parse = |t: &str| Instant::parse(t);
    let mut created: crate::hash::Map<&ObjectRef, Instant> = crate::hash::Map::default();
    let mut newest: Option<Instant> = None;
    for entry in entries.iter().filter(|e| e.age.is_none()) {
        let Some(t) = parse(&entry.time) else { continue };
        newest = newest.max(Some(t));
        if entry.source == "created" {
            created.entry(&entry.subject).or_insert(t);
        }
    }
    // A table printed without a namespace (`kubectl get events` in the current namespace) names
    // `pod/web`: the one object of that kind and name, where there is exactly one.
    let mut by_name: crate::hash::Map<(Text, Text), Option<Instant>> = crate::hash::Map::default();
    for (subject, t) in &created {
        by_name
            .entry((subject.kind.clone(), subject.name.clone()))
            .and_modify(|seen| *seen = None)
            .or_insert(Some(*t));
    }
    let creation = |subject: &ObjectRef| -> Option<Instant> {
        created.get(subject).copied().or_else(|| {
            subject
                .namespace
                .is_none()
                .then(|| {
                    by_name
                        .get(&(subject.kind.clone(), subject.name.clone()))
                        .copied()
                        .flatten()
                })
                .flatten()
        })
    };
    let capture = match captured_at {
        Some(t) => Some((t, CaptureBasis::Set, None)),
        None => {
            let mut best: Option<(Instant, &TimelineEntry, i64, Instant)> = None;
            for entry in entries.iter() {
                let (Some(age), Some(c)) = (entry.age, creation(&entry.subject)) else {
                    continue;
                };
                let oldest = entry.first_age.unwrap_or(age).max(age);
                let Some(at) = c.add_secs(oldest) else {
                    continue;
                };
                if best.as_ref().is_none_or(|(b, ..)| at > *b) {
                    best = Some((at, entry, oldest, c));
                }
            }
            match (newest, best) {
                (Some(n), Some((a, ..))) if n >= a => Some((n, CaptureBasis::NewestTimestamp, None)),
                (_, Some((a, entry, age, c))) => Some((
                    a,
                    CaptureBasis::AgeAnchor,
                    Some(AgeAnchor {
                        subject: entry.subject.clone(),
                        reason: entry.reason.clone(),
                        age,
                        created: c.to_compact_string(),
                    }),
                )),
                (Some(n), None) => Some((n, CaptureBasis::NewestTimestamp, None)),
                (None, None) => None,
            }
        }
    };
    let created_at: Vec<Option<Instant>> = entries.iter().map(|e| creation(&e.subject)).collect();
    if let Some((time, ..)) = &capture {
        for entry in entries.iter_mut() {
            if let Some(age) = entry.age {
                let at = time.add_secs(-age).unwrap_or(*time);
                entry.time = at.to_compact_string();
            }
        }
    }
    // Each entry's time parsed once. At equal times, facts read with their time before those placed
    // from an age, so that placing again gives the same order; undated entries (ages without a
    // capture) by age, oldest first.
    let keys: Vec<(Option<Instant>, bool, std::cmp::Reverse<Option<i64>>)> = entries
        .iter()
        .map(|e| {
            let time = parse(&e.time);
            let undated_age = if time.is_none() { e.age } else { None };
            (time, e.age.is_some(), std::cmp::Reverse(undated_age))
        })
        .collect();
    for ((entry, (time, ..)), created) in entries.iter_mut().zip(&keys).zip(&created_at) {
        entry.before_object_existed =
            entry.source != "created" && matches!((time, created), (Some(t), Some(c)) if t < c);
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    if order.iter().enumerate().any(|(at, &i)| at != i) {
        let mut taken: Vec<Option<TimelineEntry>> = entries
            .iter_mut()
            .map(|e| Some(std::mem::replace(e, placeholder())))
            .collect();
        for (slot, i) in entries.iter_mut().zip(order) {
            if let Some(entry) = taken[i].take() {
                *slot = entry;
            }
        }
    }
    capture.map(|(time, basis, anchor)| Capture {
        time: time.to_compact_string(),
        basis,
        anchor,
    })
}

/// An empty entry, to move entries into their order without cloning them.
fn placeholder() -> TimelineEntry {
    TimelineEntry {
        time: Text::default(),
        subject: ObjectRef {
            kind: Text::default(),
            namespace: None,
            name: Text::default(),
            uid: None,
        },
        source: Text::default(),
        reason: Text::default(),
        message: String::new(),
        structured: None,
        count: 0,
        warning: false,
        estimated_from: None,
        estimated_from_message: None,
        age: None,
        first_age: None,
        before_object_existed: false,
        at: None,
    }
}

/// Seconds as kubectl prints ages: `4m31s`, `2h5m`, `3d4h`.
pub fn human(seconds: i64) -> String {
    let (d, h, m, s) = (
        seconds / 86_400,
        seconds % 86_400 / 3600,
        seconds % 3600 / 60,
        seconds % 60,
    );
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) if s > 0 => format!("{m}m{s}s"),
        (0, 0, _) => format!("{m}m"),
        (0, _, _) if m > 0 => format!("{h}h{m}m"),
        (0, _, _) => format!("{h}h"),
        _ if h > 0 => format!("{d}d{h}h"),
        _ => format!("{d}d"),
    }
}

#[cfg(test)]
mod tests {
    use crate::{analyze, analyze_with, Options, Source};

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  creationTimestamp: \"2026-03-02T10:00:00Z\"\nspec:\n  containers: []\n";
    const TABLE: &str = "$ kubectl -n shop get events\nLAST SEEN   TYPE      REASON    OBJECT    MESSAGE\n90s         Warning   Failed    pod/web   Error: ErrImagePull\n2m          Normal    Pulling   pod/web   Pulling image \"x\"\n";

    fn times(report: &crate::Report) -> Vec<(&str, &str, bool)> {
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
        assert_eq!(capture.basis, crate::CaptureBasis::AgeAnchor);
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
            ("2026-03-02T10:30:00Z", crate::CaptureBasis::NewestTimestamp, true)
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
        assert_eq!(report.capture.as_ref().unwrap().basis, crate::CaptureBasis::Set);
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
        let set = super::place(
            &mut report.timeline,
            super::Instant::parse("2026-03-02T10:01:00Z"),
        );
        assert_eq!(set.unwrap().time, "2026-03-02T10:01:00Z");
        assert_eq!(report.timeline[0].reason, "Pulling");
        assert!(report.timeline[0].before_object_existed);
        // Back to the inferred moment: the same entries in the same order as the analysis made.
        let again = super::place(&mut report.timeline, None);
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
                include_str!("../../../../static/samples/image-pull/pod.yaml"),
            ),
            Source::new(
                "events.txt",
                include_str!("../../../../static/samples/image-pull/events.txt"),
            ),
        ]);
        let capture = report.capture.as_ref().unwrap();
        assert_eq!(capture.time, "2025-02-11T09:40:05Z");
        assert_eq!(capture.basis, crate::CaptureBasis::AgeAnchor);
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
        assert_eq!(super::human(271), "4m31s");
        assert_eq!(super::human(120), "2m");
        assert_eq!(super::human(7500), "2h5m");
        assert_eq!(super::human(273_600), "3d4h");
        assert_eq!(super::human(9), "9s");
    }
}
