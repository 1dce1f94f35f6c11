use std::collections::{BTreeMap, BTreeSet};

use faultline_ingest::Object;
use faultline_model::views::zone_placement::{node_ready_or_unshown, node_zone};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A workload whose running replicas (two or more) all sit in one zone while the pasted Nodes span
    /// several (`topology.kubernetes.io/zone`, or the older `failure-domain.beta.kubernetes.io/zone`).
    /// A warning when a Node of that zone is not ready, information otherwise.
    ///
    /// ## Why it matters
    /// Replicas exist to survive a failure; in one zone, one zone's outage (or its network, or its
    /// storage) takes the whole workload down, and Pods rescheduled elsewhere may not reach their
    /// zonal volumes. The scheduler only spreads across zones when asked
    /// (`topologySpreadConstraints`, anti-affinity).
    ///
    /// ## Evidence
    /// Each Pod's `spec.nodeName`, and the zone label of each Node.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the zone the workload depends on.
    ///
    /// ## What this evidence cannot establish
    /// Whether the workload's volumes are zonal too (their PersistentVolumes' node affinity), and
    /// whether the skew is deliberate (data locality, cost).
    ///
    /// ## Next evidence to collect
    /// `kubectl get nodes -L topology.kubernetes.io/zone`, the workload's
    /// `topologySpreadConstraints`, and `kubectl get pv -o wide` for its claims.
    ///
    /// ## Example
    /// ```text
    /// NAME                   READY   STATUS    NODE       ZONE
    /// web-5d8c6f7b9d-4kq2x   1/1     Running   worker-1   eu-west-1a
    /// web-5d8c6f7b9d-9zt7m   1/1     Running   worker-2   eu-west-1a
    /// ```
    pub const RULE = { id: "replicas-in-one-zone", boundary: Boundary::ZoneNetworkStorage, components: [ProxyCni, Kubelet if NodeNamed], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let nodes: Vec<&Object> = model.objects_of_kind("Node").collect();
    let zones: BTreeSet<&str> = nodes
        .iter()
        .filter_map(|n| node_zone(n).map(|(z, _)| z))
        .collect();
    if zones.len() < 2 {
        return;
    }
    // The Nodes not ready, by zone, in input order (asked for every workload found in one zone).
    let mut unready_by_zone: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for node in &nodes {
        if let Some((z, _)) = node_zone(node).filter(|_| !node_ready_or_unshown(node)) {
            unready_by_zone.entry(z).or_default().push(&node.id.name);
        }
    }
    for (workload, placed) in model.replica_placements() {
        if placed.len() < 2 {
            continue;
        }
        let used: BTreeSet<&str> = placed
            .iter()
            .filter_map(|(_, n)| node_zone(n).map(|(z, _)| z))
            .collect();
        if used.len() != 1 || placed.iter().any(|(_, n)| node_zone(n).is_none()) {
            continue;
        }
        let Some(the_zone) = used.into_iter().next() else {
            continue;
        };
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut seen_nodes: Vec<&str> = Vec::new();
        for (pod, node) in &placed {
            evidence.extend(model.evidence(pod, "spec.nodeName"));
            if !seen_nodes.contains(&node.id.name.as_str()) {
                seen_nodes.push(&node.id.name);
                if let Some((_, path)) = node_zone(node) {
                    evidence.extend(model.evidence(node, path));
                }
            }
        }
        let unready: &[&str] = unready_by_zone.get(the_zone).map_or(&[], Vec::as_slice);
        let others: Vec<&str> = zones.iter().copied().filter(|z| *z != the_zone).collect();
        let summary = Msg::OneZone {
            subject: workload.clone(),
            replicas: placed.len(),
            zone: the_zone.to_string(),
            nodes: seen_nodes.iter().map(|n| n.to_string()).collect(),
            other_zones: others.iter().map(|z| z.to_string()).collect(),
            unready: unready.iter().map(|n| n.to_string()).collect(),
        };
        let ns = workload.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let resource = workload.kind.to_ascii_lowercase();
        let cannot_establish: Vec<Message> = vec![Msg::ZonalVolumes {}.into(), Msg::Deliberate {}.into()];
        let next_steps = vec![
            "kubectl get nodes -L topology.kubernetes.io/zone".to_string(),
            command!(
                "kubectl get {} {} -n {} -o jsonpath='{{.spec.template.spec.topologySpreadConstraints}}'",
                resource,
                workload.name,
                ns
            ),
            command!("kubectl get pods -n {} -o wide", ns),
        ];
        let severity = if unready.is_empty() {
            Severity::Info
        } else {
            Severity::Warning
        };
        findings.push(RULE.finding(
            severity,
            workload,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `replicas-in-one-zone`.
    pub enum Msg {
        /// Every running replica of a workload is in one zone while the pasted nodes span others;
        /// `unready` are that zone's nodes not ready now.
        OneZone { subject: ObjectRef, replicas: usize, zone: String, nodes: Vec<String>, other_zones: Vec<String>, unready: Vec<String> } = "replicas-in-one-zone.one-zone" {
            en: {
                let unready = if unready.0.is_empty() { String::new() } else { format!(" Nodes not ready in that zone now: {unready}.") };
                format!("{subject}: all {replicas} running replicas are in zone {zone} (nodes {nodes}), though the pasted nodes also span {other_zones}: one zone's outage takes the whole workload down.{unready}")
            },
            zh: {
                let unready = if unready.0.is_empty() { String::new() } else { format!("该可用区中目前没有就绪的节点：{unready}。") };
                format!("{subject}：全部 {replicas} 个运行中的副本都在可用区 {zone}（节点 {nodes}），而输入中的节点还分布在 {other_zones}：一个可用区发生故障，整个工作负载就会停止服务。{unready}")
            },
        },
        ZonalVolumes {} = "replicas-in-one-zone.zonal-volumes" {
            en: "Whether its volumes are zonal too: their PersistentVolumes' node affinity was not read.",
            zh: "它的卷是否也限定在某个可用区：没有读取这些卷的 PersistentVolume 的 nodeAffinity。",
        },
        Deliberate {} = "replicas-in-one-zone.deliberate" {
            en: "Whether the placement is deliberate (data locality, cost).",
            zh: "这种分布是否是有意为之（数据本地性、成本）。",
        },
    }
}
