//! A pasted Node's conditions, taints and labels as the input states them (from a manifest, a
//! `describe` or a table), each with the index its field path cites.

use faultline_ingest::node::Node;
use faultline_ingest::Object;

use crate::signals::scheduler_fit::{Cause, Histogram};
use crate::Model;

/// One of `status.conditions`, its fields as written (empty when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeCondition<'a> {
    /// Its index in `status.conditions`.
    pub index: usize,
    pub type_: &'a str,
    pub status: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
}

/// One of `spec.taints`: its index and key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeTaint<'a> {
    pub index: usize,
    pub key: Option<&'a str>,
}

/// A pasted Node, read.
#[derive(Clone, Copy, Debug)]
pub struct NodeStatus<'a> {
    pub object: &'a Object,
}

fn text<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get(key).and_then(Node::as_str).unwrap_or_default()
}

impl<'a> NodeStatus<'a> {
    pub fn of(object: &'a Object) -> Self {
        NodeStatus { object }
    }

    /// Its conditions in order, or `None` when the input holds no `status.conditions` (a describe
    /// cut before its Conditions).
    pub fn conditions(&self) -> Option<Vec<NodeCondition<'a>>> {
        let (_, conditions) = self.object.locate("status.conditions")?;
        Some(
            conditions
                .items()
                .iter()
                .enumerate()
                .map(|(index, c)| NodeCondition {
                    index,
                    type_: text(c, "type"),
                    status: text(c, "status"),
                    reason: text(c, "reason"),
                    message: text(c, "message"),
                })
                .collect(),
        )
    }

    /// The first condition of type `type_`, if the input holds it.
    pub fn condition(&self, type_: &str) -> Option<NodeCondition<'a>> {
        self.conditions()?.into_iter().find(|c| c.type_ == type_)
    }

    /// Its taints in order (none when `spec.taints` is absent).
    pub fn taints(&self) -> Vec<NodeTaint<'a>> {
        self.object
            .locate("spec.taints")
            .map(|(_, t)| t.items())
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(index, t)| NodeTaint {
                index,
                key: t.get("key").and_then(Node::as_str),
            })
            .collect()
    }

    /// Its Pod limit, with the field that states it: `status.allocatable.pods`, else
    /// `status.capacity.pods` (the first the input holds); `None` when that is not a positive number.
    pub fn pod_limit(&self) -> Option<(&'static str, u32)> {
        let path = ["status.allocatable.pods", "status.capacity.pods"]
            .into_iter()
            .find(|p| self.object.locate(p).is_some())?;
        let limit = self
            .object
            .locate(path)
            .and_then(|(_, n)| n.as_str())
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|l| *l > 0)?;
        Some((path, limit))
    }

    /// The Pods `kubectl describe node` counts as running on it (`Non-terminated Pods: (N in
    /// total)`, read as `kubectl.nonTerminatedPods`).
    pub fn non_terminated_pods(&self) -> Option<u32> {
        self.object
            .locate("kubectl.nonTerminatedPods")
            .and_then(|(_, n)| n.as_str())
            .and_then(|v| v.parse::<u32>().ok())
    }

    /// The fields of this Node that a scheduler's refusal for `cause` points at: for a node
    /// affinity refusal, its labels that do not match the Pod's `node_selector` (none without
    /// one); for an untolerated taint the scheduler names, that taint's key.
    pub fn refusing_fields(&self, cause: &Cause, node_selector: &[(&str, &str)]) -> Vec<String> {
        if *cause == Cause::NodeAffinity {
            return node_selector
                .iter()
                .filter(|(k, v)| self.label(k) != Some(*v))
                .map(|(k, _)| format!("metadata.labels[\"{k}\"]"))
                .collect();
        }
        let Some(key) = cause.taint_key() else {
            return Vec::new();
        };
        self.taints()
            .iter()
            .find(|t| t.key == Some(key))
            .map(|t| format!("spec.taints[{}].key", t.index))
            .into_iter()
            .collect()
    }

    /// The value of its label `key` (`metadata.labels["key"]`), if the input holds it.
    pub fn label(&self, key: &str) -> Option<&'a str> {
        self.object
            .locate(&format!("metadata.labels[\"{key}\"]"))
            .and_then(|(_, n)| n.as_str())
    }
}

/// The pasted Nodes that show one of the scheduler's refusals, with the fields that show it.
pub type Refusing<'h, 'a> = (&'h Cause, Vec<(&'a Object, Vec<String>)>);

impl<'a> Model<'a> {
    /// For each entry of a scheduler's histogram, in order, the pasted Nodes whose fields show that
    /// refusal ([`NodeStatus::refusing_fields`]), in input order; entries no pasted Node shows are
    /// left out.
    pub fn nodes_refusing<'h>(
        &self,
        histogram: &'h Histogram,
        node_selector: &[(&str, &str)],
    ) -> Vec<Refusing<'h, 'a>> {
        let nodes: Vec<NodeStatus<'a>> = self.objects_of_kind("Node").map(NodeStatus::of).collect();
        histogram
            .entries
            .iter()
            .map(|entry| {
                let refusing = nodes
                    .iter()
                    .map(|node| (node.object, node.refusing_fields(&entry.cause, node_selector)))
                    .filter(|(_, fields)| !fields.is_empty())
                    .collect();
                (&entry.cause, refusing)
            })
            .filter(|(_, refusing): &Refusing<'h, 'a>| !refusing.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::NodeStatus;
    use crate::signals::scheduler_fit::Cause;

    #[test]
    fn reads_conditions_taints_and_labels() {
        let text = "\
apiVersion: v1
kind: Node
metadata: {name: w1, labels: {disk: ssd}}
spec:
  taints:
  - {key: node.kubernetes.io/not-ready, effect: NoSchedule}
status:
  conditions:
  - {type: MemoryPressure, status: \"False\"}
  - {type: Ready, status: \"Unknown\", reason: NodeStatusUnknown, message: Kubelet stopped posting node status.}
";
        let sources = [Source::new("n.yaml", text)];
        let ingested = ingest(&sources);
        let node = NodeStatus::of(&ingested.objects[0]);
        let ready = node.condition("Ready").map(|c| (c.index, c.status, c.reason));
        assert_eq!(ready, Some((1, "Unknown", "NodeStatusUnknown")));
        let taints: Vec<_> = node.taints().iter().map(|t| (t.index, t.key)).collect();
        assert_eq!(taints, [(0, Some("node.kubernetes.io/not-ready"))]);
        assert_eq!(node.label("disk"), Some("ssd"));
        assert_eq!(node.label("zone"), None);
        let selector = [("disk", "nvme"), ("zone", "a")];
        assert_eq!(
            node.refusing_fields(&Cause::NodeAffinity, &selector),
            ["metadata.labels[\"disk\"]", "metadata.labels[\"zone\"]"]
        );
        let taint = Cause::Taint(Some("{node.kubernetes.io/not-ready: }".into()));
        assert_eq!(node.refusing_fields(&taint, &[]), ["spec.taints[0].key"]);
        assert!(node.refusing_fields(&Cause::TooManyPods, &selector).is_empty());
        let model = crate::Model::build(&sources, &ingested);
        let Some(histogram) = crate::signals::scheduler_fit::parse("0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 Insufficient cpu.") else {
            panic!("a histogram")
        };
        let refusing = model.nodes_refusing(&histogram, &[]);
        assert_eq!(refusing.len(), 1);
        assert_eq!(refusing[0].1[0].1, ["spec.taints[0].key"]);
    }
}
