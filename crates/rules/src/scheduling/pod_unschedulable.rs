use std::collections::BTreeSet;

use faultline_ingest::api::Pod;
use faultline_ingest::{Object, Typed};
use faultline_model::signals::scheduler_fit::{Cause, FitFailure, Histogram, Refusal};
use faultline_model::views::pod_placement::PodPlacement;
use faultline_model::{EventRecord, Model};
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

use super::histogram::{describe_cause, describe_entry};
use crate::history::{self, Supersedes};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod that no node has been chosen for: `status.conditions[type=PodScheduled]` is `False` with
    /// reason `Unschedulable`, `SchedulerError` or `SchedulingGated`, or the scheduler's
    /// `FailedScheduling` events for a Pod without `spec.nodeName`. The `0/N nodes are available: …`
    /// message is parsed into its reasons (node selector or affinity, untolerated taints,
    /// insufficient resources, unbound claims, volume node affinity, topology spread, pod
    /// (anti-)affinity, too many pods, cordoned nodes) and, when Nodes are pasted, the nodes that fail
    /// the node selector or carry the named taint are listed.
    ///
    /// ## Why it matters
    /// "Pending" has two different meanings. Before a node is chosen the scheduler's constraints are
    /// the boundary; after it (`spec.nodeName` set) the kubelet, the runtime and the registry are.
    /// Looking at images or the application while no node has been chosen wastes the incident's time.
    ///
    /// ## Evidence
    /// The PodScheduled condition (reason and message) first, the Pod's node selector, the Nodes'
    /// labels and taints when pasted, then the `FailedScheduling` events, which alone are a hint.
    ///
    /// ## Fault boundary
    /// `scheduling`: kube-scheduler and the constraints it enforces. Except where the refusal is
    /// another component's fault (control-plane nodes, which no workload uses, aside):
    /// `node-runtime` when every node was refused for its condition (a condition taint:
    /// `node.kubernetes.io/not-ready`, `unreachable`, the pressure taints, `network-unavailable`; or
    /// `had unknown conditions`); `control-plane` when every node waits for the cloud controller
    /// manager to initialise it (`node.cloudprovider.kubernetes.io/uninitialized`); and
    /// `zone-network-storage` when the Pod waits for its claims, its `ReadWriteOncePod` claim is in
    /// use by another Pod, or most nodes were refused for their volumes (`volume node affinity
    /// conflict`, `no available volume zone`, …).
    ///
    /// ## What this evidence cannot establish
    /// Whether capacity or matching nodes will appear (a cluster autoscaler, new nodes); which node the
    /// Pod would use once the constraint is fixed, and whether its image would pull and the application
    /// run there. With a repeated event, the text shown may be the first attempt's.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe pod`, the Pod's `nodeSelector`, `affinity` and `tolerations`, and the nodes'
    /// labels (`kubectl get nodes -L KEY`), taints or allocated resources, depending on the reason.
    ///
    /// ## Example
    /// ```text
    /// Node-Selectors:  storage-tier=nvme
    /// Events:
    ///   Warning  FailedScheduling  66s (x2 over 6m7s)  default-scheduler  0/3 nodes are available:
    ///   1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: },
    ///   2 node(s) didn't match Pod's node affinity/selector.
    /// ```
    pub const RULE = { id: "pod-unschedulable", boundary: Boundary::Scheduling, components: [Scheduler], also_at: [Boundary::NodeRuntime, Boundary::ZoneNetworkStorage, Boundary::ControlPlane], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen: BTreeSet<ObjectRef> = BTreeSet::new();
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        findings.extend(diagnose(model, Some((object, pod)), &object.id));
        seen.insert(object.id.clone());
    }
    // Pods known only from the scheduler's events (the Pod itself was not pasted). A failure that
    // names no Pod (the scheduler's `error selecting node for pod: …` beside its `Error scheduling
    // ns/name: …`) is one of the named ones when the scheduler names any: no finding of its own.
    let failures = model.event_subjects("Pod", |e| e.reason == "FailedScheduling");
    let some_named = failures.iter().any(|s| !s.subject.name.is_empty());
    for failure in failures {
        if (failure.subject.name.is_empty() && some_named) || !seen.insert(failure.subject.clone()) {
            continue;
        }
        findings.extend(diagnose(model, None, failure.subject));
    }
}

