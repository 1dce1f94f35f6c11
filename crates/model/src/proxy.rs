//! Requests through the API server's proxy (`kubectl proxy`, `kubectl get --raw
//! /api/v1/namespaces/NS/services/NAME:PORT/proxy/`, the dashboard's URL) that the API server
//! answered with a failure of the *backend*: `error trying to reach service: dial tcp IP:PORT: …`,
//! or a timeout (`Error from server (Timeout)`, a `504` in a `-v=6..9` trace) on a proxy path.
//!
//! The API server was reached and answered: these are not its failures, and the rule that reports
//! the API server's own failures leaves them out ([`is_proxy_request`]). Read once here, so the two
//! rules that report them and the one that must not cannot read a line two ways.

use crate::Model;
use faultline_ingest::messages::MessageKind;
use faultline_report::Evidence;

/// What the API server's proxy met on its way to the backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyFailure {
    /// `dial tcp IP:PORT: connect: connection refused`: the Pod's address answered, and nothing
    /// accepts connections on the port.
    Refused,
    /// `dial tcp …: i/o timeout`, `no route to host`: the connection was never answered — the path
    /// from the API server's node to the Pod network, or an address nobody holds.
    Unreachable,
    /// The request timed out through the proxy (`Timeout`, `504`): connected or not, no answer came
    /// in time.
    NoAnswer,
}

/// The object a proxy path names: `services/[scheme:]NAME[:PORT]`, `pods/NAME[:PORT]` or
/// `nodes/NAME[:PORT]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyTarget {
    /// `Service`, `Pod` or `Node`.
    pub kind: &'static str,
    pub namespace: Option<String>,
    pub name: String,
    /// The port part of the reference, when it has one (a number or a port's name).
    pub port: Option<String>,
}

/// One failed proxied request.
#[derive(Clone, Debug)]
pub struct ProxyError {
    pub failure: ProxyFailure,
    /// The line that says so.
    pub evidence: Evidence,
    /// `IP:PORT` the proxy dialled, when the message gives it.
    pub endpoint: Option<String>,
    /// The object the request was for, from its URL (in the command, the trace or the message).
    pub target: Option<ProxyTarget>,
}

const TRYING: &str = "error trying to reach service:";

/// Every failed proxied request in the input, in input order.
pub fn proxy_errors(model: &Model<'_>) -> Vec<ProxyError> {
    let mut found = Vec::new();
    for object in model.objects_of_kind("Status") {
        let Some((_, message)) = object.locate("message") else {
            continue;
        };
        let Some(text) = message.as_str() else {
            continue;
        };
        let Some(failure) = trying_to_reach(text) else {
            continue;
        };
        if let Some(evidence) = model.evidence(object, "message") {
            found.push(ProxyError {
                failure,
                evidence,
                endpoint: dialled(text),
                target: None,
            });
        }
    }
    // The URL a command or a trace line names is the request's, for the messages that follow it.
    for (source, message) in model.messages {
        let first = message.text.lines().next().unwrap_or_default();
        let from_command = message.command.as_deref().and_then(proxy_target);
        let failure = match &message.kind {
            _ if first.contains(TRYING) => trying_to_reach(first),
            MessageKind::ServerError { reason } if from_command.is_some() => {
                let timeout = reason.as_deref() == Some("Timeout")
                    || first.contains("unable to return a response in the time allotted")
                    || reason.as_deref() == Some("GatewayTimeout");
                timeout.then_some(ProxyFailure::NoAnswer)
            }
            // `round_trippers.go:553] GET https://…/proxy/ 504 Gateway Timeout in 60660 milliseconds`
            MessageKind::Log { .. } if proxy_target(first).is_some() => trace_status(first)
                .filter(|code| matches!(code, 502..=504))
                .map(|_| ProxyFailure::NoAnswer),
            _ => None,
        };
        let Some(failure) = failure else {
            continue;
        };
        let target = proxy_target(first).or(from_command);
        found.push(ProxyError {
            failure,
            evidence: Evidence {
                source: model.source_name(*source),
                line: message.line,
                path: message
                    .command
                    .as_deref()
                    .map_or("kubectl".to_string(), |c| format!("output of `{c}`")),
                value: first.trim().to_string(),
            },
            endpoint: dialled(first),
            target,
        });
    }
    found
}

/// Whether a line (or the command that printed it) is about a request through the API server's
/// proxy: its failures are the backend's, not the API server's.
pub fn is_proxy_request(command: Option<&str>, line: &str) -> bool {
    line.contains(TRYING) || proxy_target(line).is_some() || command.and_then(proxy_target).is_some()
}

/// `error trying to reach service: dial tcp 10.85.0.2:8443: connect: connection refused`.
fn trying_to_reach(text: &str) -> Option<ProxyFailure> {
    let rest = &text[text.find(TRYING)? + TRYING.len()..];
    if rest.contains("connection refused") {
        Some(ProxyFailure::Refused)
    } else if rest.contains("i/o timeout") || rest.contains("no route to host") {
        Some(ProxyFailure::Unreachable)
    } else {
        Some(ProxyFailure::NoAnswer)
    }
}

