use crate::application::runtime_memory;
use crate::containers::pod_containers;
use crate::next_steps;
use faultline_model::views::oom_kill::OomKill;
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container killed by the kernel's out-of-memory killer inside its own memory limit: its
    /// current or last termination has reason `OOMKilled` (exit code 137). The container's memory
    /// limit and request are cited, and so are the runtime's own memory settings found in its
    /// `command`, `args` or `env` (the JVM's `-Xmx` and `-XX:MaxRAMPercentage`, Node.js's
    /// `--max-old-space-size`, also in `NODE_OPTIONS`, Go's `GOMEMLIMIT`): a heap allowed to grow to
    /// the limit or past it is the likeliest reason for the kill, and the summary says so first.
    ///
    /// ## Why it matters
    /// The application used more memory than its container allows; restarts will repeat it. It is
    /// not a node failure: a node under memory pressure evicts Pods (`Evicted`) instead.
    ///
    /// ## Evidence
    /// The termination reason and exit code, the restart count, `resources.limits.memory` and
    /// `requests.memory` from the spec (a YAML or JSON object, or describe's `Limits:` / `Requests:`),
    /// the memory settings in `command`, `args` or `env` (describe's `Command:`, `Args:`,
    /// `Environment:`), each by its line, and the Pod's events. When the limit is absent it says which
    /// it is: the container's spec was not pasted, or it was and sets no limit. A `kubectl get pods`
    /// row alone with STATUS `OOMKilled` (kubectl's summary of the last termination) is read too, as
    /// the weak evidence it is: the table shows neither the limit nor which container.
    ///
    /// ## Fault boundary
    /// `application`: the process's memory use against the limit its own Pod spec sets.
    ///
    /// ## What this evidence cannot establish
    /// Whether the memory use is a leak, a load spike or simply a limit too small for normal work;
    /// which part of the process used it (heap, off-heap, page cache); whether the node was also short.
    ///
    /// ## Next evidence to collect
    /// The previous container's logs (`kubectl logs --previous`), memory metrics over time
    /// (`kubectl top pod --containers`), and the limit and heap settings side by side.
    ///
    /// ## Example
    /// ```yaml
    /// lastState:
    ///   terminated:
    ///     exitCode: 137
    ///     reason: OOMKilled
    /// ```
    pub const RULE = { id: "container-oom-killed", boundary: Boundary::Application, components: [Containers], check: check };
}

/// kubectl's STATUS for a Pod whose container was last terminated by the OOM killer.
const TABLE: crate::table_status::TableFault = crate::table_status::TableFault {
    statuses: &["OOMKilled"],
    meaning: || Msg::TableMeaning {}.into(),
    cannot: || Msg::TableCannot {}.into(),
    with_log: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_containers(model, findings);
    crate::table_status::check(&RULE, &TABLE, model, findings);
}

fn check_containers(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (object, c) in pod_containers(model) {
        let status = (c.status_path.as_str(), c.status);
        let Some(kill) = OomKill::of(model, object, status, (c.spec_path.as_deref(), c.spec)) else {
            continue;
        };
        let (id, name) = (&object.id, &c.status.name);
        let memory = &kill.memory;
        let summary = Msg::OomKilled {
            subject: id.clone(),
            container: (!name.is_empty()).then(|| name.as_str().into()),
            limit: memory.limit.clone(),
            heap: runtime_memory::clause(&memory.settings, memory.limit_bytes()).map(Box::new),
            restarts: u32::try_from(c.status.restart_count).ok().filter(|r| *r > 0),
        };
        let container = name.as_str().into();
        let unlimited = match c.spec {
            Some(_) => Msg::NoLimitInSpec { container },
            None => Msg::SpecNotPasted { container },
        };
        let mut cannot: Vec<Message> = vec![Msg::LeakOrSpike {}.into(), Msg::WhichPart {}.into()];
        cannot.extend(memory.limit.is_none().then(|| unlimited.into()));
        let steps = vec![
            next_steps::previous_logs(id, name),
            next_steps::top_containers(id),
            next_steps::container_resources(id, name),
        ];
        findings.push(RULE.finding(Severity::Error, id.clone(), summary, kill.evidence, cannot, steps));
    }
}

