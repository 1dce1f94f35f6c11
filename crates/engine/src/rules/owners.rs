//! The workload a Pod belongs to, for rules that speak of a workload rather than each of its Pods.

use crate::ingest::node::Node;
use crate::ingest::Object;
use crate::report::ObjectRef;

/// The Pod's top controller as far as the Pod itself says: its controller owner reference, with a
/// ReplicaSet named `<deployment>-<pod-template-hash>` (the hash also in the Pod's labels) taken up to
/// its Deployment; the Pod itself when it has no owner.
pub fn workload_of(pod: &Object) -> ObjectRef {
    let owner = pod.locate("metadata.ownerReferences").and_then(|(_, refs)| {
        let items = refs.items();
        items
            .iter()
            .find(|r| r.get("controller").and_then(Node::as_str) == Some("true"))
            .or_else(|| items.first())
            .and_then(|r| Some((r.get("kind")?.as_str()?, r.get("name")?.as_str()?)))
    });
    let Some((kind, name)) = owner else {
        return pod.id.clone();
    };
    let hash = pod
        .locate("metadata.labels.pod-template-hash")
        .and_then(|(_, n)| n.as_str());
    let (kind, name) = match (kind, hash) {
        ("ReplicaSet", Some(hash)) => match name.strip_suffix(hash).and_then(|n| n.strip_suffix('-')) {
            Some(deployment) if !deployment.is_empty() => ("Deployment", deployment),
            _ => (kind, name),
        },
        _ => (kind, name),
    };
    ObjectRef {
        kind: kind.into(),
        namespace: pod.id.namespace.clone(),
        name: name.into(),
        uid: None,
    }
}
