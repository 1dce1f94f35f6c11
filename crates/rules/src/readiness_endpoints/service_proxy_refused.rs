use crate::zone_network_storage::service_proxy_unreachable::{by_target, endpoint_steps};
use faultline_model::proxy::{proxy_errors, ProxyError, ProxyFailure};
use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A request through the API server's proxy (`kubectl proxy`, `/api/v1/namespaces/NS/services/
    /// NAME:PORT/proxy/`, the dashboard's URL) answered `error trying to reach service: dial tcp
    /// IP:PORT: connect: connection refused`: the proxy picked an endpoint, the Pod's address
    /// answered, and nothing accepts connections on the port.
    ///
    /// ## Why it matters
    /// The message comes from the API server, so it reads as the API server failing. The network
    /// path works — a refusal is an answer from the Pod's address. The endpoint is listed but does not
    /// serve: the container is still starting or restarting, the process listens on another port (the
    /// Service's `targetPort` is wrong) or only on `127.0.0.1`, or the endpoint is a Pod that is gone.
    ///
    /// ## Evidence
    /// The `Status` message or kubectl's line, the address the proxy dialled, and the Service the
    /// request's URL names.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: an endpoint that is listed but does not serve on its port.
    ///
    /// ## What this evidence cannot establish
    /// Which container owns the address, whether it listens on another port or only on localhost,
    /// and whether it was restarting at that moment (its restarts and readiness would tell).
    ///
    /// ## Next evidence to collect
    /// `kubectl get endpointslices -n NS -l kubernetes.io/service-name=NAME -o wide` (which Pod owns
    /// the address), `kubectl get service NAME -n NS -o yaml` (its `targetPort`), and `kubectl describe
    /// pod` of that Pod (its ports, readiness and restarts).
    ///
    /// ## Example
    /// ```text
    /// "message": "error trying to reach service: dial tcp 10.85.0.2:8443: connect: connection refused",
    /// "reason": "ServiceUnavailable",
    /// "code": 503
    /// ```
    pub const RULE = { id: "service-proxy-refused", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let errors: Vec<ProxyError> = proxy_errors(model)
        .into_iter()
        .filter(|e| e.failure == ProxyFailure::Refused)
        .collect();
    for (subject, group) in by_target(model, &errors) {
        let evidence = group.iter().map(|e| e.evidence.clone()).take(8).collect();
        let endpoint = group.iter().find_map(|e| e.endpoint.clone());
        let mut steps = endpoint_steps(&subject, endpoint.as_deref());
        if subject.kind == "Service" && !subject.name.is_empty() {
            steps.push(command!(
                "kubectl get service {} -n {} -o yaml",
                subject.name.as_str(),
                subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE)
            ));
        }
        if steps.is_empty() {
            steps.push("kubectl get endpointslices -A -o wide".to_string());
        }
        findings.push(RULE.finding(
            Severity::Error,
            subject.clone(),
            Msg::Refused { subject, endpoint },
            evidence,
            [Msg::WhichContainer {}],
            steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `service-proxy-refused`.
    pub enum Msg {
        /// The proxy's connection to the endpoint was refused; `endpoint` is the address it dialled.
        Refused { subject: ObjectRef, endpoint: Option<String> } = "service-proxy-refused.refused" {
            en: {
                let at = endpoint.0.as_ref().map(|e| format!(" at {e}")).unwrap_or_default();
                format!("The API server's proxy reached an endpoint of {subject}{at}, and it refused the connection: nothing listens on that port. The container is starting or restarting, listens on another port (the Service's targetPort) or only on localhost; the API server and the network path are not at fault.")
            },
            zh: {
                let at = endpoint.0.as_ref().map(|e| format!("（{e}）")).unwrap_or_default();
                format!("API 服务器的代理连到了 {subject} 的一个端点{at}，但连接被拒绝：该端口上没有进程在监听。容器正在启动或重启，或者监听的是另一个端口（Service 的 targetPort）或只监听 localhost；API 服务器和网络路径都没有问题。")
            },
        },
        WhichContainer {} = "service-proxy-refused.which-container" {
            en: "Which container owns the address, whether it listens on another port or only on localhost, and whether it was restarting at that moment.",
            zh: "这个地址属于哪个容器，它是在监听另一个端口还是只监听 localhost，以及当时它是否正在重启。",
        },
    }
}
