//! Where a Pod stands with the scheduler, from its typed status and spec: the node chosen for it,
//! its `PodScheduled` condition when that says no node was, and its node selector.

use faultline_ingest::api::Pod;
use faultline_ingest::{Object, Typed};

use crate::Model;

/// The `PodScheduled` reasons that say no node has been chosen (the scheduler's `Unschedulable`
/// and `SchedulerError`, and `SchedulingGated` while `spec.schedulingGates` hold the Pod back).
const UNSCHEDULED_REASONS: [&str; 3] = ["Unschedulable", "SchedulerError", "SchedulingGated"];

/// A Pod's `PodScheduled` condition that is `False` for one of those reasons (or none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unscheduled<'a> {
    /// Its index in `status.conditions`.
    pub index: usize,
    pub reason: Option<&'a str>,
    pub message: Option<&'a str>,
}

impl<'a> Unscheduled<'a> {
    /// Whether scheduling gates hold the Pod back (`SchedulingGated`).
    pub fn gated(&self) -> bool {
        self.reason == Some("SchedulingGated")
    }

    /// Its message when it is the scheduler's `0/N nodes are available: …` (else the events say
    /// more).
    pub fn fit_message(&self) -> Option<&'a str> {
        self.message.filter(|m| m.contains("nodes are available"))
    }
}

/// What a Pod says of its placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodPlacement<'a> {
    /// `spec.nodeName`, when set and not empty: the Pod is bound.
    pub node_name: Option<&'a str>,
    pub unscheduled: Option<Unscheduled<'a>>,
    /// `spec.nodeSelector`, sorted by key.
    pub node_selector: Vec<(&'a str, &'a str)>,
}

impl<'a> PodPlacement<'a> {
    pub fn of(pod: &'a Pod) -> Self {
        let spec = pod.spec.as_ref();
        let conditions = pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_deref())
            .unwrap_or_default();
        let unscheduled = conditions
            .iter()
            .enumerate()
            .find(|(_, c)| {
                c.type_ == "PodScheduled"
                    && c.status == "False"
                    && c.reason
                        .as_deref()
                        .is_none_or(|r| UNSCHEDULED_REASONS.contains(&r))
            })
            .map(|(index, c)| Unscheduled {
                index,
                reason: c.reason.as_deref(),
                message: c.message.as_deref(),
            });
        PodPlacement {
            node_name: spec
                .and_then(|s| s.node_name.as_deref())
                .filter(|n| !n.is_empty()),
            unscheduled,
            node_selector: spec
                .and_then(|s| s.node_selector.as_ref())
                .map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect())
                .unwrap_or_default(),
        }
    }
}

impl<'a> Model<'a> {
    /// The pasted Pods bound to each node (`spec.nodeName`, by the node's name) that have not
    /// terminated (phase neither `Succeeded` nor `Failed`), in input order: one pass over the Pods
    /// for all nodes (asking it node by node was nodes × Pods on a big cluster).
    pub fn active_pods_by_node(&self) -> crate::Map<&'a str, Vec<&'a Object>> {
        let mut on: crate::Map<&'a str, Vec<&'a Object>> = crate::Map::default();
        for object in self.objects_of_kind("Pod") {
            let Typed::Pod(pod) = &object.typed else { continue };
            let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
            if matches!(phase, Some("Succeeded" | "Failed")) {
                continue;
            }
            if let Some(node) = pod.spec.as_ref().and_then(|s| s.node_name.as_deref()) {
                on.entry(node).or_default().push(object);
            }
        }
        on
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source, Typed};

    use super::PodPlacement;

    #[test]
    fn reads_an_unscheduled_pod() {
        let text = "\
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop}
spec: {nodeSelector: {tier: nvme, arch: arm64}, containers: [{name: web, image: web:1}]}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/3 nodes are available\"}
";
        let sources = [Source::new("p.yaml", text)];
        let ingested = ingest(&sources);
        let Typed::Pod(pod) = &ingested.objects[0].typed else {
            panic!("a Pod")
        };
        let placement = PodPlacement::of(pod);
        assert_eq!(placement.node_name, None);
        let unscheduled = placement.unscheduled.map(|u| (u.index, u.reason, u.gated()));
        assert_eq!(unscheduled, Some((0, Some("Unschedulable"), false)));
        assert_eq!(placement.node_selector, [("arch", "arm64"), ("tier", "nvme")]);
    }

    /// Each node's Pods that have not terminated, in input order; a Pod that ran to its end, or
    /// that no node runs, is on none.
    #[test]
    fn finds_the_active_pods_of_every_node_at_once() {
        let pod = |name: &str, node: &str, phase: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: shop}}\nspec: {{nodeName: {node}}}\nstatus: {{phase: {phase}}}\n")
        };
        let text = [
            pod("a", "node-1", "Running"),
            pod("b", "node-2", "Running"),
            pod("c", "node-1", "Succeeded"),
            pod("d", "node-1", "Pending"),
            pod("e", "node-2", "Failed"),
            "apiVersion: v1\nkind: Pod\nmetadata: {name: f, namespace: shop}\nstatus: {phase: Pending}\n"
                .to_string(),
        ]
        .join("---\n");
        let sources = [Source::new("pods.yaml", text)];
        let ingested = ingest(&sources);
        let model = crate::Model::build(&sources, &ingested);
        let on = model.active_pods_by_node();
        let names = |node: &str| -> Vec<&str> {
            on.get(node)
                .map(|pods| pods.iter().map(|p| p.id.name.as_str()).collect())
                .unwrap_or_default()
        };
        assert_eq!(names("node-1"), ["a", "d"]);
        assert_eq!(names("node-2"), ["b"]);
        assert_eq!(on.len(), 2, "{:?}", on.keys().collect::<Vec<_>>());
    }
}
