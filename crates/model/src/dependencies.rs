//! What an application's log says about what it depends on (issue 44): each line the catalog knows
//! as a dependency's failure (`catalog/deps.toml`, and the network, DNS and TLS errors of
//! `client.toml` that any program prints), where the line is an application's own — in a container's
//! log, or shaped as a log record (a timestamp, a level, a JSON or logfmt record) — and not a
//! Kubernetes component's or kubectl's. Each keeps what it points to (host and port), when it was
//! written, and whose log it is.
//!
//! Read once per model, on first use ([`crate::Model::dependency_lines`]).

use faultline_ingest::known::{self, Layer};
use faultline_ingest::logs::LogBlock;
use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::instant::Instant;
use faultline_report::ObjectRef;

use crate::known::{KnownLine, LineSet};
use crate::log_time;
use crate::Model;

/// What a failing call was made to, as the line names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    /// Lower case; empty when the line names no host.
    pub host: String,
    pub port: Option<u16>,
}

impl Target {
    /// `host:port`, `host`, or `:port`.
    pub fn label(&self) -> String {
        match self.port {
            Some(p) if self.host.contains(':') => format!("[{}]:{p}", self.host),
            Some(p) => format!("{}:{p}", self.host),
            None => self.host.clone(),
        }
    }

    /// The host is a name (not an IP address).
    pub fn is_name(&self) -> bool {
        !self.host.is_empty()
            && self.host.parse::<std::net::IpAddr>().is_err()
            && self.host.contains(|c: char| c.is_ascii_alphabetic())
    }
}

/// One line of an application's log that says a call to a dependency failed.
#[derive(Clone, Debug)]
pub struct DependencyLine<'a> {
    pub known: &'a KnownLine,
    /// The entry that speaks for the line's failure: the known line's own, or one it quotes
    /// whose failure says more ([`RANK`]).
    pub entry: &'static known::Known,
    /// When the line was written, where it says.
    pub time: Option<Instant>,
    /// The container log it is in, when the input says whose it is.
    pub block: Option<&'a LogBlock>,
    /// It is in a container's log or shaped as a log record (not a sentence of prose).
    pub in_log: bool,
    pub target: Target,
}

impl DependencyLine<'_> {
    /// The catalog's `dependency` (`postgresql`, `redis`, `http`, `any` …).
    pub fn dependency(&self) -> &'static str {
        self.entry.dependency
    }

    /// The catalog's `failure` (`refused`, `unresolved`, `certificate-expired`, `slow` …).
    pub fn failure(&self) -> &'static str {
        self.entry.failure
    }
}

/// Every dependency failure an application logged, in input order.
pub fn read<'m>(model: &'m Model<'_>, known_lines: &'m [KnownLine]) -> Vec<DependencyLine<'m>> {
    let candidates: Vec<&KnownLine> = known_lines
        .iter()
        .filter(|k| !k.recognised.entry.dependency.is_empty())
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    // Lines a structural reader read are an object's (a probe's `dial tcp …` in a Pod's events, a
    // ConfigMap's data): not an application's log.
    let mut read = LineSet::new(model);
    crate::known::mark_objects(model, true, &mut read);
    for event in &model.events {
        if let Some((source, line)) = crate::known::event_at(model, event) {
            read.mark(source, line, line);
        }
    }
    let mut out = Vec::new();
    for k in candidates {
        if read.has(k.source, k.line) {
            continue;
        }
        let Some(line) = model.input_line(k.source, k.line) else {
            continue;
        };
        let block = model.log_block_at(k.source, k.line);
        // Of the dependency entries the line is (a frame such as urllib3's `Max retries exceeded`
        // around the resolver's `[Errno -3] Try again`), the one whose failure says most, and the
        // host the first of them names.
        let all = known::recognise(&crate::known::unescaped(line));
        let deps: Vec<&known::Recognised> = all.iter().filter(|r| !r.entry.dependency.is_empty()).collect();
        let best = deps
            .iter()
            .min_by_key(|r| rank(r.entry.failure))
            .copied()
            .unwrap_or(&k.recognised);
        let target = deps
            .iter()
            .map(|r| target_of(r))
            .find(|t| !t.host.is_empty())
            .unwrap_or_else(|| target_of(&k.recognised));
        if !applications(best, &all, line, block, &target) || servers_own(best.entry, block) {
            continue;
        }
        out.push(DependencyLine {
            known: k,
            entry: best.entry,
            time: log_time::line_time_with(line, || model.log_year(k.source)),
            block,
            in_log: block.is_some() || record(line),
            target,
        });
    }
    out
}

