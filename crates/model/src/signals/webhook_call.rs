//! The API server's words for an admission webhook it could not call (`ErrCallingWebhook` in
//! staging/src/k8s.io/apiserver/pkg/util/webhook/error.go, wrapping the dispatchers' `failed to call
//! webhook: …` in .../admission/plugin/webhook/{mutating,validating}/dispatcher.go):
//! `failed calling webhook "x": failed to call webhook: Post "https://svc.ns.svc:443/p": <Go error>`,
//! or the older `failed calling webhook "x": Post https://svc.ns.svc:443/p: <Go error>`. It reaches a
//! rule in kubectl's `Error from server (InternalError)` line, a controller's `FailedCreate` event or
//! its `ReplicaFailure` condition.

use faultline_report::{Evidence, ObjectRef};

use crate::views::replica_failure::replica_failure_index;
use crate::Model;

/// What went wrong calling the webhook, from the Go error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallFailure {
    /// `connection refused`.
    Refused,
    /// `context deadline exceeded`, `i/o timeout`, `Timeout exceeded`, `timed out`.
    TimedOut,
    /// `no endpoints available for service "s"`.
    NoEndpoints,
    /// `service "s" not found`.
    ServiceNotFound,
    /// `x509: …` or `tls: …`: the API server does not trust the webhook's serving certificate.
    Certificate,
    /// `no route to host`, `no such host`, `network is unreachable`.
    Unreachable,
    Other,
}

impl CallFailure {
    /// Whether the call failed at the webhook's backend (its Service or Pods, or the way to them),
    /// not at its configuration (a certificate, another error).
    pub fn at_backend(self) -> bool {
        matches!(
            self,
            CallFailure::Refused
                | CallFailure::TimedOut
                | CallFailure::NoEndpoints
                | CallFailure::ServiceNotFound
                | CallFailure::Unreachable
        )
    }
}

/// The webhook's Service as the message names it: the URL's host `svc.ns.svc`, else the Go error's
/// `service "ns/svc"` (whose namespace may be missing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookService {
    pub namespace: Option<String>,
    pub name: String,
}

impl WebhookService {
    pub fn object_ref(&self) -> ObjectRef {
        ObjectRef {
            kind: "Service".into(),
            namespace: self.namespace.clone().map(Into::into),
            name: self.name.clone().into(),
            uid: None,
        }
    }
}

/// One failed call, as the API server words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookCall {
    /// The webhook's name (`webhook.cert-manager.io`).
    pub webhook: String,
    pub service: Option<WebhookService>,
    pub failure: CallFailure,
    /// The Go error after the URL (`dial tcp 10.96.218.186:443: connect: connection refused`), at
    /// most 240 characters.
    pub detail: String,
}

/// The failed webhook call `text` (its first line) reports, if it reports one.
pub fn read(text: &str) -> Option<WebhookCall> {
    let text = text.lines().next().unwrap_or(text);
    let at = text.find("failed calling webhook \"")?;
    let rest = &text[at + "failed calling webhook \"".len()..];
    let end = rest.find('"')?;
    let webhook = rest[..end].to_string();
    let rest = &rest[end + 1..];
    let (url, detail) = match rest.find("https://") {
        Some(u) => {
            let quoted = rest[..u].ends_with('"');
            let url_text = &rest[u..];
            let stop = if quoted {
                url_text.find('"')
            } else {
                url_text.find(": ").or_else(|| url_text.find(' '))
            }
            .unwrap_or(url_text.len());
            let after = url_text[stop..].trim_start_matches('"');
            let after = after.strip_prefix(':').unwrap_or(after).trim();
            (Some(&url_text[..stop]), after)
        }
        None => (None, rest.trim_start_matches(':').trim()),
    };
    let from_url = url.and_then(|u| {
        let host = u["https://".len()..].split([':', '/', '?']).next()?;
        let parts: Vec<&str> = host.split('.').collect();
        (parts.len() >= 3 && parts[2] == "svc").then(|| WebhookService {
            namespace: Some(parts[1].to_string()),
            name: parts[0].to_string(),
        })
    });
    let named = ["no endpoints available for service \"", "service \""]
        .iter()
        .find_map(|n| {
            let i = detail.find(n)?;
            let name = detail[i + n.len()..].split('"').next()?;
            Some(match name.split_once('/') {
                Some((ns, svc)) => WebhookService {
                    namespace: Some(ns.to_string()),
                    name: svc.to_string(),
                },
                None => WebhookService {
                    namespace: None,
                    name: name.to_string(),
                },
            })
        });
    Some(WebhookCall {
        webhook,
        service: from_url.or(named),
        failure: failure(detail),
        detail: detail.chars().take(240).collect(),
    })
}

