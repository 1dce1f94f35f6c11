//! The differential diagnosis as the report says it (issue 39), once the findings are judged and
//! the timeline is built: how sure each finding is, what was considered and ruled out and by which
//! line, and the command that decides between two causes that remain close.

mod confidence;
mod decide;
mod ruled_out;
pub mod words;

use faultline_model::Model;
use faultline_report::{Decider, Finding, RuledOut, TimelineEntry};

/// What the differential diagnosis adds to the judged findings.
pub struct Differential {
    pub ruled_out: Vec<RuledOut>,
    pub decide: Option<Decider>,
}

/// Sets each finding's confidence, and says what was ruled out and which command decides.
pub fn differential(model: &Model<'_>, findings: &mut [Finding], timeline: &[TimelineEntry]) -> Differential {
    let decided = decide::decide(model, findings);
    let competing: Vec<usize> = decided.iter().flat_map(|((a, b), _)| [*a, *b]).collect();
    confidence::assess(model, findings, &competing);
    Differential {
        ruled_out: ruled_out::ruled_out(model, findings, timeline),
        decide: decided.map(|(_, d)| d),
    }
}
