//! Judging a failure against the newest state the input shows (issue 22, "judge against the latest
//! state").
//!
//! Events are history: a `FailedCreate` from deploy time, startup probe failures of a Pod that is
//! Ready now, an `ErrImagePull` before a `Pulled`. Reported as if current they head the report and
//! hide the fault that is. Each rule names what would supersede its failure ([`Supersedes`]); this
//! module tells whether the input shows it, and a superseded finding is recorded as history: an info
//! line that says when it failed and what shows it recovered ([`record`]), never an error or a
//! warning, so never ranked first and never the report's diagnosis.

use faultline_ingest::{Object, Typed};
use faultline_model::views::workload_availability::replica_counts;
use faultline_model::{EventRecord, Model};
use faultline_report::message::{common, Message};
use faultline_report::{Evidence, Finding, ObjectRef, Sentence, Severity};

/// A later state that, when the input shows it, makes a failure history.
#[derive(Clone, Copy, Debug)]
pub enum Supersedes<'a> {
    /// An event of one of these reasons about the same subject, newer than the failure (`Pulled`,
    /// `Started` after a pull error; `Scheduled` after `FailedScheduling`; `SuccessfulCreate` after
    /// `FailedCreate`). With `same_part`, only one about the same container (`fieldPath`) when both
    /// name one.
    Event { reasons: &'a [&'a str], same_part: bool },
    /// The pasted Pod is Ready (`Ready=True`, or every container ready) and no container restarted:
    /// probes that failed before passed since.
    PodReadyWithoutRestarts,
    /// The pasted Pod is Ready and its containers run, whatever the restarts (a mount, a sandbox, a
    /// start that failed once and then succeeded).
    PodRunningAndReady,
    /// The pasted controller has the replicas it wants: `status.replicas` (CURRENT) equal to
    /// `spec.replicas` (DESIRED), and `readyReplicas` (READY) too, each where the input states it.
    ReplicasAsDesired,
}

/// What shows that a failure has passed: words for the summary and the evidence that says so.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// `a later Pulled event`, `the Pod is Ready with 0 restarts`, `3/3 replicas`.
    pub by: Message,
    pub evidence: Vec<Evidence>,
}

