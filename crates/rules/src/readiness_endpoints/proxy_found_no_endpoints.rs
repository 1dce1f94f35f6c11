use crate::next_steps;
use faultline_model::views::service_endpoints::{first_port_name, has_printed_endpoints, printed_endpoints};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A request through the API server's service proxy (`kubectl proxy`, `/api/v1/namespaces/NS/
    /// services/SCHEME:NAME:PORT/proxy/`, the dashboard's URL) answered `503 ServiceUnavailable`,
    /// `no endpoints available for service "…"` — as a `Status` object or as kubectl's `Error from
    /// server (ServiceUnavailable)`. When the Service was pasted and shows ready endpoints, the proxy
    /// found none for the *port* the request named: the service reference's port part is empty or
    /// names no port of the Service (`https:kubernetes-dashboard:` for a port named `https`).
    ///
    /// ## Why it matters
    /// The message reads like "the Pods are not ready", and people debug readiness probes and
    /// selectors that are fine. The proxy looks the endpoints up by port name: an unnamed or wrong port
    /// in the URL finds none even while the Service serves every other client.
    ///
    /// ## Evidence
    /// The `Status` message (or kubectl's line), the Service's ports (name, port, target port) and its
    /// endpoints as `kubectl describe service` printed them.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: the Service, its ports and its endpoints.
    ///
    /// ## What this evidence cannot establish
    /// Which URL the client used beyond the service reference in the message; without the Service
    /// pasted, whether it has ready endpoints at all (then its Pods' readiness is the question).
    ///
    /// ## Next evidence to collect
    /// `kubectl get endpointslices -n NS -l kubernetes.io/service-name=NAME -o wide`, `kubectl get
    /// service NAME -n NS -o jsonpath='{.spec.ports}'`, and the request again with the port named.
    ///
    /// ## Example
    /// ```text
    /// "message": "no endpoints available for service \"https:kubernetes-dashboard:\"",
    /// "reason": "ServiceUnavailable",
    /// "code": 503
    /// ```
    pub const RULE = { id: "proxy-found-no-endpoints", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Kubelet], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for answer in model.proxy_no_endpoints() {
        let name = answer.name.as_str();
        let (service, id) = answer.service(model);
        let mut evidence = vec![answer.evidence.clone()];
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut cannot: Vec<Message> = vec![Msg::UnknownUrl {}.into()];
        let subject = id.clone();
        let summary = match service {
            Some(object) => {
                evidence.extend(model.first_port_evidence(object));
                let endpoints = printed_endpoints(object).to_string();
                let named = answer.named_port();
                match (has_printed_endpoints(object), first_port_name(object)) {
                    (true, Some(port_name)) if !answer.names_port(port_name) => Msg::PortNotNamed {
                        subject,
                        endpoints,
                        port: named,
                        port_name: port_name.to_string(),
                        service: name.to_string(),
                    },
                    (true, _) => Msg::PortNotOfService {
                        subject,
                        endpoints,
                        port: named,
                    },
                    (false, _) => Msg::NoReadyEndpoint { subject, endpoints },
                }
            }
            None => {
                cannot.push(Msg::ServiceNotPasted { subject: id.clone() }.into());
                Msg::Answered503 {
                    subject,
                    reference: answer.reference,
                }
            }
        };
        let steps = vec![
            next_steps::endpoint_slices(ns, name),
            next_steps::service_ports(ns, name),
        ];
        findings.push(RULE.finding(Severity::Error, id, summary, evidence, cannot, steps));
    }
}

faultline_report::messages! {
    /// The words of `proxy-found-no-endpoints`.
    pub enum Msg {
        /// The Service has endpoints but the request named no port of it, or a port that is not its
        /// port's name. `endpoints` is what describe prints; `service` the Service's name.
        PortNotNamed { subject: ObjectRef, endpoints: String, port: Option<String>, port_name: String, service: String } = "proxy-found-no-endpoints.port-not-named" {
            en: {
                let named = match port.0 {
                    None => "no port".to_string(),
                    Some(p) => format!("port \"{p}\", not a port"),
                };
                format!(
                    "The API server's proxy found no endpoints for {subject} although it has one ({endpoints}): the request named {named} of the Service, whose port is named \"{}\". The proxy looks endpoints up by port name — name the port in the URL ({service}:{port_name}).",
                    port_name.0
                )
            },
            zh: {
                let named = match port.0 {
                    None => "请求没有指明该 Service 的端口".to_string(),
                    Some(p) => format!("请求指明的端口 “{p}” 不是该 Service 的端口"),
                };
                format!(
                    "API 服务器的代理没有为 {subject} 找到端点，但它其实有端点（{endpoints}）：{named}，它的端口名为 “{}”。代理按端口名查找端点——请在 URL 中写上端口名（{service}:{port_name}）。",
                    port_name.0
                )
            },
        },
        /// The Service's describe shows endpoints; the port the request named may not be the Service's.
        PortNotOfService { subject: ObjectRef, endpoints: String, port: Option<String> } = "proxy-found-no-endpoints.port-not-of-service" {
            en: {
                let port = port.0.as_deref().unwrap_or("none");
                format!("The API server's proxy found no endpoints for {subject}, although its describe shows {endpoints}: the port the request named ({port}) may not be one of the Service's.")
            },
            zh: {
                let port = port.0.as_ref().map_or_else(|| "请求没有指明端口".to_string(), |p| format!("请求指明的端口（{p}）"));
                format!("API 服务器的代理没有为 {subject} 找到端点，而它的 describe 显示有 {endpoints}：{port}可能不是该 Service 的端口。")
            },
        },
        NoReadyEndpoint { subject: ObjectRef, endpoints: String } = "proxy-found-no-endpoints.no-ready-endpoint" {
            en: "The API server's proxy found no endpoints for {subject}: it has no ready endpoint ({endpoints}), so its Pods are not ready or not selected.",
            zh: "API 服务器的代理没有为 {subject} 找到端点：它没有就绪的端点（{endpoints}），所以它的 Pod 要么没有就绪，要么没有被 Service 选中。",
        },
        /// The Service was not pasted: the 503 and the service reference it names, verbatim.
        Answered503 { subject: ObjectRef, reference: String } = "proxy-found-no-endpoints.answered-503" {
            en: {
                format!("A request through the API server's proxy to {subject} was answered 503: no endpoints available for the service reference \"{}\".", reference.0)
            },
            zh: {
                format!("经由 API server 代理发往 {subject} 的请求得到了 503 答复：Service 引用 “{}” 没有可用的端点。", reference.0)
            },
        },
        UnknownUrl {} = "proxy-found-no-endpoints.unknown-url" {
            en: "Which URL the client used, beyond the service reference in the message.",
            zh: "客户端实际用的是哪个 URL：消息里只有 Service 引用，看不出更多。",
        },
        ServiceNotPasted { subject: ObjectRef } = "proxy-found-no-endpoints.service-not-pasted" {
            en: "{subject} itself was not pasted: whether it has ready endpoints (then the request's port is wrong) or none (then its Pods' readiness or selector is the question).",
            zh: "输入中没有 {subject} 本身：它是有就绪的端点（那就是请求的端口写错了），还是一个也没有（那要查的是它的 Pod 是否就绪、选择算符是否选中了 Pod），无法判断。",
        },
    }
}