/// Namespaces whose Pods are the cluster's own components: their logs are components' lines.
const SYSTEM_NAMESPACES: [&str; 4] = ["kube-system", "kube-flannel", "calico-system", "tigera-operator"];

/// Failures by what they say of the dependency, most first.
pub const RANK: [&str; 17] = [
    "unresolved",
    "resolver-failed",
    "refused",
    "certificate-expired",
    "certificate-untrusted",
    "auth",
    "unreachable",
    "tls",
    "read-only",
    "too-many-connections",
    "unavailable",
    "reset",
    "pool-exhausted",
    "timeout",
    "slow",
    "out-of-memory",
    "crash",
];

/// A failure's place in [`RANK`].
pub fn rank(failure: &str) -> usize {
    RANK.iter().position(|r| *r == failure).unwrap_or(RANK.len())
}

/// Whether `best` (of the entries `all` that `line` is) is an application's view of its dependency.
fn applications(
    best: &known::Recognised,
    all: &[known::Recognised],
    line: &str,
    block: Option<&LogBlock>,
    target: &Target,
) -> bool {
    if block.is_some_and(|b| {
        b.namespace
            .as_deref()
            .is_some_and(|ns| SYSTEM_NAMESPACES.contains(&ns))
    }) {
        return false;
    }
    if api_server(target) {
        return false;
    }
    // A Kubernetes component's or kubectl's words around it make the line theirs (`Liveness probe
    // failed: dial tcp …`, `Unable to connect to the server: x509: …`); an application runtime's
    // own frame (`Exception in thread "main" …`, a traceback) is the application's.
    let others = all.iter().any(|r| {
        r.entry.dependency.is_empty()
            && r.entry.layer != Layer::Library
            && r.entry.failure.is_empty()
            && !r.entry.id.starts_with("apps.")
    });
    if others {
        return false;
    }
    if !generic(best.entry) || block.is_some() {
        return true;
    }
    // A network error any program prints is an application's in a log record that is not klog's
    // (a component's log), or when it names a host by name that is not the API server's.
    let klog = {
        let b = line.trim_start().as_bytes();
        b.len() > 6
            && matches!(b[0], b'I' | b'W' | b'E' | b'F')
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5] == b' '
    };
    !klog && (record(line) || target.is_name())
}

/// Whether the line is a database server's own log of a client it refused (`FATAL:  password
/// authentication failed for user …` in the log of Pod `log-search-postgres-0`): the server's
/// view of its clients, not an application's view of its dependency.
fn servers_own(entry: &known::Known, block: Option<&LogBlock>) -> bool {
    let server = match entry.component {
        "postgresql" => "postgres",
        "mysql" => "mysql",
        "redis" => "redis",
        _ => return false,
    };
    block
        .and_then(|b| b.name.as_deref())
        .is_some_and(|n| n.contains(server))
}

/// Whether an entry is a network, DNS or TLS error that any program prints (`client.toml`: Go's
/// `net`, `net/http`, `crypto/tls`, grpc-go), Kubernetes' components too: an application's only in
/// its log.
pub fn generic(entry: &known::Known) -> bool {
    entry.dependency == "any" || entry.id.starts_with("client.")
}

