//! Diagnosis rules: one per file under `rules/<boundary>/`, each declared with [`declare_rule!`] so its
//! doc comment (with fixed sections) becomes the documentation the app and CLI show.

pub mod application;
mod containers;
pub mod control_plane;
pub mod etcd;
pub mod node_runtime;
pub mod quota_admission;
pub mod readiness_endpoints;
pub mod scheduling;
mod text;
pub mod zone_network_storage;

use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity};

/// A diagnosis rule: an id naming the condition observed, its boundary, its docs, and its check.
pub struct Rule {
    pub id: &'static str,
    pub boundary: Boundary,
    /// The rule's doc comment, in Markdown, with the sections listed in [`DOC_SECTIONS`].
    pub docs: &'static str,
    pub check: fn(&Model<'_>, &mut Vec<Finding>),
}

impl Rule {
    /// A finding of this rule: its id and boundary are the rule's own, never retyped by hand.
    pub fn finding(
        &self,
        severity: Severity,
        subject: ObjectRef,
        summary: String,
        evidence: Vec<Evidence>,
        cannot_establish: Vec<String>,
        next_steps: Vec<String>,
    ) -> Finding {
        Finding {
            rule: self.id.to_string(),
            boundary: self.boundary,
            severity,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        }
    }
}

/// The sections every rule's documentation has, in this order (STYLE.md).
pub const DOC_SECTIONS: [&str; 7] = [
    "What it finds",
    "Why it matters",
    "Evidence",
    "Fault boundary",
    "What this evidence cannot establish",
    "Next evidence to collect",
    "Example",
];

/// Declares a rule: the doc comment is turned into [`Rule::docs`] with `concat!`, never synced by hand.
#[macro_export]
macro_rules! declare_rule {
    ($(#[doc = $doc:literal])+ pub const $name:ident = { id: $id:literal, boundary: $boundary:expr, check: $check:path $(,)? };) => {
        $(#[doc = $doc])+
        pub const $name: $crate::rules::Rule = $crate::rules::Rule {
            id: $id,
            boundary: $boundary,
            docs: concat!($($doc, "\n"),+),
            check: $check,
        };
    };
}

/// Every rule, sorted by id (a test keeps it sorted).
pub const RULES: &[Rule] = &[
    quota_admission::admission_denied_on_create::RULE,
    control_plane::apiserver_request_failed::RULE,
    node_runtime::container_config_invalid::RULE,
    application::container_crash_looping::RULE,
    application::container_oom_killed::RULE,
    node_runtime::container_start_failed::RULE,
    etcd::etcd_request_failed::RULE,
    node_runtime::image_pull_failed::RULE,
    application::liveness_probe_failing::RULE,
    node_runtime::node_not_ready::RULE,
    node_runtime::node_under_pressure::RULE,
    zone_network_storage::pod_sandbox_failed::RULE,
    scheduling::pod_unschedulable::RULE,
    zone_network_storage::pvc_pending::RULE,
    quota_admission::quota_exceeded_on_create::RULE,
    readiness_endpoints::service_endpoints_not_serving::RULE,
    zone_network_storage::volume_mount_failed::RULE,
];

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// Runs every rule, ranks explained symptoms under their causes, and orders the findings: errors
/// before warnings before info, structured evidence before events alone, then in the order the rules
/// emitted them (which follows input order), so the report is deterministic.
pub fn run(model: &Model<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    for rule in RULES {
        (rule.check)(model, &mut findings);
    }
    relate(model, &mut findings);
    // Most likely root cause first: by severity, then findings about an object that was pasted
    // (structured status) before findings that rest on events or messages alone.
    findings.sort_by_key(|f| {
        let pasted = model.objects.iter().any(|o| {
            o.id.kind == f.subject.kind
                && o.id.namespace == f.subject.namespace
                && o.id.name == f.subject.name
        });
        (std::cmp::Reverse(f.severity), !pasted)
    });
    findings
}

/// A symptom explained by another finding's root cause is not a top finding of its own: it becomes a
/// warning that names its cause, and sorts after it. Each pair is explicit: (symptom rule, cause
/// rule, does this cause explain this symptom).
type Explains = fn(&Model<'_>, &Finding, &Finding) -> bool;

const EXPLANATIONS: &[(&str, &str, Explains)] = &[
    // The scheduler refusing a node for its pressure taint is explained by the node's pressure.
    ("pod-unschedulable", "node-under-pressure", |_, symptom, cause| {
        [
            ("(DiskPressure)", "node.kubernetes.io/disk-pressure"),
            ("(MemoryPressure)", "node.kubernetes.io/memory-pressure"),
            ("(PIDPressure)", "node.kubernetes.io/pid-pressure"),
        ]
        .iter()
        .any(|(pressure, taint)| cause.summary.contains(pressure) && symptom.summary.contains(taint))
    }),
    // "pod has unbound immediate PersistentVolumeClaims" is explained by the claim's own failure.
    ("pod-unschedulable", "pvc-pending", |model, symptom, cause| {
        symptom.subject.namespace == cause.subject.namespace
            && symptom.summary.contains("PersistentVolumeClaim is not bound")
            && uses(model, &symptom.subject, &cause.subject).unwrap_or(true)
    }),
];

/// Whether the pasted Pod references the claim; `None` when the Pod was not pasted.
fn uses(model: &Model<'_>, pod: &crate::report::ObjectRef, claim: &crate::report::ObjectRef) -> Option<bool> {
    use crate::model::graph::{EdgeKind, Target};
    let from = model
        .objects
        .iter()
        .position(|o| o.id.kind == pod.kind && o.id.namespace == pod.namespace && o.id.name == pod.name)?;
    let spec_known = model.objects[from].locate("spec.volumes").is_some();
    if !spec_known {
        return None;
    }
    Some(model.graph.edges.iter().any(|e| {
        e.from == from
            && e.kind == EdgeKind::Uses
            && match &e.to {
                Target::Object(i) => {
                    model.objects[*i].id.name == claim.name && model.objects[*i].id.kind == claim.kind
                }
                Target::Missing(r) => r.name == claim.name && r.kind == claim.kind,
            }
    }))
}

fn relate(model: &Model<'_>, findings: &mut [Finding]) {
    for i in 0..findings.len() {
        let cause = EXPLANATIONS
            .iter()
            .find_map(|(symptom_rule, cause_rule, explains)| {
                if findings[i].rule != *symptom_rule {
                    return None;
                }
                findings
                    .iter()
                    .find(|c| c.rule == *cause_rule && explains(model, &findings[i], c))
                    .map(|c| (c.rule.clone(), c.subject.to_string()))
            });
        if let Some((rule, subject)) = cause {
            let symptom = &mut findings[i];
            symptom.severity = crate::report::Severity::Warning;
            symptom.summary.push_str(&format!(
                " This is a symptom: it follows from {subject} ({rule}), listed above."
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_sorted_and_ids_are_unique() {
        let ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
    }

    #[test]
    fn rule_ids_name_the_condition_not_the_check() {
        for rule in RULES {
            assert!(
                rule.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{} is not kebab-case",
                rule.id
            );
            for prefix in ["check-", "detect-", "find-"] {
                assert!(
                    !rule.id.starts_with(prefix),
                    "{} names the check, not the condition",
                    rule.id
                );
            }
        }
    }

    #[test]
    fn every_rule_documents_every_section_in_order() {
        for rule in RULES {
            let mut at = 0;
            for section in DOC_SECTIONS {
                let heading = format!("## {section}\n");
                let found = rule.docs[at..].find(&heading);
                assert!(
                    found.is_some(),
                    "rule {} lacks the section `{section}` (or it is out of order)",
                    rule.id
                );
                at += found.unwrap_or_default() + heading.len();
                let body_end = rule.docs[at..].find("\n## ").map_or(rule.docs.len(), |i| at + i);
                assert!(
                    rule.docs[at..body_end].trim().len() > 20,
                    "rule {}: section `{section}` is empty",
                    rule.id
                );
            }
            assert!(
                rule.docs.contains(&format!("`{}`", rule.boundary.id())),
                "rule {} docs must name its boundary id",
                rule.id
            );
        }
    }
}
