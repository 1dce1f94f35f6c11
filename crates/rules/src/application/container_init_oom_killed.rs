use crate::containers::{containers, ContainerView};
use crate::history::{self, Supersedes};
use faultline_ingest::Typed;
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

/// The runtime's words for an init process the kernel killed for memory: runc's (libcontainer's
/// `process_linux.go`) and crun's.
pub fn says_init_oom(message: &str) -> bool {
    message.contains("container init was OOM-killed")
        || message.contains("OOM: the memory limit could be too low")
}

/// The container's own status says its start was OOM-killed (and not an `OOMKilled` termination,
/// which `container-oom-killed` reads).
pub fn start_oom_killed(c: &ContainerView<'_>) -> bool {
    let oom_killed = c
        .termination()
        .is_some_and(|(_, t)| t.reason.as_deref() == Some("OOMKilled"));
    !oom_killed
        && (c.waiting_message().is_some_and(says_init_oom)
            || c.termination()
                .and_then(|(_, t)| t.message.as_deref())
                .is_some_and(says_init_oom))
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
            for field in ["state.waiting.reason", "state.waiting.message"] {
                evidence.extend(model.evidence(object, &format!("{}.{field}", c.status_path)));
            }
            if let Some((key, _)) = c.termination() {
                for field in ["reason", "exitCode", "message"] {
                    evidence.extend(
                        model.evidence(object, &format!("{}.{key}.terminated.{field}", c.status_path)),
                    );
                }
            }
            if let Some(spec) = &c.spec_path {
                for field in ["resources.limits.memory", "resources.requests.memory"] {
                    evidence.extend(model.evidence(object, &format!("{spec}.{field}")));
                }
            }
        }
        let events = model.events_for(id);
        let said: Vec<&&EventRecord> = events.iter().filter(|e| says_init_oom(&e.message)).collect();
        for e in said.iter().rev().take(2) {
            evidence.extend(model.event_evidence(e));
        }
        let limit = first
            .spec
            .and_then(|s| s.resources.as_ref()?.limits.as_ref()?.get("memory"))
            .map(|q| q.0.clone());
        let reason = first
            .waiting_reason()
            .or_else(|| first.termination().and_then(|(_, t)| t.reason.as_deref()));
        let summary = Msg::Container {
            subject: id.clone(),
            init: first.init,
            container: first.status.name.as_str().into(),
            reason: reason.map(Text::from),
            limit,
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::HowMuch {}.into()];
        if first.spec.is_none() {
            cannot_establish.push(Msg::WhoseLimit {}.into());
        }
        let mut finding = RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps(id, first.init),
        );
        // Only a last state says it, and the Pod runs and is Ready now: the limit was raised, or a
        // later start fitted. History.
        let only_before = failing.iter().all(|c| {
            c.waiting_reason().is_none() && c.termination().is_some_and(|(key, _)| key == "lastState")
        });
        if only_before {
            let last = said.last().map(|e| **e);
            if let Some(recovery) = history::superseded(model, id, last, &[Supersedes::PodRunningAndReady]) {
                let until = failing
                    .iter()
                    .filter_map(|c| c.termination()?.1.finished_at.as_ref().map(|t| t.0))
                    .max()
                    .map(|at| faultline_report::message::common::Msg::Time { at: at.to_string() }.into())
                    .or_else(|| last.and_then(history::last_seen));
                history::record(&mut finding, until, recovery);
            }
        }
        findings.push(finding);
    }
    // Pods whose status does not say it (not pasted, or pasted without container states): the
    // kubelet's events that carry the runtime's words.
    for event in model
        .events
        .iter()
        .filter(|e| e.subject.kind == "Pod" && says_init_oom(&e.message))
    {
        if seen.contains(&&event.subject) {
            continue;
        }
        seen.push(&event.subject);
        if let Some(finding) = from_events(model, &event.subject) {
            findings.push(finding);
        }
    }
}

fn from_events(model: &Model<'_>, id: &ObjectRef) -> Option<Finding> {
    let events = model.events_for(id);
    let said: Vec<&&EventRecord> = events.iter().filter(|e| says_init_oom(&e.message)).collect();
    let last = **said.last()?;
    // The Pod's status says its container was OOM-killed as it ran: that is `container-oom-killed`'s.
    let object = model.object(id);
    if let Some(Typed::Pod(pod)) = object.map(|o| &o.typed) {
        if containers(pod).iter().any(|c| {
            c.termination()
                .is_some_and(|(_, t)| t.reason.as_deref() == Some("OOMKilled"))
        }) {
            return None;
        }
    }
    let mut evidence: Vec<Evidence> = Vec::new();
    for e in said.iter().rev().take(3) {
        evidence.extend(model.event_evidence(e));
    }
    let times: u32 = said.iter().map(|e| e.count.max(1)).sum();
    let sandbox = said.iter().all(|e| e.reason == "FailedCreatePodSandBox");
    let summary: Message = if sandbox {
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
    let mut cannot_establish: Vec<Message> = vec![Msg::HowMuch {}.into(), Msg::WhoseLimit {}.into()];
    if object.is_none() {
        cannot_establish.insert(0, history::currentness_unknown(id));
    }
    let mut finding = RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_runtimes_words() {
        assert!(super::says_init_oom(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)"
        ));
        assert!(super::says_init_oom(
            "2021-03-23T08:47:08.000722463Z: OOM: the memory limit could be too low: read from the init process"
        ));
        assert!(!super::says_init_oom("OOMKilled"));
    }
}
