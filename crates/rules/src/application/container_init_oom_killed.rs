use crate::containers::{containers, ContainerView};
use crate::history::{self, Supersedes};
use faultline_ingest::Typed;
use faultline_model::signals::init_oom;
use faultline_model::signals::runtime_memory::limit_of;
use faultline_model::views::container_exit::{container_evidence, ContainerExit};
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container the runtime could not start because the kernel killed the runtime's own init
    /// process for exceeding the memory limit: runc's `container init was OOM-killed (memory limit
    /// too low?)` (crun: `OOM: the memory limit could be too low`) in the container's
    /// `RunContainerError` waiting message, its last termination (`StartError`, exit code 128), the
    /// kubelet's `Failed` event (`Error: failed to create containerd task: … container init was
    /// OOM-killed (memory limit too low?)`) or a `FailedCreatePodSandBox` event, where the Pod's
    /// sandbox itself did not fit in the Pod's memory limit.
    ///
    /// ## Why it matters
    /// The words arrive in a sandbox or start error and look like a runtime or network fault, and the
    /// termination reason is `StartError`, not `OOMKilled`, with exit code 128, not 137, so it is not
    /// read as an out-of-memory kill either. It is one: the memory limit in the Pod spec (or a
    /// LimitRange default) is too low for the container to even start, and only raising it helps.
    ///
    /// ## Evidence
    /// The container's waiting reason and message, its last termination's reason, exit code and
    /// message, its `resources.limits.memory` and `requests.memory`, and the Pod's events that carry
    /// the runtime's words, matched by kind, namespace and name.
    ///
    /// ## Fault boundary
    /// `application`: the workload's own resource settings, not the node, the runtime or the network.
    ///
    /// ## What this evidence cannot establish
    /// How much memory the container needs to start: the runtime says its init process was killed,
    /// not what was in use. Whether the limit is the Pod's own or a LimitRange's default when the
    /// spec was not pasted. From events alone, whether a later start succeeded.
    ///
    /// ## Next evidence to collect
    /// The containers' resources (`kubectl get pod NAME -o jsonpath='{.spec.containers[*].resources}'`),
    /// the namespace's LimitRanges (`kubectl get limitrange -n NS -o yaml`), and `kubectl describe pod`
    /// after raising the limit.
    ///
    /// ## Example
    /// ```text
    /// Last State:     Terminated
    ///   Reason:       StartError
    ///   Message:      failed to create containerd task: failed to create shim task: OCI runtime
    ///                 create failed: runc create failed: unable to start container process:
    ///                 container init was OOM-killed (memory limit too low?): unknown
    ///   Exit Code:    128
    /// ```
    pub const RULE = { id: "container-init-oom-killed", boundary: Boundary::Application, components: [Containers], check: check };
}

