use std::collections::BTreeSet;

use crate::containers::containers;
use crate::history::{self, Recovery, Supersedes};
use faultline_ingest::{Object, Typed};
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container that does not finish starting: the kubelet's `Unhealthy` events "Startup probe
    /// failed: …" (an HTTP status, `connection refused`, a timeout, a command's output) and its
    /// `Killing` events "Container x failed startup probe, will be restarted". The probe's own output
    /// is cited; with the Pod pasted, the container's `started`, `ready` and `restartCount`, and with
    /// its spec the time the startup probe gives the application (`initialDelaySeconds` +
    /// `failureThreshold` × `periodSeconds`). Failures the input shows have passed (the Pod Ready
    /// with 0 restarts, the container `started: true` and running, or ready) are history: an info
    /// line, never an error.
    ///
    /// ## Why it matters
    /// Until its startup probe passes, a container is not started: its liveness and readiness probes
    /// do not run and it receives no traffic. After `failureThreshold` failures in a row the kubelet
    /// kills it and starts it again, so an application that needs longer than its budget
    /// never comes up and looks like a crash loop. The restarts are the kubelet's kills, not the
    /// application exiting.
    ///
    /// ## Evidence
    /// The `Unhealthy` and `Killing` events for the Pod (matched by kind, namespace and name) with
    /// their counts; the container's `started`, `ready` and `restartCount` and its `startupProbe`
    /// when the Pod is pasted. From events alone the finding is a warning: the Pod may have started
    /// since.
    ///
    /// ## Fault boundary
    /// `application`: the process's answer to its own start-up check.
    ///
    /// ## What this evidence cannot establish
    /// Whether the application is slow to start or broken (a missing dependency, a wrong port, a
    /// crash in its initialisation), and whether the budget is too short for it: how long it takes to
    /// start on a good day is not in the input.
    ///
    /// ## Next evidence to collect
    /// The probe's definition, the application's logs from the killed run (`kubectl logs
    /// --previous`), and how long it took to start before (its logs' first and "ready" lines).
    ///
    /// ## Example
    /// ```text
    /// Warning  Unhealthy  58m (x22 over 62m)  kubelet  Startup probe failed: HTTP probe failed with statuscode: 503
    /// Normal   Killing    53m                 kubelet  Container api failed startup probe, will be restarted
    /// ```
    pub const RULE = { id: "startup-probe-failing", boundary: Boundary::Application, components: [Containers], check: check };
}

