use crate::ingest::Typed;
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, Severity};
use crate::rules::containers::containers;
use crate::rules::node_runtime::container_start_failed::never_started;

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
    /// liveness kills are listed under `liveness-probe-failing`.
    ///
    /// ## Fault boundary
    /// `application`: the container's own process.
    ///
    /// ## What this evidence cannot establish
    /// Why the application exited: that is in its logs. Whether a dependency it needs (a database, a
    /// config file, a service) is what failed. An exit code of 137 without `OOMKilled` can be a
    /// liveness-probe kill or an external SIGKILL.
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
    pub const RULE = { id: "container-crash-looping", boundary: Boundary::Application, components: [Containers], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 容器启动后又以错误退出，并且反复如此：处于 `CrashLoopBackOff`，或者发生了重启且上一次终止的退出码非零；或者容器在一个不会重启它的 Pod 中以错误终止。规则会解释退出码（1 应用错误，2 用法错误，126 不可执行，127 找不到命令，134 abort，137 被杀死，139 段错误，143 被终止），并引用终止消息。因内存被杀死的容器，以及进程根本没有启动的容器，交给各自对应的规则处理。

 ## 为什么重要
 节点、容器运行时和镜像都已完成了各自的工作：进程运行过，是它自己选择了退出（或崩溃）。原因在应用的代码、配置或依赖中，下一步要看的证据是它上一次运行的日志。

 ## 证据
 等待原因、终止原因、退出码、消息和时间，重启次数，以及 Pod 的 `BackOff` 事件。没有粘贴 Pod 时，仅凭它的 `Back-off restarting failed container` 事件：这只是线索，发现中会如此说明，也给不出退出码。属于存活探针强制终止的重启列在 `liveness-probe-failing` 之下。

 ## 故障边界
 `application`：容器自身的进程。

 ## 这些证据无法确定的内容
 应用为什么退出：这要看它的日志。它所需要的某个依赖（数据库、配置文件、某个服务）是否才是失败的那一方。没有 `OOMKilled` 的退出码 137 也可能是存活探针导致的强制终止，或来自外部的 SIGKILL。

 ## 下一步应收集的证据
 对该容器执行 `kubectl logs --previous`，查看它的启动命令和配置，以及有没有存活探针失败的事件。

 ## 示例
 ```text
     State:       Waiting
       Reason:    CrashLoopBackOff
     Last State:  Terminated
       Reason:    Error
       Message:   fatal: load config: unknown field "retry_backof"
       Exit Code: 1
 ```
"#;

/// What an exit code usually means for a containerised process.
pub fn exit_code_meaning(code: i32) -> &'static str {
    match code {
        1 => "a general application error: the program reported failure",
        2 => "a usage error: usually wrong command-line arguments or a shell builtin misused",
        126 => "the command was found but could not be executed (permissions, not a binary)",
        127 => "the command was not found",
        128 => "an invalid exit argument, or the runtime failed to start the process",
        134 => "SIGABRT: the process aborted itself (assertion, abort())",
        137 => "SIGKILL: killed from outside — out of memory, a failed liveness probe, or a forced stop",
        139 => "SIGSEGV: the process crashed on an invalid memory access",
        143 => "SIGTERM: the process was asked to stop and did",
        c if c > 128 => "killed by a signal (128 + the signal number)",
        _ => "an application-defined error code",
    }
}

