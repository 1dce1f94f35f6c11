use std::collections::BTreeMap;

use faultline_model::signals::node_pressure::{pressure_taint, Eviction, PRESSURE_CONDITIONS};
use faultline_model::views::node_status::NodeStatus;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Detail, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A node short of disk, memory or process IDs: its `DiskPressure`, `MemoryPressure` or
    /// `PIDPressure` condition is `True`, or the kubelet reports it (`NodeHasDiskPressure`,
    /// `EvictionThresholdMet`, `FreeDiskSpaceFailed`). Pods evicted for the same resource (`Evicted`,
    /// "The node was low on resource: …") are cited with it: they are its consequence.
    ///
    /// ## Why it matters
    /// The kubelet evicts Pods and the node gets a `NoSchedule` taint
    /// (`node.kubernetes.io/disk-pressure`), so Pods fail or cannot be placed for a reason that is
    /// neither their own nor the scheduler's: the node and what fills it are the boundary.
    ///
    /// ## Evidence
    /// The node's pressure condition, then the kubelet's node events and the Pods' eviction events
    /// and messages.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the node's kubelet, its disks and its memory.
    ///
    /// ## What this evidence cannot establish
    /// What fills the disk or the memory (images, logs, emptyDir volumes, a process), and — when
    /// events name no node — on which node an eviction happened.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe node` (conditions, allocated resources), the Pods on the node
    /// (`kubectl get pods -A --field-selector spec.nodeName=NODE`), and the node's disk usage.
    ///
    /// ## Example
    /// ```text
    /// default  21m    Normal   NodeHasDiskPressure   node/edge-node-3  Node edge-node-3 status is now: NodeHasDiskPressure
    /// logging  20m    Warning  Evicted               pod/log-collector-h7x2q  The node was low on resource: ephemeral-storage.
    /// ```
    pub const RULE = { id: "node-under-pressure", boundary: Boundary::NodeRuntime, components: [Kubelet], check: check };
}

/// The resource a pressure condition is short of.
fn resource_of(pressure: &str) -> Msg {
    match pressure {
        "DiskPressure" => Msg::Disk {},
        "MemoryPressure" => Msg::Memory {},
        "PIDPressure" => Msg::ProcessIds {},
        _ => Msg::Resources {},
    }
}