/// `dial tcp 10.85.0.2:8443: …` -> `10.85.0.2:8443`.
fn dialled(text: &str) -> Option<String> {
    let rest = &text[text.find("dial tcp ")? + "dial tcp ".len()..];
    let end = rest.find([':', ' ']).map(|colon| {
        // The address is `IP:PORT` (or `[v6]:PORT`): up to the colon after the port.
        rest[colon + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |e| colon + 1 + e)
    })?;
    Some(rest[..end].to_string()).filter(|a| a.contains(':') && !a.ends_with(':'))
}

/// The HTTP status of a client-go trace line: `GET https://… 504 Gateway Timeout in 60660
/// milliseconds`.
fn trace_status(line: &str) -> Option<u16> {
    let url = line.find("https://").or_else(|| line.find("http://"))?;
    let after = &line[url..];
    let code = after.split_whitespace().nth(1)?;
    code.parse()
        .ok()
        .filter(|c| (100..600).contains(c) && code.len() == 3)
}

/// The object a proxy URL in `text` names: `/api/v1/namespaces/NS/services/REF/proxy`, the legacy
/// `/api/v1/proxy/namespaces/NS/services/NAME`, `/api/v1/nodes/NAME/proxy`.
pub fn proxy_target(text: &str) -> Option<ProxyTarget> {
    let at = text.find("/api/v1/")?;
    let path = &text[at + "/api/v1/".len()..];
    let path = path
        .split(['?', '#', '"', '\'', ' ', '`'])
        .next()
        .unwrap_or_default();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let (legacy, parts) = match parts.split_first() {
        Some((&"proxy", rest)) => (true, rest),
        _ => (false, parts.as_slice()),
    };
    let (namespace, rest) = match parts {
        ["namespaces", ns, rest @ ..] => (Some(ns.to_string()), rest),
        _ => (None, parts),
    };
    let (kind, reference, after) = match rest {
        ["services", reference, after @ ..] if namespace.is_some() => ("Service", *reference, after),
        ["pods", reference, after @ ..] if namespace.is_some() => ("Pod", *reference, after),
        ["nodes", reference, after @ ..] if namespace.is_none() => ("Node", *reference, after),
        _ => return None,
    };
    if !legacy && after.first() != Some(&"proxy") {
        return None;
    }
    let pieces: Vec<&str> = reference.split(':').collect();
    let (name, port) = match pieces.as_slice() {
        [name] => (*name, None),
        [scheme, name] if kind == "Service" && matches!(*scheme, "http" | "https") => (*name, None),
        [name, port] => (*name, Some(*port)),
        [_, name, port, ..] => (*name, Some(*port)),
        [] => return None,
    };
    (!name.is_empty()).then(|| ProxyTarget {
        kind,
        namespace,
        name: name.to_string(),
        port: port.filter(|p| !p.is_empty()).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_paths_name_their_object() {
        let t =
            proxy_target("kubectl get --raw \"/api/v1/namespaces/default/services/echo:80/proxy/\"").unwrap();
        assert_eq!(
            (t.kind, t.namespace.as_deref(), t.name.as_str(), t.port.as_deref()),
            ("Service", Some("default"), "echo", Some("80"))
        );
        let t = proxy_target("http://localhost:8001/api/v1/namespaces/kubernetes-dashboard/services/https:kubernetes-dashboard:/proxy/#/login").unwrap();
        assert_eq!((t.name.as_str(), t.port), ("kubernetes-dashboard", None));
        let t = proxy_target(
            "GET https://10.0.0.1:6443/api/v1/nodes/worker-1:10250/proxy/metrics 504 Gateway Timeout",
        )
        .unwrap();
        assert_eq!(
            (t.kind, t.name.as_str(), t.port.as_deref()),
            ("Node", "worker-1", Some("10250"))
        );
        let t = proxy_target(
            "http://127.0.0.1:8001/api/v1/proxy/namespaces/kube-system/services/kubernetes-dashboard",
        )
        .unwrap();
        assert_eq!((t.kind, t.name.as_str()), ("Service", "kubernetes-dashboard"));
        // Not a proxy request: the object itself, or its status.
        assert!(
            proxy_target("GET https://10.0.0.1:6443/api/v1/namespaces/default/services/echo 200 OK")
                .is_none()
        );
        assert!(proxy_target("/api/v1/namespaces/default/pods/web-1/log").is_none());
    }

    #[test]
    fn the_dial_says_what_the_proxy_met() {
        let refused = "error trying to reach service: dial tcp 10.85.0.2:8443: connect: connection refused";
        assert_eq!(trying_to_reach(refused), Some(ProxyFailure::Refused));
        assert_eq!(dialled(refused).as_deref(), Some("10.85.0.2:8443"));
        let timeout = "error trying to reach service: dial tcp 10.244.1.49:8443: i/o timeout";
        assert_eq!(trying_to_reach(timeout), Some(ProxyFailure::Unreachable));
        assert_eq!(dialled(timeout).as_deref(), Some("10.244.1.49:8443"));
        assert_eq!(
            trying_to_reach("the server could not find the requested resource"),
            None
        );
        assert_eq!(
            trace_status("GET https://vip:6443/api/v1/namespaces/default/services/echo:80/proxy/ 504 Gateway Timeout in 60660 milliseconds"),
            Some(504)
        );
    }
}
