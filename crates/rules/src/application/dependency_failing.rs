use super::dependency_ties::{self, Tie};
use faultline_model::signals::dependency_calls::DependencyCalls;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Component, Detail, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// An application's log saying that calls to something it depends on fail: a database, a
    /// cache, a queue, a search cluster, an HTTP or gRPC service refusing or timing out, a name
    /// that does not resolve, an expired or untrusted certificate, credentials refused, a
    /// connection pool exhausted, a server out of connections or read-only, calls slow by seconds.
    /// Each line is one of the catalog's (`catalog/deps.toml`: what PostgreSQL, MySQL, Redis,
    /// MongoDB, Kafka, RabbitMQ, Elasticsearch, HTTP and gRPC clients print in Go, Java, Python,
    /// Node.js and .NET, each with its source), in a container's log or in a log record (a
    /// timestamp, a level, a JSON or logfmt record), whatever its layout.
    ///
    /// ## Why it matters
    /// When the Pods are Running and Ready, the fault is often in what the application calls, and
    /// the only evidence is its log. The dependency is then tied to the cluster objects pasted
    /// beside it: the Service of that name and its endpoints, a port the Service does not serve, a
    /// name no Service has, the ConfigMap or env var that names it, a NetworkPolicy that leaves
    /// the Pod no DNS.
    ///
    /// ## Evidence
    /// The first and last failing lines for each dependency (host and port as the line names
    /// them), how many lines failed, over which span of time where the lines are dated, and the
    /// objects the dependency is tied to, each by its line.
    ///
    /// ## Fault boundary
    /// `application` (the application and what it depends on); `readiness-endpoints` when the
    /// dependency is a pasted Service with no ready endpoints; `zone-network-storage` when names do
    /// not resolve and a pasted NetworkPolicy selecting the Pod allows no egress to DNS.
    ///
    /// ## What this evidence cannot establish
    /// Whether the dependency is down for every client or only unreachable from this Pod, and
    /// whether the application retries and recovers: a log is one client's view. A slow call or an
    /// error logged once is a symptom, not a cause by itself.
    ///
    /// ## Next evidence to collect
    /// The dependency's Service and endpoints, a probe of the same host and port from another Pod
    /// (`nc -zv`, `nslookup`, `openssl s_client` for a certificate), the dependency's own logs, and
    /// the application's log now, to see whether it still fails.
    ///
    /// ## Example
    /// ```text
    /// 2024-03-11T10:15:43.101Z ERROR org.postgresql.util.PSQLException: Connection to prod-db:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.
    /// ```
    pub const RULE = { id: "dependency-failing", boundary: Boundary::Application, components: [Containers if Serves, ServiceSlice if Serves, ProxyCni if Serves], also_at: [Boundary::ReadinessEndpoints, Boundary::ZoneNetworkStorage], check: check };
}

/// The failures that say little alone: a slow call, a call that timed out, a wait for a pooled
/// connection that timed out.
const SOFT: [&str; 3] = ["slow", "timeout", "pool-exhausted"];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for calls in model.dependency_calls() {
        findings.push(finding(model, calls));
    }
}

fn finding(model: &Model<'_>, group: DependencyCalls<'_>) -> Finding {
    let first = &group.lines[0];
    let failure = group.failure();
    let count = group.records(model);
    let who = group.who.as_ref();
    let namespace = who.and_then(|w| w.namespace.as_deref()).map(str::to_string);
    let namespace = namespace.or_else(|| model.only_namespace());
    let tie = dependency_ties::tie(model, &group.target, failure, who, namespace.as_deref());
    let mut evidence = group.evidence(model);
    evidence.extend(tie.evidence.iter().cloned());
    // A slow or timed-out call (or wait for a pooled connection) is a warning; a refusal, a name that does not resolve, credentials
    // or a certificate refused are errors as their libraries print them, once or many times (the
    // finding still says that one line is a symptom, not a cause by itself).
    let soft = count == 1 || SOFT.contains(&failure);
    let severity = [Severity::Error, Severity::Warning][usize::from(SOFT.contains(&failure))];
    let dependency = group.most_specific_dependency();
    let span = group.span();
    let summary = Msg::Calls {
        who: group.who.clone(),
        dependency: dependency.to_string(),
        target: group.target.label(),
        failure: Box::new(dependency_ties::failure_words(failure)),
        count,
        first: span.map(|s| s.0.to_string()),
        last: span.map(|s| s.1.to_string()),
        tie: tie.said.clone().map(Box::new),
    };
    let mut cannot: Vec<Message> = vec![Msg::OneClient {}.into()];
    cannot.extend(soft.then(|| Msg::Symptom { count }.into()));
    let steps = dependency_ties::next_steps(&group.target, failure, who, namespace.as_deref(), &tie);
    let name = if group.target.host.is_empty() {
        dependency.into()
    } else {
        group.target.label().into()
    };
    let component = ObjectRef {
        kind: "Component".into(),
        namespace: None,
        name,
        uid: None,
    };
    let subject = group
        .who
        .clone()
        .or_else(|| tie.service.clone())
        .unwrap_or(component);
    let mut finding = RULE.finding(severity, subject, summary, evidence, cannot, steps);
    finding.boundary = match tie.tie {
        Tie::NoEndpoints | Tie::CalleeNotReady => Boundary::ReadinessEndpoints,
        Tie::DnsBlocked => Boundary::ZoneNetworkStorage,
        // The resolver gave no answer: the cluster's DNS path, not the name.
        _ if failure == "resolver-failed" => Boundary::ZoneNetworkStorage,
        // A network or TLS error any program prints, quoted in prose, not a log: the boundary its
        // catalog entry names (the network's, or the API server's certificate).
        _ if group.generic_prose() => first.entry.boundary,
        _ => Boundary::Application,
    };
    finding.details.push(Detail::Serves(match finding.boundary {
        Boundary::ReadinessEndpoints => Component::ServiceSlice,
        Boundary::ZoneNetworkStorage => Component::ProxyCni,
        _ => Component::Containers,
    }));
    if let Some(service) = tie.service.filter(|s| Some(s) != group.who.as_ref()) {
        finding.affects.push(service);
    }
    finding
}

