//! Evidence from text that is not an object: kubectl's own messages and other commands' output.
//! The weakest kind of evidence (message wording drifts between releases): rules use it when it is
//! all there is, and say so.

use crate::model::Model;
use crate::report::Evidence;

/// Where to look for text evidence.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// kubectl's own messages and other commands' output: what a client saw.
    ClientOutput,
    /// Those and the messages of events (controllers and kubelets relaying an error).
    WithEvents,
}

/// Every kubectl message and every line of other commands' output (and, with [`Scope::WithEvents`],
/// every event) that contains one of `needles`, as evidence at its own line.
pub fn lines_containing(model: &Model<'_>, needles: &[&str], scope: Scope) -> Vec<Evidence> {
    let mut found = Vec::new();
    for (source, message) in model.messages {
        for (offset, line) in message.text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n)) {
                found.push(Evidence {
                    source: model.source_name(*source),
                    line: message.line + offset as u32,
                    path: message
                        .command
                        .as_deref()
                        .map_or("kubectl".to_string(), |c| format!("output of `{c}`")),
                    value: line.trim().to_string(),
                });
                break;
            }
        }
    }
    for output in model.outputs {
        for (offset, line) in output.text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n)) {
                found.push(Evidence {
                    source: model.source_name(output.source),
                    line: output.first_line + offset as u32,
                    path: format!("output of `{}`", output.command),
                    value: line.trim().to_string(),
                });
            }
        }
    }
    if scope == Scope::WithEvents {
        for event in &model.events {
            if needles.iter().any(|n| event.message.contains(n)) {
                found.extend(model.event_evidence(event));
            }
        }
    }
    found
}
