use crate::containers::containers;
use crate::history;
use crate::node_runtime::container_start_failed::never_started;
use faultline_ingest::Typed;
use faultline_model::views::container_exit::{container_evidence, restart_policy, ContainerExit};
use faultline_model::Model;
use faultline_report::message::{common, Message};
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container that started and then exited with an error, again and again: `CrashLoopBackOff`,
    /// or restarts, with a last termination that has a non-zero exit code; or a container that
    /// terminated with an error in a Pod that does not restart it. The exit code is explained (1
    /// application error, 2 usage error, 126 not executable, 127 not found, 134 abort, 137 killed,
    /// 139 segmentation fault, 143 terminated) and the termination message is cited. Containers killed
    /// for memory and containers whose process never started are left to their own rules.
    ///
    /// ## Why it matters
    /// The node, the runtime and the image did their part: the process ran and chose to exit (or
    /// crashed). The cause is in the application's code, configuration or dependencies, and its logs
    /// from the previous run are the next evidence.
    ///
    /// ## Evidence
    /// The waiting reason, the termination reason, exit code, message and times, the restart count,
    /// and the Pod's `BackOff` events. With the Pod not pasted, its `Back-off restarting failed
    /// container` events alone: a hint, which says so and cannot give the exit code. Restarts that are
    /// liveness kills are listed under `liveness-probe-failing`. When the container's log is pasted
    /// (`kubectl logs … --previous` after its prompt, a file named like a log, or a crash recognised
    /// by its shape beside the describe), the line it ended on is cited: the terminal error of a Go
    /// panic (with its first frame), a Python traceback, a Java exception's deepest `Caused by:`, a
    /// Node.js or Rust crash, or a line naming a refused connection, a DNS failure, a certificate, a
    /// missing file or key, an exhausted heap or a database refusing its credentials; the summary says
    /// which kind it is, and the dependency the line names (the Service of that name, when pasted).
    /// A `kubectl get pods` row alone: STATUS `CrashLoopBackOff` or `Error`; or STATUS `Running`
    /// with a RESTARTS cell that kubectl ≥ 1.27 dates, 3 or more restarts the last under 10 minutes
    /// ago (`5 (2m ago)`): a warning, from the weakest evidence, that says what the Pod's describe
    /// would show. A last restart long ago (`10 (43d ago)`) or a count without its age (older
    /// kubectl) proves nothing current and stays quiet.
    ///
    /// A container that runs and is ready again after earlier exits is judged against how long it
    /// has run since: when the input shows 10 minutes or more since its last restart (its
    /// `startedAt` before the newest time of the Pod's events, or the Pod's last `BackOff`,
    /// `Started`, `Created` or `Killing` event that long before the capture), the kubelet has reset
    /// its back-off and the exits are history (an info line, "failed until …, recovered"). When the
    /// input cannot tell, a warning that says so: a container running now after 5 restarts in 10
    /// minutes still crash-loops.
    ///
    /// A container whose status shows no termination at all (kubectl before 1.1 printed no `Last
    /// State`) but 3 or more restarts, running and not ready, started less than 10 minutes before
    /// the newest time of the Pod's events: a warning that it keeps restarting, with how it ended
    /// unknown.
    ///
    /// ## Fault boundary
    /// `application`: the container's own process.
    ///
    /// ## What this evidence cannot establish
    /// Why the application exited: that is in its logs. Whether a dependency it needs (a database, a
    /// config file, a service) is what failed. An exit code of 137 without `OOMKilled` can be a
    /// liveness-probe kill or an external SIGKILL. With the log pasted: that its last line is what
    /// the process said, not proof of why; and a refused connection does not say whether the
    /// dependency is down or its address wrong.
    ///
    /// ## Next evidence to collect
    /// `kubectl logs --previous` for the container, its command and configuration, and the events
    /// for liveness-probe failures.
    ///
    /// ## Example
    /// ```text
    ///     State:       Waiting
    ///       Reason:    CrashLoopBackOff
    ///     Last State:  Terminated
    ///       Reason:    Error
    ///       Message:   fatal: load config: unknown field "retry_backof"
    ///       Exit Code: 1
    /// ```
    pub const RULE = { id: "container-crash-looping", boundary: Boundary::Application, components: [Containers], check: check };
}