/// Pods known only from their events: `Back-off restarting failed container` (a hint, not proof: the
/// exit code, and so whether the application or the runtime failed, is in the Pod's status).
fn check_events(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen: Vec<&crate::report::ObjectRef> = Vec::new();
    for event in model.events.iter().filter(|e| {
        e.subject.kind == "Pod"
            && e.reason == "BackOff"
            && e.message.starts_with("Back-off restarting failed container")
    }) {
        let id = &event.subject;
        if seen.contains(&id) || model.graph.find(id).is_some() {
            continue;
        }
        seen.push(id);
        let backoffs: Vec<_> = model
            .events_for(id)
            .into_iter()
            .filter(|e| {
                e.reason == "BackOff" && e.message.starts_with("Back-off restarting failed container")
            })
            .collect();
        let times: u32 = backoffs.iter().map(|e| e.count.max(1)).sum();
        let container = event
            .message
            .strip_prefix("Back-off restarting failed container ")
            .and_then(|r| r.split_whitespace().next())
            .filter(|c| *c != "in")
            .map(|c| format!("container {c}"))
            .unwrap_or_else(|| "a container".to_string());
        let ns = id.namespace.as_deref().unwrap_or("default");
        let summary = format!(
            "{id}: {container} keeps exiting and the kubelet backs off restarting it ({times} back-off{} in its events). From the kubelet's events only.",
            if times == 1 { "" } else { "s" }
        );
        let cannot_establish = vec![
            format!("{id} itself was not pasted: this rests on its events alone, which are a hint; its exit code and reason are unknown."),
            "Whether the application exited on its own, was OOMKilled, or the runtime failed to start it: the Pod's lastState says."
                .to_string(),
        ];
        let next_steps = vec![
            command!(
                "kubectl get pod {} -n {} -o jsonpath='{{.status.containerStatuses[*].lastState}}'",
                id.name,
                ns
            ),
            command!("kubectl logs {} -n {} --previous", id.name, ns),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        let evidence = backoffs
            .iter()
            .rev()
            .take(3)
            .filter_map(|e| model.event_evidence(e))
            .collect();
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

/// kubectl's STATUS for a container that keeps exiting.
const TABLE: crate::rules::table_status::TableFault = crate::rules::table_status::TableFault {
    statuses: &["CrashLoopBackOff", "Error"],
    meaning: || {
        "a container keeps exiting and the kubelet backs off restarting it (or its last run failed)".into()
    },
    cannot: || "Why it exits: its logs from the previous run (`--previous`) and its lastState say.".into(),
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_events(model, findings);
    crate::rules::table_status::check(&RULE, &TABLE, model, findings);
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        let restart_policy = pod
            .spec
            .as_ref()
            .and_then(|s| s.restart_policy.as_deref())
            .unwrap_or("Always");
        for c in containers(pod) {
            if never_started(&c) {
                continue;
            }
            let Some((key, terminated)) = c.termination() else {
                continue;
            };
            let looping = c.waiting_reason() == Some("CrashLoopBackOff");
            // Exit 0 is a crash loop only while the kubelet backs off restarting it: the command
            // ends, and `restartPolicy: Always` starts it again (a long-running process was expected).
            let completes = terminated.exit_code == 0;
            if completes && !looping || terminated.reason.as_deref() == Some("OOMKilled") {
                continue;
            }
            let restarting = c.status.restart_count > 0;
            let final_failure = key == "state" && restart_policy != "Always";
            if !(looping || restarting || final_failure) {
                continue;
            }
            let id = &object.id;
            let ns = id.namespace.as_deref().unwrap_or("default");
            let name = &c.status.name;
            let code = terminated.exit_code;
            let base = format!("{}.{key}.terminated", c.status_path);
            let mut evidence: Vec<Evidence> = Vec::new();
            evidence.extend(model.evidence(object, &format!("{}.state.waiting.reason", c.status_path)));
            for field in ["reason", "exitCode", "message", "finishedAt"] {
                evidence.extend(model.evidence(object, &format!("{base}.{field}")));
            }
            evidence.extend(model.evidence(object, &format!("{}.restartCount", c.status_path)));
            let events = model.events_for(id);
            if let Some(event) = events.iter().rfind(|e| e.reason == "BackOff") {
                evidence.extend(model.event_evidence(event));
            }
            let message = terminated
                .message
                .as_deref()
                .map(str::trim)
                .filter(|m| !m.is_empty());
            let mut summary = if completes {
                format!(
                    "{id}: {} keeps being restarted (CrashLoopBackOff) although its last run ended with exit code 0 ({}): its command finishes, and with restartPolicy {restart_policy} the kubelet starts it again — the image or command does not run a long-lived process",
                    c.label(),
                    terminated.reason.as_deref().unwrap_or("Completed")
                )
            } else {
                format!(
                    "{id}: {} {} with exit code {code} — {}",
                    c.label(),
                    if looping {
                        "keeps crashing (CrashLoopBackOff): its last run ended"
                    } else {
                        "exited"
                    },
                    exit_code_meaning(code)
                )
            };
            if let Some(m) = message {
                let first_line = m.lines().next().unwrap_or(m);
                summary.push_str(&format!(". Its last words: {first_line:?}"));
            }
            if c.status.restart_count > 0 {
                summary.push_str(&format!(". Restarts: {}", c.status.restart_count));
            }
            summary.push('.');
            // Running and ready again after earlier exits: history worth knowing, not a current fault.
            let running_now = c.status.state.as_ref().is_some_and(|s| s.running.is_some());
            let recovered = !looping && key == "lastState" && running_now && c.status.ready;
            if recovered {
                summary.push_str(
                    " It is running and ready again now: the earlier exits are history, not a current fault.",
                );
            }
            let mut cannot_establish = vec![
                "Why the application exited: that is in its logs from the previous run.".to_string(),
                "Whether a dependency it needs (a database, a configuration file, another service) is what failed.".to_string(),
            ];
            if code == 137 {
                cannot_establish.push("Exit 137 without OOMKilled: whether a liveness probe, the runtime or an operator killed it; the events may say.".to_string());
            }
            if message.is_none() {
                cannot_establish.push("The container left no termination message (terminationMessagePath); only its logs will say more.".to_string());
            }
            let next_steps = vec![
                command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, name),
                command!("kubectl describe pod {} -n {}", id.name, ns),
                command!("kubectl events -n {} --for pod/{}", ns, id.name),
            ];
            findings.push(RULE.finding(
                if recovered {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                id.clone(),
                summary,
                evidence,
                cannot_establish,
                next_steps,
            ));
        }
    }
}

crate::messages! {
    /// The words of `container-crash-looping`.
    pub enum Msg {}
}

#[cfg(test)]
mod tests {
    use crate::report::Severity;
    use crate::{analyze, Source};

    #[test]
    fn restarts_that_ended_in_a_ready_container_are_a_warning_not_an_error() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: api-1, namespace: shop}\nspec:\n  containers: [{name: api, image: shop/api:3}]\nstatus:\n  phase: Running\n  containerStatuses:\n  - name: api\n    image: shop/api:3\n    imageID: x\n    ready: READY\n    restartCount: 3\n    state: {STATE}\n    lastState: {terminated: {exitCode: 1, reason: Error}}\n";
        let run = |ready: &str, state: &str| {
            let text = pod.replace("READY", ready).replace("{STATE}", state);
            let report = analyze(&[Source::new("pod.yaml", text)]);
            report
                .findings
                .iter()
                .find(|f| f.rule == "container-crash-looping")
                .map(|f| f.severity)
        };
        assert_eq!(
            run("true", "{running: {startedAt: \"2026-03-02T09:00:03Z\"}}"),
            Some(Severity::Warning)
        );
        assert_eq!(
            run("false", "{waiting: {reason: CrashLoopBackOff}}"),
            Some(Severity::Error)
        );
    }
}
