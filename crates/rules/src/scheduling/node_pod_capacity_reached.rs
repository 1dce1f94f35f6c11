use faultline_ingest::Object;
use faultline_model::views::node_status::NodeStatus;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A Node that holds as many Pods as its `pods` allocatable (the kubelet's `maxPods`, on EKS the
    /// instance type's ENI limit): `kubectl describe node` with `Allocatable: pods: 17` (or
    /// `Capacity:` alone) and `Non-terminated Pods: (17 in total)`, or a Node's YAML with
    /// `status.allocatable.pods` and the pasted Pods bound to it (`spec.nodeName`, not `Succeeded`
    /// or `Failed`).
    ///
    /// ## Why it matters
    /// The scheduler will not place another Pod there, whatever CPU and memory are free: a new Pod
    /// that fits nowhere else stays `Pending` with `Too many pods` in its `FailedScheduling` message.
    /// The node looks half empty in `kubectl top`, so the limit is easy to miss.
    ///
    /// ## Evidence
    /// The node's `status.allocatable.pods` (or `status.capacity.pods`) and kubectl's count of its
    /// non-terminated Pods, or the pasted Pods on it. When a Pod in the input is refused with
    /// `Too many pods`, that `pod-unschedulable` finding is listed under this one as its symptom, and
    /// this finding is an error.
    ///
    /// ## Fault boundary
    /// `scheduling`: the node's Pod count is a resource the scheduler fits Pods against.
    ///
    /// ## What this evidence cannot establish
    /// Whether other nodes have room (unless they were pasted), whether the limit is the kubelet's
    /// `maxPods` setting or the network plugin's address limit, and, from YAML, whether all Pods
    /// bound to the node were pasted.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe node NODE` for the Pods on it, `kubectl get pods -A --field-selector
    /// spec.nodeName=NODE`, and the kubelet's `maxPods` (`kubectl get --raw
    /// /api/v1/nodes/NODE/proxy/configz`).
    ///
    /// ## Example
    /// ```text
    /// Capacity:
    ///   pods:               17
    /// Allocatable:
    ///   pods:               17
    /// Non-terminated Pods:          (17 in total)
    /// ```
    pub const RULE = { id: "node-pod-capacity-reached", boundary: Boundary::Scheduling, components: [Scheduler, Kubelet], check: check };
}
/// Whether the scheduler refused the Pod for the nodes' Pod count (`Too many pods`), for the link
/// from its `pod-unschedulable` finding ([`Model::refused_for_pod_count`]).
pub fn refused_for_pod_count(model: &Model<'_>, pod: &ObjectRef) -> bool {
    model.refused_for_pod_count(pod)
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Whether any Pod was refused for the count: asked only once a node is full (every Pod's
    // events and conditions are read for it).
    let mut refused: Option<bool> = None;
    // The Pods on each node, found once, when a node's own count is not pasted.
    let mut on_nodes = None;
    for node in model.objects_of_kind("Node") {
        let Some((limit_path, limit)) = NodeStatus::of(node).pod_limit() else {
            continue;
        };
        let counted = NodeStatus::of(node).non_terminated_pods();
        let pasted: &[&Object] = match counted {
            Some(_) => &[],
            None => on_nodes
                .get_or_insert_with(|| model.active_pods_by_node())
                .get(node.id.name.as_str())
                .map_or(&[], Vec::as_slice),
        };
        let (count, from_kubectl) = match counted {
            Some(n) => (n, true),
            None => (pasted.len() as u32, false),
        };
        if count < limit {
            continue;
        }
        let mut evidence: Vec<Evidence> = Vec::new();
        evidence.extend(model.evidence(node, limit_path));
        if from_kubectl {
            evidence.extend(model.evidence(node, "kubectl.nonTerminatedPods"));
        } else {
            for pod in pasted.iter().take(3) {
                evidence.extend(model.evidence(pod, "spec.nodeName"));
            }
        }
        let summary = Msg::Full {
            subject: node.id.clone(),
            count,
            limit,
            field: limit_path.into(),
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::WhichLimit {}.into()];
        if model.objects_of_kind("Node").count() == 1 {
            cannot_establish.push(Msg::OtherNodes {}.into());
        }
        if !from_kubectl {
            cannot_establish.push(Msg::AllPodsPasted {}.into());
        }
        let name = &node.id.name;
        let next_steps = vec![
            command!("kubectl describe node {}", name),
            command!("kubectl get pods -A --field-selector spec.nodeName={}", name),
            command!("kubectl get --raw /api/v1/nodes/{}/proxy/configz", name),
        ];
        let severity = if *refused.get_or_insert_with(|| model.any_refused_for_pod_count()) {
            Severity::Error
        } else {
            Severity::Warning
        };
        findings.push(RULE.finding(
            severity,
            node.id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `node-pod-capacity-reached`.
    pub enum Msg {
        /// A node holding as many Pods as it may.
        Full { subject: ObjectRef, count: u32, limit: u32, field: Text } = "node-pod-capacity-reached.full" {
            en: "{subject} runs {count} Pods and its {field} is {limit}: the scheduler will place no new Pod there (\"Too many pods\"), whatever CPU and memory are free.",
            zh: "{subject} 上运行着 {count} 个 Pod，而它的 {field} 为 {limit}：无论还剩多少 CPU 和内存，调度器都不会再往这里放新的 Pod（\"Too many pods\"）。",
        },
        WhichLimit {} = "node-pod-capacity-reached.which-limit" {
            en: "Whether the limit is the kubelet's maxPods setting or the network plugin's address limit (on EKS, the instance type's ENIs).",
            zh: "这个上限来自 kubelet 的 maxPods 设置，还是网络插件的地址数量限制（在 EKS 上是实例类型的 ENI）。",
        },
        OtherNodes {} = "node-pod-capacity-reached.other-nodes" {
            en: "Whether other nodes have room for new Pods: no other Node was pasted.",
            zh: "其他节点是否还能容纳新的 Pod：输入中没有其他 Node。",
        },
        AllPodsPasted {} = "node-pod-capacity-reached.all-pods-pasted" {
            en: "Whether every Pod bound to the node was pasted: the count is of the pasted Pods.",
            zh: "绑定到该节点的 Pod 是否都已粘贴：这里的数量只统计了粘贴的 Pod。",
        },
    }
}
