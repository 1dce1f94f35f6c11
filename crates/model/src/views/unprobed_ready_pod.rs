//! A pasted Pod that is Ready with containers that have no readiness probe: the kubelet counts such
//! a container ready as soon as it runs, so the Pod's Ready condition says nothing of whether it
//! answers.

use faultline_ingest::node::Node;
use faultline_ingest::Object;

use crate::graph::EdgeKind;
use crate::Model;

/// A Ready Pod's containers without a readiness probe.
pub struct UnprobedReadyPod<'m> {
    pub pod: &'m Object,
    /// The index of its `Ready` condition (`True`) in `status.conditions`.
    pub ready_condition: usize,
    /// Each container without a `readinessProbe`: its index in `spec.containers` and its name.
    pub unprobed: Vec<(usize, &'m str)>,
    /// A pasted Service selects it.
    pub selected: bool,
}

impl<'m> Model<'m> {
    /// The pasted Pods that are Ready with a container that has no readiness probe, in input order.
    pub fn unprobed_ready_pods(&self) -> Vec<UnprobedReadyPod<'m>> {
        let objects = self.objects;
        let mut out = Vec::new();
        for (index, pod) in objects.iter().enumerate().filter(|(_, o)| o.id.kind == "Pod") {
            let Some(ready_condition) = ready_condition(pod) else {
                continue;
            };
            let Some((_, containers)) = pod.locate("spec.containers") else {
                continue;
            };
            let unprobed: Vec<(usize, &str)> = containers
                .items()
                .iter()
                .enumerate()
                .filter(|(_, c)| c.get("readinessProbe").is_none())
                .filter_map(|(i, c)| Some((i, c.get("name")?.as_str()?)))
                .collect();
            if unprobed.is_empty() {
                continue;
            }
            let selected = self
                .graph
                .edges_to(index)
                .any(|e| e.kind == EdgeKind::Selects && objects[e.from].id.kind == "Service");
            out.push(UnprobedReadyPod {
                pod,
                ready_condition,
                unprobed,
                selected,
            });
        }
        out
    }
}

/// The index of a Pod's `Ready` condition when it is `True`.
fn ready_condition(pod: &Object) -> Option<usize> {
    let (_, conditions) = pod.locate("status.conditions")?;
    conditions.items().iter().position(|c| {
        c.get("type").and_then(Node::as_str) == Some("Ready")
            && c.get("status").and_then(Node::as_str) == Some("True")
    })
}
