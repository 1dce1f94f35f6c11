//! Whether a pasted Pod runs (any of its `status.containerStatuses` in state `running`), the Node
//! it is on (`spec.nodeName`), and the status `kubectl get pods` printed for it.

use faultline_ingest::{Object, Typed};

/// Whether any container of the Pod is running (false for an object that is not a typed Pod).
pub fn any_container_running(object: &Object) -> bool {
    let Typed::Pod(pod) = &object.typed else {
        return false;
    };
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
        })
}

/// The Node the Pod is on (`spec.nodeName`), when scheduled and shown.
pub fn pod_node_name(pod: &Object) -> Option<&str> {
    pod.locate("spec.nodeName").and_then(|(_, n)| n.as_str())
}

/// The STATUS column `kubectl get pods` printed for the Pod (`Terminating`, `CrashLoopBackOff`).
pub fn kubectl_printed_status(pod: &Object) -> Option<&str> {
    pod.locate("kubectl.status").and_then(|(_, n)| n.as_str())
}
