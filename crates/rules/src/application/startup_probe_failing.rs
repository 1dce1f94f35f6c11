use crate::containers::containers;
use crate::history::{self, Recovery, Supersedes};
use faultline_ingest::{Object, Typed};
use faultline_model::signals::probe::{Probe, ProbeEvent};
use faultline_model::views::container_exit::{container_evidence, ContainerExit};
use faultline_model::views::startup_probe::{pod_has_state, StartupContainer};
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

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

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pod in model.event_subjects("Pod", |e| e.is_probe(Probe::Startup)) {
        let (id, events) = (pod.subject, &pod.events);
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let named = events
            .iter()
            .rev()
            .find_map(|e| e.probe_container(Probe::Startup));
        // The Pod with a state: a describe's Events section alone says nothing of it now.
        let object = model.object(id).filter(|o| pod_has_state(o));
        let pasted = object.and_then(|o| StartupContainer::of(o, named));
        let mut evidence = model.newest_events_evidence(events, 3);
        let failed = |e: &&&EventRecord| matches!(e.probe(), Some(ProbeEvent::Failed { .. }));
        let failure = events
            .iter()
            .rev()
            .find(failed)
            .map(|e| e.probe_output_line(Probe::Startup));
        let failures: u32 = events.iter().filter(failed).map(|e| e.count.max(1)).sum();
        let kills: u32 = events.iter().filter(|e| !failed(e)).map(|e| e.count.max(1)).sum();
        // Superseded: the Pod Ready with 0 restarts, or this container started (or ready) and running.
        let last = pod.last();
        let recovery = history::superseded(model, id, last, &[Supersedes::PodReadyWithoutRestarts])
            .or_else(|| started_now(model, object?, pasted.as_ref()?));
        let mut container: Option<Text> = named.map(Into::into);
        if let (Some(object), Some(c)) = (object, &pasted) {
            container = (!c.name.is_empty()).then(|| c.name.as_str().into());
            evidence.extend(c.evidence(model, object));
        }
        // The state now is the recovery's to say when there is one.
        let state = pasted
            .as_ref()
            .filter(|_| recovery.is_none())
            .map(|c| Msg::State {
                started: c.started,
                ready: c.ready,
                restarts: c.restarts,
            });
        let budget = pasted.as_ref().and_then(|c| c.budget);
        let summary = Msg::Failing {
            subject: id.clone(),
            container: container.clone(),
            failure: failure.filter(|f| !f.is_empty()),
            failures,
            kills: (kills > 0).then_some(kills),
            state: state.map(Msg::into_box),
            budget: budget.map(|b| b.total()),
        };
        let budget = match budget {
            Some(b) => Msg::BudgetKnown {
                delay: b.delay,
                threshold: b.threshold,
                period: b.period,
                total: b.total(),
            },
            None => Msg::BudgetUnknown {},
        };
        let mut cannot: Vec<Message> = vec![Msg::SlowOrBroken {}.into(), budget.into()];
        cannot.extend(object.is_none().then(|| history::currentness_unknown(id)));
        // The killed run's logs (`--previous`); with the Pod recovered and never restarted there is
        // no previous run, and the start-up is in the current run's logs.
        let previous = !(recovery.is_some() && pasted.as_ref().is_some_and(|c| c.restarts == 0));
        let logs = match (&container, previous) {
            (Some(c), true) => command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, c),
            (None, true) => command!("kubectl logs {} -n {} --previous", id.name, ns),
            (Some(c), false) => command!("kubectl logs {} -n {} -c {}", id.name, ns, c),
            (None, false) => command!("kubectl logs {} -n {}", id.name, ns),
        };
        let steps = if id.name.is_empty() {
            // A Pod the paste does not name: find it first.
            vec![
                command!("kubectl get events -A --field-selector reason=Killing"),
                command!("kubectl get pods -A -o wide"),
            ]
        } else {
            vec![
                command!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].startupProbe}}'",
                    id.name,
                    ns
                ),
                logs,
                command!("kubectl describe pod {} -n {}", id.name, ns),
            ]
        };
        // From its events alone the failures may be history (the Pod may have started since): a
        // warning until the Pod's state says they are current.
        let severity = [Severity::Error, Severity::Warning][usize::from(object.is_none())];
        let mut finding = RULE.finding(severity, id.clone(), summary, evidence, cannot, steps);
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
    let killed = |e: &&EventRecord| e.reason == "Killing" && e.is_probe(Probe::Startup);
    if model.events_for(pod).iter().any(killed) {
        return true;
    }
    let Some(Typed::Pod(p)) = model.object(pod).map(|o| &o.typed) else {
        return false;
    };
    containers(p).iter().any(|c| {
        ContainerExit::of(c.status)
            .is_some_and(|e| matches!(e.terminated.exit_code, 137 | 143) && !e.oom_killed())
    })
}

/// The container started now and running: its startup probe passed for this run, so the failures
/// before are history whatever the restart count.
fn started_now(model: &Model<'_>, object: &Object, c: &StartupContainer) -> Option<Recovery> {
    if !c.started_now() {
        return None;
    }
    let fields = ["started", "ready", "state.running.startedAt", "restartCount"];
    let evidence = container_evidence(model, object, &c.status_path, &fields);
    let by = Msg::StartedNow {
        subject: object.id.clone(),
        container: (!c.name.is_empty()).then(|| c.name.as_str().into()),
        restarts: c.restarts,
    };
    Some(Recovery {
        by: by.into(),
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
