//! The messages more than one rule says: a symptom's note, history, what a `get pods` row cannot
//! show, and the words of times.

use crate::{ObjectRef, Text};

crate::messages! {
    /// Shared by the rules (the rules' links, their history, the table rows).
    pub enum Msg {
        /// What a sample argument of type `Message` renders as (the message tests only).
        Sample { name: String } = "common.sample" {
            en: "{name}",
            zh: "{name}",
        },
        /// The Pods of one workload failing the same way, said once about the workload: `summary` is
        /// the first Pod's finding; `pods` the first five.
        SamePodsFault { workload: ObjectRef, count: usize, pods: Vec<ObjectRef>, summary: Box<super::Message> } = "common.same-pods-fault" {
            en: {
                let more = if *count.0 > pods.0.len() { ", …" } else { "" };
                format!("{count} Pods of {workload} fail the same way ({pods}{more}): the fault is in what they share, the workload's Pod template, not in one Pod or node. The first: {summary}")
            },
            zh: {
                let more = if *count.0 > pods.0.len() { " 等" } else { "" };
                format!("{workload} 的 {count} 个 Pod 以同样的方式失败（{pods}{more}）：故障在于它们共有的 Pod 模板，而不在某一个 Pod 或节点。第一个：{summary}")
            },
        },
        /// The commands of a finding name a placeholder for what the input does not state.
        NotStated { subject: ObjectRef, namespace: bool, name: bool } = "common.not-stated" {
            en: {
                let what = match (*namespace.0, *name.0) {
                    (true, true) => "its name and namespace: the commands write <name> and <namespace> for them",
                    (false, true) => "its name: the commands write <name> for it",
                    _ => "its namespace: the commands write <namespace> for it",
                };
                format!("The input does not state {what}; put in yours before running them ({subject}).")
            },
            zh: {
                let what = match (*namespace.0, *name.0) {
                    (true, true) => "它的名称和命名空间：命令中以 <name> 和 <namespace> 代替",
                    (false, true) => "它的名称：命令中以 <name> 代替",
                    _ => "它的命名空间：命令中以 <namespace> 代替",
                };
                format!("输入没有给出{what}；运行前请换成你自己的（{subject}）。")
            },
        },
        /// The commands of a finding name a placeholder for the node the input does not state.
        NodeNotStated { subject: ObjectRef } = "common.node-not-stated" {
            en: "The input does not state which node {subject} runs on: the commands write <node> for it; put in yours before running them.",
            zh: "输入没有说明 {subject} 运行在哪个节点上：命令中以 <node> 代替；运行前请换成你自己的。",
        },
        /// A finding's commands run a program that only a control-plane node has (`kubeadm`,
        /// `etcdctl`), said once in words: a `# on a control-plane node` after the command is an
        /// argument in zsh, whose interactive shells do not take `#` as a comment.
        OnControlPlane { program: String } = "common.on-control-plane" {
            en: {
                let certificates = if program.0 == "etcdctl" {
                    ", with the etcd client certificates (--cacert, --cert and --key; under /etc/kubernetes/pki/etcd on a kubeadm cluster)"
                } else {
                    ""
                };
                format!("{program} runs on a control-plane node, not where kubectl runs{certificates}.")
            },
            zh: {
                let certificates = if program.0 == "etcdctl" {
                    "，并带上 etcd 的客户端证书（--cacert、--cert 和 --key；kubeadm 集群中位于 /etc/kubernetes/pki/etcd）"
                } else {
                    ""
                };
                format!("{program} 要在控制平面节点上运行，而不是在运行 kubectl 的地方{certificates}。")
            },
        },
        /// A finding's sentence, then what the container's log, pasted, ends with.
        WithLog { row: Box<super::Message>, said: Box<super::Message> } = "common.with-log" {
            en: "{row} {said}",
            zh: "{row}{said}",
        },
        /// A finding that another, listed before it, explains.
        Symptom { summary: Box<super::Message>, cause: ObjectRef, rule: String } = "common.symptom" {
            en: "{summary} This is a symptom: it follows from {cause} ({rule}), listed above.",
            zh: "{summary}这是一个症状：它源于上面列出的 {cause}（{rule}）。",
        },
        /// A failure that a later state of the input shows has passed.
        History { until: Option<Box<super::Message>>, recovery: Box<super::Message>, was: Box<super::Message> } = "common.history" {
            en: {
                let was = was.to_string();
                let until = until.0.as_ref().map(|u| format!(" until {}", u.render(crate::lang::Lang::En))).unwrap_or_default();
                format!("History, not a current fault: failed{until}, recovered ({recovery}). What failed: {}.", was.trim_end_matches('.'))
            },
            zh: {
                let was = was.to_string();
                let until = until.0.as_ref().map(|u| format!("（最后一次在 {}）", u.render(crate::lang::Lang::Zh))).unwrap_or_default();
                format!("这是历史，不是当前的故障：曾经失败{until}，已经恢复（{recovery}）。当时的故障：{}。", was.trim_end_matches('。'))
            },
        },
        HistoryCannot {} = "common.history-cannot" {
            en: "Whether the failure comes back: the newer state shows it passed, not why.",
            zh: "故障是否会再次出现：较新的状态只说明它已经过去，没有说明原因。",
        },
        /// A later event of a reason that shows the failure passed (`a later Pulled event`).
        LaterEvent { reason: Text } = "common.later-event" {
            en: "a later {reason} event",
            zh: "之后出现了 {reason} 事件",
        },
        ReadyWithoutRestarts { object: ObjectRef } = "common.ready-without-restarts" {
            en: "{object} is Ready now, with 0 restarts",
            zh: "{object} 现在是 Ready，重启次数为 0",
        },
        ReadyAndRunning { object: ObjectRef } = "common.ready-and-running" {
            en: "{object} is Ready now and its containers run",
            zh: "{object} 现在是 Ready，容器都在运行",
        },
        ReplicasNow { object: ObjectRef, current: u32, desired: u32 } = "common.replicas-now" {
            en: "{object} has {current}/{desired} replicas now",
            zh: "{object} 现在有 {current}/{desired} 个副本",
        },
        /// A container running and ready that has run long enough since its last restart that the
        /// kubelet reset its back-off (the rules' `history::stayed_up`).
        StayedUp { object: ObjectRef, container: Option<Text>, minutes: i64 } = "common.stayed-up" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "its container".to_string(), |c| format!("container {c}"));
                format!("{object}: {container} is running and ready now and has run {minutes} minutes since its last restart, past the 10 after which the kubelet resets its back-off")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "它的容器".to_string(), |c| format!("容器 {c} "));
                format!("{object}：{container}现在正在运行且已就绪，自上次重启以来已运行 {minutes} 分钟，超过了 kubelet 重置退避计时的 10 分钟")
            },
        },
        /// A container running and ready now after earlier exits that restarted minutes ago, within the
        /// kubelet's back-off reset.
        RestartedRecently { container: Option<Text>, minutes: i64 } = "common.restarted-recently" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "the container".to_string(), |c| format!("container {c}"));
                let when = match *minutes.0 { 0 => "less than a minute".to_string(), 1 => "1 minute".to_string(), m => format!("{m} minutes") };
                format!("Whether {container} keeps restarting: it runs and is ready now, but its last restart was {when} before the capture, within the 10 minutes after which the kubelet resets its back-off; restarts counted again a few minutes later would say.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "该容器".to_string(), |c| format!("容器 {c} "));
                let when = if *minutes.0 == 0 { "不到 1 分钟".to_string() } else { format!("{minutes} 分钟") };
                format!("{container}是否还在反复重启：它现在在运行且已就绪，但它最近一次重启在采集前{when}，仍在 kubelet 重置退避计时的 10 分钟之内；几分钟后再看一次重启次数就能知道。")
            },
        },
        /// A container running and ready now after earlier exits, where the input cannot tell how long
        /// it has run since.
        RestartsMayRise { container: Option<Text> } = "common.restarts-may-rise" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "the container".to_string(), |c| format!("container {c}"));
                format!("Whether {container} keeps restarting: it runs and is ready now, but the input does not show how long it has run since its last restart (the kubelet resets its back-off after 10 minutes of running); restarts counted again a few minutes later would say.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "该容器".to_string(), |c| format!("容器 {c} "));
                format!("{container}是否还在反复重启：它现在在运行且已就绪，但输入没有显示它自上次重启以来运行了多久（容器持续运行 10 分钟后 kubelet 会重置退避计时）；几分钟后再看一次重启次数就能知道。")
            },
        },
        /// A time as the input states it (RFC 3339).
        Time { at: String } = "common.time" {
            en: "{at}",
            zh: "{at}",
        },
        /// An age as kubectl prints it (`5m`), before the capture.
        AgeBeforeCapture { age: String } = "common.age-before-capture" {
            en: "{age} before the capture",
            zh: "采集前 {age}",
        },
        /// A failure known from events only.
        CurrentnessUnknown { subject: ObjectRef } = "common.currentness-unknown" {
            en: "Whether this is still failing: the input has events about {subject} but not its state, so it cannot tell a current failure from one that has passed.",
            zh: "它是否仍在失败：输入中有 {subject} 的事件，却没有它的状态，因此分不清这是当前的故障还是已经过去的故障。",
        },
        /// A Pod known from a `kubectl get pods` row: its STATUS and what it means.
        TableRow { subject: ObjectRef, status: Text, restarts: Option<Text>, meaning: Box<super::Message> } = "common.table-row" {
            en: {
                let restarts = restarts.0.as_ref().map(|r| format!(", RESTARTS {r}")).unwrap_or_default();
                format!("{subject}: `kubectl get pods` shows STATUS {status}{restarts}: {meaning}.")
            },
            zh: {
                let restarts = restarts.0.as_ref().map(|r| format!("，RESTARTS 为 {r}")).unwrap_or_default();
                format!("{subject}：`kubectl get pods` 显示 STATUS 为 {status}{restarts}：{meaning}。")
            },
        },
        TableCannot {} = "common.table-cannot" {
            en: "This rests on a `kubectl get pods` row: STATUS is kubectl's summary of one container's state, so which container, its exit code, reason and message are not in the table.",
            zh: "这只基于 `kubectl get pods` 的一行：STATUS 是 kubectl 对某个容器状态的概括，是哪个容器、它的退出码、原因和消息，表格里都没有。",
        },
    }
}
