//! The differential diagnosis as the report states it (issue 39): how sure each finding is
//! ([`Confidence`]), what was considered and ruled out and by which line ([`RuledOut`]), and, when
//! two causes remain close, the one command whose output tells them apart ([`Decider`]). The judge
//! decides them; these are their types.

use serde::{Deserialize, Serialize};

use crate::{Boundary, Cause, Evidence, Sentence};

/// How sure the report is of a finding (`"established"`, `"likely"`, `"possible"` in JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Only a line of text says so (a log line naming no object), or it is a risk in a spec that no
    /// failure in the input shows happening.
    Possible,
    /// A component said so (events, a table row, a kubectl error) about the object, but its current
    /// state was not pasted, or another cause explains the same symptoms as well.
    #[default]
    Likely,
    /// The object's current state, pasted, says so, and no other cause competes with it.
    Established,
}

impl Confidence {
    pub fn id(self) -> &'static str {
        match self {
            Confidence::Established => "established",
            Confidence::Likely => "likely",
            Confidence::Possible => "possible",
        }
    }
}

/// A loud signal that is not the cause, or a boundary the input rules out, with the line that
/// demotes it ([`crate::Report::ruled_out`]).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct RuledOut {
    /// The boundary the signal would point to if it were the cause.
    pub boundary: Boundary,
    /// The finding of this report that was considered (a symptom, a lint), when it is one; `None`
    /// for a boundary that a line of the input rules out without any finding there.
    #[serde(default)]
    pub finding: Option<Cause>,
    /// Why it is not the cause, in one sentence (in JSON `because`, its message as
    /// `because_message`).
    pub because: Sentence,
    /// The line that demotes it: the explaining cause's first evidence, or the line that shows the
    /// boundary working.
    #[serde(default)]
    pub evidence: Option<Evidence>,
}

/// When two causes remain close: the command whose output tells them apart, and what each answer
/// would mean ([`crate::Report::decide`]).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Decider {
    /// The two findings, the report's diagnosis first.
    pub between: Vec<Cause>,
    /// Which of the two the command tests (an index into `between`): the one that rests on less.
    pub tested: usize,
    /// The command to run (names as the input gives them; `<namespace>` where it gives none).
    pub command: String,
    /// What it would mean if its output confirms the hypothesis it tests.
    pub if_shown: Sentence,
    /// What it would mean if it does not.
    pub if_not: Sentence,
}
