//! How a container of a pasted Pod ended, read from its typed status (the kubelet's
//! `containerStatuses[].state` and `lastState`): the termination that explains its trouble, whether
//! the kubelet backs off restarting it, and restarts whose end the status does not show.

use faultline_ingest::api::{ContainerStateTerminated, ContainerStatus, Pod};
use faultline_ingest::node::Node;
use faultline_ingest::{Object, Typed};
use faultline_report::Evidence;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use crate::Model;

/// The Pod's `spec.restartPolicy`, `Always` (the API's default) when the input does not state it.
pub fn restart_policy(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| s.restart_policy.as_deref())
        .unwrap_or("Always")
}

/// A container's termination: its current state if terminated, else its last state.
#[derive(Clone, Copy, Debug)]
pub struct ContainerExit<'a> {
    /// The status field it was read from: `state` or `lastState`.
    pub key: &'static str,
    pub terminated: &'a ContainerStateTerminated,
    /// Waiting in `CrashLoopBackOff`: the kubelet backs off restarting it.
    pub looping: bool,
}

impl<'a> ContainerExit<'a> {
    pub fn of(status: &'a ContainerStatus) -> Option<Self> {
        let state = status.state.as_ref();
        let (key, terminated) = match state.and_then(|s| s.terminated.as_ref()) {
            Some(t) => ("state", t),
            None => ("lastState", status.last_state.as_ref()?.terminated.as_ref()?),
        };
        let waiting = state
            .and_then(|s| s.waiting.as_ref())
            .and_then(|w| w.reason.as_deref());
        Some(Self {
            key,
            terminated,
            looping: waiting == Some("CrashLoopBackOff"),
        })
    }

    /// The exit of a container that crashed: an error (or exit 0 while the kubelet backs off
    /// restarting it: the command ends and `restartPolicy: Always` starts it again), not an OOM kill,
    /// and looping, restarted, or final (terminated now under a policy that does not restart it).
    pub fn crash(status: &'a ContainerStatus, restart_policy: &str) -> Option<Self> {
        let exit = Self::of(status)?;
        if exit.completed() && !exit.looping || exit.oom_killed() {
            return None;
        }
        let final_failure = exit.key == "state" && restart_policy != "Always";
        (exit.looping || status.restart_count > 0 || final_failure).then_some(exit)
    }

    /// Exit code 0.
    pub fn completed(&self) -> bool {
        self.terminated.exit_code == 0
    }

    pub fn oom_killed(&self) -> bool {
        self.terminated.reason.as_deref() == Some("OOMKilled")
    }

    /// The first line of its termination message, when it left one.
    pub fn last_words(&self) -> Option<&'a str> {
        let message = self.terminated.message.as_deref().map(str::trim)?;
        message.lines().next().filter(|m| !m.is_empty())
    }

    /// Running and ready again after this (earlier) exit, and not backed off.
    pub fn recovered(&self, status: &ContainerStatus) -> bool {
        let running = status.state.as_ref().is_some_and(|s| s.running.is_some());
        !self.looping && self.key == "lastState" && running && status.ready
    }
}

/// A container of a pasted Pod that keeps restarting while its status shows no termination
/// ([`Model::restarts_without_termination`]).
pub struct UnexplainedRestarts<'m> {
    pub pod: &'m Object,
    /// `status.initContainerStatuses[i]` or `status.containerStatuses[i]`.
    pub status_path: String,
    pub status: &'m ContainerStatus,
}

impl<'m> Model<'m> {
    /// The containers that restarted `min_restarts` times or more and run again, not ready, with no
    /// termination in their status (kubectl 1.0's describe printed no `Last State`), started less
    /// than `within` seconds before the newest time of their Pod's events: without those times the
    /// restarts may be history, and none is returned.
    pub fn restarts_without_termination(
        &self,
        min_restarts: u32,
        within: i64,
    ) -> Vec<UnexplainedRestarts<'m>> {
        let mut out = Vec::new();
        for pod in self.objects {
            let Typed::Pod(typed) = &pod.typed else { continue };
            // The events are looked up only for a Pod with such a container (most have none).
            let mut newest = None;
            for (status_path, status) in statuses(typed) {
                let Some(started) = restarted_without_termination(status, min_restarts) else {
                    continue;
                };
                let newest = *newest
                    .get_or_insert_with(|| self.events_for(&pod.id).iter().filter_map(|e| e.last).max());
                if newest.is_some_and(|n| n.as_second() - started.0.as_second() < within) {
                    out.push(UnexplainedRestarts {
                        pod,
                        status_path,
                        status,
                    });
                }
            }
        }
        out
    }
}

/// When a container that restarted `min_restarts` times or more and shows no termination started its
/// current run, running and not ready.
fn restarted_without_termination(status: &ContainerStatus, min_restarts: u32) -> Option<&Time> {
    let started = status.state.as_ref()?.running.as_ref()?.started_at.as_ref()?;
    let restarts = u32::try_from(status.restart_count).unwrap_or(0);
    let quiet = ContainerExit::of(status).is_some() || status.ready || restarts < min_restarts;
    (!quiet).then_some(started)
}

/// A Pod's init containers' statuses, then its containers', each with its path.
fn statuses(pod: &Pod) -> Vec<(String, &ContainerStatus)> {
    let Some(status) = &pod.status else {
        return Vec::new();
    };
    let groups = [
        ("initContainerStatuses", status.init_container_statuses.as_deref()),
        ("containerStatuses", status.container_statuses.as_deref()),
    ];
    let mut out = Vec::new();
    for (key, statuses) in groups {
        for (i, s) in statuses.unwrap_or_default().iter().enumerate() {
            out.push((format!("status.{key}[{i}]"), s));
        }
    }
    out
}

impl ContainerExit<'_> {
    /// Its waiting reason, the termination's reason, exit code, message and finish, and the restart
    /// count, from the container status at `status_path`.
    pub fn evidence(&self, model: &Model<'_>, object: &Object, status_path: &str) -> Vec<Evidence> {
        let terminated =
            ["reason", "exitCode", "message", "finishedAt"].map(|f| format!("{}.terminated.{f}", self.key));
        let mut fields = vec!["state.waiting.reason".to_string()];
        fields.extend(terminated);
        fields.push("restartCount".to_string());
        container_evidence(model, object, status_path, &fields)
    }
}

/// The evidence of the fields under a container's status or spec path (`restartCount`,
/// `resources.limits.memory`) that the input holds, in the order given.
pub fn container_evidence(
    model: &Model<'_>,
    object: &Object,
    path: &str,
    fields: &[impl AsRef<str>],
) -> Vec<Evidence> {
    fields
        .iter()
        .filter_map(|f| model.evidence(object, &format!("{path}.{}", f.as_ref())))
        .collect()
}

/// Whether a pasted object's status says its container `name` was `OOMKilled`, now or last time (in
/// its init containers' or its containers' statuses, read from its tree: a workload has none).
pub fn oom_killed_by_status(object: &Object, name: &str) -> bool {
    ["initContainerStatuses", "containerStatuses"].iter().any(|key| {
        object
            .locate(&format!("status.{key}"))
            .map(|(_, n)| n.items())
            .unwrap_or_default()
            .iter()
            .filter(|s| s.get("name").and_then(Node::as_str) == Some(name))
            .any(|s| {
                ["state", "lastState"].iter().any(|state| {
                    s.locate(&format!("{state}.terminated.reason"))
                        .and_then(|(_, n)| n.as_str())
                        == Some("OOMKilled")
                })
            })
    })
}
