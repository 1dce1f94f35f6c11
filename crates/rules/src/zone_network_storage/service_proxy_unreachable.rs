use faultline_model::proxy::{proxy_errors, ProxyError, ProxyFailure};
/// Shared with `service-proxy-refused`.
pub use faultline_model::views::proxy_target::by_target;
use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A request through the API server's proxy (`kubectl proxy`, `kubectl get --raw
    /// /api/v1/namespaces/NS/services/NAME:PORT/proxy/`, the dashboard's URL) that the API server
    /// answered with its backend's failure: `error trying to reach service: dial tcp IP:PORT: i/o
    /// timeout` (or `no route to host`), or a timeout on the proxy path (`Error from server
    /// (Timeout)` after `kubectl get --raw …/proxy/`, a `504 Gateway Timeout` in a `-v=6..9` trace).
    ///
    /// ## Why it matters
    /// kubectl prints the API server's words, so it reads as the API server failing, and people
    /// look at its load and at etcd. The API server answered: it dialled the Pod's address itself,
    /// from the control-plane node, and nothing came back. The usual cause is that the control-plane
    /// nodes have no route to the Pod network (the CNI agent not running there, a firewall, an
    /// overlay bound to the wrong interface), while the same Pods answer clients inside the cluster.
    ///
    /// ## Evidence
    /// The `Status` message or kubectl's line, the address the proxy dialled when the message gives
    /// it, and the Service, Pod or Node the request's URL names.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the network path from the API server to the Pod network. A refused
    /// connection is not this rule's: the address answered (`service-proxy-refused`).
    ///
    /// ## What this evidence cannot establish
    /// Whether the Pods answer clients inside the cluster (then only the control plane's path to them
    /// is broken) or nobody (a network policy, a Pod that is gone, a process that accepts and never
    /// answers); which node the API server that answered runs on.
    ///
    /// ## Next evidence to collect
    /// The Service's endpoints (`kubectl get endpointslices -n NS -l kubernetes.io/service-name=NAME
    /// -o wide`), the same request from a Pod inside the cluster, and the CNI agent's Pods on the
    /// control-plane nodes (`kubectl get pods -n kube-system -o wide`).
    ///
    /// ## Example
    /// ```text
    /// "message": "error trying to reach service: dial tcp 10.244.1.49:8443: i/o timeout",
    /// "code": 500
    /// ```
    pub const RULE = { id: "service-proxy-unreachable", boundary: Boundary::ZoneNetworkStorage, components: [ApiServer, ProxyCni], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let errors: Vec<ProxyError> = proxy_errors(model)
        .into_iter()
        .filter(|e| matches!(e.failure, ProxyFailure::Unreachable | ProxyFailure::NoAnswer))
        .collect();
    for (subject, group) in by_target(model, &errors) {
        let evidence = group.iter().map(|e| e.evidence.clone()).take(8).collect();
        let endpoint = group.iter().find_map(|e| e.endpoint.clone());
        let timed_out = group.iter().all(|e| e.failure == ProxyFailure::NoAnswer);
        let steps = next_steps(&subject, endpoint.as_deref());
        let summary = if timed_out {
            Msg::NoAnswer {
                subject: subject.clone(),
            }
        } else {
            Msg::Unreachable {
                subject: subject.clone(),
                endpoint,
            }
        };
        findings.push(RULE.finding(
            Severity::Error,
            subject.clone(),
            summary,
            evidence,
            [Msg::InsideOrNobody {}, Msg::ApiServerAnswered {}],
            steps,
        ));
    }
}

/// The Service's endpoints when the request names it, else who holds the dialled address.
pub fn endpoint_steps(subject: &ObjectRef, endpoint: Option<&str>) -> Vec<String> {
    let ns = subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    if subject.kind == "Service" && !subject.name.is_empty() {
        return vec![command!(
            "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o wide",
            ns,
            subject.name.as_str()
        )];
    }
    match endpoint.and_then(|e| e.rsplit_once(':')).map(|(ip, _)| ip) {
        Some(ip) => vec![command!("kubectl get pods -A -o wide | grep -F {}", ip)],
        None => Vec::new(),
    }
}

fn next_steps(subject: &ObjectRef, endpoint: Option<&str>) -> Vec<String> {
    let mut steps = endpoint_steps(subject, endpoint);
    if subject.kind == "Service" && !subject.name.is_empty() {
        steps.push(command!(
            "kubectl run -n {} proxy-check --rm -it --restart=Never --image=curlimages/curl -- curl -sS -m 5 http://{}/",
            subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE),
            subject.name.as_str()
        ));
    }
    steps.push("kubectl get pods -n kube-system -o wide".to_string());
    steps
}

faultline_report::messages! {
    /// The words of `service-proxy-unreachable`.
    pub enum Msg {
        /// The proxy's dial timed out (or had no route): the address is the one it dialled.
        Unreachable { subject: ObjectRef, endpoint: Option<String> } = "service-proxy-unreachable.unreachable" {
            en: {
                let at = endpoint.0.as_ref().map(|e| format!(" at {e}")).unwrap_or_default();
                format!("The API server answered, but its proxy could not reach the backend of {subject}{at}: the connection was never answered. The control-plane node has no working path to the Pod network, or nothing holds that address.")
            },
            zh: {
                let at = endpoint.0.as_ref().map(|e| format!("（{e}）")).unwrap_or_default();
                format!("API 服务器做出了应答，但它的代理连不上 {subject} 的后端{at}：连接始终没有得到回应。要么控制平面节点到 Pod 网络的路径不通，要么没有谁持有这个地址。")
            },
        },
        /// The request timed out through the proxy.
        NoAnswer { subject: ObjectRef } = "service-proxy-unreachable.no-answer" {
            en: "A request through the API server's proxy to {subject} timed out: the API server answered, but its backend did not in time. The control-plane node cannot reach the Pod network, or the backend accepts and never answers; the API server itself is not shown to be slow.",
            zh: "经由 API 服务器代理发往 {subject} 的请求超时了：API 服务器做出了应答，但它的后端没有及时应答。要么控制平面节点到不了 Pod 网络，要么后端接受了连接却始终不应答；这并不能说明 API 服务器本身慢。",
        },
        InsideOrNobody {} = "service-proxy-unreachable.inside-or-nobody" {
            en: "Whether the Pods answer clients inside the cluster (then only the control plane's path to them is broken) or nobody (a network policy, a Pod that is gone, a process that never answers).",
            zh: "这些 Pod 能否应答集群内的客户端（如果能，坏掉的只是控制平面到它们的路径），还是谁都不应答（网络策略拦截、Pod 已经不在、进程始终不应答）。",
        },
        ApiServerAnswered {} = "service-proxy-unreachable.api-server-answered" {
            en: "Which node the API server that answered runs on: the proxy dials from there.",
            zh: "作出应答的 API 服务器运行在哪个节点上：代理正是从那里发起连接的。",
        },
    }
}
