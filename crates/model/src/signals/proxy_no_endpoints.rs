//! The API server's service proxy finding no endpoint (`ResourceLocation` in
//! pkg/registry/core/service/storage/storage.go): `errors.NewServiceUnavailable(fmt.Sprintf("no
//! endpoints available for service %q", svcName))`, where `svcName` is the request's service
//! reference `[scheme:]name[:port]` — read from a `Status` object's `message` or from kubectl's
//! `Error from server (ServiceUnavailable): no endpoints available for service "…"`.

use faultline_ingest::messages::MessageKind;
use faultline_ingest::Object;
use faultline_report::{Evidence, ObjectRef};

use crate::Model;

const NEEDLE: &str = "no endpoints available for service ";

/// One service the proxy found no endpoint for, at the first answer that names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyNoEndpoints {
    /// The service reference as the message quotes it (`https:kubernetes-dashboard:`).
    pub reference: String,
    /// Its parts: `https`, `kubernetes-dashboard`, and the port (`Some("")` when the reference
    /// ends in an empty one).
    pub scheme: Option<String>,
    pub name: String,
    pub port: Option<String>,
    /// The `Status` message or kubectl's first line.
    pub evidence: Evidence,
}

impl ProxyNoEndpoints {
    /// The first pasted Service of its name, in any namespace (the message names none), and its
    /// reference: that Service's, else one of that name without a namespace.
    pub fn service<'a>(&self, model: &Model<'a>) -> (Option<&'a Object>, ObjectRef) {
        let service = model.objects_of_kind("Service").find(|s| s.id.name == self.name);
        let id = service.map_or_else(
            || ObjectRef {
                kind: "Service".into(),
                namespace: None,
                name: self.name.as_str().into(),
                uid: None,
            },
            |s| s.id.clone(),
        );
        (service, id)
    }

    /// The port the reference names, when it names one (`https:kubernetes-dashboard:` names none).
    pub fn named_port(&self) -> Option<String> {
        self.port.as_deref().filter(|p| !p.is_empty()).map(str::to_string)
    }

    /// Whether the reference's port part is `port_name`.
    pub fn names_port(&self, port_name: &str) -> bool {
        self.port.as_deref() == Some(port_name)
    }
}

/// The quoted reference after the needle: quoted, and escaped once more when the message was pasted
/// from JSON text (`\"…\"`).
fn reference(message: &str) -> Option<&str> {
    let rest = &message[message.find(NEEDLE)? + NEEDLE.len()..];
    rest.trim_start_matches(['"', '\\']).split(['"', '\\']).next()
}

/// `https:kubernetes-dashboard:` -> (Some("https"), "kubernetes-dashboard", Some("")).
fn parts(reference: &str) -> Option<(Option<&str>, &str, Option<&str>)> {
    let parts: Vec<&str> = reference.split(':').collect();
    Some(match parts.as_slice() {
        [name] => (None, *name, None),
        [scheme, name] if matches!(*scheme, "http" | "https") => (Some(*scheme), *name, None),
        [name, port] => (None, *name, Some(*port)),
        [scheme, name, port, ..] => (Some(*scheme), *name, Some(*port)),
        [] => return None,
    })
}

impl Model<'_> {
    /// Each service the API server's proxy answered "no endpoints available" for, once by name, in
    /// input order: `Status` objects first, then kubectl's messages.
    pub fn proxy_no_endpoints(&self) -> Vec<ProxyNoEndpoints> {
        let mut answers: Vec<(&str, Evidence)> = Vec::new();
        for object in self.objects_of_kind("Status") {
            let Some(text) = object
                .locate("message")
                .and_then(|(_, m)| m.as_str())
                .filter(|m| m.contains(NEEDLE))
            else {
                continue;
            };
            answers.extend(self.evidence(object, "message").map(|e| (text, e)));
        }
        for (source, message) in self.messages {
            let unavailable = matches!(&message.kind, MessageKind::ServerError { reason } if reason.as_deref().is_none_or(|r| r == "ServiceUnavailable"));
            if unavailable && message.text.contains(NEEDLE) {
                let evidence = Evidence {
                    source: self.source_name(*source),
                    line: message.line,
                    path: "kubectl: Error from server (ServiceUnavailable)".into(),
                    value: message.text.lines().next().unwrap_or_default().to_string(),
                };
                answers.push((&message.text, evidence));
            }
        }
        let mut found: Vec<ProxyNoEndpoints> = Vec::new();
        for (text, evidence) in answers {
            let Some(reference) = reference(text) else {
                continue;
            };
            let Some((scheme, name, port)) = parts(reference) else {
                continue;
            };
            if found.iter().any(|f| f.name == name) {
                continue;
            }
            found.push(ProxyNoEndpoints {
                reference: reference.to_string(),
                scheme: scheme.map(str::to_string),
                name: name.to_string(),
                port: port.map(str::to_string),
                evidence,
            });
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::{parts, reference, ProxyNoEndpoints};
    use faultline_report::Evidence;

    /// [`reference`] then [`parts`].
    fn service_reference(message: &str) -> Option<(Option<&str>, &str, Option<&str>)> {
        parts(reference(message)?)
    }

    #[test]
    fn service_references() {
        let m = |r: &str| format!("no endpoints available for service \"{r}\"");
        assert_eq!(
            service_reference(&m("https:kubernetes-dashboard:")),
            Some((Some("https"), "kubernetes-dashboard", Some("")))
        );
        assert_eq!(service_reference(&m("web")), Some((None, "web", None)));
        assert_eq!(
            service_reference(&m("web:http")),
            Some((None, "web", Some("http")))
        );
        assert_eq!(
            service_reference("no endpoints available for service \\\"https:dash:\\\""),
            Some((Some("https"), "dash", Some("")))
        );
        assert_eq!(service_reference("no endpoints for web"), None);
    }

    /// The reference's port: `https:kubernetes-dashboard:` names none, `web:http` names `http`.
    #[test]
    fn named_ports() {
        let answer = |port: Option<&str>| ProxyNoEndpoints {
            reference: String::new(),
            scheme: None,
            name: "web".to_string(),
            port: port.map(str::to_string),
            evidence: Evidence {
                source: Default::default(),
                line: 1,
                path: String::new(),
                value: String::new(),
            },
        };
        assert_eq!(answer(Some("")).named_port(), None);
        assert_eq!(answer(None).named_port(), None);
        assert_eq!(answer(Some("http")).named_port().as_deref(), Some("http"));
        assert!(answer(Some("http")).names_port("http"));
        assert!(!answer(Some("")).names_port("http"));
        assert!(!answer(None).names_port("http"));
    }
}