fn failure(detail: &str) -> CallFailure {
    let has = |needles: &[&str]| needles.iter().any(|n| detail.contains(n));
    if has(&["no endpoints available"]) {
        CallFailure::NoEndpoints
    } else if has(&["x509:", "tls:"]) {
        CallFailure::Certificate
    } else if has(&["connection refused", "Connection refused"]) {
        CallFailure::Refused
    } else if has(&[
        "deadline exceeded",
        "i/o timeout",
        "Timeout exceeded",
        "timed out",
    ]) {
        CallFailure::TimedOut
    } else if detail.contains("\" not found") && detail.contains("service \"") {
        CallFailure::ServiceNotFound
    } else if has(&["no route to host", "no such host", "network is unreachable"]) {
        CallFailure::Unreachable
    } else {
        CallFailure::Other
    }
}

/// The calls to one webhook that failed for one subject, from every place the input shows them.
#[derive(Clone, Debug)]
pub struct WebhookCallFailure {
    /// The object kubectl was refused, else the webhook's Service (kubectl's line), or the
    /// controller whose Pods were refused.
    pub subject: ObjectRef,
    /// The object kubectl was refused (it does not exist); `None` for a controller's Pods.
    pub refused: Option<ObjectRef>,
    /// The first call read.
    pub call: WebhookCall,
    /// A controller's standing `ReplicaFailure` condition first, then up to four lines.
    pub evidence: Vec<Evidence>,
    /// How many refusals the events and kubectl's lines count (a condition counts none).
    pub times: u32,
    /// Whether it is kubectl's own line (the refused object does not exist).
    pub from_client: bool,
}

fn add(
    groups: &mut Vec<WebhookCallFailure>,
    subject: ObjectRef,
    refused: Option<ObjectRef>,
    call: WebhookCall,
    evidence: Evidence,
    times: u32,
    from_client: bool,
) {
    match groups
        .iter_mut()
        .find(|g| g.subject == subject && g.call.webhook == call.webhook)
    {
        Some(g) => {
            g.times += times;
            if !g.evidence.contains(&evidence) && g.evidence.len() < 4 {
                g.evidence.push(evidence);
            }
        }
        None => groups.push(WebhookCallFailure {
            subject,
            refused,
            call,
            evidence: vec![evidence],
            times,
            from_client,
        }),
    }
}