faultline_report::messages! {
    /// The words of `container-oom-killed`.
    pub enum Msg {
        /// A container killed by the OOM killer: its limit, what its JVM heap setting says, its
        /// restarts.
        OomKilled { subject: ObjectRef, container: Option<Text>, limit: Option<String>, heap: Option<Box<Message>>, restarts: Option<u32> } = "container-oom-killed.oom-killed" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "its container".to_string(), |c| format!("container {c}"));
                let limit = limit.0.as_ref().map(|l| format!(" at its own limit of {l}")).unwrap_or_default();
                let heap = heap.0.as_ref().map(|h| format!("; {}", h.render(Lang::En))).unwrap_or_default();
                let restarts = match restarts.0 {
                    Some(1) => "; it has restarted 1 time".to_string(),
                    Some(n) => format!("; it has restarted {n} times"),
                    None => String::new(),
                };
                format!("{subject}: {container} was killed for running out of memory (OOMKilled, exit 137){limit}{heap}{restarts}.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "它的容器".to_string(), |c| format!("容器 {c} "));
                let limit = limit.0.as_ref().map(|l| format!("，当时已用到它自己的内存限制 {l}")).unwrap_or_default();
                let heap = heap.0.as_ref().map(|h| format!("；{}", h.render(Lang::Zh))).unwrap_or_default();
                let restarts = restarts.0.map(|n| format!("；它已经重启了 {n} 次")).unwrap_or_default();
                format!("{subject}：{container}因内存耗尽被杀死（OOMKilled，退出码 137）{limit}{heap}{restarts}。")
            },
        },
        /// What STATUS `OOMKilled` in a `get pods` row means, after "STATUS OOMKilled: ".
        TableMeaning {} = "container-oom-killed.table-meaning" {
            en: "a container was killed by the kernel's out-of-memory killer at its last exit, for going over its memory limit",
            zh: "某个容器上一次退出时被内核的 OOM killer 杀死，因为它超出了自己的内存限制",
        },
        TableCannot {} = "container-oom-killed.table-cannot" {
            en: "Which container, its memory limit and how much it used: the Pod's describe (Last State, Limits) and `kubectl top pod --containers` say.",
            zh: "是哪个容器、它的内存限制是多少、用了多少：要看该 Pod 的 describe（Last State、Limits）和 `kubectl top pod --containers`。",
        },
        LeakOrSpike {} = "container-oom-killed.leak-or-spike" {
            en: "Whether this is a leak, a load spike or a limit too small for normal work: one termination does not show the trend.",
            zh: "这是内存泄漏、负载尖峰，还是限制对正常工作来说本就太小：一次终止看不出趋势。",
        },
        WhichPart {} = "container-oom-killed.which-part" {
            en: "Which part of the process used the memory (heap, off-heap, native buffers, page cache).",
            zh: "进程的哪一部分占用了这些内存（堆、堆外内存、原生缓冲区、页缓存）。",
        },
        /// The container's spec was read and sets no memory limit.
        NoLimitInSpec { container: Text } = "container-oom-killed.no-limit-in-spec" {
            en: "The pasted spec of container {container} sets no resources.limits.memory: the kill came at a memory boundary above the container (the Pod's or the node's), or the pasted lines leave the limit out.",
            zh: "粘贴的容器 {container} 的 spec 中没有 resources.limits.memory：这次终止发生在容器之上的内存边界（Pod 或节点的），或者粘贴的内容里漏掉了这一限制。",
        },
        /// No spec of the container was read.
        SpecNotPasted { container: Text } = "container-oom-killed.spec-not-pasted" {
            en: "The spec of container {container} was not in the input, so its memory limit and its runtime's memory settings are unknown.",
            zh: "输入中没有容器 {container} 的 spec，因此它的内存限制和运行时的内存设置都无从得知。",
        },
    }
}