fn diagnose(model: &Model<'_>, pod: Option<(&Object, &Pod)>, id: &ObjectRef) -> Option<Finding> {
    let placement = pod.map(|(_, p)| PodPlacement::of(p));
    if placement.as_ref().is_some_and(|p| p.node_name.is_some()) {
        return None; // bound: any Pending is after scheduling
    }
    let condition = placement.as_ref().and_then(|p| p.unscheduled);
    let failed: Vec<&EventRecord> = model
        .events_for(id)
        .into_iter()
        .filter(|e| e.reason == "FailedScheduling")
        .collect();
    if condition.is_none() && failed.is_empty() {
        return None;
    }
    let scheduled = Supersedes::Event {
        reasons: &["Scheduled"],
        same_part: false,
    };
    if condition.is_none() && history::superseded(model, id, failed.last().copied(), &[scheduled]).is_some() {
        return None; // a later Scheduled event: the failure was transient
    }
    // The scheduler's last word on a Pod being deleted: nothing is waiting to be placed any more.
    // Without the Pod, only a real scheduling failure counts.
    if failed.last().is_some_and(|e| e.skips_deleting_pod())
        || (pod.is_none() && !failed.iter().any(|e| e.says_unschedulable()))
    {
        return None;
    }
    let gated = condition.is_some_and(|c| c.gated());
    let message = condition
        .and_then(|c| c.fit_message())
        .or_else(|| failed.last().map(|e| e.message.as_str()))
        .unwrap_or_default();
    let fit = FitFailure::read(message);
    let node_selector = placement.map(|p| p.node_selector).unwrap_or_default();

    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some((object, _)) = pod {
        if let Some(c) = condition {
            for field in ["status", "reason", "message"] {
                evidence.extend(model.evidence(object, &format!("status.conditions[{}].{field}", c.index)));
            }
            if gated {
                evidence.extend(model.evidence(object, "spec.schedulingGates"));
            }
        }
        evidence.extend(model.evidence(object, "status.phase"));
        for (k, _) in &node_selector {
            evidence.extend(model.evidence(object, &format!("spec.nodeSelector[\"{k}\"]")));
        }
    }
    let named = fit
        .histogram
        .as_ref()
        .map(|h| failing_nodes(model, h, &node_selector, &mut evidence))
        .unwrap_or_default();
    if let Some(latest) = failed.last() {
        evidence.extend(model.event_evidence(latest));
    }

    let summary = summary(id, gated, &fit, named, pod.is_none());
    let mut cannot_establish: Vec<Message> = vec![Msg::CapacityMayAppear {}.into(), Msg::WhichNode {}.into()];
    if failed.iter().any(|e| e.count > 1) {
        cannot_establish.push(Msg::Repeated {}.into());
    }
    if !model.graph.inventory.has("Node") {
        cannot_establish.push(Msg::NoNodes {}.into());
    }
    if pod.is_none() {
        cannot_establish.push(Msg::NotPasted { subject: id.clone() }.into());
    }

    let (name, ns) = (
        &id.name,
        id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE),
    );
    let mut next_steps = vec![
        command!("kubectl describe pod {} -n {}", name, ns),
        command!("kubectl get pod {} -n {} -o jsonpath='{{.spec.nodeSelector}}{{\"\\n\"}}{{.spec.affinity}}{{\"\\n\"}}{{.spec.tolerations}}{{\"\\n\"}}'", name, ns),
    ];
    let any = |pick: fn(&Cause) -> bool| fit.causes().any(pick);
    if any(|c| matches!(c, Cause::NodeAffinity)) {
        let keys: Vec<&str> = node_selector.iter().map(|(k, _)| *k).collect();
        next_steps.push(if keys.is_empty() {
            "kubectl get nodes --show-labels".to_string()
        } else {
            command!("kubectl get nodes -L {}", keys.join(","))
        });
    }
    if any(|c| matches!(c, Cause::Taint(_))) {
        next_steps
            .push("kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints".to_string());
    }
    if any(|c| matches!(c, Cause::Insufficient(_) | Cause::TooManyPods)) {
        next_steps.push("kubectl describe nodes | grep -A 8 'Allocated resources'".to_string());
    }
    if any(|c| matches!(c, Cause::UnboundClaim | Cause::VolumeNodeAffinity)) || fit.waits_for_claims() {
        next_steps.push(command!("kubectl get pvc -n {}", ns));
    }
    if gated {
        next_steps.push(command!(
            "kubectl get pod {} -n {} -o jsonpath='{{.spec.schedulingGates}}'",
            name,
            ns
        ));
    }

    let mut finding = RULE.finding(
        if gated { Severity::Warning } else { Severity::Error },
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    );
    finding.details = fit.details();
    finding.boundary = match fit.refusal() {
        Refusal::NodeConditions => Boundary::NodeRuntime,
        Refusal::Uninitialized => Boundary::ControlPlane,
        Refusal::Storage => Boundary::ZoneNetworkStorage,
        Refusal::Constraints => Boundary::Scheduling,
    };
    Some(finding)
}