/// What an exit code usually means for a containerised process.
pub fn exit_code_meaning(code: i32) -> Msg {
    match code {
        1 => Msg::ExitGeneralError {},
        2 => Msg::ExitUsageError {},
        126 => Msg::ExitNotExecutable {},
        127 => Msg::ExitNotFound {},
        128 => Msg::ExitInvalidArgument {},
        134 => Msg::ExitAborted {},
        137 => Msg::ExitKilled {},
        139 => Msg::ExitSegfault {},
        143 => Msg::ExitTerminated {},
        c if c > 128 => Msg::ExitSignal {},
        _ => Msg::ExitApplicationDefined {},
    }
}

/// kubectl's STATUS for a container that keeps exiting.
const TABLE: crate::table_status::TableFault = crate::table_status::TableFault {
    statuses: &["CrashLoopBackOff", "Error"],
    meaning: || Msg::TableMeaning {}.into(),
    cannot: || Msg::TableCannot {}.into(),
    with_log: true,
};

/// Restarts that make a Running row a crash loop: this many, the last within the kubelet's back-off
/// reset ([`history::BACKOFF_RESET`]). One or two are a node reboot or a dependency that came up
/// late (every Pod of a node shows `1 (7m ago)` after a reboot); three and more in a row, the last
/// minutes ago, are the kubelet's back-off cycle between exits.
const LOOPING_RESTARTS: u32 = 3;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_events(model, findings);
    check_unexplained_restarts(model, findings);
    crate::table_status::check(&RULE, &TABLE, model, findings);
    check_restarting_rows(model, findings);
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        let views = containers(pod);
        let first_regular = views.iter().find(|v| !v.init).map(|v| v.status.name.clone());
        for c in views {
            let Some(exit) = ContainerExit::crash(c.status, restart_policy(pod)) else {
                continue;
            };
            if never_started(&c) {
                continue;
            }
            let (id, name, code) = (&object.id, &c.status.name, exit.terminated.exit_code);
            let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
            let mut evidence = exit.evidence(model, object, &c.status_path);
            let backoff = model.events_for(id).into_iter().rfind(|e| e.reason == "BackOff");
            evidence.extend(backoff.and_then(|e| model.event_evidence(e)));
            // The container's log, when it was pasted: its terminal error, cited by line.
            let first = first_regular.as_deref() == Some(name.as_str()) && !c.init;
            let log = crate::log_evidence::for_container(model, id, name, first);
            evidence.extend(log.iter().flat_map(|l| l.evidence.iter().cloned()));
            let meaning = Box::new(exit_code_meaning(code).into());
            let what = match (exit.completed(), exit.looping) {
                (true, _) => Msg::CompletesAndRestarts {
                    reason: exit.terminated.reason.as_deref().unwrap_or("Completed").into(),
                    restart_policy: restart_policy(pod).into(),
                },
                (false, true) => Msg::KeepsCrashing { code, meaning },
                (false, false) => Msg::Exited { code, meaning },
            };
            // Running and ready again after earlier exits: history when the input shows it has run
            // long enough since its last restart that the kubelet reset its back-off; else a
            // warning, since a container that runs now after 5 restarts in 10 minutes still loops.
            let recovered = exit.recovered(c.status);
            let stayed_up = recovered.then(|| history::stayed_up(model, object, &c)).flatten();
            let summary = Msg::Crash {
                subject: id.clone(),
                container: (!name.is_empty()).then(|| name.as_str().into()),
                what: Box::new(what.into()),
                last_words: exit.last_words().map(str::to_string),
                restarts: u32::try_from(c.status.restart_count).ok().filter(|r| *r > 0),
                recovered,
                log: log.as_ref().map(|l| Box::new(l.said.clone())),
            };
            // With its log pasted, what the log cannot establish replaces "that is in its logs".
            let mut cannot = log
                .as_ref()
                .map_or_else(|| vec![Msg::WhyExited {}.into()], |l| l.cannot.clone());
            cannot.push(Msg::Dependency {}.into());
            cannot.extend((code == 137).then(|| Msg::Exit137WithoutOom {}.into()));
            if exit.last_words().is_none() && log.is_none() {
                cannot.push(Msg::NoTerminationMessage {}.into());
            }
            if recovered && stayed_up.is_none() {
                cannot.insert(0, history::restarts_may_rise(model, object, &c));
            }
            let mut steps = vec![
                command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, name),
                command!("kubectl describe pod {} -n {}", id.name, ns),
                command!("kubectl events -n {} --for pod/{}", ns, id.name),
            ];
            steps.extend(log.and_then(|l| l.next));
            let severity = [Severity::Error, Severity::Warning][usize::from(recovered)];
            let mut finding = RULE.finding(severity, id.clone(), summary, evidence, cannot, steps);
            let until = exit.terminated.finished_at.as_ref().map(|t| t.0.to_string());
            if let Some(recovery) = stayed_up {
                history::record(
                    &mut finding,
                    until.map(|at| common::Msg::Time { at }.into()),
                    recovery,
                );
            }
            findings.push(finding);
        }
    }
}

