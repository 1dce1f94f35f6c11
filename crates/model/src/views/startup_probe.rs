//! A pasted Pod's container as its startup probe concerns it: whether the kubelet counts it started,
//! ready and running, its restarts, and the seconds its `startupProbe` allows before the kubelet kills
//! it (`initialDelaySeconds + failureThreshold × periodSeconds`, the kubelet's defaults filled in).

use faultline_ingest::{Object, Typed};
use faultline_report::Evidence;

use crate::Model;

/// The kubelet's defaults for a probe's `initialDelaySeconds`, `failureThreshold`, `periodSeconds`.
const DEFAULT_DELAY: u32 = 0;
const DEFAULT_THRESHOLD: u32 = 3;
const DEFAULT_PERIOD: u32 = 10;

/// The time a startup probe gives the application before the kubelet kills it.
#[derive(Clone, Copy, Debug)]
pub struct StartupBudget {
    pub delay: u32,
    pub threshold: u32,
    pub period: u32,
}

impl StartupBudget {
    pub fn total(self) -> u32 {
        self.delay
            .saturating_add(self.threshold.saturating_mul(self.period))
    }
}

/// A regular container of a pasted Pod, with its startup probe.
pub struct StartupContainer {
    pub name: String,
    /// `status.containerStatuses[i]`, and the `spec.containers[j]` of the same name.
    pub status_path: String,
    pub spec_path: Option<String>,
    /// Its status's `started`, when stated.
    pub started: Option<bool>,
    pub ready: bool,
    pub running: bool,
    pub restarts: u32,
    /// With its spec's `startupProbe` pasted.
    pub budget: Option<StartupBudget>,
}

impl StartupContainer {
    /// The container of the pasted Pod named `name` (or, unnamed, the only one, or the first with a
    /// startup probe).
    pub fn of(object: &Object, name: Option<&str>) -> Option<Self> {
        let Typed::Pod(pod) = &object.typed else {
            return None;
        };
        let statuses = pod
            .status
            .as_ref()?
            .container_statuses
            .as_deref()
            .unwrap_or_default();
        let specs = pod
            .spec
            .as_ref()
            .map(|s| s.containers.as_slice())
            .unwrap_or_default();
        let spec_path = |name: &str| {
            let j = specs.iter().position(|c| c.name == name)?;
            Some(format!("spec.containers[{j}]"))
        };
        let has_probe = |spec: &Option<String>| {
            spec.as_ref()
                .is_some_and(|s| object.locate(&format!("{s}.startupProbe")).is_some())
        };
        let (i, status) = match name {
            Some(name) => statuses.iter().enumerate().find(|(_, c)| c.name == name),
            None if statuses.len() == 1 => statuses.iter().enumerate().next(),
            None => statuses
                .iter()
                .enumerate()
                .find(|(_, c)| has_probe(&spec_path(&c.name))),
        }?;
        let status_path = format!("status.containerStatuses[{i}]");
        let spec_path = spec_path(&status.name);
        let started = object
            .locate(&format!("{status_path}.started"))
            .and_then(|(_, n)| n.as_str())
            .and_then(|s| s.parse::<bool>().ok());
        let budget = spec_path.as_ref().filter(|_| has_probe(&spec_path)).map(|spec| {
            let number = |field: &str, default: u32| {
                object
                    .locate(&format!("{spec}.startupProbe.{field}"))
                    .and_then(|(_, n)| n.as_str())
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .unwrap_or(default)
            };
            StartupBudget {
                delay: number("initialDelaySeconds", DEFAULT_DELAY),
                threshold: number("failureThreshold", DEFAULT_THRESHOLD).max(1),
                period: number("periodSeconds", DEFAULT_PERIOD).max(1),
            }
        });
        Some(Self {
            name: status.name.to_string(),
            status_path,
            spec_path,
            started,
            ready: status.ready,
            running: status.state.as_ref().is_some_and(|s| s.running.is_some()),
            restarts: u32::try_from(status.restart_count).unwrap_or(0),
            budget,
        })
    }

    /// Started now (`started: true`, or ready, which the kubelet sets only after the startup probe
    /// passed) and running: its startup probe passed for this run and does not run again until the
    /// next restart.
    pub fn started_now(&self) -> bool {
        self.running && (self.started == Some(true) || self.ready)
    }

    /// Its status's `started`, `ready` and `restartCount`, and its startup probe's fields (a
    /// describe's probe is one line: cited once).
    pub fn evidence(&self, model: &Model<'_>, object: &Object) -> Vec<Evidence> {
        let mut out = Vec::new();
        for field in ["started", "ready", "restartCount"] {
            out.extend(model.evidence(object, &format!("{}.{field}", self.status_path)));
        }
        if let Some(spec) = &self.spec_path {
            for field in [
                "initialDelaySeconds",
                "failureThreshold",
                "periodSeconds",
                "httpGet.path",
                "httpGet.port",
                "tcpSocket.port",
                "exec.command[0]",
            ] {
                if let Some(e) = model.evidence(object, &format!("{spec}.startupProbe.{field}")) {
                    if !out
                        .iter()
                        .any(|o: &Evidence| o.source == e.source && o.line == e.line)
                    {
                        out.push(e);
                    }
                }
            }
        }
        out
    }
}

/// Whether a pasted Pod states its state (container statuses or conditions): a describe's Events
/// section alone names the Pod but says nothing of it now.
pub fn pod_has_state(object: &Object) -> bool {
    let Typed::Pod(pod) = &object.typed else {
        return false;
    };
    pod.status.as_ref().is_some_and(|s| {
        !s.container_statuses.as_deref().unwrap_or_default().is_empty()
            || !s.conditions.as_deref().unwrap_or_default().is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::StartupBudget;

    #[test]
    fn the_budget_is_the_delay_and_the_failures_allowed() {
        let budget = StartupBudget {
            delay: 10,
            threshold: 30,
            period: 5,
        };
        assert_eq!(budget.total(), 160);
    }
}