faultline_report::messages! {
    /// The words of `container-init-oom-killed`.
    pub enum Msg {
        /// A container (an init container when `init`) whose start the kernel's OOM killer ended;
        /// `reason` is its waiting or termination reason, `limit` its memory limit as written.
        Container { subject: ObjectRef, init: bool, container: Text, reason: Option<Text>, limit: Option<String> } = "container-init-oom-killed.container" {
            en: {
                let kind = if *init.0 { "init container" } else { "container" };
                let reason = reason.0.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
                let limit = limit.0.as_ref().map_or_else(|| "its memory limit".to_string(), |l| format!("its memory limit of {l}"));
                format!("{subject}: {kind} {container} cannot start{reason}: the runtime's init process was OOM-killed before the application ran, so {limit} is too low for it to start at all. This is not a sandbox, network or runtime fault.")
            },
            zh: {
                let kind = if *init.0 { " Init 容器" } else { "容器" };
                let reason = reason.0.as_ref().map(|r| format!("（{r}）")).unwrap_or_default();
                let limit = limit.0.as_ref().map_or_else(|| "它的内存限制".to_string(), |l| format!("它 {l} 的内存限制"));
                format!("{subject}：{kind} {container} 无法启动{reason}：应用运行之前，运行时的 init 进程就因内存不足被杀掉了，所以{limit}太小，连启动都做不到。这不是沙箱、网络或容器运行时的故障。")
            },
        },
        /// The Pod's sandbox could not be created for the same reason: `FailedCreatePodSandBox`.
        Sandbox { subject: ObjectRef, attempts: u32 } = "container-init-oom-killed.sandbox" {
            en: {
                let attempts = if *attempts.0 == 1 { "1 attempt".to_string() } else { format!("{attempts} attempts") };
                format!("{subject}'s sandbox cannot be created ({attempts}): the runtime's init process was OOM-killed (memory limit too low?), so the Pod's memory limit is too low for even its sandbox to start. This is not a CNI or network fault.")
            },
            zh: "{subject} 的沙箱无法创建（已尝试 {attempts} 次）：运行时的 init 进程因内存不足被杀掉（memory limit too low?），所以 Pod 的内存限制太小，连沙箱都无法启动。这不是 CNI 或网络的故障。",
        },
        /// A Pod known from the kubelet's events only.
        FromEvents { subject: ObjectRef, times: u32 } = "container-init-oom-killed.from-events" {
            en: {
                let times = if *times.0 == 1 { "1 failed start".to_string() } else { format!("{times} failed starts") };
                format!("{subject} cannot start a container ({times} in its events): the runtime's init process was OOM-killed (memory limit too low?), so the memory limit is too low for the container to start at all. From the kubelet's events only.")
            },
            zh: "{subject} 无法启动容器（事件中有 {times} 次失败的启动）：运行时的 init 进程因内存不足被杀掉（memory limit too low?），所以内存限制太小，容器连启动都做不到。仅依据 kubelet 的事件。",
        },
        HowMuch {} = "container-init-oom-killed.how-much" {
            en: "How much memory the container needs to start: the runtime says its init process was killed, not what was in use.",
            zh: "容器启动到底需要多少内存：运行时只说它的 init 进程被杀了，没有说当时用了多少。",
        },
        WhoseLimit {} = "container-init-oom-killed.whose-limit" {
            en: "Whether the limit is the Pod's own or a LimitRange's default: the Pod's spec was not in the input.",
            zh: "这个限制是 Pod 自己设置的，还是 LimitRange 的默认值：输入中没有 Pod 的 spec。",
        },
    }
}

/// The runtime's words for an init process the kernel killed for memory ([`init_oom`]).
pub use init_oom::says_init_oom;

/// The container's own status says its start was OOM-killed (and not an `OOMKilled` termination,
/// which `container-oom-killed` reads).
pub fn start_oom_killed(c: &ContainerView<'_>) -> bool {
    init_oom::start_oom_killed(c.status)
}

