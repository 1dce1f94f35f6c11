//! Pods known only from a `kubectl get pods` table: kubectl's STATUS column (`CrashLoopBackOff`,
//! `ImagePullBackOff`, `CreateContainerConfigError`) is the weakest evidence that still proves
//! something — the state one of the Pod's containers is in now — and often the only evidence a paste
//! has. The rules that read container states read this too, and say what the table cannot show.

use crate::ingest::{Object, Typed};
use crate::model::Model;
use crate::report::{Evidence, ObjectRef};

/// A Pod row of a `get` table whose STATUS is one of `statuses` (compared without an `Init:`
/// prefix), with the status as printed. Pods that the input also shows whole (a describe, a YAML)
/// are left to the container states, which say more.
pub fn pods_with_status<'a>(model: &Model<'a>, statuses: &[&str]) -> Vec<(&'a Object, &'a str)> {
    model
        .objects
        .iter()
        .filter(|o| o.id.kind == "Pod")
        .filter_map(|o| {
            let printed = o.locate("kubectl.status")?.1.as_str()?;
            let bare = printed.strip_prefix("Init:").unwrap_or(printed);
            statuses.contains(&bare).then_some((o, printed))
        })
        .filter(|(o, _)| !shown_whole(model, &o.id))
        .collect()
}

/// Whether an object with this identity is also in the input with its container statuses.
fn shown_whole(model: &Model<'_>, id: &ObjectRef) -> bool {
    model.objects.iter().any(|other| {
        other.id.kind == id.kind
            && other.id.name == id.name
            && (other.id.namespace == id.namespace || other.id.namespace.is_none() || id.namespace.is_none())
            && matches!(&other.typed, Typed::Pod(pod) if pod
                .status
                .as_ref()
                .is_some_and(|s| s.container_statuses.as_ref().is_some_and(|c| !c.is_empty())))
    })
}

/// The row's STATUS and RESTARTS cells as evidence.
pub fn evidence(model: &Model<'_>, pod: &Object) -> Vec<Evidence> {
    let mut evidence: Vec<Evidence> = model.evidence(pod, "kubectl.status").into_iter().collect();
    evidence.extend(model.evidence(pod, "kubectl.restarts"));
    evidence
}

/// RESTARTS as printed (`25`, `19 (75s ago)`), when the table has the column.
pub fn restarts(pod: &Object) -> Option<&str> {
    pod.locate("kubectl.restarts")?.1.as_str()
}

/// What a table row cannot show, for every finding made from one.
pub const CANNOT: &str = "This rests on a `kubectl get pods` row: STATUS is kubectl's summary of one container's state, so which container, its exit code, reason and message are not in the table.";

/// What one STATUS means, for a rule that reads it.
pub struct TableFault {
    /// The statuses, without an `Init:` prefix.
    pub statuses: &'static [&'static str],
    /// What the status says is happening, after "STATUS X: ".
    pub meaning: &'static str,
    /// What else the table cannot show for this fault.
    pub cannot: &'static str,
}

/// One finding per Pod row with one of the fault's statuses that the rule has no finding about yet
/// (from the Pod's events, say).
pub fn check(
    rule: &super::Rule,
    fault: &TableFault,
    model: &Model<'_>,
    findings: &mut Vec<crate::report::Finding>,
) {
    for (pod, printed) in pods_with_status(model, fault.statuses) {
        let id = &pod.id;
        let known = findings
            .iter()
            .any(|f| f.rule == rule.id && f.subject.kind == id.kind && f.subject.name == id.name);
        if known {
            continue;
        }
        let ns = id.namespace.as_deref().unwrap_or("default");
        let restarts = restarts(pod)
            .filter(|r| !r.starts_with('0'))
            .map(|r| format!(", RESTARTS {r}"))
            .unwrap_or_default();
        let summary = format!(
            "{id}: `kubectl get pods` shows STATUS {printed}{restarts}: {}.",
            fault.meaning
        );
        let cannot_establish = vec![CANNOT.to_string(), fault.cannot.to_string()];
        let next_steps = vec![
            command!("kubectl describe pod {} -n {}", id.name, ns),
            command!("kubectl logs {} -n {} --previous --all-containers", id.name, ns),
            command!("kubectl events -n {} --for pod/{}", ns, id.name),
        ];
        // The Pod's own warnings, when its events were pasted too, say more than the table.
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
        findings.push(rule.finding(
            crate::report::Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}
