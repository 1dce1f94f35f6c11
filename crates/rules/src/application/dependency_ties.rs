//! `dependency-failing`'s ties: the dependency an application's log names, matched to the cluster
//! objects pasted beside it (issue 44) — the Service of that name or ClusterIP and its endpoints, a
//! port the Service does not serve, a name no pasted Service has, the ConfigMap or env var that
//! holds the name, a NetworkPolicy that leaves the Pod no DNS — and the commands that decide what
//! the log alone cannot.

use faultline_ingest::Object;
use faultline_model::dependencies::{self, Target};
use faultline_model::views::dependency_host::{holds_host, listed_pod_ready, service_ports};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Evidence, ObjectRef};

use crate::UNKNOWN_NAMESPACE;

/// What the pasted objects say of the dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// Nothing pasted is about it.
    None,
    /// A pasted Service of that name, with ready endpoints or none pasted.
    Service,
    /// The Service's pasted EndpointSlices have no ready endpoint.
    NoEndpoints,
    /// The Service does not serve the port the application calls.
    PortNotServed,
    /// Services of the namespace are pasted, none of that name.
    NoService,
    /// A NetworkPolicy selecting the Pod allows it no DNS.
    DnsBlocked,
    /// The dependency's own Pods are pasted, and none is ready.
    CalleeNotReady,
}

/// The tie, with the objects and lines that show it.
pub struct Tied {
    pub tie: Tie,
    pub service: Option<ObjectRef>,
    pub evidence: Vec<Evidence>,
    /// What the objects say, as clauses of the summary.
    pub said: Option<Message>,
    /// The NetworkPolicy of [`Tie::DnsBlocked`].
    pub policy: Option<ObjectRef>,
}

/// Everything the pasted objects say of `target` for the log of `who`.
pub fn tie(
    model: &Model<'_>,
    target: &Target,
    failure: &str,
    who: Option<&ObjectRef>,
    namespace: Option<&str>,
) -> Tied {
    let mut tied = Tied {
        tie: Tie::None,
        service: None,
        evidence: Vec::new(),
        said: None,
        policy: None,
    };
    let mut clauses: Vec<Message> = Vec::new();
    if matches!(failure, "unresolved" | "resolver-failed") {
        if let Some(policy) = namespace.and_then(|ns| dependencies::dns_blocked_by(model, who, ns)) {
            tied.tie = Tie::DnsBlocked;
            tied.policy = Some(policy.id.clone());
            tied.evidence.extend(
                model
                    .evidence(policy, "spec.policyTypes")
                    .or_else(|| model.evidence(policy, "metadata.name")),
            );
            clauses.push(
                Msg::DnsBlocked {
                    policy: policy.id.clone(),
                }
                .into(),
            );
        }
    }
    if let Some(service) = (!target.host.is_empty())
        .then(|| model.service_of_host(&target.host, namespace))
        .flatten()
    {
        tied.service = Some(service.id.clone());
        tied.evidence.extend(model.evidence(service, "metadata.name"));
        let ports = service_ports(service);
        let (ready, slices) = model.service_ready_endpoints(service);
        match target.port {
            Some(port) if !ports.is_empty() && !ports.iter().any(|(p, _)| *p == port) => {
                tied.tie = Tie::PortNotServed;
                tied.evidence.extend(model.evidence(service, &ports[0].1));
                let list = ports
                    .iter()
                    .map(|(p, _)| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                clauses.push(
                    Msg::PortNotServed {
                        service: service.id.clone(),
                        port: u32::from(port),
                        ports: list,
                    }
                    .into(),
                );
            }
            _ if slices && ready == Some(0) => {
                if tied.tie == Tie::None {
                    tied.tie = Tie::NoEndpoints;
                }
                clauses.push(
                    Msg::NoEndpoints {
                        service: service.id.clone(),
                    }
                    .into(),
                );
            }
            _ => {
                if tied.tie == Tie::None {
                    tied.tie = Tie::Service;
                }
                let ready = if slices {
                    ready.and_then(|r| u32::try_from(r).ok())
                } else {
                    None
                };
                clauses.push(
                    Msg::Pasted {
                        service: service.id.clone(),
                        ready,
                    }
                    .into(),
                );
            }
        }
    } else if let Some((name, ns)) = target
        .is_name()
        .then(|| model.in_cluster_host(&target.host, namespace))
        .flatten()
    {
        let count = model
            .objects_in(Some(ns.as_str()))
            .filter(|o| o.id.kind == "Service")
            .count();
        if count > 0 {
            if tied.tie == Tie::None {
                tied.tie = Tie::NoService;
            }
            clauses.push(
                Msg::NoService {
                    name,
                    namespace: ns,
                    count: u32::try_from(count).unwrap_or(u32::MAX),
                }
                .into(),
            );
        }
    }
    if let Some((name, ns)) = target
        .is_name()
        .then(|| model.in_cluster_host(&target.host, namespace))
        .flatten()
    {
        let pods = model.pods_named_after(&name, &ns, who);
        if !pods.is_empty() {
            let ready = pods.iter().filter(|p| listed_pod_ready(p) == Some(true)).count();
            if ready == 0 && pods.iter().all(|p| listed_pod_ready(p) == Some(false)) {
                if matches!(tied.tie, Tie::None | Tie::Service | Tie::NoService) {
                    tied.tie = Tie::CalleeNotReady;
                }
                for pod in pods.iter().take(3) {
                    tied.evidence.extend(
                        [
                            "kubectl.ready",
                            "status.conditions",
                            "status.phase",
                            "metadata.name",
                        ]
                        .iter()
                        .find_map(|path| model.evidence(pod, path)),
                    );
                }
                let names: Vec<ObjectRef> = pods.iter().take(3).map(|p| p.id.clone()).collect();
                clauses.push(Msg::CalleeNotReady { pods: names }.into());
            }
        }
    }
    if target.is_name() {
        for (object, path, key) in named_by(model, &target.host, namespace) {
            if tied.evidence.len() < 6 {
                tied.evidence.extend(model.evidence(object, &path));
            }
            clauses.push(
                Msg::NamedBy {
                    object: object.id.clone(),
                    key,
                }
                .into(),
            );
            if clauses.len() > 4 {
                break;
            }
        }
    }
    if !clauses.is_empty() {
        tied.said = Some(Msg::Clauses { clauses }.into());
    }
    tied
}

/// The ConfigMap keys and container env vars whose value holds `host` (as a word: `prod-db` is not
/// in `prod-db-replica`), in `namespace`'s objects or all when none is known.
fn named_by<'m>(model: &Model<'m>, host: &str, namespace: Option<&str>) -> Vec<(&'m Object, String, String)> {
    let mut out = model.config_map_keys_holding(host, namespace);
    // Every workload's and Pod's containers, as `env-host-not-a-service` reads them.
    for spec in crate::pod_spec::pod_specs(model) {
        if namespace.is_some_and(|ns| spec.namespace() != ns) {
            continue;
        }
        for container in spec.containers() {
            for (i, name, value) in container.env() {
                if holds_host(value, host) {
                    out.push((
                        spec.object,
                        format!("{}.env[{i}].value", container.path),
                        name.to_string(),
                    ));
                }
            }
        }
    }
    out
}