/// What shows a start passed: the container started after it.
const STARTED: Supersedes<'static> = Supersedes::Event {
    reasons: &["Started"],
    same_part: true,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen: Vec<&ObjectRef> = Vec::new();
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        let failing: Vec<ContainerView<'_>> = containers(pod).into_iter().filter(start_oom_killed).collect();
        let Some(first) = failing.first() else { continue };
        seen.push(&object.id);
        let id = &object.id;
        let mut evidence: Vec<Evidence> = Vec::new();
        for c in &failing {
            let waiting = ["state.waiting.reason", "state.waiting.message"];
            evidence.extend(container_evidence(model, object, &c.status_path, &waiting));
            if let Some(exit) = ContainerExit::of(c.status) {
                let fields =
                    ["reason", "exitCode", "message"].map(|f| format!("{}.terminated.{f}", exit.key));
                evidence.extend(container_evidence(model, object, &c.status_path, &fields));
            }
            if let Some(spec) = &c.spec_path {
                let memory = ["resources.limits.memory", "resources.requests.memory"];
                evidence.extend(container_evidence(model, object, spec, &memory));
            }
        }
        let said: Vec<&EventRecord> = model
            .events_for(id)
            .into_iter()
            .filter(|e| e.says_init_oom())
            .collect();
        evidence.extend(said.iter().rev().take(2).filter_map(|e| model.event_evidence(e)));
        let limit = first.spec.and_then(limit_of);
        let exit = ContainerExit::of(first.status);
        let reason = first
            .waiting_reason()
            .or_else(|| exit?.terminated.reason.as_deref());
        let summary = Msg::Container {
            subject: id.clone(),
            init: first.init,
            container: first.status.name.as_str().into(),
            reason: reason.map(Text::from),
            limit: limit.map(str::to_string),
        };
        let mut cannot: Vec<Message> = vec![Msg::HowMuch {}.into()];
        cannot.extend(first.spec.is_none().then(|| Msg::WhoseLimit {}.into()));
        let steps = next_steps(id, first.init);
        let mut finding = RULE.finding(Severity::Error, id.clone(), summary, evidence, cannot, steps);
        // Only a last state says it, and the Pod runs and is Ready now: the limit was raised, or a
        // later start fitted. History.
        let exits: Vec<_> = failing
            .iter()
            .filter_map(|c| ContainerExit::of(c.status))
            .collect();
        let only_before = exits.len() == failing.len()
            && failing.iter().all(|c| c.waiting_reason().is_none())
            && exits.iter().all(|e| e.key == "lastState");
        let last = said.last().copied();
        let recovery =
            only_before.then(|| history::superseded(model, id, last, &[Supersedes::PodRunningAndReady]));
        if let Some(recovery) = recovery.flatten() {
            let finished = exits
                .iter()
                .filter_map(|e| e.terminated.finished_at.as_ref().map(|t| t.0))
                .max();
            let until = finished
                .map(|at| faultline_report::message::common::Msg::Time { at: at.to_string() }.into())
                .or_else(|| last.and_then(history::last_seen));
            history::record(&mut finding, until, recovery);
        }
        findings.push(finding);
    }
    // Pods whose status does not say it (not pasted, or pasted without container states): the
    // kubelet's events that carry the runtime's words.
    for pod in model.event_subjects("Pod", EventRecord::says_init_oom) {
        if !seen.contains(&pod.subject) {
            findings.extend(from_events(model, pod.subject, &pod.events));
        }
    }
}

fn from_events(model: &Model<'_>, id: &ObjectRef, said: &[&EventRecord]) -> Option<Finding> {
    let last = *said.last()?;
    // The Pod's status says its container was OOM-killed as it ran: that is `container-oom-killed`'s.
    let object = model.object(id);
    if let Some(Typed::Pod(pod)) = object.map(|o| &o.typed) {
        if containers(pod)
            .iter()
            .any(|c| ContainerExit::of(c.status).is_some_and(|e| e.oom_killed()))
        {
            return None;
        }
    }
    let evidence = model.newest_events_evidence(said, 3);
    let times: u32 = said.iter().map(|e| e.count.max(1)).sum();
    let summary: Message = if said.iter().all(|e| e.reason == "FailedCreatePodSandBox") {
        Msg::Sandbox {
            subject: id.clone(),
            attempts: times,
        }
        .into()
    } else {
        Msg::FromEvents {
            subject: id.clone(),
            times,
        }
        .into()
    };
    let mut cannot: Vec<Message> = vec![Msg::HowMuch {}.into(), Msg::WhoseLimit {}.into()];
    if object.is_none() {
        cannot.insert(0, history::currentness_unknown(id));
    }
    let mut finding = RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot,
        next_steps(id, false),
    );
    if let Some(recovery) =
        history::superseded(model, id, Some(last), &[STARTED, Supersedes::PodRunningAndReady])
    {
        history::record(&mut finding, history::last_seen(last), recovery);
    }
    Some(finding)
}

fn next_steps(id: &ObjectRef, init: bool) -> Vec<String> {
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    vec![
        command!("kubectl describe pod {} -n {}", id.name, ns),
        command!(
            "kubectl get pod {} -n {} -o jsonpath='{{range .spec.{}[*]}}{{.name}}: {{.resources}}{{\"\\n\"}}{{end}}'",
            id.name,
            ns,
            crate::shell::InQuotes(if init { "initContainers" } else { "containers" })
        ),
        command!("kubectl get limitrange -n {} -o yaml", ns),
    ]
}
