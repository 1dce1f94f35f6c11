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
    pub const RULE = { id: "control-plane-component-failing", boundary: Boundary::ControlPlane, components: [ApiServer if OfApiServer, Scheduler if OfScheduler, ControllerManager if OfControllerManager], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 `kube-system` 中某个控制平面组件自身的 Pod 出现故障：kube-apiserver、kube-controller-manager 或 kube-scheduler（kubeadm 的静态 Pod，通过 `component` 标签或 `<component>-<node>` 形式的名称识别）处于崩溃循环、以错误退出、多次重启后仍未就绪，或在 `kubectl get pods` 中显示为 `CrashLoopBackOff`、`Error` 或 `Pending`。

 ## 为什么重要
 其他所有症状都由它引起：API 服务器不断重启时，kubectl 会超时，控制器会停滞；没有控制器管理器，ReplicaSet 和端点就得不到调谐；没有调度器，Pod 会一直 Pending，而且根本没有 `FailedScheduling` 事件。它的容器层面的发现（崩溃循环、退出码）是这条发现的细节，列在它下面。

 ## 证据
 Pod 的容器状态（等待原因、上次的退出码和消息、重启次数），或 `kubectl get pods -n kube-system` 的 STATUS 列，以及它的 Warning 事件。如果 Pod 的容器之前退出过、现在都在运行并已就绪，且输入显示每个容器自上次重启以来都已运行 10 分钟或更久（此时 kubelet 会重置退避计时；参见 `container-crash-looping`），则这是历史（一条 info）；输入无法判断时，发现中会如此说明。

 ## 故障边界
 `control-plane`：API 服务器，以及操作其对象的各个控制器。

 ## 这些证据无法确定的内容
 组件为什么退出：要看它自己的日志（静态 Pod 清单中的错误参数、过期的证书、无法连接 etcd）。其他控制平面节点上的副本是否健康，除非也粘贴了它们的 Pod。

 ## 下一步应收集的证据
 `kubectl -n kube-system logs POD --previous`；如果 API 服务器本身已宕掉，则在节点上执行：`crictl ps -a --name kube-apiserver`、`crictl logs ID`，并检查 `/etc/kubernetes/manifests`。

 ## 示例
 ```text
 NAMESPACE     NAME                       READY   STATUS             RESTARTS
 kube-system   kube-apiserver-cp-1        0/1     CrashLoopBackOff   14 (2m ago)
 ```
"#;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_components(model, &RULE, |c| c != ETCD, findings);
}

faultline_report::messages! {
    /// The words of `control-plane-component-failing`.
    pub enum Msg {}
}
