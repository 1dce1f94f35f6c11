use faultline_model::graph::{EdgeKind, Target};
use faultline_model::views::node_network_conditions::network_conditions;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A node whose network is not set up: the `NetworkUnavailable=True` condition (set by the cloud
    /// route controller, `NoRouteCreated` "RouteController failed to create a route", or by the CNI
    /// plugin), or `Ready=False` because the runtime's network is not ready ("container runtime
    /// network not ready: NetworkReady=false reason:NetworkPluginNotReady message:… cni plugin not
    /// initialized").
    ///
    /// ## Why it matters
    /// The node carries the `node.kubernetes.io/network-unavailable` taint, so nothing new is
    /// scheduled there, and Pods already on it cannot get a sandbox (`FailedCreatePodSandBox`) or
    /// cannot reach Pods on other nodes. The node looks like a kubelet problem; the cause is the
    /// network plugin or the cloud's routes, so the node's own not-ready finding is listed under it.
    ///
    /// ## Evidence
    /// The node's `NetworkUnavailable` and `Ready` conditions (status, reason, message) and the Pods
    /// pasted that run on it.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the CNI plugin, kube-proxy and the cloud's routes.
    ///
    /// ## What this evidence cannot establish
    /// Whether the CNI plugin's own Pod on that node (its DaemonSet) is failing or its configuration
    /// is missing, and whether other nodes are affected, unless they were pasted.
    ///
    /// ## Next evidence to collect
    /// `kubectl get pods -n kube-system -o wide --field-selector spec.nodeName=NODE` (the CNI and
    /// kube-proxy Pods on it), their logs, and `/etc/cni/net.d` on the node.
    ///
    /// ## Example
    /// ```yaml
    /// - type: NetworkUnavailable
    ///   status: "True"
    ///   reason: NoRouteCreated
    ///   message: RouteController failed to create a route
    /// ```
    pub const RULE = { id: "node-network-unavailable", boundary: Boundary::ZoneNetworkStorage, components: [ProxyCni, Kubelet if NodeNamed], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (index, node) in model
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id.kind == "Node")
    {
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut said: Vec<Message> = Vec::new();
        for c in network_conditions(node) {
            for f in ["status", "reason", "message"] {
                evidence.extend(model.evidence(node, &c.path(f)));
            }
            let short: String = c.message.chars().take(240).collect();
            said.push(
                Msg::Condition {
                    condition: c.type_.to_string(),
                    status: c.status.to_string(),
                    reason: (!c.reason.is_empty()).then(|| c.reason.to_string()),
                    message: (!short.is_empty()).then_some(short),
                }
                .into(),
            );
        }
        if said.is_empty() {
            continue;
        }
        let pods: Vec<ObjectRef> = model
            .graph
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::RunsOn && matches!(e.to, Target::Object(i) if i == index))
            .map(|e| model.objects[e.from].id.clone())
            .collect();
        let name = &node.id.name;
        let summary = Msg::NotReady {
            subject: node.id.clone(),
            conditions: said,
            pods,
        };
        let cannot_establish: Vec<Message> = vec![Msg::CniPodOrConfig {}.into(), Msg::OtherNodes {}.into()];
        let next_steps = vec![
            command!(
                "kubectl get pods -n kube-system -o wide --field-selector spec.nodeName={}",
                name
            ),
            command!("kubectl describe node {}", name),
            command!(
                "kubectl debug node/{} -it --image=busybox -- ls /host/etc/cni/net.d",
                name
            ),
        ];
        findings.push(RULE.finding(
            Severity::Error,
            node.id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `node-network-unavailable`.
    pub enum Msg {
        /// The Node's network is not set up: `conditions` say which of its conditions show it, `pods`
        /// are the pasted Pods on it.
        NotReady { subject: ObjectRef, conditions: Vec<Message>, pods: Vec<ObjectRef> } = "node-network-unavailable.not-ready" {
            en: {
                let pods = if pods.0.is_empty() { String::new() } else { format!(" Pods pasted on it: {pods}.") };
                format!("{subject}'s network is not ready: {conditions}. Nothing new is scheduled there and its Pods cannot get a working network.{pods}")
            },
            zh: {
                let pods = if pods.0.is_empty() { String::new() } else { format!("输入中运行在它上面的 Pod：{pods}。") };
                format!("{subject} 的网络没有就绪：{conditions}。不会再有新的 Pod 调度到这里，它上面的 Pod 也拿不到可用的网络。{pods}")
            },
        },
        /// One condition that shows it, with its reason and (the first 240 characters of) its
        /// message, verbatim.
        Condition { condition: String, status: String, reason: Option<String>, message: Option<String> } = "node-network-unavailable.condition" {
            en: {
                let reason = reason.0.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                format!("{condition}={status}{reason}{message}")
            },
            zh: {
                let mut said = Vec::new();
                if let Some(r) = reason.0 { said.push(format!("原因 {r}")); }
                if let Some(m) = message.0 { said.push(format!("消息 “{m}”")); }
                let said = if said.is_empty() { String::new() } else { format!("（{}）", said.join("，")) };
                format!("状况 {condition}={status}{said}")
            },
        },
        CniPodOrConfig {} = "node-network-unavailable.cni-pod-or-config" {
            en: "Whether the CNI plugin's own Pod on this node is failing or its configuration is missing: the node only relays what the runtime reports.",
            zh: "是这个节点上 CNI 插件自己的 Pod 出了故障，还是它的配置缺失：节点只是转述容器运行时报告的内容。",
        },
        OtherNodes {} = "node-network-unavailable.other-nodes" {
            en: "Whether other nodes are affected, unless they were pasted.",
            zh: "其他节点是否也受影响（除非它们也在输入中）。",
        },
    }
}
