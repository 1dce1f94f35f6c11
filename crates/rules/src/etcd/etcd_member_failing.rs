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
    pub const RULE = { id: "etcd-member-failing", boundary: Boundary::Etcd, components: [Etcd], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 `kube-system` 中某个 etcd 成员自身的 Pod 出现故障（kubeadm 的静态 Pod `etcd-<node>`，通过 `component: etcd` 标签或名称识别）：处于崩溃循环、以错误退出、多次重启后仍未就绪，或在 `kubectl get pods` 中显示为 `CrashLoopBackOff` 或 `Error`。

 ## 为什么重要
 API 服务器把一切都存储在 etcd 中：一个成员宕掉时，集群可能仍有法定人数（quorum），但多数成员宕掉时，所有写操作都会失败，API 服务器会以超时作答（`etcdserver: request timed out`）。重启 API 服务器无济于事。

 ## 证据
 Pod 的容器状态（等待原因、上次的退出码和消息、重启次数），或 `kubectl get pods -n kube-system` 的 STATUS 列，以及它的 Warning 事件。如果 Pod 的容器之前退出过、现在都在运行并已就绪，且输入显示每个容器自上次重启以来都已运行 10 分钟或更久（此时 kubelet 会重置退避计时；参见 `container-crash-looping`），则这是历史（一条 info）；输入无法判断时，发现中会如此说明。

 ## 故障边界
 `etcd`：API 服务器的存储。

 ## 这些证据无法确定的内容
 成员为什么退出（磁盘写满、WAL 损坏、错误的 peer URL、过期的 peer 证书）：要看它的日志。集群是否仍有法定人数，除非粘贴了每个成员的 Pod 或 `etcdctl endpoint status` 的输出。

 ## 下一步应收集的证据
 `kubectl -n kube-system logs etcd-NODE --previous`，对每个成员执行 `etcdctl endpoint status -w table` 和 `etcdctl alarm list`，以及节点上 `/var/lib/etcd` 的磁盘用量。

 ## 示例
 ```yaml
 lastState:
   terminated:
     exitCode: 2
     reason: Error
 restartCount: 9
 ```
"#;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_components(model, &RULE, |c| c == ETCD, findings);
}

faultline_report::messages! {
    /// The words of `etcd-member-failing`.
    pub enum Msg {}
}