/// The commands that decide what the log cannot: the dependency's Service and endpoints, a probe
/// of it from another Pod, and the application's log now.
pub fn next_steps(
    target: &Target,
    failure: &str,
    who: Option<&ObjectRef>,
    namespace: Option<&str>,
    tied: &Tied,
) -> Vec<String> {
    let ns = namespace.unwrap_or(UNKNOWN_NAMESPACE);
    let mut steps = Vec::new();
    if let Some(policy) = &tied.policy {
        steps.push(command!(
            "kubectl describe networkpolicy {} -n {}",
            policy.name,
            ns
        ));
    }
    if let Some(service) = &tied.service {
        steps.push(crate::next_steps::endpoint_slices(ns, &service.name));
    } else if tied.tie == Tie::NoService {
        steps.push(command!("kubectl get svc -n {}", ns));
    }
    let host = target.host.as_str();
    match (failure, target.port) {
        _ if host.is_empty() => {}
        ("certificate-expired" | "certificate-untrusted" | "tls", port) => steps.push(command!(
            "kubectl run dependency-probe --rm -i --restart=Never -n {} --image=alpine/openssl -- s_client -connect {}:{} -servername {}",
            ns,
            host,
            port.unwrap_or(443),
            host
        )),
        ("resolver-failed", _) => {
            steps.push("kubectl -n kube-system get pods,endpointslices -l k8s-app=kube-dns -o wide".to_string());
            steps.push(command!("kubectl run dependency-probe --rm -i --restart=Never -n {} --image=busybox:1.36 -- nslookup {}", ns, host));
        }
        ("unresolved", _) | (_, None) => {
            steps.push(command!("kubectl run dependency-probe --rm -i --restart=Never -n {} --image=busybox:1.36 -- nslookup {}", ns, host));
        }
        (_, Some(port)) => steps.push(command!(
            "kubectl run dependency-probe --rm -i --restart=Never -n {} --image=busybox:1.36 -- nc -zv -w 5 {} {}",
            ns,
            host,
            port
        )),
    }
    match who {
        Some(w) if w.kind == "Pod" => steps.push(command!(
            "kubectl logs {} -n {} --since=10m --timestamps",
            w.name,
            ns
        )),
        Some(w) => steps.push(command!(
            "kubectl logs {}/{} -n {} --since=10m --timestamps",
            w.kind.to_lowercase(),
            w.name,
            ns
        )),
        None => {}
    }
    steps
}