/// (node, pressure) pairs in input order, each with the evidence that says it.
type Pressures = Vec<(ObjectRef, &'static str, Vec<Evidence>)>;

fn add(pressures: &mut Pressures, node: ObjectRef, pressure: &'static str, evidence: Option<Evidence>) {
    let i = match pressures
        .iter()
        .position(|(n, p, _)| n.name == node.name && *p == pressure)
    {
        Some(i) => i,
        None => {
            pressures.push((node, pressure, Vec::new()));
            pressures.len() - 1
        }
    };
    if let Some(e) = evidence.filter(|e| !pressures[i].2.contains(e)) {
        pressures[i].2.push(e);
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut pressures: Pressures = Vec::new();
    for object in model.objects_of_kind("Node") {
        let node = NodeStatus::of(object);
        let Some(conditions) = node.conditions() else {
            // No conditions pasted (a describe cut to its Taints): the node lifecycle controller's
            // pressure taint says the condition is True.
            for taint in node.taints() {
                if let Some(pressure) = PRESSURE_CONDITIONS
                    .iter()
                    .find(|p| taint.key == Some(pressure_taint(p)))
                {
                    let evidence = model.evidence(object, &format!("spec.taints[{}].key", taint.index));
                    add(&mut pressures, object.id.clone(), pressure, evidence);
                }
            }
            continue;
        };
        for c in conditions.iter().filter(|c| c.status == "True") {
            if let Some(pressure) = PRESSURE_CONDITIONS.iter().find(|p| **p == c.type_) {
                let evidence = model.evidence(object, &format!("status.conditions[{}].status", c.index));
                add(&mut pressures, object.id.clone(), pressure, evidence);
            }
        }
    }
    for (event, pressure) in model.node_pressure_events() {
        let node = ObjectRef {
            kind: "Node".into(),
            namespace: None,
            name: event.subject.name.clone(),
            uid: None,
        };
        add(&mut pressures, node, pressure, model.event_evidence(event));
    }
    // A later NodeHasNoDiskPressure (or the condition False) means it passed.
    pressures.retain(|(node, pressure, _)| !model.pressure_relieved(&node.name, pressure));
    for (node, pressure, mut evidence) in pressures {
        let resource: Message = resource_of(pressure).into();
        // Evictions for the same resource: their consequence (which node is not in the message),
        // in the order of their names.
        let mut evicted: BTreeMap<String, ObjectRef> = BTreeMap::new();
        for event in model.evictions_under(pressure) {
            evicted
                .entry(event.subject.to_string())
                .or_insert_with(|| event.subject.clone());
            if evidence.len() < 8 {
                evidence.extend(model.event_evidence(event));
            }
        }
        for pod in model
            .evicted_pods()
            .filter(|p| p.node == Some(node.name.as_str()))
        {
            if Eviction::read(pod.message).pressure() == Some(pressure) {
                evicted
                    .entry(pod.object.id.to_string())
                    .or_insert_with(|| pod.object.id.clone());
                evidence.extend(model.evidence(pod.object, "status.message"));
            }
        }
        let summary = Msg::ShortOf {
            subject: node.clone(),
            resource: Box::new(resource.clone()),
            pressure,
            evicted: evicted.into_values().collect(),
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::WhatFills {
            resource: Box::new(resource),
        }
        .into()];
        if model.has_eviction_events() && !model.graph.inventory.has("Pod") {
            cannot_establish.push(Msg::EvictionsUnlinked {}.into());
        }
        let name = node.name.clone();
        let mut finding = RULE.finding(
            Severity::Error,
            node,
            summary,
            evidence,
            cannot_establish,
            vec![
                command!("kubectl describe node {}", name),
                command!(
                    "kubectl get pods -A -o wide --field-selector spec.nodeName={}",
                    name
                ),
                command!(
                    "kubectl debug node/{} -it --image=busybox -- df -h /host/var/lib",
                    name
                ),
            ],
        );
        finding.details.push(Detail::NodePressure {
            taint: pressure_taint(pressure),
        });
        findings.push(finding);
    }
}

/// The pressure condition a finding of this rule is about (`MemoryPressure`), read from its typed
/// message while the rules run (its texts are rendered only at the end): for the rules that leave
/// to it the evictions it cites (`pod-evicted`). `None` for any other finding.
pub fn pressure_of(finding: &Finding) -> Option<&'static str> {
    match finding.summary.message()?.get::<Msg>()? {
        Msg::ShortOf { pressure, .. } => Some(pressure),
        _ => None,
    }
}

faultline_report::messages! {
    /// The words of `node-under-pressure`.
    pub enum Msg {
        /// A node under a pressure condition (`MemoryPressure`), the resource it is short of, and
        /// the Pods evicted for that resource.
        ShortOf { subject: ObjectRef, resource: Box<Message>, pressure: &'static str, evicted: Vec<ObjectRef> } = "node-under-pressure.short-of" {
            en: {
                let evicted = if evicted.0.is_empty() { String::new() } else { format!(" Evicted for the same resource: {evicted}.") };
                format!("{subject} is short of {resource} ({pressure}): the kubelet evicts Pods and the node refuses new ones (its pressure taint).{evicted}")
            },
            zh: {
                let evicted = if evicted.0.is_empty() { String::new() } else { format!("因同一资源被驱逐的有：{evicted}。") };
                format!("{subject} 的{resource}不足（{pressure}）：kubelet 会驱逐 Pod，节点也会拒绝新的 Pod（它的压力污点）。{evicted}")
            },
        },
        /// The resource of `DiskPressure`.
        Disk {} = "node-under-pressure.disk" {
            en: "disk (ephemeral-storage)",
            zh: "磁盘（ephemeral-storage）",
        },
        /// The resource of `MemoryPressure`.
        Memory {} = "node-under-pressure.memory" {
            en: "memory",
            zh: "内存",
        },
        /// The resource of `PIDPressure`.
        ProcessIds {} = "node-under-pressure.process-ids" {
            en: "process IDs",
            zh: "进程号",
        },
        /// A pressure this rule does not know the resource of.
        Resources {} = "node-under-pressure.resources" {
            en: "resources",
            zh: "资源",
        },
        WhatFills { resource: Box<Message> } = "node-under-pressure.what-fills" {
            en: "What fills the node's {resource} (images, container logs, emptyDir volumes, a process).",
            zh: "是什么占用了节点的{resource}（镜像、容器日志、emptyDir 卷、某个进程）。",
        },
        /// Eviction events without the Pods: linked to the node by the resource they name.
        EvictionsUnlinked {} = "node-under-pressure.evictions-unlinked" {
            en: "The eviction events do not name their node; they are linked here by the resource they name, not proven to be on this node.",
            zh: "驱逐事件没有指明所在节点；这里是按它们所说的资源关联过来的，并不能证明它们发生在这个节点上。",
        },
    }
}

#[cfg(test)]
mod tests {
    /// The pressure is read from the finding's typed message, not from its text (which is empty
    /// while the rules run).
    #[test]
    fn a_finding_says_its_pressure() {
        let text = "apiVersion: v1\nkind: Node\nmetadata: {name: w}\nstatus:\n  conditions:\n  - {type: PIDPressure, status: \"True\"}\n";
        let sources = [faultline_report::Source::new("n.yaml", text)];
        let ingested = faultline_ingest::ingest(&sources);
        let model = faultline_model::Model::build(&sources, &ingested);
        let mut findings = Vec::new();
        (super::RULE.check)(&model, &mut findings);
        let pressures: Vec<_> = findings
            .iter()
            .filter(|f| f.rule == super::RULE.id)
            .map(super::pressure_of)
            .collect();
        assert_eq!(pressures, [Some("PIDPressure")]);
    }
}
