//! Whether a pasted Pod runs (any of its `status.containerStatuses` in state `running`), the Node
//! it is on (`spec.nodeName`), its `component` label, and the STATUS and READY columns `kubectl get
//! pods` printed for it.

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

/// Whether the READY column `kubectl get pods` printed for the Pod (`2/2`) counts every container
/// ready, and at least one: false for `0/0`, `1/2`, or a Pod read from no table.
pub fn kubectl_printed_all_ready(pod: &Object) -> bool {
    pod.locate("kubectl.ready")
        .and_then(|(_, n)| n.as_str())
        .and_then(|r| r.split_once('/'))
        .is_some_and(|(a, b)| a == b && a != "0")
}

/// The Pod's `component` label (`metadata.labels.component`: kubeadm's and kOps's static Pods are
/// labelled `kube-apiserver`, `etcd`, ...), when the input shows it.
pub fn pod_component_label(pod: &Object) -> Option<&str> {
    pod.locate("metadata.labels.component")
        .and_then(|(_, n)| n.as_str())
}

#[cfg(test)]
mod tests {
    use crate::Model;
    use faultline_ingest::{ingest, Source};

    /// STATUS and READY of a `kubectl get pods` row whose READY cell is `ready`.
    fn row(ready: &str) -> (Option<String>, bool) {
        let text =
            format!("NAME    READY   STATUS    RESTARTS   AGE\nweb-1   {ready}     Running   0   43d\n");
        let sources = [Source::new("pods.txt", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let Some(pod) = model.objects_of_kind("Pod").next() else {
            return (None, false);
        };
        (
            super::kubectl_printed_status(pod).map(str::to_string),
            super::kubectl_printed_all_ready(pod),
        )
    }

    #[test]
    fn ready_columns() {
        assert_eq!(row("2/2"), (Some("Running".to_string()), true));
        assert_eq!(row("1/2"), (Some("Running".to_string()), false));
        assert_eq!(row("0/0"), (Some("Running".to_string()), false));
    }
}
