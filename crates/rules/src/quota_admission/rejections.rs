//! Creation refused by the API server, from every place it shows: kubectl's own 403 line (`Error
//! from server (Forbidden): … pods "x" is forbidden: …`), a controller's `FailedCreate` event
//! (`Error creating: pods "web-7d9f-" is forbidden: …`) and the `ReplicaFailure` condition.

use crate::history;
use faultline_ingest::messages::MessageKind;
use faultline_model::Model;
use faultline_report::{Evidence, ObjectRef};

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

pub fn rejections(model: &Model<'_>) -> Vec<Rejection> {
    let mut out = Vec::new();
    for (source, message) in model.messages {
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
                source: model.source_name(*source),
                line: message.line,
                path: "kubectl: Error from server (Forbidden)".into(),
                value: message.text.lines().next().unwrap_or_default().to_string(),
            },
            from_client: true,
            count: 1,
        });
    }
    for event in model.events.iter().filter(|e| e.reason == "FailedCreate") {
        let Some((refused, reason)) = forbidden(&event.message) else {
            continue;
        };
        let Some(evidence) = model.event_evidence(event) else {
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
    for (object, i, message) in replica_failures(model) {
        let path = if message.is_empty() {
            format!("status.conditions[{i}].reason")
        } else {
            format!("status.conditions[{i}].message")
        };
        let Some(evidence) = model.evidence(object, &path) else {
            continue;
        };
        let (refused, reason) = forbidden(message).unwrap_or((None, String::new()));
        out.push(Rejection {
            subject: object.id.clone(),
            refused,
            reason,
            evidence,
            from_client: false,
            count: 1,
        });
    }
    out
}

/// Every controller's `ReplicaFailure=True` condition: the object, the condition's index and its
/// message (empty when it has none; `kubectl describe rs` prints none).
pub fn replica_failures<'a>(model: &Model<'a>) -> Vec<(&'a faultline_ingest::Object, usize, &'a str)> {
    let mut out = Vec::new();
    // `ReplicaFailure` is a controller's condition (a Deployment's, ReplicaSet's or
    // ReplicationController's), never a Pod's: the Pods, most of a dump, are not read. The
    // conditions are found by key (what `locate("status.conditions")` finds, without parsing a path
    // for every object).
    for object in model.objects.iter().filter(|o| o.id.kind != "Pod") {
        let Some(conditions) = object.node.get("status").and_then(|s| s.get("conditions")) else {
            continue;
        };
        for (i, condition) in conditions.items().iter().enumerate() {
            let is = |k: &str, v: &str| condition.get(k).and_then(|n| n.as_str()) == Some(v);
            if is("type", "ReplicaFailure") && is("status", "True") {
                let message = condition
                    .get("message")
                    .and_then(|n| n.as_str())
                    .unwrap_or_default();
                out.push((object, i, message));
            }
        }
    }
    out
}

/// A group's evidence, structured status first (a `ReplicaFailure` condition), then up to three of
/// the refusal messages and events.
pub fn evidence_of(group: &[Rejection]) -> Vec<Evidence> {
    let (structured, rest): (Vec<&Rejection>, Vec<&Rejection>) =
        group.iter().partition(|r| r.evidence.path.starts_with("status."));
    let mut evidence: Vec<Evidence> = Vec::new();
    for r in structured.into_iter().chain(rest.into_iter().take(3)) {
        if !evidence.contains(&r.evidence) {
            evidence.push(r.evidence.clone());
        }
    }
    evidence
}

/// Whether the controller created Pods after its last refusal (a `SuccessfulCreate` newer than every
/// `FailedCreate`): the refusal has passed. By time when events carry one, else by age.
pub fn created_after_refusal(model: &Model<'_>, subject: &ObjectRef) -> bool {
    // `events_for` is oldest first, so the last refusal is the newest.
    let events = model.events_for(subject);
    let Some(last_failed) = events.iter().rfind(|e| e.reason == "FailedCreate") else {
        return false;
    };
    let created = history::Supersedes::Event {
        reasons: &["SuccessfulCreate"],
        same_part: false,
    };
    history::superseded(model, subject, Some(last_failed), &[created]).is_some()
        || sibling_created_since(model, subject, last_failed)
}

/// Whether another ReplicaSet of the same Deployment created a Pod after `refusal`: the Deployment
/// rolled to a new ReplicaSet and creating its Pods works now, so the old one's refusal is history
/// (and its Pods' later trouble is not the quota's).
fn sibling_created_since(
    model: &Model<'_>,
    subject: &ObjectRef,
    refusal: &faultline_model::EventRecord,
) -> bool {
    use faultline_model::owners::top_workload;
    if subject.kind != "ReplicaSet" {
        return false;
    }
    let workload = top_workload(model, subject);
    if workload.kind != "Deployment" {
        return false;
    }
    model.events.iter().any(|e| {
        e.reason == "SuccessfulCreate"
            && e.subject.kind == "ReplicaSet"
            && e.subject.namespace == subject.namespace
            && e.subject.name != subject.name
            && e.is_after(refusal)
            && top_workload(model, &e.subject) == workload
    })
}

/// Whether a group is over: no standing `ReplicaFailure` condition, and Pods created since or the
/// controller at the replicas it wants now (the shared judgement of [`history::superseded`]).
pub fn resolved(model: &Model<'_>, group: &[Rejection]) -> bool {
    let subject = &group[0].subject;
    !group.iter().any(|r| r.evidence.path.starts_with("status."))
        && !group[0].from_client
        && (created_after_refusal(model, subject)
            || history::superseded(model, subject, None, &[history::Supersedes::ReplicasAsDesired]).is_some())
}

/// The rejections of one subject grouped together, in input order of their first appearance.
pub fn by_subject(rejections: Vec<Rejection>) -> Vec<Vec<Rejection>> {
    let mut groups: Vec<Vec<Rejection>> = Vec::new();
    for r in rejections {
        match groups.iter_mut().find(|g| {
            g[0].subject.kind == r.subject.kind
                && g[0].subject.namespace == r.subject.namespace
                && g[0].subject.name == r.subject.name
        }) {
            Some(group) => group.push(r),
            None => groups.push(vec![r]),
        }
    }
    groups
}

faultline_report::messages! {
    /// The words of `rejections`.
    pub enum Msg {}
}

#[cfg(test)]
mod tests {
    use super::*;

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
