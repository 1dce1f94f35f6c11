//! How sure the report is of each finding: established by the object's current state, likely from
//! what a component said (events, a table row, a kubectl error), possible from a line of text alone
//! or a risk in a spec.

use faultline_model::Model;
use faultline_report::{Confidence, Finding, ObjectRef, Sentence};

use super::words::Msg;

/// Sets each finding's confidence and the sentence that says why and what would raise it.
/// `competing` holds the findings a [`faultline_report::Decider`] names: another cause explains the
/// same signals as well, so neither is more than likely.
pub(crate) fn assess(model: &Model<'_>, findings: &mut [Finding], competing: &[usize]) {
    for (i, finding) in findings.iter_mut().enumerate() {
        let (confidence, note) = of(model, finding);
        let (confidence, note) = if competing.contains(&i) && confidence == Confidence::Established {
            (Confidence::Likely, Msg::LikelyCompeting {})
        } else {
            (confidence, note)
        };
        finding.confidence = confidence;
        finding.confidence_note = Sentence::new(note);
    }
}

pub(crate) fn of(model: &Model<'_>, finding: &Finding) -> (Confidence, Msg) {
    if faultline_rules::is_lint(finding) {
        return (Confidence::Possible, Msg::PossibleLint {});
    }
    if finding.subject.name.is_empty() || finding.rule == faultline_rules::LAST {
        let command = finding.next_steps.first().cloned();
        return (Confidence::Possible, Msg::PossibleFromLine { command });
    }
    if let Some(object) = model.object(&finding.subject) {
        let source = model.source_name(object.source);
        // Evidence read from the object itself (a field of its status or spec, a row's cells), not
        // from its events, nor the same field of another object cited beside it (a Service's
        // `metadata.name`).
        let state = finding.evidence.iter().find(|e| {
            e.source == source && object.locate(&e.path).is_some_and(|(pos, _)| pos.line == e.line)
        });
        if let Some(e) = state {
            return (
                Confidence::Established,
                Msg::EstablishedByState {
                    object: finding.subject.clone(),
                    path: e.path.clone(),
                    line: e.line,
                },
            );
        }
        return (
            Confidence::Likely,
            Msg::LikelyStateSilent {
                object: finding.subject.clone(),
            },
        );
    }
    (
        Confidence::Likely,
        Msg::LikelyFromEvents {
            object: finding.subject.clone(),
            command: get_yaml(&finding.subject),
        },
    )
}

/// `kubectl get pod web-1 -n shop -o yaml`, every name shell-quoted as the rules quote theirs
/// (`faultline_rules::shell`); `-n '<namespace>'` where the input does not say it.
pub(crate) fn get_yaml(object: &ObjectRef) -> String {
    use faultline_rules::shell::quote;
    let kind = object.kind.to_lowercase();
    let namespace = match &object.namespace {
        Some(ns) if !ns.is_empty() => format!(" -n {}", quote(ns)),
        _ if cluster_scoped(&object.kind) => String::new(),
        _ => format!(" -n {}", quote(faultline_rules::UNKNOWN_NAMESPACE)),
    };
    format!(
        "kubectl get {} {}{namespace} -o yaml",
        quote(&kind),
        quote(&object.name)
    )
}

fn cluster_scoped(kind: &str) -> bool {
    faultline_ingest::events_table::is_cluster_scoped(kind) || kind == "Cluster"
}
