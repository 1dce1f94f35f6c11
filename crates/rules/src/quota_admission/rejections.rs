//! Creation refused by the API server, grouped and judged: the refusals themselves are read once by
//! the model ([`Model::rejections`], `signals::create_refusal`); here is what the quota and
//! admission rules share of their judgement (whether a refusal has passed, the evidence of a group).

use crate::history;
pub use faultline_model::signals::create_refusal::Rejection;
use faultline_model::Model;
use faultline_report::{Evidence, ObjectRef};

/// Every refusal to create an object the input shows ([`Model::rejections`]).
pub fn rejections(model: &Model<'_>) -> Vec<Rejection> {
    model.rejections()
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

/// How many refusals a group's messages and events count (a condition without a message counts
/// none).
pub fn refusals(group: &[Rejection]) -> u32 {
    group
        .iter()
        .filter(|r| !r.reason.is_empty())
        .map(|r| r.count)
        .sum()
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
