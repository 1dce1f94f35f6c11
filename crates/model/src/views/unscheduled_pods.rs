//! Pods no scheduler has looked at, as their status and events show it: `Pending`, no node
//! (`spec.nodeName`, `status.nominatedNodeName`, describe's `Node: <none>`), no `PodScheduled`
//! condition, and no event about them where the input shows they would have one.

use faultline_ingest::{Object, Typed};
use faultline_report::hash::Set;
use faultline_report::{Evidence, ObjectRef};

use crate::Model;

/// A Pod no scheduler has tried, with the fields that show it (its phase, describe's `Events:
/// <none>`, its `schedulerName`).
#[derive(Debug)]
pub struct UntriedPod<'a> {
    pub object: &'a Object,
    pub evidence: Vec<Evidence>,
}

impl<'a> UntriedPod<'a> {
    /// The scheduler the Pod asks for when it is not the default one (`spec.schedulerName`).
    pub fn other_scheduler(&self) -> Option<&'a str> {
        self.object
            .locate("spec.schedulerName")
            .and_then(|(_, n)| n.as_str())
            .filter(|n| !n.is_empty() && *n != "default-scheduler")
    }
}

/// A node name as written: set, and not describe's `<none>`.
fn names_node(object: &Object, path: &str) -> bool {
    object
        .locate(path)
        .and_then(|(_, n)| n.as_str())
        .is_some_and(|n| !n.trim().is_empty() && n.trim() != "<none>")
}

/// The Pod has a node, or a phase past Pending.
fn is_placed(object: &Object) -> bool {
    let Typed::Pod(pod) = &object.typed else {
        return false;
    };
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    names_node(object, "spec.nodeName") || phase.is_some_and(|p| p != "Pending")
}

impl<'a> Model<'a> {
    /// Whether this paste of a Pod shows no scheduler tried it, with the fields that show it.
    fn untried(&self, object: &'a Object, with_events: &Set<Option<&str>>) -> Option<UntriedPod<'a>> {
        let Typed::Pod(pod) = &object.typed else {
            return None;
        };
        // A `get pods` row does not show conditions: it tells an untried Pod from a refused one only
        // beside the events of its namespace, pasted with none about it (a refused Pod has its
        // FailedScheduling there, a scheduled one its Scheduled).
        let row = object.locate("kubectl.status").is_some();
        if row && !with_events.contains(&object.id.namespace.as_deref()) {
            return None;
        }
        let status = pod.status.as_ref()?;
        if status.phase.as_deref() != Some("Pending")
            || names_node(object, "spec.nodeName")
            || names_node(object, "status.nominatedNodeName")
        {
            return None;
        }
        let conditions = status.conditions.as_deref().unwrap_or_default();
        if conditions.iter().any(|c| c.type_ == "PodScheduled") || !self.events_for(&object.id).is_empty() {
            return None;
        }
        // The input shows the Pod would have events: describe says none, or events were pasted and
        // none is about it.
        let none_said = object.locate("kubectl.events").is_some();
        if !none_said && self.events.is_empty() {
            return None;
        }
        let evidence = ["status.phase", "kubectl.events", "spec.schedulerName"]
            .into_iter()
            .filter_map(|path| self.evidence(object, path))
            .collect();
        Some(UntriedPod { object, evidence })
    }

    /// The Pods no scheduler has tried, each once, in input order: not one another paste of the input
    /// shows placed or past Pending (a later `get pods -o wide`: it was scheduled since).
    pub fn untried_pods(&self) -> Vec<UntriedPod<'a>> {
        // A set, so that a thousand Pods are not compared pairwise.
        let placed: std::collections::HashSet<&ObjectRef> = self
            .objects_of_kind("Pod")
            .filter(|o| is_placed(o))
            .map(|o| &o.id)
            .collect();
        // The namespaces whose events the input holds, once (a `get pods` row is judged beside them).
        let with_events: Set<Option<&str>> = self
            .events
            .iter()
            .map(|e| e.subject.namespace.as_deref())
            .collect();
        let mut pods: Vec<UntriedPod<'a>> = Vec::new();
        for object in self.objects_of_kind("Pod") {
            if placed.contains(&object.id) || pods.iter().any(|p| p.object.id == object.id) {
                continue;
            }
            pods.extend(self.untried(object, &with_events));
        }
        pods
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const PODS: &str = "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop}
  spec:
    schedulerName: my-scheduler
    containers: [{name: web, image: web:1}]
  status:
    phase: Pending
- apiVersion: v1
  kind: Pod
  metadata: {name: web-2, namespace: shop}
  spec:
    nodeName: node-1
    containers: [{name: web, image: web:1}]
  status:
    phase: Pending
";

    const EVENTS: &str = "\
LAST SEEN   TYPE     REASON    OBJECT          MESSAGE
1m          Normal   Pulled    pod/other-1     Container image \"web:1\" already present on machine
";

    #[test]
    fn a_pending_pod_without_node_condition_or_event_is_untried() {
        let sources = vec![Source::new("pods.yaml", PODS), Source::new("events", EVENTS)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let pods = model.untried_pods();
        let names: Vec<&str> = pods.iter().map(|p| p.object.id.name.as_str()).collect();
        assert_eq!(names, ["web-1"]);
        assert_eq!(pods[0].other_scheduler(), Some("my-scheduler"));
    }
}