/// The addresses the API server is reached at: a client's error about them is the control plane's
/// (`dial tcp 10.96.0.1:443: i/o timeout`), not an application's dependency.
fn api_server(target: &Target) -> bool {
    let host = target.host.as_str();
    matches!(target.port, Some(6443))
        || host.starts_with("kubernetes.default")
        || host == "kubernetes"
        || (target.port == Some(443) && host.ends_with(".0.1") && host.parse::<std::net::Ipv4Addr>().is_ok())
        || (host == "localhost" && target.port == Some(8080))
}

/// The words a logger writes for a level, at a record's start.
const LEVELS: [&str; 14] = [
    "ERROR", "ERR", "WARN", "WARNING", "FATAL", "CRITICAL", "SEVERE", "PANIC", "error", "warn", "warning",
    "fatal", "crit", "E",
];

/// Whether `line` is shaped as a log record: a timestamp at its start, a level word first, or a JSON
/// or logfmt record with a level or message.
fn record(line: &str) -> bool {
    // Markdown's quoting around a pasted line (`` ` ``, `>`) is not the record's.
    let t = line.trim_start().trim_start_matches(['`', '>', ' ']);
    if log_time::line_time(t, Some(2000)).is_some() {
        return true;
    }
    if t.starts_with('{') {
        return ["\"level\"", "\"msg\"", "\"message\"", "\"severity\"", "\"lvl\""]
            .iter()
            .any(|k| t.contains(k));
    }
    if t.contains("level=") && (t.contains("msg=") || t.contains("err=") || t.contains("error=")) {
        return true;
    }
    let first = t
        .split([' ', ':', ']', '|'])
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .trim_start_matches('[');
    LEVELS.contains(&first)
}

/// The host and port a known line names: its `{address}`, `{url}`, or `{host}` and `{port}`.
pub fn target(k: &KnownLine) -> Target {
    target_of(&k.recognised)
}

/// [`target`] of one entry matched in a line.
fn target_of(r: &known::Recognised) -> Target {
    let clean = |v: &str| -> String {
        v.trim_matches(|c: char| {
            matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | '[' | ']' | ',' | ';' | '.' | '<' | '>'
            )
        })
        .to_ascii_lowercase()
    };
    // A name looked up (`lookup orders-db on 10.96.0.10:53: …`) is what was called, not the
    // resolver's address beside it.
    if let Some(host) = r.value("host").map(clean).filter(|h| !h.is_empty()) {
        let port = r.value("port").and_then(|p| clean(p).parse().ok()).or_else(|| {
            r.value("address")
                .map(|a| split_address(&clean(a)))
                .filter(|a| a.host == host)
                .and_then(|a| a.port)
        });
        if port.is_none() && host.contains(':') {
            return split_address(&host);
        }
        return Target { host, port };
    }
    if let Some(address) = r.value("address") {
        return split_address(&clean(address));
    }
    if let Some(url) = r.value("url") {
        let url = clean(url);
        let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
        return split_address(authority);
    }
    // A quoted `host:port` the template leaves as text (`Can't connect to MySQL server on '{text}'`).
    if let Some(text) = r.value("text").map(clean) {
        let t = split_address(&text);
        if t.port.is_some() && !t.host.is_empty() && !t.host.contains([' ', '/']) {
            return t;
        }
    }
    Target {
        host: String::new(),
        port: None,
    }
}

/// `host:port`, `[v6]:port`, `ipv4#10.0.0.5:9092` (librdkafka), or a bare host.
fn split_address(address: &str) -> Target {
    let address = address.rsplit_once('#').map_or(address, |(_, a)| a);
    let address = address.rsplit_once('/').map_or(address, |(_, a)| a);
    if let Some(v6) = address.strip_prefix('[') {
        if let Some((host, port)) = v6.split_once("]:") {
            return Target {
                host: host.to_string(),
                port: port.parse().ok(),
            };
        }
    }
    match address.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => Target {
            host: host.to_string(),
            port: port.parse().ok(),
        },
        _ => Target {
            host: address.to_string(),
            port: None,
        },
    }
}