impl Model<'_> {
    /// The failed webhook calls the input shows, by subject and webhook: kubectl's lines first,
    /// then controllers' `ReplicaFailure` conditions and `FailedCreate` events.
    pub fn webhook_call_failures(&self) -> Vec<WebhookCallFailure> {
        let mut groups: Vec<WebhookCallFailure> = Vec::new();
        // kubectl's own line: the object it was asked to create, else the webhook's Service.
        for r in self.rejections().into_iter().filter(|r| r.from_client) {
            let Some(call) = read(&r.reason) else {
                continue;
            };
            let known = r.refused.as_ref().filter(|(kind, _)| kind != "Object").is_some();
            let refused = known.then(|| {
                let kind = r.subject.kind.to_string();
                ObjectRef {
                    // The namespace kubectl's line states, or none: never a guessed `default`.
                    namespace: (!faultline_ingest::events_table::is_cluster_scoped(&kind))
                        .then(|| r.subject.namespace.clone())
                        .flatten(),
                    ..r.subject.clone()
                }
            });
            let subject = match (&refused, &call.service) {
                (Some(o), _) => o.clone(),
                (None, Some(s)) => s.object_ref(),
                (None, None) => r.subject.clone(),
            };
            let mut evidence = r.evidence;
            evidence.path = "kubectl: Error from server".into();
            add(&mut groups, subject, refused, call, evidence, 1, true);
        }
        // A controller's condition, then its events.
        for failure in self.replica_failures() {
            let (Some(call), Some(evidence)) = (
                read(failure.message),
                self.evidence(failure.object, &failure.path("message")),
            ) else {
                continue;
            };
            add(
                &mut groups,
                failure.object.id.clone(),
                None,
                call,
                evidence,
                0,
                false,
            );
        }
        for event in self.events.iter().filter(|e| e.reason == "FailedCreate") {
            let (Some(call), Some(evidence)) = (read(&event.message), self.event_evidence(event)) else {
                continue;
            };
            add(
                &mut groups,
                event.subject.clone(),
                None,
                call,
                evidence,
                event.count.max(1),
                false,
            );
        }
        for g in groups.iter_mut().filter(|g| !g.from_client) {
            // The controller's standing condition first (`kubectl describe rs` prints no message).
            let Some(object) = self.object(&g.subject) else {
                continue;
            };
            if let Some(i) = replica_failure_index(object) {
                let mut first: Vec<Evidence> = ["status", "reason"]
                    .iter()
                    .filter_map(|f| self.evidence(object, &format!("status.conditions[{i}].{f}")))
                    .filter(|e| !g.evidence.contains(e))
                    .collect();
                first.append(&mut g.evidence);
                g.evidence = first;
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::{read, CallFailure, WebhookService};

    #[test]
    fn reads_the_api_servers_failed_calls() {
        let c = read("Internal error occurred: failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": dial tcp 10.96.218.186:443: connect: connection refused").unwrap();
        assert_eq!(c.webhook, "webhook.cert-manager.io");
        assert_eq!(
            c.service,
            Some(WebhookService {
                namespace: Some("cert-manager".into()),
                name: "cert-manager-webhook".into()
            })
        );
        assert_eq!(c.failure, CallFailure::Refused);
        assert_eq!(
            c.detail,
            "dial tcp 10.96.218.186:443: connect: connection refused"
        );
        let c = read("Internal error occurred: failed calling webhook \"validate.nginx.ingress.kubernetes.io\": Post https://ingress-nginx-controller-admission.ingress-nginx.svc:443/extensions/v1beta1/ingresses?timeout=30s: dial tcp 192.168.168.125:443: connect: connection refused").unwrap();
        assert_eq!(c.service.unwrap().name, "ingress-nginx-controller-admission");
        assert!(c.detail.starts_with("dial tcp"));
        let c = read("failed calling webhook \"m\": failed to call webhook: Post \"https://s.n.svc:443/x\": no endpoints available for service \"s\"").unwrap();
        assert_eq!(c.failure, CallFailure::NoEndpoints);
        let c = read("failed calling webhook \"m\": failed to call webhook: Post \"https://s.n.svc:443/x\": tls: failed to verify certificate: x509: certificate signed by unknown authority").unwrap();
        assert_eq!(c.failure, CallFailure::Certificate);
        let c = read("failed calling webhook \"m\": failed to call webhook: Post \"https://s.n.svc:443/x?timeout=10s\": context deadline exceeded").unwrap();
        assert_eq!(c.failure, CallFailure::TimedOut);
        assert!(read("admission webhook \"v\" denied the request: no").is_none());
    }
}
