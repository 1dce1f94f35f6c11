//! The API server refusing to create an object, from every place it shows: kubectl's own line
//! (`Error from server (Forbidden): … pods "x" is forbidden: …`, from the apiserver's
//! `NewForbidden` in staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go; an admission
//! webhook's `admission webhook "v" denied the request: …` or `failed calling webhook "v"`), a
//! controller's `FailedCreate` event (`Error creating: pods "web-7d9f-" is forbidden: …`, from
//! pkg/controller/controller_utils.go) and the `ReplicaFailure` condition.

use faultline_ingest::messages::MessageKind;
use faultline_report::{Evidence, ObjectRef};

use crate::Model;

/// One refusal to create an object.
pub struct Rejection {
    /// The object the refusal is about: the one that was to be created (from kubectl's message) or
    /// the controller that tried (a ReplicaSet's events and condition).
    pub subject: ObjectRef,
    /// The refused object as the message names it (`pods "monthly-rollup"`): kind, name.
    pub refused: Option<(String, String)>,
    /// The API server's reason: the text after `is forbidden: `.
    pub reason: String,
    pub evidence: Evidence,
    /// True when the subject is the refused object itself (so it does not exist).
    pub from_client: bool,
    pub count: u32,
}

impl Rejection {
    /// The reason on one line (a policy's explanation often follows on later lines), cut to
    /// `max` characters with `…`.
    pub fn reason_on_one_line(&self, max: usize) -> String {
        let collapsed = self.reason.split_whitespace().collect::<Vec<_>>().join(" ");
        match collapsed.char_indices().nth(max) {
            Some((cut, _)) => format!("{}…", &collapsed[..cut]),
            None => collapsed,
        }
    }
}

/// `pods "x" is forbidden: why` -> (("Pod", "x"), "why").
pub fn forbidden(text: &str) -> Option<(Option<(String, String)>, String)> {
    let at = text.find(" is forbidden: ")?;
    let reason = text[at + " is forbidden: ".len()..].trim().to_string();
    let head = &text[..at];
    let refused = head.rfind('"').and_then(|close| {
        let open = head[..close].rfind('"')?;
        let resource = head[..open].trim().rsplit(' ').next()?;
        Some((plural_kind(resource), head[open + 1..close].to_string()))
    });
    Some((refused, reason))
}

/// `error when creating "x.yaml": admission webhook "v" denied the request: …` (no `is forbidden`).
/// The object is the one a policy engine names (`resource Pod/ns/name`), else the manifest file.
fn webhook_denial(text: &str) -> Option<(Option<(String, String)>, String)> {
    let at = text
        .find("admission webhook \"")
        .or_else(|| text.find("failed calling webhook \""))?;
    let reason = text[at..].trim().to_string();
    let named = text.find("resource ").and_then(|i| {
        let token = text[i + "resource ".len()..].split_whitespace().next()?;
        let mut parts = token.split('/');
        let kind = parts.next()?.to_string();
        let name = parts.next_back()?.to_string();
        Some((kind, name))
    });
    let file = text
        .split_once("error when creating \"")
        .and_then(|(_, r)| r.split('"').next())
        .map(|f| ("Object".to_string(), f.to_string()));
    Some((named.or(file), reason))
}

/// The object a command creates: `kubectl create namespace check`, `kubectl run web --image=x`,
/// `kubectl apply -f pods/echod.yaml` (the manifest's name, `echod`, as a Pod is what the file
/// names most often: only when the file is under `pods/` or named `pod*`).
fn created_by_command(command: &str) -> Option<(String, String)> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let verb_at = words
        .iter()
        .position(|w| matches!(*w, "create" | "run" | "apply"))?;
    let args: Vec<&str> = words[verb_at + 1..]
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    match words[verb_at] {
        "run" => Some(("Pod".into(), args.first()?.to_string())),
        "create" if args.len() >= 2 => {
            let kind = faultline_ingest::get_table::kind_of_resource(args[0]).filter(|k| {
                matches!(
                    k.as_str(),
                    "Namespace" | "Deployment" | "Job" | "Secret" | "ConfigMap" | "ServiceAccount"
                )
            })?;
            let name = if kind == "Secret" { args.get(2)? } else { &args[1] };
            Some((kind, name.to_string()))
        }
        _ => {
            let file = words
                .iter()
                .position(|w| *w == "-f")
                .and_then(|i| words.get(i + 1))?;
            let stem = file.rsplit('/').next()?.split('.').next()?;
            let pod = file.contains("pods/") || stem.starts_with("pod");
            pod.then(|| ("Pod".into(), stem.to_string()))
        }
    }
}

fn plural_kind(resource: &str) -> String {
    match resource.split('.').next().unwrap_or(resource) {
        "pods" => "Pod",
        "deployments" => "Deployment",
        "replicasets" => "ReplicaSet",
        "statefulsets" => "StatefulSet",
        "daemonsets" => "DaemonSet",
        "jobs" => "Job",
        "cronjobs" => "CronJob",
        "services" => "Service",
        "persistentvolumeclaims" => "PersistentVolumeClaim",
        "configmaps" => "ConfigMap",
        "secrets" => "Secret",
        other => return other.to_string(),
    }
    .to_string()
}