/// Names the pasted nodes that fail the node selector or carry a named taint, adding their labels and
/// taints as evidence; returns a clause per cause naming them, for the summary.
fn failing_nodes(
    model: &Model<'_>,
    histogram: &Histogram,
    node_selector: &[(&str, &str)],
    evidence: &mut Vec<Evidence>,
) -> Vec<Message> {
    let mut named = Vec::new();
    for (cause, nodes) in model.nodes_refusing(histogram, node_selector) {
        for (node, fields) in &nodes {
            evidence.extend(fields.iter().filter_map(|path| model.evidence(node, path)));
        }
        let names = nodes.iter().map(|(node, _)| node.id.name.to_string()).collect();
        named.push(
            Msg::PastedNodes {
                cause: Box::new(describe_cause(cause)),
                nodes: names,
            }
            .into(),
        );
    }
    named
}

fn summary(id: &ObjectRef, gated: bool, fit: &FitFailure<'_>, named: Vec<Message>, events_only: bool) -> Msg {
    if gated {
        return Msg::Gated { subject: id.clone() };
    }
    let scheduler = match &fit.histogram {
        Some(h) => Some(Msg::Available {
            available: h.available,
            total: h.total,
            entries: h.entries.iter().map(describe_entry).collect(),
        }),
        None if !fit.message.is_empty() => Some(Msg::SchedulerSays {
            message: fit.message.to_string(),
        }),
        None => None,
    };
    let refusal = fit.refusal();
    Msg::NoNode {
        subject: id.clone(),
        scheduler: scheduler.map(|m| Box::new(m.into())),
        named,
        events_only,
        nodes_at_fault: refusal == Refusal::NodeConditions,
        storage_at_fault: refusal == Refusal::Storage,
        cloud_at_fault: refusal == Refusal::Uninitialized,
    }
}

