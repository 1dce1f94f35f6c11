//! Pods known only from a `kubectl get pods` table: kubectl's STATUS column (`CrashLoopBackOff`,
//! `ImagePullBackOff`, `CreateContainerConfigError`) is the weakest evidence that still proves
//! something — the state one of the Pod's containers is in now — and often the only evidence a paste
//! has. The rules that read container states read this too, and say what the table cannot show.
//! RESTARTS as kubectl ≥ 1.27 prints it (`5 (2m ago)`, read by
//! [`faultline_model::views::pod_row_restarts`]) dates the last restart: a Running row that
//! restarted again and again minutes ago is a crash loop caught between exits
//! (`container-crash-looping`); a count without its age, or a last restart days ago, proves nothing
//! current.

use faultline_ingest::{Object, Typed};
use faultline_model::views::pod_row_restarts::restarts;
use faultline_model::views::pod_running::{kubectl_printed_all_ready, kubectl_printed_status};
use faultline_model::Model;
use faultline_report::message::{common, Message};
use faultline_report::{Evidence, ObjectRef};

/// A Pod row of a `get` table whose STATUS is one of `statuses` (compared without an `Init:`
/// prefix), with the status as printed. Pods that the input also shows whole (a describe, a YAML,
/// with their containers' states) are left to the container states, which say more.
pub fn pods_with_status<'a>(model: &Model<'a>, statuses: &[&str]) -> Vec<(&'a Object, &'a str)> {
    let rows: Vec<(&'a Object, &'a str)> = model
        .objects_of_kind("Pod")
        .filter_map(|o| {
            let printed = kubectl_printed_status(o)?;
            let bare = printed.strip_prefix("Init:").unwrap_or(printed);
            statuses.contains(&bare).then_some((o, printed))
        })
        .collect();
    if rows.is_empty() {
        return rows;
    }
    // The Pods shown whole (with a container's state: a describe cut off before `State:` shows
    // none), by name: one pass, not one per row.
    let mut whole: std::collections::HashMap<&str, Vec<Option<&str>>> = std::collections::HashMap::new();
    for other in model.objects_of_kind("Pod") {
        let statuses = matches!(&other.typed, Typed::Pod(pod) if pod
            .status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.state.is_some() || c.last_state.is_some())));
        if statuses {
            whole
                .entry(other.id.name.as_str())
                .or_default()
                .push(other.id.namespace.as_deref());
        }
    }
    // A later listing in which the same Deployment's Pods run ready from another ReplicaSet (`get
    // pods` again after a fix: a rollout, new names) shows the failing row is the past. Rows of one
    // ReplicaSet, failing and running side by side, are all the present. A row's Deployment and
    // ReplicaSet are its generated name's (`web-7d9f8c6b5-x2k4q`: a table row states no owner).
    // The generated parts use the API server's safe alphabet (no vowels, no 0, 1, 3): a
    // pod-template-hash of 8-10 characters, then a 5-character suffix.
    let safe = |part: &str, lengths: std::ops::RangeInclusive<usize>| {
        lengths.contains(&part.len()) && part.bytes().all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b))
    };
    let generated = |name: &str| -> Option<(String, String)> {
        let (rs, suffix) = name.rsplit_once('-')?;
        let (deployment, hash) = rs.rsplit_once('-')?;
        (safe(suffix, 5..=5) && safe(hash, 8..=10)).then(|| (deployment.to_string(), rs.to_string()))
    };
    type Key = (usize, Option<String>, String);
    let mut healthy: std::collections::HashMap<Key, Vec<(String, u32)>> = std::collections::HashMap::new();
    for other in model.objects_of_kind("Pod") {
        if kubectl_printed_status(other) != Some("Running") || !kubectl_printed_all_ready(other) {
            continue;
        }
        let Some((deployment, rs)) = generated(&other.id.name) else {
            continue;
        };
        let key = (
            other.source,
            other.id.namespace.as_deref().map(str::to_string),
            deployment,
        );
        healthy.entry(key).or_default().push((rs, other.node.pos.line));
    }
    rows.into_iter()
        .filter(|(o, _)| !shown_whole(&whole, &o.id))
        .filter(|(o, _)| {
            let Some((deployment, own)) = generated(&o.id.name) else {
                return true;
            };
            let key = (
                o.source,
                o.id.namespace.as_deref().map(str::to_string),
                deployment,
            );
            !healthy.get(&key).is_some_and(|rows| {
                rows.iter()
                    .any(|(rs, line)| *rs != own && *line > o.node.pos.line)
            })
        })
        .collect()
}

