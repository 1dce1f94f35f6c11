use crate::application::container_init_oom_killed::start_oom_killed;
use crate::containers::{containers, ContainerView};
use crate::history::{self, Supersedes};
use faultline_ingest::Typed;
use faultline_model::signals::container_start::StartError;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container whose process the runtime could not start: `state.waiting.reason` is
    /// `RunContainerError` or `CreateContainerError`, or its (last) termination has reason
    /// `ContainerCannotRun` or `StartError`. The runtime's message is read for the usual causes: an
    /// executable that is not in the image (`exec: "x": executable file not found in $PATH`, exit
    /// 127), one that is not executable (permission denied, 126), a missing working directory or
    /// mount path. A `CrashLoopBackOff` whose last termination is one of these is counted here: the
    /// application never ran.
    ///
    /// ## Why it matters
    /// Restarts and `CrashLoopBackOff` look like an application crash, but the process never started:
    /// the command, the image's contents or the container's mounts are wrong, and the application's
    /// own logs are empty.
    ///
    /// ## Evidence
    /// The waiting reason and message, the termination reason, exit code and runtime message, the
    /// container's `command`/`args` and image from the spec, and the Pod's `Failed` events.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the container runtime (CRI) creating and starting the process on the node.
    ///
    /// ## What this evidence cannot establish
    /// Whether the executable exists under another path in the image, or whether the image itself is
    /// the wrong one (a tag that moved); what the application would do once started.
    ///
    /// ## Next evidence to collect
    /// The container's `command` and `args`, the image's entrypoint (`kubectl debug` with a shell
    /// image), and `kubectl describe pod` for the runtime's full message.
    ///
    /// ## Example
    /// ```yaml
    /// lastState:
    ///   terminated:
    ///     exitCode: 127
    ///     reason: ContainerCannotRun
    ///     message: 'OCI runtime create failed: ... exec: "wge": executable file not found in $PATH'
    /// ```
    pub const RULE = { id: "container-start-failed", boundary: Boundary::NodeRuntime, components: [Kubelet, Runtime], check: check };
}

/// Whether a container's trouble is that its process could not be started; used by the crash-loop
/// rule to leave these containers to this one.
pub fn never_started(c: &ContainerView<'_>) -> bool {
    matches!(
        c.waiting_reason(),
        Some("RunContainerError" | "CreateContainerError")
    ) || c
        .termination()
        .is_some_and(|(_, t)| matches!(t.reason.as_deref(), Some("ContainerCannotRun" | "StartError")))
}