faultline_report::messages! {
    /// The words of `pod-unschedulable`.
    pub enum Msg {
        /// A Pod whose `spec.schedulingGates` keep the scheduler from considering it.
        Gated { subject: ObjectRef } = "pod-unschedulable.gated" {
            en: "{subject} is held back by scheduling gates: the scheduler will not consider it until they are removed.",
            zh: "{subject} 被 schedulingGates 挡住了：在这些门控被移除之前，调度器不会考虑它。",
        },
        /// A Pod no node has been chosen for: what the scheduler says (`Available`, `SchedulerSays`),
        /// the pasted nodes it refused (`PastedNodes`), and whether this rests on its events alone.
        NoNode { subject: ObjectRef, scheduler: Option<Box<Message>>, named: Vec<Message>, events_only: bool, nodes_at_fault: bool, storage_at_fault: bool, cloud_at_fault: bool } = "pod-unschedulable.no-node" {
            en: {
                let mut text = match (*nodes_at_fault.0, *storage_at_fault.0) {
                    _ if *cloud_at_fault.0 => format!("No node has been chosen for {subject}: every node it could use waits for the cloud controller manager to initialise it (taint `node.cloudprovider.kubernetes.io/uninitialized`), so the fault is at the control plane, not in the Pod's constraints."),
                    (true, _) => format!("No node has been chosen for {subject}: the scheduler refused every node for its condition (not ready, unreachable, under pressure or without network), so the fault is at the Nodes, not in the Pod's constraints."),
                    (_, true) => format!("No node has been chosen for {subject}: it waits for its volumes (a claim not bound, bound to a volume out of reach, or in use by another Pod with ReadWriteOncePod), so the fault is at storage, though the scheduler reports it."),
                    _ => format!("No node has been chosen for {subject}: it is Pending before scheduling, so the scheduler's constraints are the boundary."),
                };
                if let Some(s) = scheduler.0 {
                    text.push(' ');
                    text.push_str(&s.render(Lang::En));
                }
                for n in named.0 {
                    text.push(' ');
                    text.push_str(&n.render(Lang::En));
                }
                if *events_only.0 {
                    text.push_str(" (From the scheduler's events only.)");
                }
                text
            },
            zh: {
                let mut text = match (*nodes_at_fault.0, *storage_at_fault.0) {
                    _ if *cloud_at_fault.0 => format!("还没有为 {subject} 选定节点：它可用的每个节点都在等待云控制器管理器（cloud controller manager）完成初始化（污点 `node.cloudprovider.kubernetes.io/uninitialized`），因此故障在控制平面，而不在 Pod 的约束。"),
                    (true, _) => format!("还没有为 {subject} 选定节点：调度器因节点的状况（未就绪、不可达、资源压力或没有网络）拒绝了每个节点，因此故障在节点，而不在 Pod 的约束。"),
                    (_, true) => format!("还没有为 {subject} 选定节点：它在等待它的卷（PVC 未绑定、绑定到无法到达的卷，或正被另一个 Pod 以 ReadWriteOncePod 方式占用），因此故障在存储，尽管报告它的是调度器。"),
                    _ => format!("还没有为 {subject} 选定节点：它的 Pending 发生在调度之前，因此故障边界是调度器的各项约束。"),
                };
                if let Some(s) = scheduler.0 {
                    text.push_str(&s.render(Lang::Zh));
                }
                for n in named.0 {
                    text.push_str(&n.render(Lang::Zh));
                }
                if *events_only.0 {
                    text.push_str("（仅依据调度器的事件。）");
                }
                text
            },
        },
        /// The scheduler's histogram: how many nodes are available, and why the others are not
        /// (its entries, [`super::histogram::Msg`]).
        Available { available: u32, total: u32, entries: Vec<Message> } = "pod-unschedulable.available" {
            en: "{available}/{total} nodes are available: {entries}.",
            zh: "{total} 个节点中有 {available} 个可用：{entries}。",
        },
        /// The scheduler's message, verbatim, when it is not a histogram this parser reads.
        SchedulerSays { message: String } = "pod-unschedulable.scheduler-says" {
            en: "The scheduler says: {message}",
            zh: "调度器的消息：{message}",
        },
        /// The pasted nodes that fail one of the scheduler's reasons (a cause of the histogram).
        PastedNodes { cause: Box<Message>, nodes: Vec<String> } = "pod-unschedulable.pasted-nodes" {
            en: "Pasted nodes {cause}: {nodes}.",
            zh: "粘贴的节点中，{nodes} {cause}。",
        },
        CapacityMayAppear {} = "pod-unschedulable.capacity-may-appear" {
            en: "Whether capacity or matching nodes will appear (a cluster autoscaler, new or uncordoned nodes): the message is the scheduler's view at its last attempt.",
            zh: "是否会出现容量或匹配的节点（集群自动扩缩器、新加入或解除封锁的节点）：这条消息只是调度器最后一次尝试时看到的情况。",
        },
        WhichNode {} = "pod-unschedulable.which-node" {
            en: "Which node the Pod would use once the constraint is fixed, and whether its image would pull and the application run there.",
            zh: "约束修正后 Pod 会使用哪个节点，以及在那里镜像能否拉取、应用能否运行。",
        },
        /// A `FailedScheduling` event with a count above 1.
        Repeated {} = "pod-unschedulable.repeated" {
            en: "The scheduling failure repeated; the text shown can be the first attempt's (an event series keeps its first message), so later attempts may have had other per-node reasons.",
            zh: "调度失败重复出现过；显示的文本可能是第一次尝试时的（事件序列保留第一条消息），之后的尝试在各个节点上的原因可能不同。",
        },
        NoNodes {} = "pod-unschedulable.no-nodes" {
            en: "No Nodes were pasted, so their labels, taints and free capacity are unknown: the node counts come from the scheduler's message alone.",
            zh: "输入中没有 Node，因此它们的标签、污点和空闲容量都不清楚：节点数量只来自调度器的消息。",
        },
        /// A Pod known from the scheduler's events only.
        NotPasted { subject: ObjectRef } = "pod-unschedulable.not-pasted" {
            en: "{subject} itself was not pasted: its node selector, affinity, tolerations and requests are unknown, and this finding rests on the scheduler's events alone, which are a hint rather than proof.",
            zh: "输入中没有 {subject} 本身：它的节点选择器、亲和性、容忍和资源请求都不清楚；这个结论只基于调度器的事件，事件只是线索而不是证明。",
        },
    }
}

#[cfg(test)]
mod tests {
    use faultline_engine::{analyze, Source};

    /// The Pod pasted without its uid (as `kubectl get -o yaml` of a template or an edited paste
    /// shows it) and the scheduler's event naming it with one are one Pod: one finding, not a second
    /// "known only from its events".
    #[test]
    fn a_pod_and_its_event_with_a_uid_are_one_pod() {
        let text = "\
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop}
spec: {containers: [{name: web, image: web:1}]}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.\"}
---
apiVersion: v1
kind: Event
metadata: {name: web-1.1, namespace: shop}
involvedObject: {kind: Pod, name: web-1, namespace: shop, uid: 5e1f}
reason: FailedScheduling
type: Warning
message: \"0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.\"
";
        let report = analyze(&[Source::new("p.yaml", text)]);
        let found: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.rule == super::RULE.id)
            .map(|f| f.subject.to_string())
            .collect();
        assert_eq!(found, ["Pod shop/web-1"]);
    }
}