/// The kubelet's defaults for a probe's `initialDelaySeconds`, `failureThreshold`, `periodSeconds`.
const DEFAULT_DELAY: u32 = 0;
const DEFAULT_THRESHOLD: u32 = 3;
const DEFAULT_PERIOD: u32 = 10;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen = BTreeSet::new();
    for event in model
        .events
        .iter()
        .filter(|e| e.subject.kind == "Pod" && is_startup(e))
    {
        if !seen.insert(event.subject.to_string()) {
            continue;
        }
        let id = &event.subject;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let events: Vec<&EventRecord> = model
            .events_for(id)
            .into_iter()
            .filter(|e| is_startup(e))
            .collect();
        let named = events.iter().rev().find_map(|e| container_of(e));
        // The Pod with a state (container statuses or conditions): a describe's Events section alone
        // names the Pod but says nothing of it now.
        let pod = model.object(id).filter(|o| has_state(o));
        let mut evidence: Vec<Evidence> = Vec::new();
        for e in events.iter().rev().take(3) {
            evidence.extend(model.event_evidence(e));
        }
        let failure = events
            .iter()
            .rev()
            .find(|e| e.reason == "Unhealthy")
            .map(|e| probe_output(&e.message))
            .filter(|f| !f.is_empty());
        let failures: u32 = events
            .iter()
            .filter(|e| e.reason == "Unhealthy")
            .map(|e| e.count.max(1))
            .sum();
        let kills: u32 = events
            .iter()
            .filter(|e| e.reason == "Killing")
            .map(|e| e.count.max(1))
            .sum();
        // Superseded: the Pod Ready with 0 restarts, or this container started (or ready) and running.
        let last = events.last().copied();
        let recovery = history::superseded(model, id, last, &[Supersedes::PodReadyWithoutRestarts])
            .or_else(|| pod.and_then(|object| started_now(model, object, named.as_deref())));
        let mut state = None;
        let mut budget = None;
        let mut container: Option<Text> = named.as_deref().map(Into::into);
        if let Some(object) = pod {
            if let Some(view) = pasted_container(object, named.as_deref()) {
                container = (!view.name.is_empty()).then(|| view.name.as_str().into());
                evidence.extend(view.evidence(model, object));
                // The state now is the recovery's to say when there is one.
                state = recovery.is_none().then_some(Msg::State {
                    started: view.started,
                    ready: view.ready,
                    restarts: view.restarts,
                });
                budget = view.budget;
            }
        }
        let summary = Msg::Failing {
            subject: id.clone(),
            container: container.clone(),
            failure,
            failures,
            kills: (kills > 0).then_some(kills),
            state: state.map(Msg::into_box),
            budget: budget.map(|b| b.total()),
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::SlowOrBroken {}.into()];
        cannot_establish.push(match budget {
            Some(b) => Msg::BudgetKnown {
                delay: b.delay,
                threshold: b.threshold,
                period: b.period,
                total: b.total(),
            }
            .into(),
            None => Msg::BudgetUnknown {}.into(),
        });
        if pod.is_none() {
            cannot_establish.push(history::currentness_unknown(id));
        }
        let jsonpath = command!(
            "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].startupProbe}}'",
            id.name,
            ns
        );
        // The killed run's logs (`--previous`); with the Pod recovered and never restarted there is
        // no previous run, and the start-up is in the current run's logs.
        let previous = !(recovery.is_some()
            && pod
                .and_then(|o| pasted_container(o, named.as_deref()))
                .is_some_and(|c| c.restarts == 0));
        let logs = match (&container, previous) {
            (Some(c), true) => command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, c),
            (None, true) => command!("kubectl logs {} -n {} --previous", id.name, ns),
            (Some(c), false) => command!("kubectl logs {} -n {} -c {}", id.name, ns, c),
            (None, false) => command!("kubectl logs {} -n {}", id.name, ns),
        };
        let next_steps = if id.name.is_empty() {
            // A Pod the paste does not name: find it first.
            vec![
                command!("kubectl get events -A --field-selector reason=Killing"),
                command!("kubectl get pods -A -o wide"),
            ]
        } else {
            vec![
                jsonpath,
                logs,
                command!("kubectl describe pod {} -n {}", id.name, ns),
            ]
        };
        // From its events alone the failures may be history (the Pod may have started since): a
        // warning until the Pod's state says they are current.
        let severity = if pod.is_none() {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut finding = RULE.finding(
            severity,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        if let Some(recovery) = recovery {
            history::record(&mut finding, last.and_then(history::last_seen), recovery);
        }
        findings.push(finding);
    }
}

/// Whether a Pod's restarts are the kubelet's startup-probe kills: a `Killing` event "failed startup
/// probe" for it, or a container of the pasted Pod last terminated with exit 137 or 143 and not OOMKilled
/// (what a kill for a failed startup probe leaves: SIGKILL after the grace period, or SIGTERM obeyed), beside the startup-probe failures.
pub fn kills_explain_restarts(model: &Model<'_>, pod: &ObjectRef) -> bool {
    let events = model.events_for(pod);
    if events
        .iter()
        .any(|e| e.reason == "Killing" && e.message.contains("failed startup probe"))
    {
        return true;
    }
    let Some(Typed::Pod(p)) = model.object(pod).map(|o| &o.typed) else {
        return false;
    };
    containers(p).iter().any(|c| {
        c.termination().is_some_and(|(_, t)| {
            matches!(t.exit_code, 137 | 143) && t.reason.as_deref() != Some("OOMKilled")
        })
    })
}

fn has_state(object: &Object) -> bool {
    let Typed::Pod(pod) = &object.typed else {
        return false;
    };
    pod.status.as_ref().is_some_and(|s| {
        !s.container_statuses.as_deref().unwrap_or_default().is_empty()
            || !s.conditions.as_deref().unwrap_or_default().is_empty()
    })
}

fn is_startup(event: &EventRecord) -> bool {
    (event.reason == "Unhealthy"
        && (event.message.starts_with("Startup probe failed")
            || event.message.starts_with("Startup probe errored")))
        || (event.reason == "Killing" && event.message.contains("failed startup probe"))
}

/// The container an event names: its `fieldPath` (`spec.containers{api}`), or the `Killing`
/// message's `Container api failed startup probe`.
fn container_of(event: &EventRecord) -> Option<String> {
    if let Some(name) = event
        .field_path
        .as_deref()
        .and_then(|p| p.strip_prefix("spec.containers{"))
        .and_then(|p| p.strip_suffix('}'))
    {
        return Some(name.to_string());
    }
    event
        .message
        .strip_prefix("Container ")
        .and_then(|m| m.split_once(" failed startup probe"))
        .map(|(name, _)| name.to_string())
        .filter(|n| !n.is_empty() && !n.contains(' '))
}