/// Whether a later state the input shows supersedes `failure` (the newest failing event about
/// `subject`, when there is one): the first of `by` that the input shows, or `None` when the failure
/// may be current.
pub fn superseded(
    model: &Model<'_>,
    subject: &ObjectRef,
    failure: Option<&EventRecord>,
    by: &[Supersedes<'_>],
) -> Option<Recovery> {
    let object = model.object(subject);
    by.iter().find_map(|rule| match *rule {
        Supersedes::Event { reasons, same_part } => {
            let failure = failure?;
            let events = model.events_for(subject);
            let later = events.into_iter().rev().find(|e| {
                reasons.contains(&e.reason.as_str())
                    && e.is_after(failure)
                    && (!same_part || same_container(e, failure))
            })?;
            Some(Recovery {
                by: common::Msg::LaterEvent {
                    reason: later.reason.clone(),
                }
                .into(),
                evidence: model.event_evidence(later).into_iter().collect(),
            })
        }
        Supersedes::PodReadyWithoutRestarts => pod_ready(model, object?, true),
        Supersedes::PodRunningAndReady => pod_ready(model, object?, false),
        Supersedes::ReplicasAsDesired => replicas_as_desired(model, object?),
    })
}

/// Two events about the same container, or at least one that does not say which.
fn same_container(a: &EventRecord, b: &EventRecord) -> bool {
    match (a.field_path.as_deref(), b.field_path.as_deref()) {
        (Some(x), Some(y)) if !x.is_empty() && !y.is_empty() => x == y,
        _ => true,
    }
}

fn pod_ready(model: &Model<'_>, object: &Object, without_restarts: bool) -> Option<Recovery> {
    let Typed::Pod(pod) = &object.typed else {
        return None;
    };
    let status = pod.status.as_ref()?;
    let statuses = status.container_statuses.as_deref().unwrap_or_default();
    let condition = status
        .conditions
        .as_deref()
        .unwrap_or_default()
        .iter()
        .position(|c| c.type_ == "Ready");
    let ready_condition =
        condition.map(|i| status.conditions.as_deref().unwrap_or_default()[i].status == "True");
    let all_ready = !statuses.is_empty() && statuses.iter().all(|c| c.ready);
    let running = statuses
        .iter()
        .all(|c| c.state.as_ref().is_none_or(|s| s.running.is_some()));
    // The Ready condition when stated (and no container saying otherwise), else every container's
    // `ready`; never a guess from nothing.
    let ready = match ready_condition {
        Some(ready) => ready && (statuses.is_empty() || all_ready),
        None => all_ready,
    };
    if !ready || !running {
        return None;
    }
    let restarts: i64 = statuses.iter().map(|c| i64::from(c.restart_count)).sum();
    if without_restarts && restarts > 0 {
        return None;
    }
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some(i) = condition {
        evidence.extend(model.evidence(object, &format!("status.conditions[{i}].status")));
    }
    for i in 0..statuses.len() {
        evidence.extend(model.evidence(object, &format!("status.containerStatuses[{i}].ready")));
        if without_restarts {
            evidence.extend(model.evidence(object, &format!("status.containerStatuses[{i}].restartCount")));
        }
    }
    let object_ref = object.id.clone();
    let by = if without_restarts {
        common::Msg::ReadyWithoutRestarts { object: object_ref }.into()
    } else {
        common::Msg::ReadyAndRunning { object: object_ref }.into()
    };
    Some(Recovery { by, evidence })
}

fn replicas_as_desired(model: &Model<'_>, object: &Object) -> Option<Recovery> {
    let stated = replica_counts(object);
    let desired = stated.desired?;
    // CURRENT and READY as the input states them (a `get rs` table gives DESIRED and READY, a
    // describe `current / desired`, YAML both); at least one, and every one stated equal to desired.
    let counts = [stated.current, stated.ready];
    let current = counts.iter().flatten().copied().min()?;
    if desired == 0 || counts.iter().flatten().any(|&n| n != desired) {
        return None;
    }
    let evidence = ["spec.replicas", "status.replicas", "status.readyReplicas"]
        .iter()
        .filter_map(|path| model.evidence(object, path))
        .collect();
    Some(Recovery {
        by: common::Msg::ReplicasNow {
            object: object.id.clone(),
            current,
            desired,
        }
        .into(),
        evidence,
    })
}

/// The kubelet resets a container's crash-loop back-off once it has run this long (seconds) without
/// exiting (the Pod lifecycle documentation: "Once a container has executed for 10 minutes without
/// any problems, the kubelet resets the restart backoff timer"). A container the input shows
/// running that long since its last restart is not restarting now.
pub const BACKOFF_RESET: i64 = 600;

/// The kubelet's events about a container's restarts: each restart is a `Created` and a `Started`,
/// each wait between them a `BackOff`, each liveness kill a `Killing`.
const RESTART_EVENTS: [&str; 4] = ["BackOff", "Started", "Created", "Killing"];

/// How long (seconds) a container that runs and is ready now has run since its last restart, as far
/// as the input shows, with the fields that show it: its `startedAt` before the newest time of the
/// Pod's events (another input's clock says nothing of this Pod's), or the Pod's newest restart
/// event (`BackOff`, `Started`, `Created`, `Killing` of this container) before the capture, the
/// shorter of the two. `None` when the input cannot tell: a status alone says when the run began,
/// not how long ago that was.
pub fn running_since_restart(
    model: &Model<'_>,
    object: &Object,
    view: &crate::containers::ContainerView<'_>,
) -> Option<(i64, Vec<Evidence>)> {
    let state = view.status.state.as_ref()?;
    let running = state.running.as_ref()?;
    if !view.status.ready || state.waiting.is_some() || state.terminated.is_some() {
        return None;
    }
    let name = view.status.name.as_str();
    let events = model.events_for(&object.id);
    let restarts: Vec<&EventRecord> = events
        .iter()
        .copied()
        .filter(|e| RESTART_EVENTS.contains(&e.reason.as_str()))
        .filter(|e| match e.field_path.as_deref().filter(|p| !p.is_empty()) {
            Some(part) => name.is_empty() || part.contains(&format!("{{{name}}}")),
            None => name.is_empty() || e.reason != "BackOff" || e.message.contains(name),
        })
        .collect();
    let newest_time = events.iter().filter_map(|e| e.last).max();
    let by_start = running
        .started_at
        .as_ref()
        .zip(newest_time)
        .map(|(started, newest)| newest.as_second() - started.0.as_second());
    let by_events = if restarts.is_empty() {
        None
    } else if restarts.iter().all(|e| e.last_age.is_some()) {
        restarts.iter().filter_map(|e| e.last_age).min()
    } else {
        let last = restarts.iter().filter_map(|e| e.last).max()?;
        newest_time.map(|newest| newest.as_second() - last.as_second())
    };
    // The evidence of the most recent restart wins: a restart event newer than the start time (a
    // later run the status did not catch) makes the run shorter, not longer.
    let up = match (by_start, by_events) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    let mut evidence: Vec<Evidence> = Vec::new();
    evidence.extend(model.evidence(object, &format!("{}.state.running.startedAt", view.status_path)));
    evidence.extend(model.evidence(object, &format!("{}.ready", view.status_path)));
    if let Some(newest) = restarts
        .iter()
        .max_by_key(|e| (e.last.map(|t| t.as_second()), -e.last_age.unwrap_or(0)))
    {
        evidence.extend(model.event_evidence(newest));
    }
    Some((up.max(0), evidence))
}

/// Restarts no longer rising: a container that exited before, is running and ready now, and that
/// the input shows has run at least [`BACKOFF_RESET`] since its last restart
/// ([`running_since_restart`]). `None` otherwise: a container that runs now after 5 restarts in 10
/// minutes is still crash-looping.
pub fn stayed_up(
    model: &Model<'_>,
    object: &Object,
    view: &crate::containers::ContainerView<'_>,
) -> Option<Recovery> {
    let (up, evidence) = running_since_restart(model, object, view)?;
    if up < BACKOFF_RESET {
        return None;
    }
    let name = view.status.name.as_str();
    Some(Recovery {
        by: common::Msg::StayedUp {
            object: object.id.clone(),
            container: (!name.is_empty()).then(|| name.into()),
            minutes: up / 60,
        }
        .into(),
        evidence,
    })
}

/// The `cannot_establish` line of a container that runs and is ready again after exits it has not
/// been shown to have outlasted: it restarted minutes ago (within [`BACKOFF_RESET`]), or the input
/// does not say how long it has run.
pub fn restarts_may_rise(
    model: &Model<'_>,
    object: &Object,
    view: &crate::containers::ContainerView<'_>,
) -> Message {
    let name = view.status.name.as_str();
    let container = (!name.is_empty()).then(|| name.into());
    match running_since_restart(model, object, view) {
        Some((up, _)) => common::Msg::RestartedRecently {
            container,
            minutes: up / 60,
        }
        .into(),
        None => common::Msg::RestartsMayRise { container }.into(),
    }
}

/// When the input last saw a failure: its time, or its age before the capture (a table row), or
/// nothing when the input does not say.
pub fn last_seen(failure: &EventRecord) -> Option<Message> {
    if let Some(at) = failure.last {
        return Some(common::Msg::Time { at: at.to_string() }.into());
    }
    let age = failure.last_age?;
    Some(common::Msg::AgeBeforeCapture { age: age_words(age) }.into())
}

/// An age in seconds the way kubectl prints it: `45s`, `22m`, `3h`, `2d`.
fn age_words(seconds: i64) -> String {
    match seconds {
        s if s < 120 => format!("{s}s"),
        s if s < 2 * 3600 => format!("{}m", s / 60),
        s if s < 2 * 86400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86400),
    }
}