impl Model<'_> {
    /// Every refusal to create an object the input shows: kubectl's own error lines, controllers'
    /// `FailedCreate` events that say `is forbidden`, and `ReplicaFailure` conditions, in that order.
    pub fn rejections(&self) -> Vec<Rejection> {
        let mut out = Vec::new();
        for (source, message) in self.messages {
            // `Error from server (Forbidden)`; old kubectl printed no reason; a webhook that cannot be
            // called is an `InternalError` of admission.
            let MessageKind::ServerError { reason } = &message.kind else {
                continue;
            };
            let found = match reason.as_deref() {
                Some("Forbidden") => forbidden(&message.text).or_else(|| webhook_denial(&message.text)),
                None | Some("InternalError" | "BadRequest") => webhook_denial(&message.text),
                _ => None,
            };
            let Some((refused, reason)) = found else {
                continue;
            };
            // The object kubectl was asked to create, when the message does not name it.
            let refused = match refused {
                Some((kind, file)) if kind == "Object" => message
                    .command
                    .as_deref()
                    .and_then(created_by_command)
                    .or(Some((kind, file))),
                None => message.command.as_deref().and_then(created_by_command),
                named => named,
            };
            let namespace = message
                .command
                .as_deref()
                .and_then(|c| faultline_ingest::segment::Command::parse(c).namespace);
            let (kind, name) = refused
                .clone()
                .unwrap_or_else(|| ("Object".into(), String::new()));
            out.push(Rejection {
                subject: ObjectRef {
                    kind: kind.into(),
                    namespace: namespace.map(Into::into),
                    name: name.into(),
                    uid: None,
                },
                refused,
                reason,
                evidence: Evidence {
                    source: self.source_name(*source),
                    line: message.line,
                    path: "kubectl: Error from server (Forbidden)".into(),
                    value: message.text.lines().next().unwrap_or_default().to_string(),
                },
                from_client: true,
                count: 1,
            });
        }
        for event in self.events.iter().filter(|e| e.reason == "FailedCreate") {
            let Some((refused, reason)) = forbidden(&event.message) else {
                continue;
            };
            let Some(evidence) = self.event_evidence(event) else {
                continue;
            };
            out.push(Rejection {
                subject: event.subject.clone(),
                refused,
                reason,
                evidence,
                from_client: false,
                count: event.count,
            });
        }
        for failure in self.replica_failures() {
            let path = failure.path(if failure.message.is_empty() {
                "reason"
            } else {
                "message"
            });
            let Some(evidence) = self.evidence(failure.object, &path) else {
                continue;
            };
            let (refused, reason) = forbidden(failure.message).unwrap_or((None, String::new()));
            out.push(Rejection {
                subject: failure.object.id.clone(),
                refused,
                reason,
                evidence,
                from_client: false,
                count: 1,
            });
        }
        out
    }
}

impl Model<'_> {
    /// kubectl's own answers that an object named `name` in namespace `namespace` is absent: an
    /// `Error from server (NotFound)` quoting the name, or `No resources found in <namespace>
    /// namespace.`, in input order.
    pub fn absent_answers(&self, name: &str, namespace: Option<&str>) -> Vec<Evidence> {
        let quoted = format!("\"{name}\"");
        self.messages
            .iter()
            .filter(|(_, message)| match &message.kind {
                MessageKind::ServerError { reason } => {
                    reason.as_deref() == Some("NotFound") && message.text.contains(&quoted)
                }
                MessageKind::NoResources { namespace: said } => {
                    said.is_some() && said.as_deref() == namespace
                }
                _ => false,
            })
            .map(|(source, message)| Evidence {
                source: self.source_name(*source),
                line: message.line,
                path: "kubectl".into(),
                value: message.text.clone(),
            })
            .collect()
    }
}

/// Why a controller's create failed, as far as the API server's message (`FailedCreate` "Error
/// creating: …", or the `ReplicaFailure` condition's message) says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreateFailure {
    /// `failed calling webhook "…"`: an admission webhook the API server could not call.
    WebhookUnreachable,
    /// `error looking up service account …` (the ServiceAccount admission plugin), or a message
    /// naming `serviceaccount`.
    NoServiceAccount,
    /// `… is invalid: …`: the Pod template fails validation.
    InvalidTemplate,
    /// Any other refusal.
    Refused,
}

impl CreateFailure {
    /// What a (non-empty) create failure message says.
    pub fn of(message: &str) -> Self {
        if message.contains("failed calling webhook") {
            Self::WebhookUnreachable
        } else if message.contains("error looking up service account") || message.contains("serviceaccount") {
            Self::NoServiceAccount
        } else if message.contains(" is invalid") {
            Self::InvalidTemplate
        } else {
            Self::Refused
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{forbidden, webhook_denial};

    #[test]
    fn forbidden_messages() {
        let (refused, reason) = forbidden("error when creating \"jobs/x.yaml\": pods \"monthly-rollup\" is forbidden: exceeded quota: q, requested: requests.memory=6Gi").unwrap();
        assert_eq!(refused, Some(("Pod".into(), "monthly-rollup".into())));
        assert!(reason.starts_with("exceeded quota: q"));
        let (refused, _) = forbidden(
            "Error creating: pods \"portal-web-84b6d9c7f5-m4kzt\" is forbidden: violates PodSecurity",
        )
        .unwrap();
        assert_eq!(refused.unwrap().1, "portal-web-84b6d9c7f5-m4kzt");
        assert!(forbidden("Error: ImagePullBackOff").is_none());
        let (refused, reason) = webhook_denial("error when creating \"w.yaml\": admission webhook \"v.kyverno\" denied the request: \n\nresource Pod/payments/worker was blocked").unwrap();
        assert_eq!(refused, Some(("Pod".into(), "worker".into())));
        assert!(reason.starts_with("admission webhook \"v.kyverno\""));
    }
}
