//! The words of the differential diagnosis: confidence notes, why a signal was ruled out, and what
//! each answer of the deciding command would mean.

use faultline_report::{ObjectRef, Text};

faultline_report::messages! {
    /// The judge's sentences (issue 39).
    pub enum Msg {
        /// Established: the object's current state says so.
        EstablishedByState { object: ObjectRef, path: String, line: u32 } = "judge.established-by-state" {
            en: "The pasted {object} shows it in its current state ({path}, line {line}).",
            zh: "粘贴的 {object} 的当前状态显示了这一点（{path}，第 {line} 行）。",
        },
        /// Likely: events or messages say so; the current state was not pasted.
        LikelyFromEvents { object: ObjectRef, command: String } = "judge.likely-from-events" {
            en: "Events and messages say so, but they are history and {object}'s current state was not pasted. `{command}` would establish it.",
            zh: "事件和消息这样说，但它们是历史记录，而且没有粘贴 {object} 的当前状态。`{command}` 可以确认这一点。",
        },
        /// Likely: events or messages say so; the object's pasted state does not show it itself.
        LikelyStateSilent { object: ObjectRef } = "judge.likely-state-silent" {
            en: "Events and messages say so; {object}'s own state, as given, does not show it itself.",
            zh: "事件和消息这样说；而给出的 {object} 自身状态并没有直接显示这一点。",
        },
        /// Likely, because another cause explains the same signals as well.
        LikelyCompeting {} = "judge.likely-competing" {
            en: "Another cause explains the same signals as well; the command that decides between them is given above the findings.",
            zh: "另一个原因同样能解释这些信号；在诸发现之上给出了用于区分二者的命令。",
        },
        /// Possible: a line of text alone says so, naming no object.
        PossibleFromLine { command: Option<String> } = "judge.possible-from-line" {
            en: {
                let then = command.0.as_ref().map(|c| format!(" `{c}` would show which object it is about.")).unwrap_or_default();
                format!("Only lines of text say so, and they name no object the input holds.{then}")
            },
            zh: {
                let then = command.0.as_ref().map(|c| format!("`{c}` 可以显示它涉及的对象。")).unwrap_or_default();
                format!("只有几行文本这样说，而且没有指出输入中的任何对象。{then}")
            },
        },
        /// Possible: a risk in a spec, not a failure.
        PossibleLint {} = "judge.possible-lint" {
            en: "A risk in the spec; nothing in the input shows it failing.",
            zh: "这是配置中的风险；输入中没有任何内容显示它已导致失败。",
        },
        /// A symptom, ruled out as the cause: another finding explains it.
        ExplainedBy { symptom: ObjectRef, rule: String, cause: ObjectRef, cause_rule: String, after: Option<String> } = "judge.explained-by" {
            en: {
                let after = after.0.as_ref().map(|a| format!(" Its first sign comes {a} after the cause's.")).unwrap_or_default();
                format!("{rule} on {symptom} is not the cause: {cause_rule} on {cause} explains it.{after}")
            },
            zh: {
                let after = after.0.as_ref().map(|a| format!("它的第一个迹象比原因的晚 {a} 出现。")).unwrap_or_default();
                format!("{symptom} 上的 {rule} 不是原因：{cause} 上的 {cause_rule} 解释了它。{after}")
            },
        },
        /// A lint, ruled out as the cause of the fault found.
        LintBesideFault { rule: String, object: ObjectRef, fault: ObjectRef, fault_rule: String } = "judge.lint-beside-fault" {
            en: "{rule} on {object} is a risk in its spec, not the cause: nothing in the input shows it failing, while {fault_rule} on {fault} does fail.",
            zh: "{object} 上的 {rule} 只是配置中的风险，不是原因：输入中没有任何内容显示它导致失败，而 {fault} 上的 {fault_rule} 确实失败了。",
        },
        /// Scheduling works for the Pod: it was placed on a node.
        Scheduled { pod: ObjectRef, node: Text } = "judge.scheduled" {
            en: "Scheduling: {pod} was placed on node {node}, so the scheduler is not what stops it.",
            zh: "调度：{pod} 已被调度到节点 {node}，所以阻碍它的不是调度器。",
        },
        /// The Pod's node is Ready.
        NodeReady { node: Text } = "judge.node-ready" {
            en: "The node: {node} reports Ready, so the kubelet on it runs and posts its status.",
            zh: "节点：{node} 报告为 Ready，说明它上面的 kubelet 在运行并上报状态。",
        },
        /// The runtime started the container: the image was pulled and the sandbox made.
        ContainerStarted { pod: ObjectRef, container: Text } = "judge.container-started" {
            en: "The image and the runtime: container {container} of {pod} was started, so its image was pulled and its sandbox and network were set up.",
            zh: "镜像与运行时：{pod} 的容器 {container} 已经启动过，说明镜像已拉取，沙箱和网络也已建好。",
        },
        /// A container OOM-killed on a node under memory pressure: the node's SystemOOM events show.
        SystemOom { node: ObjectRef, pod: ObjectRef } = "judge.system-oom" {
            en: "SystemOOM events on {node} name the container's process: the kernel killed it because the node ran out of memory. The node's pressure is the cause (other Pods using more than they request); raising the limit of {pod} will not help.",
            zh: "{node} 上的 SystemOOM 事件点名了该容器的进程：内核是因为整个节点内存耗尽才杀掉它的。原因是节点的内存压力（其他 Pod 的实际用量超过了它们的 requests）；调高 {pod} 的内存上限无济于事。",
        },
        /// … and when they do not.
        OwnLimit { node: ObjectRef, pod: ObjectRef } = "judge.own-limit" {
            en: "No SystemOOM event on {node}: the container of {pod} reached its own memory limit. Its limit or its memory use is the cause; the node's pressure is a second problem.",
            zh: "{node} 上没有 SystemOOM 事件：{pod} 的容器是触及了它自己的内存上限。原因在于它的上限或它的内存用量；节点的内存压力是另一个问题。",
        },
        /// What it means if the deciding command's output confirms the tested hypothesis.
        IfShown { tested: ObjectRef, tested_rule: String, other: ObjectRef, other_rule: String } = "judge.if-shown" {
            en: "{tested_rule} on {tested} is the cause to fix first; {other_rule} on {other} follows from it or is a second fault.",
            zh: "{tested} 上的 {tested_rule} 是应当首先修复的原因；{other} 上的 {other_rule} 是它的后果，或者是另一个故障。",
        },
        /// What it means if it does not.
        IfNot { tested: ObjectRef, tested_rule: String, other: ObjectRef, other_rule: String } = "judge.if-not" {
            en: "{tested_rule} on {tested} is ruled out; {other_rule} on {other} is the cause.",
            zh: "排除 {tested} 上的 {tested_rule}；{other} 上的 {other_rule} 就是原因。",
        },
    }
}
