use crate::control_plane::components::{check_components, ETCD};
use faultline_model::Model;
use faultline_report::{Boundary, Finding};

crate::declare_rule! {
    /// ## What it finds
    /// A control-plane component's own Pod failing in `kube-system`: kube-apiserver,
    /// kube-controller-manager or kube-scheduler (kubeadm's static Pods, known by their `component`
    /// label or their `<component>-<node>` name) crash-looping, exiting with an error, not ready after
    /// restarts, or shown by `kubectl get pods` as `CrashLoopBackOff`, `Error` or `Pending`.
    ///
    /// ## Why it matters
    /// Every other symptom follows from it: with the API server restarting, kubectl times out and
    /// controllers stall; without the controller manager, ReplicaSets and endpoints are not
    /// reconciled; without the scheduler, Pods stay Pending with no `FailedScheduling` event at all.
    /// Its container findings (crash loop, exit code) are details of this finding, listed under it.
    ///
    /// ## Evidence
    /// The Pod's container states (waiting reason, last exit code and message, restart count) or the
    /// STATUS column of `kubectl get pods -n kube-system`, and its Warning events. A Pod whose
    /// containers exited before and all run and are ready now is history (an info line) when the
    /// input shows each has run 10 minutes or more since its last restart (the kubelet then resets
    /// its back-off; see `container-crash-looping`); when it cannot tell, the finding says so.
    ///
    /// ## Fault boundary
    /// `control-plane`: the API server and the controllers that act on its objects.
    ///
    /// ## What this evidence cannot establish
    /// Why the component exits: its own log says (a bad flag in the static Pod manifest, an expired
    /// certificate, etcd unreachable). Whether the copies on the other control-plane nodes are healthy,
    /// unless their Pods were pasted.
    ///
    /// ## Next evidence to collect
    /// `kubectl -n kube-system logs POD --previous`; when the API server itself is down, on the node:
    /// `crictl ps -a --name kube-apiserver`, `crictl logs ID`, and `/etc/kubernetes/manifests`.
    ///
    /// ## Example
    /// ```text
    /// NAMESPACE     NAME                       READY   STATUS             RESTARTS
    /// kube-system   kube-apiserver-cp-1        0/1     CrashLoopBackOff   14 (2m ago)
    /// ```
    pub const RULE = { id: "control-plane-component-failing", boundary: Boundary::ControlPlane, components: [ApiServer if OfApiServer, Scheduler if OfScheduler, ControllerManager if OfControllerManager], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_components(model, &RULE, |c| c != ETCD, findings);
}

faultline_report::messages! {
    /// The words of `control-plane-component-failing`.
    pub enum Msg {}
}
