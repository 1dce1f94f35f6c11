//! Every dated fact on one axis: events (by effective last time, like `kubectl events`), object
//! creation, condition transitions and container starts and terminations.
//!
//! Tables and describe output give ages (`4m31s`), not times. They are placed against the capture
//! moment — a time the user sets, else the newest absolute timestamp in the input — and each such
//! entry says so in `estimated_from`. Without any absolute time they keep an empty `time` and their
//! order by age.

use crate::message::timeline::Msg;
use crate::message::Message;
use compact_str::ToCompactString;
use k8s_openapi::jiff::Timestamp;

use super::Model;
use crate::ingest::Typed;
use crate::report::{ObjectRef, SourceLine, Text, TimelineEntry};

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

/// The moment the pasted output was captured, against which ages are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    pub time: Timestamp,
    /// True when the user set it; false when it is the newest timestamp found in the input.
    pub set_by_user: bool,
}

pub fn build(model: &Model<'_>, captured_at: Option<Timestamp>) -> Vec<TimelineEntry> {
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
    let capture = captured_at
        .map(|time| Capture {
            time,
            set_by_user: true,
        })
        .or_else(|| {
            entries.iter().map(|(t, _)| *t).max().map(|time| Capture {
                time,
                set_by_user: false,
            })
        });
    // Stable: equal times keep the order in which they were found (input order). The entries are
    // big (a quarter of a KB): `sort_by_cached_key` sorts (time, index) pairs and then moves each
    // entry into place once, where sorting the entries themselves moved them about log2(n) times.
    entries.sort_by_cached_key(|(time, _)| *time);
    let mut out: Vec<TimelineEntry> = entries.into_iter().map(|(_, entry)| entry).collect();
    out.extend(aged_entries(model, capture));
    if capture.is_some() {
        out.sort_by(|a, b| a.time.cmp(&b.time));
    }
    // The report keeps this: up to half of it would be growth room otherwise.
    out.shrink_to_fit();
    out
}

/// Entries for events known only by their age, placed against the capture moment when there is one.
fn aged_entries(model: &Model<'_>, capture: Option<Capture>) -> Vec<TimelineEntry> {
    let mut aged: Vec<(i64, TimelineEntry)> = Vec::new();
    for event in model.events.iter().filter(|e| e.last.is_none()) {
        let Some(age) = event.last_age else { continue };
        let (time, estimated_from) = match capture {
            Some(c) => {
                let time = c
                    .time
                    .checked_sub(k8s_openapi::jiff::SignedDuration::from_secs(age))
                    .unwrap_or(c.time);
                (
                    time.to_compact_string(),
                    Message::from(Msg::AgeBefore {
                        age: human(age),
                        capture: c.time.to_string(),
                        set_by_user: c.set_by_user,
                    }),
                )
            }
            None => (Text::default(), Msg::AgeOnly { age: human(age) }.into()),
        };
        aged.push((
            age,
            TimelineEntry {
                structured: None,
                estimated_from_message: Some(estimated_from.clone()),
                time,
                subject: event.subject.clone(),
                source: "event".into(),
                reason: event.reason.clone(),
                message: event.message.clone(),
                count: event.count,
                warning: event.is_warning(),
                estimated_from: Some(estimated_from.render(crate::lang::Lang::En)),
                at: model.event_source_line(event),
            },
        ));
    }
    // Oldest (largest age) first; equal ages keep input order.
    aged.sort_by_key(|(age, _)| std::cmp::Reverse(*age));
    aged.into_iter().map(|(_, e)| e).collect()
}

/// Seconds as kubectl prints ages: `4m31s`, `2h5m`, `3d4h`.
fn human(seconds: i64) -> String {
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

    #[test]
    fn ages_are_placed_against_the_newest_timestamp_and_say_so() {
        let report = analyze(&[Source::new("pod.yaml", POD), Source::new("events.txt", TABLE)]);
        let times: Vec<(&str, &str)> = report
            .timeline
            .iter()
            .map(|e| (e.time.as_str(), e.reason.as_str()))
            .collect();
        assert_eq!(
            times,
            [
                ("2026-03-02T09:58:00Z", "Pulling"),
                ("2026-03-02T09:58:30Z", "Failed"),
                ("2026-03-02T10:00:00Z", "Created")
            ]
        );
        assert_eq!(
            report.timeline[1].estimated_from.as_deref(),
            Some("age 1m30s before 2026-03-02T10:00:00Z, the newest timestamp in the input")
        );
        assert_eq!(report.timeline[2].estimated_from, None);
        let at = |i: usize| {
            report.timeline[i]
                .at
                .as_ref()
                .map(|a| (a.source.as_str(), a.line))
        };
        assert_eq!(at(1), Some(("events.txt", 3)), "a table row is cited by its line");
        assert_eq!(
            at(2),
            Some(("pod.yaml", 6)),
            "creation is cited at metadata.creationTimestamp"
        );
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
        let failed = report.timeline.iter().find(|e| e.reason == "Failed").unwrap();
        assert_eq!(failed.time, "2026-03-02T10:03:30Z");
        assert!(failed
            .estimated_from
            .as_deref()
            .unwrap()
            .ends_with("the capture time you set"));
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
