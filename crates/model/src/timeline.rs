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

use crate::timeline_words::Msg;
use compact_str::ToCompactString;
use faultline_report::message::Message;
use k8s_openapi::jiff::Timestamp;

use super::instant::Instant;
use super::Model;
use faultline_ingest::Typed;
use faultline_report::{Capture, CaptureBasis, ObjectRef, Sentence, SourceLine, Text, TimelineEntry};

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
                time: time.to_compact_string(),
                subject: fact.subject.clone(),
                source: fact.source.into(),
                reason: fact.reason.into(),
                message: Sentence::from_parts(fact.message, fact.structured),
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
                                message: started.render(faultline_report::lang::Lang::En),
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
                                    message: started.render(faultline_report::lang::Lang::En),
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
                                    message: message.render(faultline_report::lang::Lang::En),
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
    // An application's log lines that say a dependency failed, where dated (issue 44): placed with
    // the events, so that a failure is seen beside what the cluster did then. At most
    // [`LOG_ENTRIES`] per dependency, the first and the last of them kept.
    let dependency_lines = model.dependency_lines();
    let mut per_target: Vec<(&crate::dependencies::Target, usize)> = Vec::new();
    let subjects: Vec<ObjectRef> = dependency_lines.iter().map(log_subject).collect();
    for (i, line) in dependency_lines.iter().enumerate() {
        let Some(time) = line
            .time
            .and_then(|t| Timestamp::new(t.secs(), i32::try_from(t.nanos()).unwrap_or(0)).ok())
        else {
            continue;
        };
        let seen = match per_target.iter_mut().find(|(t, _)| **t == line.target) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                per_target.push((&line.target, 1));
                1
            }
        };
        let last = !dependency_lines[i + 1..]
            .iter()
            .any(|l| l.target == line.target && l.time.is_some());
        if seen > LOG_ENTRIES && !last {
            continue;
        }
        let entry = line.entry;
        push(
            time,
            Fact {
                subject: &subjects[i],
                source: "log",
                reason: entry.failure,
                message: line.known.text.clone(),
                structured: None,
                count: 1,
                warning: true,
                at: Some(SourceLine {
                    source: model.source_name(line.known.source),
                    line: line.known.line,
                }),
            },
        );
    }
    // Every other line the catalog knows that a log dates (issue 40): a kubelet's or a runtime's
    // journal, a controller's log. At most [`LOG_ENTRIES`] per entry and subject, the last kept.
    let dated = crate::log_lines::dated(model);
    let subjects: Vec<ObjectRef> = dated.iter().map(|d| known_subject(model, d.known)).collect();
    let mut seen: Vec<((&str, &ObjectRef), usize)> = Vec::new();
    for (i, line) in dated.iter().enumerate() {
        let Ok(time) = Timestamp::new(line.time.secs(), i32::try_from(line.time.nanos()).unwrap_or(0)) else {
            continue;
        };
        let entry = line.known.recognised.entry;
        let key = (entry.id, &subjects[i]);
        let n = match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((key, 1));
                1
            }
        };
        let last = !dated[i + 1..]
            .iter()
            .zip(&subjects[i + 1..])
            .any(|(d, s)| d.known.recognised.entry.id == entry.id && *s == subjects[i]);
        if n > LOG_ENTRIES && !last {
            continue;
        }
        push(
            time,
            Fact {
                subject: &subjects[i],
                source: "log",
                reason: if entry.reason.is_empty() {
                    entry.id.rsplit('.').next().unwrap_or(entry.id)
                } else {
                    entry.reason
                },
                message: line.known.text.clone(),
                structured: None,
                count: 1,
                warning: entry.severity != faultline_report::Severity::Info,
                at: Some(SourceLine {
                    source: model.source_name(line.known.source),
                    line: line.known.line,
                }),
            },
        );
    }
    // Stable: equal times keep the order in which they were found (input order). The entries are
    // big (a quarter of a KB): `sort_by_cached_key` sorts (time, index) pairs and then moves each
    // entry into place once, where sorting the entries themselves moved them about log2(n) times.
    entries.sort_by_cached_key(|(time, _)| *time);
    let mut out: Vec<TimelineEntry> = entries.into_iter().map(|(_, entry)| entry).collect();
    out.extend(aged_entries(model));
    // A log's last dated line (or a journal's `end at`) dates the input even when no line of it
    // is known.
    let capture = faultline_report::timeline::place_after(
        &mut out,
        captured_at.and_then(|t| Instant::new(t.as_second(), t.subsec_nanosecond().unsigned_abs())),
        crate::log_lines::newest(model),
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
        entry.estimated_from = Some(Sentence::rendered(message, faultline_report::lang::Lang::En));
    }
    // The report keeps this: up to half of it would be growth room otherwise.
    out.shrink_to_fit();
    (out, capture)
}

/// Log lines of one dependency placed on the timeline, at most (the last one always).
const LOG_ENTRIES: usize = 20;

/// Whose line a known log line is: the Pod or Job its log block names, else the component the
/// catalog says prints it (`Component kubelet`).
fn known_subject(model: &Model<'_>, known: &crate::known::KnownLine) -> ObjectRef {
    model
        .log_block_at(known.source, known.line)
        .and_then(faultline_ingest::logs::LogBlock::object)
        .unwrap_or_else(|| ObjectRef {
            kind: "Component".into(),
            namespace: None,
            name: known.recognised.entry.component.into(),
            uid: None,
        })
}

/// Whose log a line is: the Pod or Job its block names, else the dependency it calls.
fn log_subject(line: &crate::dependencies::DependencyLine<'_>) -> ObjectRef {
    line.block
        .and_then(faultline_ingest::logs::LogBlock::object)
        .unwrap_or_else(|| ObjectRef {
            kind: "Component".into(),
            namespace: None,
            name: if line.target.host.is_empty() {
                line.dependency().into()
            } else {
                line.target.label().into()
            },
            uid: None,
        })
}

/// Entries for events known only by their age (`time` empty until [`place`]d), oldest first; equal
/// ages keep input order.
fn aged_entries(model: &Model<'_>) -> Vec<TimelineEntry> {
    let mut aged: Vec<TimelineEntry> = Vec::new();
    for event in model.events.iter().filter(|e| e.last.is_none()) {
        let Some(age) = event.last_age else { continue };
        aged.push(TimelineEntry {
            time: Text::default(),
            subject: event.subject.clone(),
            source: "event".into(),
            reason: event.reason.clone(),
            message: Sentence::words(event.message.clone()),
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

pub use faultline_report::timeline::{human, place};