faultline_report::messages! {
    /// The words of `dependency-failing`.
    pub enum Msg {
        Calls { who: Option<ObjectRef>, dependency: String, target: String, failure: Box<Message>, count: u32, first: Option<String>, last: Option<String>, tie: Option<Box<Message>> } = "dependency-failing.calls" {
            en: {
                let whose = who.0.as_ref().map_or_else(|| "An application's log".to_string(), |w| format!("The log of {w}"));
                let to = match (dependency.0.is_empty(), target.0.is_empty()) {
                    (true, true) => String::new(),
                    (false, true) => format!(" to {dependency}"),
                    (true, false) => format!(" to {target}"),
                    (false, false) => format!(" to {dependency} at {target}"),
                };
                let lines = if *count.0 == 1 { "1 line".to_string() } else { format!("{count} lines") };
                let span = match (first.0, last.0) {
                    (Some(a), Some(b)) if a != b => format!(", from {a} to {b}"),
                    (Some(a), _) => format!(", at {a}"),
                    _ => String::new(),
                };
                let tie = if tie.0.is_some() { format!(" {tie}") } else { String::new() };
                format!("{whose} says its calls{to} fail: {failure} ({lines}{span}).{tie}")
            },
            zh: {
                let whose = who.0.as_ref().map_or_else(|| "某个应用的日志".to_string(), |w| format!("{w} 的日志"));
                let to = match (dependency.0.is_empty(), target.0.is_empty()) {
                    (true, true) => String::new(),
                    (false, true) => format!(" {dependency} "),
                    (true, false) => format!(" {target} "),
                    (false, false) => format!(" {dependency}（{target}）"),
                };
                let span = match (first.0, last.0) {
                    (Some(a), Some(b)) if a != b => format!("，从 {a} 到 {b}"),
                    (Some(a), _) => format!("，时间 {a}"),
                    _ => String::new(),
                };
                let tie = if tie.0.is_some() { format!(" {tie}") } else { String::new() };
                format!("{whose}显示它对依赖{to}的调用失败：{failure}（{count} 行{span}）。{tie}")
            },
        },
        OneClient {} = "dependency-failing.one-client" {
            en: "Whether the dependency is down for every client or only unreachable from this one, and whether the application retries and recovers: a log is one client's view.",
            zh: "依赖是对所有客户端都不可用，还是只有这个客户端访问不到；应用是否会重试并恢复：日志只是一个客户端的视角。",
        },
        Symptom { count: u32 } = "dependency-failing.symptom" {
            en: {
                if *count.0 == 1 {
                    "Whether it is the cause: a call that failed or was slow once is a symptom, not a cause by itself.".to_string()
                } else {
                    format!("Whether it is the cause: {count} slow or timed-out calls are a symptom; what made them slow (the dependency's load, the network, the application's own pool) is not in the log.")
                }
            },
            zh: {
                if *count.0 == 1 {
                    "它是否就是原因：一次失败或缓慢的调用只是症状，本身不是原因。".to_string()
                } else {
                    format!("它是否就是原因：{count} 次缓慢或超时的调用只是症状；是什么让它们变慢（依赖的负载、网络、应用自己的连接池）日志中没有。")
                }
            },
        },
    }
}
