//! The judge: the differential-diagnosis stage. The rules' findings in, the report's findings out —
//! one finding per fault ([`merge`]), the components and workloads each implicates ([`affects`]),
//! ranked most likely cause first ([`rank`]), each symptom linked to the finding that explains it
//! ([`explain`]) and listed right after it ([`group`]); then, with the timeline built, how sure each
//! finding is, what was ruled out and by which line, and the command that decides between two close
//! causes ([`differential`]). It decides nothing about the inputs itself: it reads the model and the
//! findings' typed details.

mod affects;
mod callers;
pub mod differential;
mod explain;
mod group;
mod merge;
mod paste_next;
mod pasted;
mod rank;
#[cfg(test)]
mod tests;

use faultline_model::Model;
use faultline_report::{Finding, ObjectRef, Severity, Text};
use faultline_rules::{components, find};

pub use differential::{differential, Differential};
pub use paste_next::paste_next;
pub use rank::GENERIC;

/// Judges the findings the rules emitted ([`faultline_rules::check_all`]): groups explained symptoms
/// under their causes, and orders the findings: errors before warnings before info, structured
/// evidence before events alone, then in the order the rules emitted them (which follows input
/// order), so the report is deterministic. A symptom follows the finding that explains it (and that
/// finding's own symptoms follow it in turn). A next step whose output the inputs hold already is
/// dropped ([`pasted`]).
pub fn judge(model: &Model<'_>, findings: Vec<Finding>) -> Vec<Finding> {
    let mut findings = merge::merge_duplicates(findings);
    for finding in &mut findings {
        if let Some(rule) = find(&finding.rule) {
            let pod_node = pod_node(model, &finding.subject);
            components::implicate(rule.components, finding, pod_node);
        }
        affects::affected(model, finding);
    }
    // Most likely root cause first: errors and warnings before info notes, and among them a fault
    // before a lint (a risk in a spec, no evidence of failure: `faultline_rules::LINTS`); then by
    // severity; then findings about what the rest of the input shows failing (another finding is
    // about the same object or workload) before findings about an object nothing else refers to;
    // then findings about an object that was pasted (structured status) before findings that rest
    // on events or messages alone. Within a severity, a component's explicit refusal or reason
    // (a FailedScheduling with its predicates, a quota refusal, an image that does not exist)
    // before a generic symptom (a probe failing, 5xx, restarts): `rank::GENERIC`.
    let touched = rank::touched_by_others(&findings);
    let mut ranked: Vec<(usize, Finding)> = findings.into_iter().enumerate().collect();
    ranked.sort_by_cached_key(|(i, f)| {
        let pasted = model.graph.find(&f.subject).is_some();
        let lint = faultline_rules::is_lint(f);
        (
            f.severity == Severity::Info,
            lint,
            std::cmp::Reverse(f.severity),
            rank::GENERIC.contains(&f.rule.as_str()),
            !touched[*i],
            !pasted,
        )
    });
    let mut findings: Vec<Finding> = ranked.into_iter().map(|(_, f)| f).collect();
    rank::named_first(&mut findings);
    explain::relate(model, &mut findings);
    let mut findings = merge::one_finding_per_template_fault(model, findings);
    affects::carry_affects(&mut findings);
    for finding in &mut findings {
        finding.details = Vec::new();
    }
    pasted::drop_pasted(model, &mut findings);
    group::group(findings)
}

/// The `spec.nodeName` of a pasted Pod (the node whose kubelet runs it).
pub(crate) fn pod_node(model: &Model<'_>, subject: &ObjectRef) -> Option<Text> {
    if subject.kind != "Pod" {
        return None;
    }
    let object = model.object(subject)?;
    model
        .evidence(object, "spec.nodeName")
        .map(|e| e.value.trim().to_string())
        .filter(|n| !n.is_empty())
        .map(Text::from)
}
