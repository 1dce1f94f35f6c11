//! The job lifecycle: an analysis asked of the worker ([`Pending`]), its progress, and what it
//! found ([`Analysis`]). A change of the inputs makes a new job; replies for another id are ignored.

use std::rc::Rc;

use faultline_render::protocol::{Job, Texts, Timing};
use faultline_report::{Progress, Report};

use super::error_reports::{failed, too_large};
use super::input::{Input, MAX_INPUT_BYTES};
use super::{Origin, State};
use crate::i18n::Lang;
use crate::samples;

/// An analysis asked of the worker and not answered yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub id: u64,
    /// Redact the inputs first (the "Redact" action), then analyse the copy.
    pub redact: bool,
    /// The latest progress reported; `None` until the worker has started.
    pub progress: Option<Progress>,
    /// The inputs' bytes in all, known when the job is made: the progress shows "0.0 of 4.6 MB"
    /// before the worker's first report, not "0.0 of 0.0".
    pub bytes: u64,
    /// The report has arrived and is shown; the worker is looking for secrets.
    pub reported: bool,
    /// The language the report's texts are asked in (the page's when the job was made).
    pub lang: Lang,
}

/// What the worker found, assembled on the page from its parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Shared, not copied, into the state: a big dump's report is tens of megabytes.
    pub report: Rc<Report>,
    /// Files that turned out not to be text (name, why).
    pub unreadable: Vec<(String, faultline_render::protocol::Unreadable)>,
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
            lang: pending.lang,
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
            if let Some((id, done)) = self
                .sample
                .and_then(|id| Some((id, samples::precomputed(id, self.lang)?)))
            {
                self.report = Rc::new(done.report);
                self.origin = Origin::Sample(id);
                self.secrets = Rc::new(done.secrets);
                self.redacted_input = false;
                return;
            }
        }
        let inputs = self.inputs();
        let total: u64 = inputs.iter().map(|i| i.text.len()).sum();
        if inputs.is_empty() || total > MAX_INPUT_BYTES {
            (self.report, self.origin) = if inputs.is_empty() {
                (Rc::default(), Origin::Nothing)
            } else {
                (
                    Rc::new(too_large(&inputs, total, self.lang)),
                    Origin::TooLarge { total },
                )
            };
            self.secrets = Rc::default();
            self.redacted_input = false;
            return;
        }
        self.last_job += 1;
        self.pending = Some(Pending {
            id: self.last_job,
            redact,
            progress: None,
            bytes: total,
            reported: false,
            lang: self.lang,
        });
    }

    /// The page's language is now `lang`: the report is written again in it, without analysing
    /// again — a sample's from its precomputed texts, the page's own from `i18n`; a job's texts
    /// come from the worker ([`State::localize_request`]). The secrets, the view, the focus and the
    /// finding selected stay.
    pub(super) fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
        match self.origin.clone() {
            Origin::Sample(id) => {
                if let Some(done) = samples::precomputed(id, lang) {
                    self.report = Rc::new(done.report);
                }
            }
            Origin::TooLarge { total } => {
                self.report = Rc::new(too_large(&self.inputs(), total, lang));
            }
            Origin::Failed(failure) => {
                self.report = Rc::new(failed(&self.inputs(), &failure, lang));
            }
            Origin::Job { .. } | Origin::Nothing => {}
        }
    }

    /// The texts to ask the worker for: the report shown is job `id`'s, in another language than
    /// the page's. (The worker answers when that is still its last report: after a cancel, or once a
    /// newer job's report replaced it there, the report stays in its language.)
    pub fn localize_request(&self) -> Option<(u64, Lang)> {
        match self.origin {
            Origin::Job { id, lang } if lang != self.lang => Some((id, self.lang)),
            _ => None,
        }
    }

    /// Job `id`'s report's texts in `texts.lang`, from the worker: put into the report shown, if it
    /// is still that job's.
    pub(super) fn localized(&mut self, id: u64, texts: &Texts) -> bool {
        if !matches!(self.origin, Origin::Job { id: shown, .. } if shown == id) {
            return false;
        }
        self.report = Rc::new(texts.applied(&self.report));
        self.origin = Origin::Job { id, lang: texts.lang };
        true
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

    pub(super) fn receive(&mut self, id: u64, lang: Lang, analysis: &Analysis) {
        self.report = analysis.report.clone();
        self.origin = Origin::Job { id, lang };
        self.changes = self
            .baseline
            .as_ref()
            .map(|before| Rc::new(faultline_render::changes::compare(before, &self.report)));
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