/// The runtime's reason as the summary says it.
fn hint(error: StartError) -> Msg {
    match error {
        StartError::NotInImage => Msg::NotInImage {},
        StartError::NotExecutable => Msg::NotExecutable {},
        StartError::PathMissing => Msg::PathMissing {},
        StartError::WrongArchitecture => Msg::WrongArchitecture {},
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        // A start the kernel's OOM killer ended is the memory limit's (`container-init-oom-killed`).
        let failing: Vec<_> = containers(pod)
            .into_iter()
            .filter(|c| never_started(c) && !start_oom_killed(c))
            .collect();
        let Some(first) = failing.first() else { continue };
        let id = &object.id;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut messages = Vec::new();
        for c in &failing {
            evidence.extend(model.evidence(object, &format!("{}.state.waiting.reason", c.status_path)));
            if let Some((key, t)) = c.termination() {
                let base = format!("{}.{key}.terminated", c.status_path);
                evidence.extend(model.evidence(object, &format!("{base}.reason")));
                evidence.extend(model.evidence(object, &format!("{base}.exitCode")));
                evidence.extend(model.evidence(object, &format!("{base}.message")));
                messages.extend(t.message.as_deref().map(str::to_string));
            }
            evidence.extend(model.evidence(object, &format!("{}.state.waiting.message", c.status_path)));
            messages.extend(c.waiting_message().map(str::to_string));
            if let Some(spec) = &c.spec_path {
                for field in ["command", "args", "image"] {
                    evidence.extend(model.evidence(object, &format!("{spec}.{field}")));
                }
            }
        }
        let events = model.events_for(id);
        if let Some(event) = events.iter().rfind(|e| e.reason == "Failed") {
            evidence.extend(model.event_evidence(event));
            messages.push(event.message.clone());
        }
        let cause = messages
            .iter()
            .find_map(|m| StartError::read(m))
            .map_or(Msg::NotSaid {}, hint);
        let summary = Msg::CannotStart {
            subject: id.clone(),
            init: first.init,
            container: first.status.name.as_str().into(),
            cause: Box::new(cause.into()),
            restarts: u32::try_from(first.status.restart_count).unwrap_or(0),
        };
        let mut cannot_establish: Vec<Message> =
            vec![Msg::ElsewhereInImage {}.into(), Msg::OnceStarted {}.into()];
        if first.spec.is_none() {
            cannot_establish.push(Msg::NoSpec {}.into());
        }
        let name = &id.name;
        let container = &first.status.name;
        let next_steps = vec![
            command!("kubectl describe pod {} -n {}", name, ns),
            command!("kubectl get pod {} -n {} -o jsonpath='{{range .spec.{}[*]}}{{.name}}: {{.command}} {{.args}}{{\"\\n\"}}{{end}}'", name, ns, crate::shell::InQuotes(if first.init { "initContainers" } else { "containers" })),
            command!("kubectl debug {} -n {} -it --copy-to={}-debug --container={} -- sh", name, ns, name, container),
        ];
        let mut finding = RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        // Only a last state failed to start, and the Pod runs and is Ready now: a start that failed
        // once (a missing mount source, a race with a ConfigMap) and then succeeded is history.
        let only_before = failing.iter().all(|c| {
            c.waiting_reason().is_none() && c.termination().is_some_and(|(key, _)| key == "lastState")
        });
        let failed_event = events.iter().rfind(|e| e.reason == "Failed").copied();
        if only_before {
            if let Some(recovery) =
                history::superseded(model, id, failed_event, &[Supersedes::PodRunningAndReady])
            {
                // When the failed start ended, by the status's own clock, else by its event.
                let finished = failing
                    .iter()
                    .filter_map(|c| c.termination()?.1.finished_at.as_ref().map(|t| t.0))
                    .max()
                    .map(|t| t.to_string());
                let until = finished
                    .map(|at| faultline_report::message::common::Msg::Time { at }.into())
                    .or_else(|| failed_event.and_then(history::last_seen));
                history::record(&mut finding, until, recovery);
            }
        }
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `container-start-failed`.
    pub enum Msg {
        /// A Pod's container (an init container when `init`) whose process the runtime cannot start;
        /// `restarts` is its restart count (0: not said).
        CannotStart { subject: ObjectRef, init: bool, container: Text, cause: Box<Message>, restarts: u32 } = "container-start-failed.cannot-start" {
            en: {
                let kind = if *init.0 { "init container" } else { "container" };
                let restarts = match *restarts.0 {
                    0 => String::new(),
                    1 => " (1 restart so far)".to_string(),
                    n => format!(" ({n} restarts so far)"),
                };
                format!("{subject}: the runtime cannot start {kind} {container}: {cause}. The process never ran{restarts}, so this is not the application crashing.")
            },
            zh: {
                let kind = if *init.0 { " Init 容器" } else { "容器" };
                let restarts = match *restarts.0 {
                    0 => String::new(),
                    n => format!("（到目前为止已重启 {n} 次）"),
                };
                format!("{subject}：容器运行时无法启动{kind} {container}：{cause}。进程从未运行过{restarts}，所以这不是应用崩溃。")
            },
        },
        NotInImage {} = "container-start-failed.not-in-image" {
            en: "the command it runs is not in the image (exit 127: not found)",
            zh: "它要运行的命令不在镜像中（退出码 127：not found）",
        },
        NotExecutable {} = "container-start-failed.not-executable" {
            en: "the command is not executable or not permitted (exit 126)",
            zh: "该命令不可执行或没有执行权限（退出码 126）",
        },
        PathMissing {} = "container-start-failed.path-missing" {
            en: "a path it needs (working directory, mount point, entrypoint) does not exist",
            zh: "它需要的某个路径（工作目录、挂载点、entrypoint）不存在",
        },
        WrongArchitecture {} = "container-start-failed.wrong-architecture" {
            en: "the binary is built for another CPU architecture (exec format error)",
            zh: "可执行文件是为另一种 CPU 架构构建的（exec format error）",
        },
        NotSaid {} = "container-start-failed.not-said" {
            en: "the runtime's message does not say why",
            zh: "容器运行时的消息没有说明原因",
        },
        ElsewhereInImage {} = "container-start-failed.elsewhere-in-image" {
            en: "Whether the executable exists elsewhere in the image, or the image itself is not the one intended (a moved tag).",
            zh: "可执行文件是否在镜像中的其他位置，或者镜像本身就不是预期的那个（标签被移动过）。",
        },
        OnceStarted {} = "container-start-failed.once-started" {
            en: "What the application would do once started.",
            zh: "启动之后应用会怎样运行。",
        },
        NoSpec {} = "container-start-failed.no-spec" {
            en: "The container's spec (command, args, image) was not in the input.",
            zh: "输入中没有这个容器的 spec（command、args、image）。",
        },
    }
}
