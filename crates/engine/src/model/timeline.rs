//! Every dated fact on one axis: events (by effective last time, like `kubectl events`), object
//! creation, condition transitions and container starts and terminations.

use k8s_openapi::jiff::Timestamp;

use super::Model;
use crate::ingest::Typed;
use crate::report::{ObjectRef, TimelineEntry};

pub fn build(model: &Model<'_>) -> Vec<TimelineEntry> {
    let mut entries: Vec<(Timestamp, TimelineEntry)> = Vec::new();
    let mut push =
        |time: Timestamp, subject: &ObjectRef, source: &str, reason: &str, message: String, count: u32| {
            entries.push((
                time,
                TimelineEntry {
                    time: time.to_string(),
                    subject: subject.clone(),
                    source: source.to_string(),
                    reason: reason.to_string(),
                    message,
                    count,
                },
            ));
        };
    for event in &model.events {
        if let Some(time) = event.last {
            push(
                time,
                &event.subject,
                "event",
                &event.reason,
                event.message.clone(),
                event.count,
            );
        }
    }
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else {
            continue;
        };
        if let Some(created) = &pod.metadata.creation_timestamp {
            push(created.0, &object.id, "created", "Created", String::new(), 1);
        }
        let Some(status) = &pod.status else {
            continue;
        };
        for condition in status.conditions.iter().flatten() {
            if let Some(time) = &condition.last_transition_time {
                let text = format!("{}={}", condition.type_, condition.status);
                let message = condition.message.clone().unwrap_or_default();
                let reason = condition.reason.clone().unwrap_or(text.clone());
                let message = if message.is_empty() {
                    text
                } else {
                    format!("{text}: {message}")
                };
                push(time.0, &object.id, "condition", &reason, message, 1);
            }
        }
        let statuses = status
            .init_container_statuses
            .iter()
            .flatten()
            .chain(status.container_statuses.iter().flatten());
        for container in statuses {
            for state in [container.state.as_ref(), container.last_state.as_ref()]
                .into_iter()
                .flatten()
            {
                if let Some(running) = &state.running {
                    if let Some(at) = &running.started_at {
                        push(
                            at.0,
                            &object.id,
                            "container-started",
                            "Started",
                            format!("container {} started", container.name),
                            1,
                        );
                    }
                }
                if let Some(done) = &state.terminated {
                    let reason = done.reason.clone().unwrap_or_else(|| "Terminated".into());
                    let message = format!("container {} exited with code {}", container.name, done.exit_code);
                    if let Some(at) = &done.started_at {
                        push(
                            at.0,
                            &object.id,
                            "container-started",
                            "Started",
                            format!("container {} started", container.name),
                            1,
                        );
                    }
                    if let Some(at) = &done.finished_at {
                        push(at.0, &object.id, "container-terminated", &reason, message, 1);
                    }
                }
            }
        }
    }
    // Stable: equal times keep the order in which they were found (input order).
    entries.sort_by_key(|(time, _)| *time);
    entries.into_iter().map(|(_, entry)| entry).collect()
}
