//! Next steps whose output is already in the investigation are dropped (issue 40, item 2): the
//! user pasted `kubectl describe node worker-2` through "Paste its output", or showed it after a
//! `$` prompt; asking for it again sends them in a circle. Which commands count as the same is
//! [`faultline_ingest::pasted`]'s to say, once for every rule.

use faultline_model::Model;
use faultline_report::message::common::Msg as Common;
use faultline_report::{Finding, Sentence};

/// Drops from each finding the next steps the inputs already answer; where the placeholders
/// (`<namespace>`, `<name>`, `<node>`) left with them, so does the sentence that explains them.
pub(crate) fn drop_pasted(model: &Model<'_>, findings: &mut [Finding]) {
    if model.pasted.is_empty() {
        return;
    }
    for finding in findings {
        let before = finding.next_steps.len();
        finding.next_steps.retain(|step| !model.already_pasted(step));
        if finding.next_steps.len() == before {
            continue;
        }
        let steps = &finding.next_steps;
        let holds = |word: &str| steps.iter().any(|s| s.contains(word));
        let (namespace, name, node) = (
            holds(faultline_rules::UNKNOWN_NAMESPACE),
            holds(faultline_rules::shell::UNKNOWN_NAME),
            holds(faultline_rules::shell::UNKNOWN_NODE_WORD),
        );
        let subject = finding.subject.clone();
        finding
            .cannot_establish
            .retain_mut(|c| match c.message().map(|m| m.id()) {
                Some("common.not-stated") if namespace || name => {
                    // Said again of the placeholders that are left.
                    *c = Sentence::new(Common::NotStated {
                        subject: subject.clone(),
                        namespace,
                        name,
                    });
                    true
                }
                Some("common.not-stated") => false,
                Some("common.node-not-stated") => node,
                _ => true,
            });
    }
}