/// The probe's own words after `Startup probe failed: `, on one line (a command's output can span
/// several).
fn probe_output(message: &str) -> String {
    let rest = message
        .strip_prefix("Startup probe failed:")
        .or_else(|| message.strip_prefix("Startup probe errored:"))
        .unwrap_or(message);
    rest.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The time a startup probe gives the application before the kubelet kills it.
#[derive(Clone, Copy, Debug)]
struct Budget {
    delay: u32,
    threshold: u32,
    period: u32,
}

impl Budget {
    fn total(self) -> u32 {
        self.delay
            .saturating_add(self.threshold.saturating_mul(self.period))
    }
}

/// The pasted Pod's container the events are about.
struct Pasted {
    name: String,
    status_path: String,
    spec_path: Option<String>,
    started: Option<bool>,
    ready: bool,
    running: bool,
    restarts: u32,
    budget: Option<Budget>,
}

impl Pasted {
    fn evidence(&self, model: &Model<'_>, object: &Object) -> Vec<Evidence> {
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
                // A describe's probe is one line: cite it once.
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

/// The container of the pasted Pod named `name` (or, unnamed, the only one, or the first with a
/// startup probe).
fn pasted_container(object: &Object, name: Option<&str>) -> Option<Pasted> {
    let Typed::Pod(pod) = &object.typed else {
        return None;
    };
    let views: Vec<_> = containers(pod).into_iter().filter(|c| !c.init).collect();
    let has_probe = |spec: &Option<String>| {
        spec.as_ref()
            .is_some_and(|s| object.locate(&format!("{s}.startupProbe")).is_some())
    };
    let view = match name {
        Some(name) => views.iter().find(|c| c.status.name == name),
        None if views.len() == 1 => views.first(),
        None => views.iter().find(|c| has_probe(&c.spec_path)),
    }?;
    let started = object
        .locate(&format!("{}.started", view.status_path))
        .and_then(|(_, n)| n.as_str())
        .and_then(|s| s.parse::<bool>().ok());
    let budget = view
        .spec_path
        .as_ref()
        .filter(|_| has_probe(&view.spec_path))
        .map(|spec| {
            let number = |field: &str, default: u32| {
                object
                    .locate(&format!("{spec}.startupProbe.{field}"))
                    .and_then(|(_, n)| n.as_str())
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .unwrap_or(default)
            };
            Budget {
                delay: number("initialDelaySeconds", DEFAULT_DELAY),
                threshold: number("failureThreshold", DEFAULT_THRESHOLD).max(1),
                period: number("periodSeconds", DEFAULT_PERIOD).max(1),
            }
        });
    Some(Pasted {
        name: view.status.name.to_string(),
        status_path: view.status_path.clone(),
        spec_path: view.spec_path.clone(),
        started,
        ready: view.status.ready,
        running: view.status.state.as_ref().is_some_and(|s| s.running.is_some()),
        restarts: u32::try_from(view.status.restart_count).unwrap_or(0),
        budget,
    })
}

/// The container is started now (`started: true`, or ready, which the kubelet sets only after the
/// startup probe passed) and running: its startup probe passed for this run and does not run again
/// until the next restart, so the failures before are history whatever the restart count.
fn started_now(model: &Model<'_>, object: &Object, name: Option<&str>) -> Option<Recovery> {
    let c = pasted_container(object, name)?;
    if !c.running || !(c.started == Some(true) || c.ready) {
        return None;
    }
    let mut evidence = Vec::new();
    for field in ["started", "ready", "state.running.startedAt", "restartCount"] {
        evidence.extend(model.evidence(object, &format!("{}.{field}", c.status_path)));
    }
    Some(Recovery {
        by: Msg::StartedNow {
            subject: object.id.clone(),
            container: (!c.name.is_empty()).then(|| c.name.as_str().into()),
            restarts: c.restarts,
        }
        .into(),
        evidence,
    })
}

faultline_report::messages! {
    /// The words of `startup-probe-failing`.
    pub enum Msg {
        /// A Pod whose container does not finish starting: the probe's own output (after `Startup
        /// probe failed: `), how often it failed and was killed, the container's state when the Pod is
        /// pasted, and the seconds its startup probe allows when its spec is.
        Failing { subject: ObjectRef, container: Option<Text>, failure: Option<String>, failures: u32, kills: Option<u32>, state: Option<Box<Message>>, budget: Option<u32> } = "startup-probe-failing.failing" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "a container".to_string(), |c| format!("container {c}"));
                let failure = failure.0.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
                let failures = match *failures.0 { 0 => String::new(), 1 => ", once in the events".to_string(), n => format!(", {n} times in the events") };
                let kills = match kills.0 {
                    Some(1) => "; the kubelet killed it once for it. The restarts are the kubelet's kills, not the application exiting".to_string(),
                    Some(k) => format!("; the kubelet killed it {k} times for it. The restarts are the kubelet's kills, not the application exiting"),
                    None => ". After failureThreshold failures in a row the kubelet kills it and starts it again".to_string(),
                };
                let budget = budget.0.map(|b| format!(" Its startup probe allows {b}s before the kubelet kills it.")).unwrap_or_default();
                let state = state.0.as_ref().map(|s| format!(" Now: {}.", s.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{subject}: {container} does not finish starting: its startup probe fails{failure}{failures}, so the container is not started: its liveness and readiness probes do not run and it gets no traffic{kills}.{budget}{state}")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "有一个容器".to_string(), |c| format!("容器 {c} "));
                let failure = failure.0.as_ref().map(|f| format!("（{f}）")).unwrap_or_default();
                let failures = match *failures.0 { 0 => String::new(), n => format!("，事件中共 {n} 次") };
                let kills = match kills.0 {
                    Some(k) => format!("；kubelet 因此杀死了它 {k} 次。这些重启是 kubelet 强制终止容器造成的，不是应用自己退出"),
                    None => "。连续失败 failureThreshold 次之后，kubelet 会杀死它并重新启动".to_string(),
                };
                let budget = budget.0.map(|b| format!("它的启动探针在 kubelet 杀死它之前留出 {b} 秒。")).unwrap_or_default();
                let state = state.0.as_ref().map(|s| format!("当前：{}。", s.render(faultline_report::lang::Lang::Zh))).unwrap_or_default();
                format!("{subject}：{container}一直没有完成启动：它的启动探针失败{failure}{failures}，因此容器不算已启动：它的存活探针和就绪探针都不会执行，也不接收流量{kills}。{budget}{state}")
            },
        },
        /// The pasted container's state: `started` when the status says it.
        State { started: Option<bool>, ready: bool, restarts: u32 } = "startup-probe-failing.state" {
            en: {
                let started = match started.0 { Some(s) => format!("started: {s}, "), None => String::new() };
                format!("{started}ready: {ready}, restartCount: {restarts}")
            },
            zh: {
                let started = match started.0 { Some(s) => format!("started 为 {s}，"), None => String::new() };
                format!("{started}ready 为 {ready}，restartCount 为 {restarts}")
            },
        },
        SlowOrBroken {} = "startup-probe-failing.slow-or-broken" {
            en: "Whether the application is slow to start or broken (a missing dependency, a wrong port or path, a crash while it initialises): the probe says what it answered, its logs from the killed run (`--previous`) say why.",
            zh: "应用是启动慢还是已经坏了（缺少某个依赖、端口或路径不对、初始化时崩溃）：探针只说明它得到了什么响应，原因要看被杀死的那次运行的日志（`--previous`）。",
        },
        /// The startup budget from the pasted spec, defaults filled in.
        BudgetKnown { delay: u32, threshold: u32, period: u32, total: u32 } = "startup-probe-failing.budget-known" {
            en: "Whether {total}s (initialDelaySeconds {delay} + failureThreshold {threshold} × periodSeconds {period}) is too short for this application: how long it takes to start on a good day is not in the input.",
            zh: "{total} 秒（initialDelaySeconds {delay} + failureThreshold {threshold} × periodSeconds {period}）对这个应用来说是否太短：它正常情况下需要多久才能启动，输入中没有。",
        },
        BudgetUnknown {} = "startup-probe-failing.budget-unknown" {
            en: "Whether the time the startup probe allows (initialDelaySeconds + failureThreshold × periodSeconds) is too short: the container's startupProbe was not pasted.",
            zh: "启动探针留出的时间（initialDelaySeconds + failureThreshold × periodSeconds）是否太短：输入中没有该容器的 startupProbe。",
        },
        /// What shows the startup probe passed since: the container started (or ready) and running.
        StartedNow { subject: ObjectRef, container: Option<Text>, restarts: u32 } = "startup-probe-failing.started-now" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "its container".to_string(), |c| format!("container {c}"));
                let restarts = match *restarts.0 { 0 => String::new(), 1 => ", after 1 restart".to_string(), n => format!(", after {n} restarts") };
                format!("{container} of {subject} has started and runs now{restarts}")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "它的容器".to_string(), |c| format!("容器 {c} "));
                let restarts = match *restarts.0 { 0 => String::new(), n => format!("，此前重启过 {n} 次") };
                format!("{subject} 的{container}现在已启动并在运行{restarts}")
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_container_and_the_probe_output() {
        assert_eq!(
            probe_output("Startup probe failed: Warning: a\nmysqladmin: connect failed\n"),
            "Warning: a mysqladmin: connect failed"
        );
        let budget = Budget {
            delay: 10,
            threshold: 30,
            period: 5,
        };
        assert_eq!(budget.total(), 160);
    }
}
