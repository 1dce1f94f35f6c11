use crate::control_plane::components::{check_components, ETCD};
use faultline_model::Model;
use faultline_report::{Boundary, Finding};

crate::declare_rule! {
    /// ## What it finds
    /// An etcd member's own Pod failing in `kube-system` (kubeadm's static `etcd-<node>` Pod, known
    /// by its `component: etcd` label or its name): crash-looping, exiting with an error, not ready
    /// after restarts, or shown by `kubectl get pods` as `CrashLoopBackOff` or `Error`.
    ///
    /// ## Why it matters
    /// The API server stores everything in etcd: with a member down the cluster may still have
    /// quorum, but with a majority down every write fails and the API server answers with timeouts
    /// (`etcdserver: request timed out`). Restarting the API server does not help.
    ///
    /// ## Evidence
    /// The Pod's container states (waiting reason, last exit code and message, restart count) or the
    /// STATUS column of `kubectl get pods -n kube-system`, and its Warning events. A Pod whose
    /// containers exited before and all run and are ready now is history (an info line) when the
    /// input shows each has run 10 minutes or more since its last restart (the kubelet then resets
    /// its back-off; see `container-crash-looping`); when it cannot tell, the finding says so.
    ///
    /// ## Fault boundary
    /// `etcd`: the API server's storage.
    ///
    /// ## What this evidence cannot establish
    /// Why the member exits (a full disk, a corrupt WAL, a wrong peer URL, an expired peer
    /// certificate): its log says. Whether the cluster still has quorum, unless every member's Pod or
    /// `etcdctl endpoint status` was pasted.
    ///
    /// ## Next evidence to collect
    /// `kubectl -n kube-system logs etcd-NODE --previous`, `etcdctl endpoint status -w table` and
    /// `etcdctl alarm list` for every member, and the disk usage of `/var/lib/etcd` on the node.
    ///
    /// ## Example
    /// ```yaml
    /// lastState:
    ///   terminated:
    ///     exitCode: 2
    ///     reason: Error
    /// restartCount: 9
    /// ```
    pub const RULE = { id: "etcd-member-failing", boundary: Boundary::Etcd, components: [Etcd], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_components(model, &RULE, |c| c == ETCD, findings);
}

faultline_report::messages! {
    /// The words of `etcd-member-failing`.
    pub enum Msg {}
}