/// The pasted NetworkPolicy of `namespace` that selects `pod` (by its pasted labels, or every Pod
/// with an empty selector) and allows it no egress to port 53, UDP or TCP: a policy with `Egress`
/// among its `policyTypes` and no egress rule open to all ports or to port 53. Another policy that
/// selects the Pod and allows DNS adds to it (policies are a union), so then none.
pub fn dns_blocked_by<'m>(model: &Model<'m>, pod: Option<&ObjectRef>, namespace: &str) -> Option<&'m Object> {
    let labels = pod
        .and_then(|p| model.object(p))
        .map(|o| crate::graph::pairs(o.node.locate("metadata.labels").map(|(_, n)| n)));
    let mut blocking = None;
    for policy in model
        .objects_in(Some(namespace))
        .filter(|o| o.id.kind == "NetworkPolicy")
    {
        let selector = policy.node.locate("spec.podSelector.matchLabels").map(|(_, n)| n);
        let wanted = crate::graph::pairs(selector);
        let expressions = policy
            .node
            .locate("spec.podSelector.matchExpressions")
            .is_some_and(|(_, n)| !n.items().is_empty());
        let selects = match &labels {
            _ if expressions => continue,
            _ if wanted.is_empty() => true,
            Some(labels) => wanted.iter().all(|w| labels.contains(w)),
            None => continue,
        };
        if !selects {
            continue;
        }
        let types = policy.node.locate("spec.policyTypes").map(|(_, n)| n);
        let egress = policy.node.locate("spec.egress").map(|(_, n)| n);
        let controls_egress =
            types.is_some_and(|t| t.items().iter().any(|i| i.as_str() == Some("Egress"))) || egress.is_some();
        if !controls_egress {
            continue;
        }
        let allows_dns = egress.is_some_and(|rules| {
            rules.items().iter().any(|rule| {
                let ports = rule.get("ports");
                ports.is_none_or(|p| p.items().is_empty())
                    || ports.is_some_and(|p| {
                        p.items().iter().any(|port| {
                            port.get("port")
                                .and_then(Node::as_str)
                                .is_some_and(|v| v == "53" || v == "dns" || v == "dns-tcp")
                        })
                    })
            })
        });
        if allows_dns {
            return None;
        }
        blocking.get_or_insert(policy);
    }
    blocking
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_split_into_host_and_port() {
        let t = |a: &str| split_address(a).label();
        assert_eq!(t("prod-db:5432"), "prod-db:5432");
        assert_eq!(t("[2001:db8::1]:443"), "[2001:db8::1]:443");
        assert_eq!(t("ipv4#10.0.0.5:9092"), "10.0.0.5:9092");
        assert_eq!(t("db.internal"), "db.internal");
        assert_eq!(t("2001:db8::1"), "2001:db8::1");
        assert!(split_address("prod-db:5432").is_name());
        assert!(!split_address("10.0.0.5:5432").is_name());
    }

    #[test]
    fn a_record_is_told_by_its_shape() {
        for line in [
            "2024-03-11T10:15:42.881Z ERROR x",
            "ERROR: could not connect",
            "[ERROR] x",
            r#"{"level":"error","msg":"x"}"#,
            r#"level=error msg="x" err="dial tcp 10.0.0.5:5432: connect: connection refused""#,
        ] {
            assert!(record(line), "{line}");
        }
        for line in [
            "Unable to connect to the server: dial tcp 10.0.0.5:443: i/o timeout",
            "  Warning  Unhealthy  3m  kubelet  Liveness probe failed",
            "dial tcp 10.0.0.5:5432: connect: connection refused",
        ] {
            assert!(!record(line), "{line}");
        }
    }

    #[test]
    fn the_api_servers_addresses_are_not_a_dependency() {
        for a in [
            "10.96.0.1:443",
            "kubernetes.default.svc:443",
            "10.0.0.5:6443",
            "localhost:8080",
        ] {
            assert!(api_server(&split_address(a)), "{a}");
        }
        for a in ["10.96.0.15:443", "prod-db:5432", "localhost:5432"] {
            assert!(!api_server(&split_address(a)), "{a}");
        }
    }
}
