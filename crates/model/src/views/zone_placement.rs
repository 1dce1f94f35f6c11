//! Where a workload's replicas run: each Node's zone (the well-known label
//! `topology.kubernetes.io/zone`, or the deprecated `failure-domain.beta.kubernetes.io/zone`), its
//! readiness, and the running Pods of each workload with the Node they are on.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::hash::Map;
use faultline_report::ObjectRef;

use crate::owners::workload_of;
use crate::Model;

const ZONE_LABELS: [&str; 2] = [
    "metadata.labels[\"topology.kubernetes.io/zone\"]",
    "metadata.labels[\"failure-domain.beta.kubernetes.io/zone\"]",
];

/// The Node's zone (not empty) and the path of the label that says it.
pub fn node_zone(node: &Object) -> Option<(&str, &'static str)> {
    ZONE_LABELS.iter().find_map(|path| {
        node.locate(path)
            .and_then(|(_, n)| n.as_str())
            .filter(|z| !z.is_empty())
            .map(|z| (z, *path))
    })
}

/// Whether the Node is `Ready=True`, or shows no conditions at all (a table row, a trimmed YAML).
pub fn node_ready_or_unshown(node: &Object) -> bool {
    node.locate("status.conditions").is_none_or(|(_, list)| {
        list.items().iter().any(|c| {
            c.get("type").and_then(Node::as_str) == Some("Ready")
                && c.get("status").and_then(Node::as_str) == Some("True")
        })
    })
}

/// A workload and its running Pods, each with the pasted Node it runs on.
pub type Placement<'a> = (ObjectRef, Vec<(&'a Object, &'a Object)>);

impl<'a> Model<'a> {
    /// Each workload's running Pods (phase `Running`) whose Node (by `spec.nodeName`, the first
    /// Node of that name) is pasted, in input order. A bare Pod, a DaemonSet's and a Job's are not
    /// replicas spread by a scheduler's choice, and are left out. Looked up by key: a 10k-pod dump
    /// has thousands of workloads.
    pub fn replica_placements(&self) -> Vec<Placement<'a>> {
        let mut by_name: Map<&str, &Object> = Map::default();
        for node in self.objects_of_kind("Node") {
            by_name.entry(node.id.name.as_str()).or_insert(node);
        }
        let mut groups: Vec<Placement<'a>> = Vec::new();
        let mut group_of: Map<ObjectRef, usize> = Map::default();
        for pod in self.objects.iter().filter(|o| o.id.kind == "Pod") {
            let running = pod.locate("status.phase").and_then(|(_, n)| n.as_str()) == Some("Running");
            let Some(node_name) = pod.locate("spec.nodeName").and_then(|(_, n)| n.as_str()) else {
                continue;
            };
            let Some(&node) = by_name.get(node_name) else {
                continue;
            };
            let workload = workload_of(pod);
            if !running || workload == pod.id || workload.kind == "DaemonSet" || workload.kind == "Job" {
                continue;
            }
            match group_of.get(&workload) {
                Some(&at) => groups[at].1.push((pod, node)),
                None => {
                    group_of.insert(workload.clone(), groups.len());
                    groups.push((workload, vec![(pod, node)]));
                }
            }
        }
        groups
    }
}
