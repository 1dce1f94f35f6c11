use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// `kubectl get cs` (ComponentStatus) rows that say `Unhealthy`. An etcd member's row is a
    /// warning at etcd: the API server's health request to that member failed, with the error it
    /// got. A scheduler's or controller manager's row whose check was refused on
    /// `127.0.0.1:10251`/`10252` is a note, not a fault: that probe asks the component's old
    /// insecure port on the API server's own host, which a component running in its own Pod, on
    /// another host or with only its secure port (every kubeadm cluster since 1.20) never answers.
    /// Any other failure of their check is a warning at the control plane.
    ///
    /// ## Why it matters
    /// `get cs` is the first command many reach for, and its red rows are often wrong: the API was
    /// deprecated in 1.19 because its checks are made from the API server with fixed addresses and
    /// its own client, not the way the components are really reached. Reading a refused 10251 as a
    /// dead scheduler sends an incident the wrong way.
    ///
    /// ## Evidence
    /// The row's STATUS, MESSAGE and ERROR cells (the object's `Healthy` condition).
    ///
    /// ## Fault boundary
    /// `etcd` for an etcd member's row; `control-plane` for the scheduler's and the controller
    /// manager's.
    ///
    /// ## What this evidence cannot establish
    /// Whether the component works: an Unhealthy row can be the check failing (a client
    /// certificate the check does not present, an address the component does not listen on).
    ///
    /// ## Next evidence to collect
    /// The API server's own view (`kubectl get --raw='/readyz?verbose'`, which checks etcd as the
    /// API server uses it), `etcdctl endpoint health` with the cluster's client certificates, and
    /// the components' Pods (`kubectl -n kube-system get pods -l tier=control-plane`).
    ///
    /// ## Example
    /// ```text
    /// NAME                 STATUS      MESSAGE                                                  ERROR
    /// scheduler            Unhealthy   Get "http://127.0.0.1:10251/healthz": dial tcp 127.0.0.1:10251: connect: connection refused
    /// etcd-0               Unhealthy   Get https://10.0.0.4:2379/health: remote error: tls: bad certificate
    /// ```
    pub const RULE = { id: "component-status-unhealthy", boundary: Boundary::ControlPlane, components: [ApiServer], also_at: [Boundary::Etcd], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for status in model.unhealthy_component_statuses() {
        let (id, said) = (status.object.id.clone(), status.said.clone());
        let name = id.name.as_str();
        let pods = || {
            command!(
                "kubectl -n kube-system get pods -l component=kube-{} -o wide",
                name
            )
        };
        let (severity, boundary, summary, next) = if status.is_etcd() {
            let next = vec![
                "kubectl get --raw='/readyz/etcd'".to_string(),
                "etcdctl endpoint health --cluster".to_string(),
            ];
            let summary = Msg::EtcdCheckFails {
                subject: id.clone(),
                said,
            };
            (Severity::Warning, Boundary::Etcd, summary, next)
        } else if status.dials_old_port() {
            let summary = Msg::OldPort {
                subject: id.clone(),
                said,
            };
            (Severity::Info, Boundary::ControlPlane, summary, vec![pods()])
        } else {
            let next = vec!["kubectl get --raw='/readyz?verbose'".to_string(), pods()];
            let summary = Msg::CheckFails {
                subject: id.clone(),
                said,
            };
            (Severity::Warning, Boundary::ControlPlane, summary, next)
        };
        let evidence = status.evidence(model);
        let mut finding = RULE.finding(severity, id, summary, evidence, [Msg::CheckNotComponent {}], next);
        finding.boundary = boundary;
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `component-status-unhealthy`.
    pub enum Msg {
        EtcdCheckFails { subject: ObjectRef, said: String } = "component-status-unhealthy.etcd-check-fails" {
            en: "{subject} is Unhealthy in `kubectl get cs`: the API server's health request to this etcd member failed ({said}).",
            zh: "{subject} 在 `kubectl get cs` 中为 Unhealthy：API 服务器对这个 etcd 成员的健康检查请求失败了（{said}）。",
        },
        OldPort { subject: ObjectRef, said: String } = "component-status-unhealthy.old-port" {
            en: "{subject} is Unhealthy in `kubectl get cs` because its check was refused ({said}): that check asks the component's old insecure port on the API server's own host, which a component in its own Pod, on another host or with only its secure port never answers. Not a fault by itself: its Pod says whether it runs.",
            zh: "{subject} 在 `kubectl get cs` 中为 Unhealthy，是因为它的检查被拒绝了（{said}）：这个检查访问的是组件在 API 服务器所在主机上的旧的非安全端口，而运行在自己 Pod 中、在其他主机上或只开放安全端口的组件从不应答它。这本身不是故障：它的 Pod 才能说明它是否在运行。",
        },
        CheckFails { subject: ObjectRef, said: String } = "component-status-unhealthy.check-fails" {
            en: "{subject} is Unhealthy in `kubectl get cs`: the API server's check of it failed ({said}).",
            zh: "{subject} 在 `kubectl get cs` 中为 Unhealthy：API 服务器对它的检查失败了（{said}）。",
        },
        CheckNotComponent {} = "component-status-unhealthy.check-not-component" {
            en: "Whether the component works: ComponentStatus is deprecated (1.19), and its checks, made from the API server with fixed addresses and its own client, fail on many healthy clusters.",
            zh: "组件是否在工作：ComponentStatus 已被弃用（1.19），它的检查由 API 服务器以固定地址和自己的客户端发出，在许多健康的集群上也会失败。",
        },
    }
}
