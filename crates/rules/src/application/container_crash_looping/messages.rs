//! The words of `container-crash-looping`.

use faultline_report::message::Message;
use faultline_report::{ObjectRef, Text};

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
