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
    /// The pasted Pods bound to the node named `node` (`spec.nodeName`) that have not terminated
    /// (phase neither `Succeeded` nor `Failed`), in input order.
    pub fn active_pods_on(&self, node: &str) -> Vec<&'a Object> {
        self.objects_of_kind("Pod")
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
}