faultline_report::messages! {
    /// What the pasted objects say of a dependency an application's log names.
    pub enum Msg {
        Clauses { clauses: Vec<Message> } = "dependency-failing.ties" {
            en: "Beside it: {clauses}.",
            zh: "相关对象：{clauses}。",
        },
        NoEndpoints { service: ObjectRef } = "dependency-failing.no-endpoints" {
            en: "{service} is pasted with no ready endpoint, so nothing answers behind its name",
            zh: "已粘贴的 {service} 没有任何就绪端点，所以这个名字背后没有任何实例应答",
        },
        Pasted { service: ObjectRef, ready: Option<u32> } = "dependency-failing.pasted" {
            en: {
                match ready.0 {
                    Some(n) => format!("{service} is pasted with {n} ready endpoint(s), so it routes; what fails is behind it or in the application's settings"),
                    None => format!("{service} is pasted, its endpoints are not"),
                }
            },
            zh: {
                match ready.0 {
                    Some(n) => format!("已粘贴的 {service} 有 {n} 个就绪端点，可以正常转发；失败的是它背后的实例或应用的配置"),
                    None => format!("已粘贴 {service}，但没有粘贴它的端点"),
                }
            },
        },
        PortNotServed { service: ObjectRef, port: u32, ports: String } = "dependency-failing.port-not-served" {
            en: "{service} serves port {ports}, not {port}: the application calls a port the Service does not forward",
            zh: "{service} 提供的端口是 {ports}，而不是 {port}：应用调用了 Service 不转发的端口",
        },
        NoService { name: String, namespace: String, count: u32 } = "dependency-failing.no-service" {
            en: "no Service named {name} is among the {count} Service(s) pasted in namespace {namespace}: the name may be wrong, or its Service missing",
            zh: "命名空间 {namespace} 中已粘贴的 {count} 个 Service 里没有名为 {name} 的：名称可能写错了，或者它的 Service 不存在",
        },
        DnsBlocked { policy: ObjectRef } = "dependency-failing.dns-blocked" {
            en: "{policy} selects the Pod and allows it no egress to port 53, so its DNS lookups cannot leave it",
            zh: "{policy} 选中了该 Pod，却不允许它访问 53 端口的出站流量，所以它的 DNS 查询发不出去",
        },
        CalleeNotReady { pods: Vec<ObjectRef> } = "dependency-failing.callee-not-ready" {
            en: "its own Pods are pasted and none is ready ({pods})",
            zh: "它自己的 Pod 已粘贴，但没有一个处于就绪状态（{pods}）",
        },
        NamedBy { object: ObjectRef, key: String } = "dependency-failing.named-by" {
            en: "{object} names it ({key})",
            zh: "{object} 中指定了它（{key}）",
        },
        Refused {} = "dependency-failing.refused" { en: "connection refused", zh: "连接被拒绝" },
        Timeout {} = "dependency-failing.timeout" { en: "timed out", zh: "超时" },
        Reset {} = "dependency-failing.reset" { en: "connection reset", zh: "连接被重置" },
        Unreachable {} = "dependency-failing.unreachable" { en: "unreachable", zh: "不可达" },
        Unresolved {} = "dependency-failing.unresolved" { en: "the name does not resolve", zh: "名称无法解析" },
        ResolverFailed {} = "dependency-failing.resolver-failed" { en: "DNS gave no answer for the name", zh: "DNS 没有对该名称给出应答" },
        Tls {} = "dependency-failing.tls" { en: "TLS handshake failed", zh: "TLS 握手失败" },
        CertificateExpired {} = "dependency-failing.certificate-expired" { en: "its certificate has expired", zh: "证书已过期" },
        CertificateUntrusted {} = "dependency-failing.certificate-untrusted" { en: "its certificate is not trusted", zh: "证书不受信任" },
        Auth {} = "dependency-failing.auth" { en: "authentication refused", zh: "认证被拒绝" },
        PoolExhausted {} = "dependency-failing.pool-exhausted" { en: "no connection free in the pool", zh: "连接池中没有空闲连接" },
        TooManyConnections {} = "dependency-failing.too-many-connections" { en: "the server has too many connections", zh: "服务器连接数已满" },
        ReadOnly {} = "dependency-failing.read-only" { en: "the server is read-only", zh: "服务器处于只读状态" },
        Slow {} = "dependency-failing.slow" { en: "slow", zh: "缓慢" },
        Unavailable {} = "dependency-failing.unavailable" { en: "unavailable", zh: "不可用" },
        Failed {} = "dependency-failing.failed" { en: "failed", zh: "失败" },
    }
}

/// The words for a catalog `failure`.
pub fn failure_words(failure: &str) -> Message {
    match failure {
        "refused" => Msg::Refused {},
        "timeout" => Msg::Timeout {},
        "reset" => Msg::Reset {},
        "unreachable" => Msg::Unreachable {},
        "unresolved" => Msg::Unresolved {},
        "resolver-failed" => Msg::ResolverFailed {},
        "tls" => Msg::Tls {},
        "certificate-expired" => Msg::CertificateExpired {},
        "certificate-untrusted" => Msg::CertificateUntrusted {},
        "auth" => Msg::Auth {},
        "pool-exhausted" => Msg::PoolExhausted {},
        "too-many-connections" => Msg::TooManyConnections {},
        "read-only" => Msg::ReadOnly {},
        "slow" => Msg::Slow {},
        "unavailable" => Msg::Unavailable {},
        _ => Msg::Failed {},
    }
    .into()
}
