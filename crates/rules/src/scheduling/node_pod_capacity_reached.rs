use faultline_ingest::{Object, Typed};
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

/// Whether the scheduler refused this Pod for the nodes' Pod count: `Too many pods` in its
/// `FailedScheduling` events or its `PodScheduled` condition.
pub fn refused_for_pod_count(model: &Model<'_>, pod: &ObjectRef) -> bool {
    const WORDS: &str = "Too many pods";
    if model
        .events_for(pod)
        .iter()
        .any(|e| e.reason == "FailedScheduling" && e.message.contains(WORDS))
    {
        return true;
    }
    let Some(object) = model.object(pod) else {
        return false;
    };
    // The conditions located once, not one path per condition: this runs for every Pod.
    object.locate("status.conditions").is_some_and(|(_, conditions)| {
        conditions.items().iter().any(|c| {
            c.get("message")
                .and_then(|n| n.as_str())
                .is_some_and(|m| m.contains(WORDS))
        })
    })
}

/// Pods the input shows bound to a node and not terminated.
fn pasted_pods_on<'a>(model: &Model<'a>, node: &str) -> Vec<&'a Object> {
    model
        .objects_of_kind("Pod")
        .filter(|o| {
            let Typed::Pod(pod) = &o.typed else { return false };
            let on = pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.as_deref())
                .is_some_and(|n| n == node);
            let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
            on && !matches!(phase, Some("Succeeded" | "Failed"))
        })
        .collect()
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Whether any Pod was refused for the count: asked only once a node is full (every Pod's
    // events and conditions are read for it).
    let mut refused: Option<bool> = None;
    let mut any_refused = || {
        *refused.get_or_insert_with(|| {
            model
                .objects_of_kind("Pod")
                .map(|o| &o.id)
                .chain(
                    model
                        .events
                        .iter()
                        .filter(|e| e.subject.kind == "Pod")
                        .map(|e| &e.subject),
                )
                .any(|p| refused_for_pod_count(model, p))
        })
    };
    for node in model.objects_of_kind("Node") {
        let limit_path = ["status.allocatable.pods", "status.capacity.pods"]
            .into_iter()
            .find(|p| node.locate(p).is_some());
        let Some(limit_path) = limit_path else { continue };
        let Some(limit) = node
            .locate(limit_path)
            .and_then(|(_, n)| n.as_str())
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|l| *l > 0)
        else {
            continue;
        };
        let counted = node
            .locate("kubectl.nonTerminatedPods")
            .and_then(|(_, n)| n.as_str())
            .and_then(|v| v.parse::<u32>().ok());
        let pasted = pasted_pods_on(model, &node.id.name);
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
        let severity = if any_refused() {
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