/// Records a finding as history: info, its summary saying what failed until when and what shows it
/// recovered, the recovery's evidence after the failure's. A rule builds its finding as for a current
/// fault and hands it here when [`superseded`] found a later state.
/// `until` is when the failure was last seen ([`last_seen`] of its newest event, or a status's own
/// time such as a termination's `finishedAt`), when the input says.
pub fn record(finding: &mut Finding, until: Option<Message>, recovery: Recovery) {
    finding.severity = Severity::Info;
    finding.summary.wrap(|was| {
        common::Msg::History {
            until: until.map(Box::new),
            recovery: Box::new(recovery.by),
            was: Box::new(was),
        }
        .into()
    });
    for e in recovery.evidence {
        if !finding.evidence.contains(&e) {
            finding.evidence.push(e);
        }
    }
    finding
        .cannot_establish
        .insert(0, Sentence::new(common::Msg::HistoryCannot {}));
}

/// The `cannot_establish` line of a failure known from events alone: without the object's state the
/// input cannot tell whether it is still failing or has recovered since.
pub fn currentness_unknown(subject: &ObjectRef) -> Message {
    common::Msg::CurrentnessUnknown {
        subject: subject.clone(),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_ingest::{ingest, Source};

    fn judge(text: &str, kind: &str, name: &str, by: &[Supersedes<'_>]) -> Option<String> {
        let sources = [Source::new("in.txt", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let subject = model
            .objects
            .iter()
            .map(|o| o.id.clone())
            .chain(model.events.iter().map(|e| e.subject.clone()))
            .find(|id| id.kind == kind && id.name == name)?;
        let events = model.events_for(&subject);
        let failure = events.iter().rfind(|e| e.is_warning()).copied();
        superseded(&model, &subject, failure, by).map(|r| r.by.to_string())
    }

    /// A pull or start of another container does not supersede this container's pull failure; one
    /// of the same container does.
    #[test]
    fn a_later_event_supersedes_only_the_same_containers_failure() {
        let events = |pulled_part: &str| {
            format!(
                "LAST SEEN   TYPE      REASON   OBJECT       SUBOBJECT                MESSAGE\n\
                 5m          Warning   Failed   pod/web-1    spec.containers{{app}}    Error: ErrImagePull\n\
                 2m          Normal    Pulled   pod/web-1    spec.containers{{{pulled_part}}}   Successfully pulled image \"x:1\"\n"
            )
        };
        let by = [Supersedes::Event {
            reasons: &["Pulled"],
            same_part: true,
        }];
        assert_eq!(
            judge(&events("app"), "Pod", "web-1", &by).as_deref(),
            Some("a later Pulled event")
        );
        assert_eq!(judge(&events("sidecar"), "Pod", "web-1", &by), None);
    }

    /// CURRENT and READY must both be at DESIRED where stated: a ReplicaSet short of its replicas is
    /// still failing.
    #[test]
    fn replicas_short_of_desired_do_not_supersede() {
        let table = |ready: u32| {
            format!(
                "NAME      DESIRED   CURRENT   READY   AGE\nweb-84b6  3         3         {ready}       5m\n"
            )
        };
        let by = [Supersedes::ReplicasAsDesired];
        assert!(judge(&table(3), "ReplicaSet", "web-84b6", &by).is_some());
        assert_eq!(judge(&table(2), "ReplicaSet", "web-84b6", &by), None);
        let describe = |current: u32| {
            format!("Name:           web-84b6\nNamespace:      shop\nSelector:       app=web,pod-template-hash=84b6\nControlled By:  Deployment/web\nReplicas:       {current} current / 3 desired\nPods Status:    {current} Running / 0 Waiting / 0 Succeeded / 0 Failed\n")
        };
        assert!(judge(&describe(3), "ReplicaSet", "web-84b6", &by).is_some());
        assert_eq!(judge(&describe(0), "ReplicaSet", "web-84b6", &by), None);
    }

    /// A container running and ready after exits is history only once it has run 10 minutes since
    /// its last restart: 5 restarts in 10 minutes, the last 2 minutes ago, are not.
    #[test]
    fn a_container_running_again_is_history_only_past_the_back_off_reset() {
        let describe = |started: &str| {
            format!(
                "$ kubectl describe pod web-1 -n shop\nName:         web-1\nNamespace:    shop\nStatus:       Running\nContainers:\n  web:\n    State:          Running\n      Started:      Mon, 02 Mar 2026 09:00:03 +0000\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n    Ready:          True\n    Restart Count:  5\nEvents:\n  Type    Reason   Age   From     Message\n  ----    ------   ----  ----     -------\n  Normal  Started  {started}  kubelet  Started container web\n"
            )
        };
        let up = |started: &str| {
            let sources = [Source::new("pod.txt", describe(started))];
            let ingested = ingest(&sources);
            let model = Model::build(&sources, &ingested);
            let object = model.objects_of_kind("Pod").next().unwrap();
            let Typed::Pod(pod) = &object.typed else {
                unreachable!()
            };
            let views = crate::containers::containers(pod);
            (
                running_since_restart(&model, object, &views[0]).map(|(s, _)| s),
                stayed_up(&model, object, &views[0]).is_some(),
            )
        };
        assert_eq!(up("2m (x5 over 10m)"), (Some(120), false));
        assert_eq!(up("25m (x5 over 40m)"), (Some(1500), true));
    }

    #[test]
    fn ages_read_like_kubectl() {
        assert_eq!(age_words(45), "45s");
        assert_eq!(age_words(22 * 60), "22m");
        assert_eq!(age_words(5 * 3600), "5h");
        assert_eq!(age_words(3 * 86400), "3d");
    }
}