/// `kubectl get pod` of the containers' last states: how they ended.
fn last_states(id: &ObjectRef, ns: &str) -> String {
    command!(
        "kubectl get pod {} -n {} -o jsonpath='{{.status.containerStatuses[*].lastState}}'",
        id.name,
        ns
    )
}

/// Pods known only from their events: `Back-off restarting failed container` (a hint, not proof: the
/// exit code, and so whether the application or the runtime failed, is in the Pod's status).
fn check_events(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pod in model.event_only_subjects("Pod", |e| e.restart_backoff().is_some()) {
        let id = pod.subject;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let container = pod.backoff_container().map(Into::into);
        let summary = Msg::FromEvents {
            subject: id.clone(),
            container,
            times: pod.times(),
        };
        let cannot: Vec<Message> = vec![
            Msg::NotPasted { subject: id.clone() }.into(),
            Msg::HowItExited {}.into(),
        ];
        let steps = vec![
            last_states(id, ns),
            command!("kubectl logs {} -n {} --previous", id.name, ns),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        let evidence = pod
            .events
            .iter()
            .rev()
            .take(3)
            .filter_map(|e| model.event_evidence(e));
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence.collect(),
            cannot,
            steps,
        ));
    }
}

/// Pods known from a `kubectl get pods` row whose STATUS is Running and whose RESTARTS cell says
/// the container restarted again and again, the last time minutes ago (`5 (2m ago)`): the weakest
/// evidence of a crash loop, caught while the container runs between exits. A count without its age
/// (older kubectl) or a last restart long ago (`10 (43d ago)`) proves nothing current: quiet.
fn check_restarting_rows(model: &Model<'_>, findings: &mut Vec<Finding>) {
    use crate::table_status;
    for (pod, _) in table_status::pods_with_status(model, &["Running"]) {
        let id = &pod.id;
        let looping = |&(count, ago): &(u32, i64)| count >= LOOPING_RESTARTS && ago < history::BACKOFF_RESET;
        let last = table_status::last_restart(pod).and_then(|(count, ago)| Some((count, ago?)));
        let Some((count, ago)) = last.filter(looping) else {
            continue;
        };
        if findings.iter().any(|f| f.rule == RULE.id && f.subject == *id) {
            continue;
        }
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let restarts = table_status::restarts(pod).unwrap_or_default().into();
        let summary = Msg::RestartingRow {
            subject: id.clone(),
            restarts,
            count,
            minutes: ago / 60,
        };
        let cannot: Vec<Message> = vec![Msg::RowCannot {}.into(), common::Msg::TableCannot {}.into()];
        let steps = vec![
            command!("kubectl describe pod {} -n {}", id.name, ns),
            command!("kubectl logs {} -n {} --previous --all-containers", id.name, ns),
            command!("kubectl get pod {} -n {} -w", id.name, ns),
        ];
        let evidence = table_status::evidence_with_warnings(model, pod, id);
        findings.push(RULE.finding(Severity::Warning, id.clone(), summary, evidence, cannot, steps));
    }
}

