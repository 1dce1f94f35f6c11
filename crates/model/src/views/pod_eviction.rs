//! A pasted Pod as the kubelet's evictions leave it, from its fields as the input states them (a
//! manifest, a `describe`, or a `kubectl get pods` row: `kubectl.status`, `kubectl.ready`): whether
//! it was evicted, on which node, with what message, and whether it runs and is ready.

use faultline_ingest::{Object, Typed};

use crate::Model;

/// A field of the object as text (empty when absent).
fn field<'a>(object: &'a Object, path: &str) -> &'a str {
    object
        .locate(path)
        .and_then(|(_, n)| n.as_str())
        .unwrap_or_default()
}

/// A pasted Pod whose `status.reason` is `Evicted`.
#[derive(Clone, Copy, Debug)]
pub struct EvictedPod<'a> {
    pub object: &'a Object,
    /// `status.message`: the kubelet's eviction message (empty when absent).
    pub message: &'a str,
    /// `spec.nodeName`, when the input states it.
    pub node: Option<&'a str>,
}

impl<'a> Model<'a> {
    /// The pasted Pods whose `status.reason` is `Evicted`, in input order.
    pub fn evicted_pods(&self) -> impl Iterator<Item = EvictedPod<'a>> + '_ {
        self.objects_of_kind("Pod")
            .filter(|o| field(o, "status.reason") == "Evicted")
            .map(|object| EvictedPod {
                object,
                message: field(object, "status.message"),
                node: object.locate("spec.nodeName").and_then(|(_, n)| n.as_str()),
            })
    }
}

/// `spec.nodeName` of a pasted object (empty when absent).
pub fn node_name(object: &Object) -> &str {
    field(object, "spec.nodeName")
}

/// Whether a pasted Pod runs and is ready now, and was not evicted: `status.phase` (or the table's
/// STATUS) `Running`, and READY `n/n` in a table, else each container's `ready` in its status.
pub fn runs_ready(pod: &Object) -> bool {
    if field(pod, "status.reason") == "Evicted" || field(pod, "kubectl.status") == "Evicted" {
        return false;
    }
    let runs = field(pod, "status.phase") == "Running" || field(pod, "kubectl.status") == "Running";
    let ready = match field(pod, "kubectl.ready").split_once('/') {
        Some((ready, all)) => ready == all && ready != "0",
        None => match &pod.typed {
            Typed::Pod(pod) => pod
                .status
                .as_ref()
                .and_then(|s| s.container_statuses.as_ref())
                .is_none_or(|c| c.iter().all(|c| c.ready)),
            _ => true,
        },
    };
    runs && ready
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::runs_ready;
    use crate::Model;

    #[test]
    fn evicted_and_running_pods() {
        let text = "\
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop}
spec: {nodeName: w1, containers: [{name: web, image: web:1}]}
status: {phase: Failed, reason: Evicted, message: \"The node was low on resource: memory. \"}
---
apiVersion: v1
kind: Pod
metadata: {name: web-2, namespace: shop}
spec: {nodeName: w2, containers: [{name: web, image: web:1}]}
status:
  phase: Running
  containerStatuses: [{name: web, ready: true, restartCount: 0, image: web:1, imageID: \"\"}]
";
        let sources = [Source::new("p.yaml", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let evicted: Vec<(&str, Option<&str>)> = model
            .evicted_pods()
            .map(|p| (p.object.id.name.as_str(), p.node))
            .collect();
        assert_eq!(evicted, [("web-1", Some("w1"))]);
        assert!(!runs_ready(&ingested.objects[0]));
        assert!(runs_ready(&ingested.objects[1]));
    }
}