/// Whether a Pod with this identity is also in the input with its container statuses (a namespace
/// missing on either side matches any).
fn shown_whole(whole: &std::collections::HashMap<&str, Vec<Option<&str>>>, id: &ObjectRef) -> bool {
    whole.get(id.name.as_str()).is_some_and(|namespaces| {
        namespaces
            .iter()
            .any(|ns| ns.is_none() || id.namespace.is_none() || *ns == id.namespace.as_deref())
    })
}

/// The row's STATUS and RESTARTS cells as evidence.
pub fn evidence(model: &Model<'_>, pod: &Object) -> Vec<Evidence> {
    let mut evidence: Vec<Evidence> = model.evidence(pod, "kubectl.status").into_iter().collect();
    evidence.extend(model.evidence(pod, "kubectl.restarts"));
    evidence
}

/// A row's cells, then the Pod's last three warnings when its events were pasted too: they say more
/// than the table.
pub fn evidence_with_warnings(
    model: &Model<'_>,
    pod: &Object,
    id: &faultline_report::ObjectRef,
) -> Vec<Evidence> {
    let mut evidence = evidence(model, pod);
    let events = model.events_for(id);
    evidence.extend(
        events
            .iter()
            .filter(|e| e.is_warning())
            .rev()
            .take(3)
            .filter_map(|e| model.event_evidence(e)),
    );
    evidence
}

/// What one STATUS means, for a rule that reads it.
pub struct TableFault {
    /// The statuses, without an `Init:` prefix.
    pub statuses: &'static [&'static str],
    /// What the status says is happening, after "STATUS X: ".
    pub meaning: fn() -> Message,
    /// What else the table cannot show for this fault.
    pub cannot: fn() -> Message,
    /// Whether the Pod's log, when pasted, is read with the row (a crash loop's last words: the
    /// dependency it could not reach).
    pub with_log: bool,
}

/// One finding per Pod row with one of the fault's statuses that the rule has no finding about yet
/// (from the Pod's events, say).
pub fn check(
    rule: &super::Rule,
    fault: &TableFault,
    model: &Model<'_>,
    findings: &mut Vec<faultline_report::Finding>,
) {
    // The rule's findings so far (from events), by subject: one pass, not one per row.
    let known: std::collections::HashSet<(String, String)> = findings
        .iter()
        .filter(|f| f.rule == rule.id)
        .map(|f| (f.subject.kind.to_string(), f.subject.name.to_string()))
        .collect();
    for (pod, printed) in pods_with_status(model, fault.statuses) {
        let id = &pod.id;
        if known.contains(&(id.kind.to_string(), id.name.to_string())) {
            continue;
        }
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let summary = common::Msg::TableRow {
            subject: id.clone(),
            status: printed.into(),
            restarts: restarts(pod).filter(|r| !r.starts_with('0')).map(Into::into),
            meaning: Box::new((fault.meaning)()),
        };
        let mut cannot_establish: Vec<Message> = vec![common::Msg::TableCannot {}.into(), (fault.cannot)()];
        let log = fault
            .with_log
            .then(|| crate::log_evidence::for_container(model, id, "", true))
            .flatten();
        let summary: Message = match &log {
            Some(log) => common::Msg::WithLog {
                row: Box::new(summary.into()),
                said: Box::new(log.said.clone()),
            }
            .into(),
            None => summary.into(),
        };
        let next_steps = vec![
            command!("kubectl describe pod {} -n {}", id.name, ns),
            command!("kubectl logs {} -n {} --previous --all-containers", id.name, ns),
            command!("kubectl events -n {} --for pod/{}", ns, id.name),
        ];
        let mut evidence = evidence_with_warnings(model, pod, id);
        if let Some(log) = log {
            evidence.extend(log.evidence);
            cannot_establish.extend(log.cannot);
        }
        findings.push(rule.finding(
            faultline_report::Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}