/// Containers that restart again and again while their status shows no termination (describe of
/// kubectl 1.0 printed no `Last State`, kubernetes/kubernetes#10861): running and not ready after
/// [`LOOPING_RESTARTS`] or more restarts, started within the kubelet's back-off reset of the newest
/// time of the Pod's events. Without those times the restarts may be history: quiet.
fn check_unexplained_restarts(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for c in model.restarts_without_termination(LOOPING_RESTARTS, history::BACKOFF_RESET) {
        let (id, name) = (&c.pod.id, &c.status.name);
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let fields = ["restartCount", "state.running.startedAt", "ready"];
        let evidence = container_evidence(model, c.pod, &c.status_path, &fields);
        let summary = Msg::RestartsUnexplained {
            subject: id.clone(),
            container: (!name.is_empty()).then(|| name.as_str().into()),
            restarts: u32::try_from(c.status.restart_count).unwrap_or(0),
        };
        let cannot: Vec<Message> = vec![Msg::HowItEnded {}.into(), Msg::WhyExited {}.into()];
        let steps = vec![
            last_states(id, ns),
            command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, name),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        findings.push(RULE.finding(Severity::Warning, id.clone(), summary, evidence, cannot, steps));
    }
}

faultline_report::messages! {
    /// The words of `container-crash-looping`.
    pub enum Msg {
        /// A Pod known from its `Back-off restarting failed container` events only.
        FromEvents { subject: ObjectRef, container: Option<Text>, times: u32 } = "container-crash-looping.from-events" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "a container".to_string(), |c| format!("container {c}"));
                let backoffs = if *times.0 == 1 { "1 back-off".to_string() } else { format!("{times} back-offs") };
                format!("{subject}: {container} keeps exiting and the kubelet backs off restarting it ({backoffs} in its events). From the kubelet's events only.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "某个容器".to_string(), |c| format!("容器 {c} "));
                format!("{subject}：{container}反复退出，kubelet 每次都要退避一段时间才重启它（事件中有 {times} 次退避）。仅依据 kubelet 的事件。")
            },
        },
        NotPasted { subject: ObjectRef } = "container-crash-looping.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its events alone, which are a hint; its exit code and reason are unknown.",
            zh: "输入中没有 {subject} 本身：这只基于它的事件，事件只是线索；它的退出码和原因都不清楚。",
        },
        /// What the events cannot tell apart: an application's exit, an OOM kill, a failed start.
        HowItExited {} = "container-crash-looping.how-it-exited" {
            en: "Whether the application exited on its own, was OOMKilled, or the runtime failed to start it: the Pod's lastState says.",
            zh: "应用是自己退出的、被 OOMKilled 了，还是容器运行时没能启动它：要看 Pod 的 lastState。",
        },
        TableMeaning {} = "container-crash-looping.table-meaning" {
            en: "a container keeps exiting and the kubelet backs off restarting it (or its last run failed)",
            zh: "某个容器反复退出，kubelet 每次都要退避一段时间才重启它（或者它的上一次运行失败了）",
        },
        /// A `get pods` row Running with recent restarts: its RESTARTS cell as printed, the count and
        /// the minutes since the last restart.
        RestartingRow { subject: ObjectRef, restarts: Text, count: u32, minutes: i64 } = "container-crash-looping.restarting-row" {
            en: {
                let when = if *minutes.0 == 0 { "less than a minute ago".to_string() } else if *minutes.0 == 1 { "1 minute ago".to_string() } else { format!("{minutes} minutes ago") };
                format!("{subject}: `kubectl get pods` shows it Running with RESTARTS {restarts}: its containers restarted {count} times, the last {when}, so it is likely crash-looping between back-offs, caught while it runs. From the table alone: the Pod's describe would show the container's Last State (Terminated, with its reason and exit code), its Restart Count and the kubelet's BackOff events.")
            },
            zh: {
                let when = if *minutes.0 == 0 { "不到 1 分钟前".to_string() } else { format!("{minutes} 分钟前") };
                format!("{subject}：`kubectl get pods` 显示它为 Running，RESTARTS 为 {restarts}：它的容器已重启 {count} 次，最近一次是{when}，很可能正在两次退避之间反复崩溃，只是恰好在运行时被看到。仅依据表格：该 Pod 的 describe 会显示容器的 Last State（Terminated，及其原因和退出码）、Restart Count，以及 kubelet 的 BackOff 事件。")
            },
        },
        /// A container restarting with no termination in its status: its restarts.
        RestartsUnexplained { subject: ObjectRef, container: Option<Text>, restarts: u32 } = "container-crash-looping.restarts-unexplained" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "a container".to_string(), |c| format!("container {c}"));
                format!("{subject}: {container} has restarted {restarts} times and runs again, not ready, started within 10 minutes of the Pod's newest event: it keeps ending and being restarted. Its status shows no termination, so how it ended (an error, the OOM killer, a probe) is not in the input.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "某个容器".to_string(), |c| format!("容器 {c} "));
                format!("{subject}：{container}已经重启了 {restarts} 次，此刻又在运行但未就绪，启动时间与该 Pod 最新的事件相距不到 10 分钟：它在反复结束、反复被重启。它的状态里没有终止信息，所以它是怎样结束的（出错退出、被 OOM killer 杀死、被探针杀死）不在输入中。")
            },
        },
        HowItEnded {} = "container-crash-looping.how-it-ended" {
            en: "How the container ended each time: its lastState (reason, exit code) is not in the input.",
            zh: "容器每次是怎样结束的：输入中没有它的 lastState（原因、退出码）。",
        },
        RowCannot {} = "container-crash-looping.row-cannot" {
            en: "Whether it still restarts: the row is one moment. Why it exits: its logs from the previous run (`--previous`) and its lastState say.",
            zh: "它是否仍在重启：这一行只是某一时刻的状态。它为什么退出：要看它上一次运行的日志（`--previous`）和它的 lastState。",
        },
        TableCannot {} = "container-crash-looping.table-cannot" {
            en: "Why it exits: its logs from the previous run (`--previous`) and its lastState say.",
            zh: "它为什么退出：要看它上一次运行的日志（`--previous`）和它的 lastState。",
        },
        /// A container that exited with an error, from its status: `what` is how it exited, then its
        /// termination message's first line, its restarts and whether it runs again.
        Crash { subject: ObjectRef, container: Option<Text>, what: Box<Message>, last_words: Option<String>, restarts: Option<u32>, recovered: bool, log: Option<Box<Message>> } = "container-crash-looping.crash" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "its container".to_string(), |c| format!("container {c}"));
                let words = last_words.0.as_ref().map(|w| format!(". Its last words: \"{w}\"")).unwrap_or_default();
                let restarts = restarts.0.map(|r| format!(". Restarts: {r}")).unwrap_or_default();
                let recovered = if *recovered.0 { " It is running and ready again now." } else { "" };
                let log = log.0.as_ref().map(|l| format!(" {}", l.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{subject}: {container} {what}{words}{restarts}.{recovered}{log}")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "它的容器".to_string(), |c| format!("容器 {c} "));
                let words = last_words.0.as_ref().map(|w| format!("。它留下的终止消息：“{w}”")).unwrap_or_default();
                let restarts = restarts.0.map(|r| format!("。重启次数：{r}")).unwrap_or_default();
                let recovered = if *recovered.0 { "它现在已重新运行并且就绪。" } else { "" };
                let log = log.0.as_ref().map(|l| l.render(faultline_report::lang::Lang::Zh)).unwrap_or_default();
                format!("{subject}：{container}{what}{words}{restarts}。{recovered}{log}")
            },
        },
        /// A command that finishes (exit 0) under `restartPolicy: Always`, restarted again and again.
        CompletesAndRestarts { reason: Text, restart_policy: Text } = "container-crash-looping.completes-and-restarts" {
            en: "keeps being restarted (CrashLoopBackOff) although its last run ended with exit code 0 ({reason}): its command finishes, and with restartPolicy {restart_policy} the kubelet starts it again — the image or command does not run a long-lived process",
            zh: "一再被重启（CrashLoopBackOff），尽管它上一次运行以退出码 0 结束（{reason}）：它的命令会正常执行完，而 restartPolicy 为 {restart_policy} 时 kubelet 会再次启动它——镜像或命令运行的并不是一个长期运行的进程",
        },
        KeepsCrashing { code: i32, meaning: Box<Message> } = "container-crash-looping.keeps-crashing" {
            en: "keeps crashing (CrashLoopBackOff): its last run ended with exit code {code} — {meaning}",
            zh: "反复崩溃（CrashLoopBackOff）：它上一次运行以退出码 {code} 结束——{meaning}",
        },
        /// A container that exited with an error once (no crash loop, or no restart).
        Exited { code: i32, meaning: Box<Message> } = "container-crash-looping.exited" {
            en: "exited with exit code {code} — {meaning}",
            zh: "以退出码 {code} 退出——{meaning}",
        },
        ExitGeneralError {} = "container-crash-looping.exit-general-error" {
            en: "a general application error: the program reported failure",
            zh: "一般性的应用错误：程序自己报告了失败",
        },
        ExitUsageError {} = "container-crash-looping.exit-usage-error" {
            en: "a usage error: usually wrong command-line arguments or a shell builtin misused",
            zh: "用法错误：通常是命令行参数不对，或者误用了 shell 内建命令",
        },
        ExitNotExecutable {} = "container-crash-looping.exit-not-executable" {
            en: "the command was found but could not be executed (permissions, not a binary)",
            zh: "找到了命令，但无法执行（权限不够，或者它不是可执行文件）",
        },
        ExitNotFound {} = "container-crash-looping.exit-not-found" {
            en: "the command was not found",
            zh: "找不到命令",
        },
        ExitInvalidArgument {} = "container-crash-looping.exit-invalid-argument" {
            en: "an invalid exit argument, or the runtime failed to start the process",
            zh: "退出参数无效，或者容器运行时没能启动进程",
        },
        ExitAborted {} = "container-crash-looping.exit-aborted" {
            en: "SIGABRT: the process aborted itself (assertion, abort())",
            zh: "SIGABRT：进程自行中止（断言失败、abort()）",
        },
        ExitKilled {} = "container-crash-looping.exit-killed" {
            en: "SIGKILL: killed from outside — out of memory, a failed liveness probe, or a forced stop",
            zh: "SIGKILL：被外部杀死——内存耗尽、存活探针失败，或者被强制停止",
        },
        ExitSegfault {} = "container-crash-looping.exit-segfault" {
            en: "SIGSEGV: the process crashed on an invalid memory access",
            zh: "SIGSEGV：进程因非法内存访问而崩溃",
        },
        ExitTerminated {} = "container-crash-looping.exit-terminated" {
            en: "SIGTERM: the process was asked to stop and did",
            zh: "SIGTERM：进程收到停止请求，随即停止了",
        },
        /// An exit code above 128 that is none of the usual signals.
        ExitSignal {} = "container-crash-looping.exit-signal" {
            en: "killed by a signal (128 + the signal number)",
            zh: "被信号杀死（128 + 信号编号）",
        },
        ExitApplicationDefined {} = "container-crash-looping.exit-application-defined" {
            en: "an application-defined error code",
            zh: "应用自定义的错误码",
        },
        WhyExited {} = "container-crash-looping.why-exited" {
            en: "Why the application exited: that is in its logs from the previous run.",
            zh: "应用为什么退出：这要看它上一次运行的日志。",
        },
        Dependency {} = "container-crash-looping.dependency" {
            en: "Whether a dependency it needs (a database, a configuration file, another service) is what failed.",
            zh: "真正失败的是否是它依赖的某样东西（数据库、配置文件、另一个服务）。",
        },
        Exit137WithoutOom {} = "container-crash-looping.exit-137-without-oom" {
            en: "Exit 137 without OOMKilled: whether a liveness probe, the runtime or an operator killed it; the events may say.",
            zh: "退出码 137 却没有 OOMKilled：是存活探针、容器运行时还是运维人员杀死了它；事件中也许有答案。",
        },
        NoTerminationMessage {} = "container-crash-looping.no-termination-message" {
            en: "The container left no termination message (terminationMessagePath); only its logs will say more.",
            zh: "容器没有留下终止消息（terminationMessagePath）；只有它的日志能说明更多。",
        },
    }
}
