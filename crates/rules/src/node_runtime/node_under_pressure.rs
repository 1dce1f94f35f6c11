use std::collections::BTreeMap;

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

const CONDITIONS: [&str; 3] = ["DiskPressure", "MemoryPressure", "PIDPressure"];

/// The resource a pressure condition is short of.
fn resource_of(pressure: &str) -> Msg {
    match pressure {
        "DiskPressure" => Msg::Disk {},
        "MemoryPressure" => Msg::Memory {},
        "PIDPressure" => Msg::ProcessIds {},
        _ => Msg::Resources {},
    }
}

/// The taint the node lifecycle controller puts on a node under this pressure (the scheduler names it
/// when it refuses the node).
fn taint_of(pressure: &str) -> &'static str {
    match pressure {
        "DiskPressure" => "node.kubernetes.io/disk-pressure",
        "MemoryPressure" => "node.kubernetes.io/memory-pressure",
        _ => "node.kubernetes.io/pid-pressure",
    }
}

/// Which pressure a kubelet event announces, by its reason.
fn pressure_of_event(reason: &str) -> Option<&'static str> {
    match reason {
        "NodeHasDiskPressure" | "FreeDiskSpaceFailed" | "ImageGCFailed" => Some("DiskPressure"),
        "NodeHasInsufficientMemory" => Some("MemoryPressure"),
        "NodeHasInsufficientPID" => Some("PIDPressure"),
        _ => None,
    }
}

/// The pressure an eviction message names: "The node was low on resource: ephemeral-storage."
pub fn pressure_of_eviction(message: &str) -> Option<&'static str> {
    let resource = message.split("low on resource: ").nth(1)?;
    if resource.starts_with("ephemeral-storage")
        || resource.starts_with("nodefs")
        || resource.starts_with("imagefs")
    {
        Some("DiskPressure")
    } else if resource.starts_with("memory") {
        Some("MemoryPressure")
    } else if resource.starts_with("pids") {
        Some("PIDPressure")
    } else {
        None
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // (node, pressure) pairs, in input order.
    let mut pressures: Vec<(ObjectRef, &'static str, Vec<Evidence>)> = Vec::new();
    let add = |node: ObjectRef,
               pressure: &'static str,
               evidence: Option<Evidence>,
               pressures: &mut Vec<(ObjectRef, &'static str, Vec<Evidence>)>| {
        let entry = match pressures
            .iter_mut()
            .position(|(n, p, _)| n.name == node.name && *p == pressure)
        {
            Some(i) => &mut pressures[i],
            None => {
                pressures.push((node, pressure, Vec::new()));
                let last = pressures.len() - 1;
                &mut pressures[last]
            }
        };
        if let Some(e) = evidence {
            if !entry.2.contains(&e) {
                entry.2.push(e);
            }
        }
    };
    for object in model.objects.iter().filter(|o| o.id.kind == "Node") {
        let Some((_, conditions)) = object.locate("status.conditions") else {
            // No conditions pasted (a describe cut to its Taints): the node lifecycle controller's
            // pressure taint says the condition is True.
            let taints = object
                .locate("spec.taints")
                .map(|(_, t)| t.items())
                .unwrap_or_default();
            for (i, taint) in taints.iter().enumerate() {
                let key = taint.get("key").and_then(|k| k.as_str()).unwrap_or_default();
                if let Some(pressure) = CONDITIONS.iter().find(|p| taint_of(p) == key) {
                    add(
                        object.id.clone(),
                        pressure,
                        model.evidence(object, &format!("spec.taints[{i}].key")),
                        &mut pressures,
                    );
                }
            }
            continue;
        };
        for (i, condition) in conditions.items().iter().enumerate() {
            let kind = condition.get("type").and_then(|n| n.as_str()).unwrap_or_default();
            let status = condition
                .get("status")
                .and_then(|n| n.as_str())
                .unwrap_or_default();
            if let Some(pressure) = CONDITIONS.iter().find(|c| **c == kind) {
                if status == "True" {
                    add(
                        object.id.clone(),
                        pressure,
                        model.evidence(object, &format!("status.conditions[{i}].status")),
                        &mut pressures,
                    );
                }
            }
        }
    }
    for event in model.events.iter().filter(|e| e.subject.kind == "Node") {
        if let Some(pressure) = pressure_of_event(&event.reason).or_else(|| {
            (event.reason == "EvictionThresholdMet")
                .then_some("DiskPressure")
                .filter(|_| event.message.contains("ephemeral-storage") || event.message.contains("nodefs"))
        }) {
            let node = ObjectRef {
                kind: "Node".into(),
                namespace: None,
                name: event.subject.name.clone(),
                uid: None,
            };
            add(node, pressure, model.event_evidence(event), &mut pressures);
        }
    }
    // A later NodeHasNoDiskPressure (or the condition False) means it passed.
    pressures.retain(|(node, pressure, _)| !relieved(model, &node.name, pressure));
    for (node, pressure, mut evidence) in pressures {
        let resource: Message = resource_of(pressure).into();
        // Evictions for the same resource: their consequence (which node is not in the message),
        // in the order of their names.
        let mut evicted: BTreeMap<String, ObjectRef> = BTreeMap::new();
        for event in model
            .events
            .iter()
            .filter(|e| e.reason == "Evicted" && pressure_of_eviction(&e.message) == Some(pressure))
        {
            evicted
                .entry(event.subject.to_string())
                .or_insert_with(|| event.subject.clone());
            if evidence.len() < 8 {
                evidence.extend(model.event_evidence(event));
            }
        }
        for object in model.objects.iter().filter(|o| o.id.kind == "Pod") {
            let reason = object.locate("status.reason").and_then(|(_, n)| n.as_str());
            let message = object
                .locate("status.message")
                .and_then(|(_, n)| n.as_str())
                .unwrap_or_default();
            let on_node =
                object.locate("spec.nodeName").and_then(|(_, n)| n.as_str()) == Some(node.name.as_str());
            if reason == Some("Evicted") && on_node && pressure_of_eviction(message) == Some(pressure) {
                evicted
                    .entry(object.id.to_string())
                    .or_insert_with(|| object.id.clone());
                evidence.extend(model.evidence(object, "status.message"));
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
        if model.events.iter().any(|e| e.reason == "Evicted") && !model.graph.inventory.has("Pod") {
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
            taint: taint_of(pressure),
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

fn relieved(model: &Model<'_>, node: &str, pressure: &str) -> bool {
    let relief = match pressure {
        "DiskPressure" => "NodeHasNoDiskPressure",
        "MemoryPressure" => "NodeHasSufficientMemory",
        _ => "NodeHasSufficientPID",
    };
    let events = model
        .events
        .iter()
        .filter(|e| e.subject.kind == "Node" && e.subject.name == node);
    let (mut last_bad, mut last_good) = (None, None);
    for e in events {
        let when = e.last.map(|t| t.as_second()).or(e.last_age.map(|a| -a));
        if e.reason == relief {
            last_good = last_good.max(when);
        } else if pressure_of_event(&e.reason) == Some(pressure) {
            last_bad = last_bad.max(when);
        }
    }
    matches!((last_bad, last_good), (Some(bad), Some(good)) if good > bad)
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
    #[test]
    fn eviction_resources() {
        assert_eq!(
            super::pressure_of_eviction(
                "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi"
            ),
            Some("DiskPressure")
        );
        assert_eq!(
            super::pressure_of_eviction("The node was low on resource: memory. "),
            Some("MemoryPressure")
        );
        assert_eq!(super::pressure_of_eviction("Pod was preempted"), None);
    }

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
