//! The job lifecycle: an analysis asked of the worker ([`Pending`]), its progress, and what it
//! found ([`Analysis`]). A change of the inputs makes a new job; replies for another id are ignored.

use std::rc::Rc;

use faultline_engine::{Progress, Report};
use faultline_worker::protocol::{Job, Timing};

use super::error_reports::too_large;
use super::input::{Input, MAX_INPUT_BYTES};
use super::State;
use crate::samples;

/// An analysis asked of the worker and not answered yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub id: u64,
    /// Redact the inputs first (the "Redact" action), then analyse the copy.
    pub redact: bool,
    /// The latest progress reported; `None` until the worker has started.
    pub progress: Option<Progress>,
    /// The report has arrived and is shown; the worker is looking for secrets.
    pub reported: bool,
}

/// What the worker found, assembled on the page from its parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Shared, not copied, into the state: a big dump's report is tens of megabytes.
    pub report: Rc<Report>,
    /// Files that turned out not to be text (name, why).
    pub unreadable: Vec<(String, String)>,
    /// Whether the analysed text holds redaction tokens.
    pub redacted_input: bool,
    /// How long each step took in the worker, up to the report.
    pub timings: Vec<Timing>,
}

impl State {
    /// The job to send to the worker for [`State::pending`], with its inputs in the job's order.
    pub fn job(&self) -> Option<(Job, Vec<Input>)> {
        let pending = self.pending.as_ref()?;
        let inputs = self.inputs();
        let job = Job {
            id: pending.id,
            names: inputs.iter().map(|i| i.name.clone()).collect(),
            include_network: self.include_network,
            redact: pending.redact,
        };
        Some((job, inputs))
    }

    /// Asks for an analysis of the current inputs — unless a built-in sample's report is at hand, the
    /// inputs are empty or too large: those are answered at once.
    pub(super) fn analyse(&mut self, redact: bool) {
        self.stale = false;
        self.pending = None;
        self.timings = Rc::default();
        if !redact && !self.include_network {
            if let Some(done) = self.sample.and_then(samples::precomputed) {
                self.report = Rc::new(done.report);
                self.secrets = Rc::new(done.secrets);
                self.redacted_input = false;
                return;
            }
        }
        let inputs = self.inputs();
        let total: u64 = inputs.iter().map(|i| i.text.len()).sum();
        if inputs.is_empty() || total > MAX_INPUT_BYTES {
            self.report = Rc::new(if inputs.is_empty() {
                Report::default()
            } else {
                too_large(&inputs, total)
            });
            self.secrets = Rc::default();
            self.redacted_input = false;
            return;
        }
        self.last_job += 1;
        self.pending = Some(Pending {
            id: self.last_job,
            redact,
            progress: None,
            reported: false,
        });
    }

    /// The pending job, if it is `id`.
    pub(super) fn pending_mut(&mut self, id: u64) -> Option<&mut Pending> {
        self.pending.as_mut().filter(|p| p.id == id)
    }

    /// Whether the worker is analysing (the report shown is not of the current inputs yet).
    pub fn analysing(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| !p.reported)
    }

    /// Whether the report shown is of the current inputs and the worker is looking for secrets in
    /// them.
    pub fn scanning(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.reported)
    }

    pub(super) fn receive(&mut self, analysis: &Analysis) {
        self.report = analysis.report.clone();
        self.secrets = Rc::default();
        self.redacted_input = analysis.redacted_input;
        self.timings = Rc::new(analysis.timings.clone());
        for (name, reason) in &analysis.unreadable {
            self.files.retain(|f| f.name != *name);
            self.unreadable.retain(|(n, _)| n != name);
            self.unreadable.push((name.clone(), reason.clone()));
        }
    }
}
