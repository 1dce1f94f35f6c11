//! The app's state and every change to it, as a reducer: all logic lives here, with no DOM types, so
//! it is tested natively. Components only render [`State`] and dispatch [`Action`]s.
//!
//! Analysis is asynchronous: the engine runs in a Web Worker (`hooks/use_engine_worker.rs`). A change
//! of the inputs sets [`State::pending`] to a new job; the worker's progress and result come back as
//! actions carrying that job's id, and anything for another id is ignored, so a newer edit simply
//! supersedes a running analysis. Until the report arrives the previous one stays on screen, marked
//! stale; the secret scan of the same inputs comes after the report, and the job is pending until it
//! is done too. The built-in samples' reports are computed at build time and need no job.
//!
//! The report is in the page's language. A switch of language writes it again without analysing:
//! a sample's from its texts precomputed in every language, the page's own error reports from
//! `i18n`, and a job's from the worker, which keeps the last report it made and sends its texts in
//! the other language ([`State::localize_request`], [`Action::Localized`]). What the report was
//! made from is [`State::origin`].
//!
//! By concern: [`input`] (input texts and limits), [`job`] (the job lifecycle), `redaction`
//! (redaction and undo), `sample` (the built-in samples), `error_reports` (the reports made
//! without the engine), `reducer` (every action).

use std::rc::Rc;

use faultline_render::changes::Change;
use faultline_render::protocol::{Excerpt, Secret, Texts, Timing};
use faultline_report::{Progress, Report};

use crate::i18n::Lang;
use crate::route::{Route, View};
use crate::samples;

mod error_reports;
pub mod input;
pub mod investigation;
pub mod job;
mod redaction;
mod reducer;
mod sample;
#[cfg(test)]
pub(crate) mod tests;

pub use error_reports::Failure;
pub use input::{looks_binary, Input, Text, INLINE_FILE_BYTES};
pub use job::{Analysis, Pending};

/// What the report shown was made from: what writes it again in another language.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Origin {
    /// Nothing: no inputs.
    #[default]
    Nothing,
    /// A built-in sample's report, precomputed in every language.
    Sample(&'static str),
    /// Worker job `id`'s report, its texts in `lang`. In another, the worker writes them again.
    Job { id: u64, lang: Lang },
    /// The page's report for inputs too large to analyse here (`total` bytes).
    TooLarge { total: u64 },
    /// The page's report for an analysis that stopped.
    Failed(Failure),
}

// The components take the report as `Rc<Report>` props, compared at every render of the app (each
// progress message, each keystroke). `Rc`'s equality checks the pointer first only when the value is
// `Eq`: without it, every render compared the whole report field by field, ~100 ms for a 10k-pod
// dump's. This stops the build if `Report` loses `Eq`.
const _: fn() = || {
    fn compared_by_pointer_first<T: Eq>() {}
    compared_by_pointer_first::<Report>();
};

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The paste area's text; analysed as the input named [`PASTE_NAME`] when not empty.
    pub paste: Rc<str>,
    /// Dropped or picked files, and the files of a loaded sample.
    pub files: Vec<Input>,
    /// The sample currently shown, if the inputs are a sample's, unchanged.
    pub sample: Option<&'static str>,
    /// Files that could not be read (name, why): shown, never turned into input text.
    pub unreadable: Vec<(String, faultline_render::protocol::Unreadable)>,
    /// The last report received. While [`State::pending`] is set (or [`State::stale`]), it is of
    /// earlier inputs.
    pub report: Rc<Report>,
    /// What [`State::report`] was made from.
    pub origin: Origin,
    /// Secrets found in the inputs (kind, input, line; never shown with their value).
    pub secrets: Rc<Vec<Secret>>,
    /// Whether IP addresses, internal host names and e-mail addresses count as secrets too.
    pub include_network: bool,
    /// The inputs as they were before the last redaction, until the user edits anything.
    pub before_redaction: Option<(Rc<str>, Vec<Input>)>,
    /// Whether the text the report was made from holds redaction tokens.
    pub redacted_input: bool,
    /// How long each step of the worker's last analysis took (empty for a report made otherwise:
    /// a built-in sample's, computed when the app was built).
    pub timings: Rc<Vec<Timing>>,
    /// The analysis running in the worker, if any.
    pub pending: Option<Pending>,
    /// The report is not of the current inputs: their analysis was cancelled.
    pub stale: bool,
    /// The id of the last job asked for.
    pub last_job: u64,
    /// The view shown; re-analysis keeps it.
    pub view: View,
    pub lang: Lang,
    /// The input line the input viewer shows highlighted: (input name, line).
    pub focus: Option<(String, u32)>,
    /// Lines of a large file around the focused line, from the worker (the page does not hold them).
    pub excerpt: Option<Rc<Excerpt>>,
    /// The finding (index into the report) to bring into view in the findings view.
    pub selected_finding: Option<usize>,
    /// The sample the user's first input replaced, until they restore it, clear or open another.
    pub removed_sample: Option<&'static str>,
    /// The next step whose output is being pasted: its command, which names the input.
    pub follow_up: Option<String>,
    /// The inputs that are next steps' outputs (named by their commands), answering this
    /// investigation's report ([`investigation`]).
    pub follow_ups: Vec<String>,
    /// The investigation the current one replaced, one click away ([`investigation`]).
    pub previous: Option<Rc<investigation::Investigation>>,
    /// The report before the newest evidence (a next step's output, a dropped file), to say what
    /// that evidence changed.
    pub baseline: Option<Rc<Report>>,
    /// What the newest evidence changed ([`State::baseline`] against the report shown).
    pub changes: Option<Rc<Vec<Change>>>,
    /// The "What should I paste?" panel is open, at this symptom (`None`: all of them).
    pub guide: Option<Option<&'static str>>,
    /// What the user narrowed the report to, shared by every view.
    pub filter: crate::view_model::summary::Filter,
    /// The capture moment the user set in the timeline: ages are placed against it (without
    /// analysing again: [`State::shown_report`]); `None`: the engine's inferred moment.
    pub captured_at: Option<faultline_report::instant::Instant>,
    /// The rules' documentation: asked of the worker (a view showed some), and here
    /// ([`crate::rule_docs`]).
    pub docs_wanted: bool,
    pub docs_loaded: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The paste area's text changed by typing or editing.
    EditPaste(String),
    /// The paste area's text changed by a paste (or a drop of text) into it: a paste that replaces
    /// what it held, or arrives in an empty box beside other inputs, is a new incident
    /// ([`investigation`]).
    Pasted(String),
    /// Files were dropped or opened (their texts follow as [`Action::AddFile`]s): a new incident,
    /// unless the input for a next step's output is open.
    FilesArriving,
    /// "Restore" the investigation the current one replaced.
    RestorePrevious,
    /// "Add to it": the current inputs join the investigation they replaced.
    JoinPrevious,
    /// Files were dropped or picked; a file with the same name replaces the older one.
    AddFile(Input),
    /// A paste too large for the paste box ([`input::LARGE_PASTE_CHARS`]): an input of its own,
    /// named `paste-N`, otherwise like a dropped file. `true`: pasted into the box's text (the
    /// box held text, not all of it selected), evidence of the same incident; `false`: over all of
    /// it, or into an empty box, a new incident ([`investigation`]).
    PasteLarge(Text, bool),
    /// The user chose to edit a large paste in the paste box: its text (read from its `Blob`) goes
    /// there, after what the box holds, and the input named `name` is removed.
    EditLargePaste {
        name: String,
        text: String,
    },
    RemoveFile(usize),
    /// A dropped or picked file could not be read (a folder dropped as a file, a permission error).
    FileUnreadable {
        name: String,
        reason: faultline_render::protocol::Unreadable,
    },
    LoadSample(&'static str),
    /// Brings back the sample the user's first input replaced (and removes that input).
    RestoreSample,
    /// Opens the input for a next step's output, named after its command.
    OpenFollowUp(String),
    /// The follow-up input's text changed.
    EditFollowUp(String),
    CloseFollowUp,
    /// Opens the "What should I paste?" panel (at a symptom), or closes it (`None`).
    Guide(Option<Option<&'static str>>),
    /// Removes every input.
    Clear,
    /// Replaces every input by its redacted copy (the originals are kept for [`Action::UndoRedaction`]).
    Redact,
    /// Brings back the inputs as they were before the last redaction.
    UndoRedaction,
    /// Whether network details (IPs, internal host names, e-mail addresses) are redacted too.
    SetIncludeNetwork(bool),
    SetView(View),
    SetLang(Lang),
    /// The user set the capture moment (`None`: back to the one inferred from the input).
    SetCapture(Option<faultline_report::instant::Instant>),
    /// Show an input line (evidence, an error, a timeline entry's source) in the input viewer.
    ShowLine {
        source: String,
        line: u32,
    },
    /// Closes the input viewer.
    CloseViewer,
    /// Open the findings view at one finding.
    ShowFinding(usize),
    /// The shared filter changed (boundary, severity, namespace, kind, words).
    SetFilter(crate::view_model::summary::Filter),
    /// The location hash changed: open its sample and view.
    Route(Route),
    /// Stops the running analysis; the previous report stays, marked stale.
    Cancel,
    /// Analyses the current inputs again (after a cancel).
    Reanalyse,
    /// From the worker: how far job `id` has got.
    Progress {
        id: u64,
        progress: Progress,
    },
    /// From the worker: the redacted copy of job `id`'s inputs, in the job's order.
    Redacted {
        id: u64,
        texts: Vec<Text>,
    },
    /// From the worker: job `id`'s report (the secret scan follows).
    Reported {
        id: u64,
        analysis: Rc<Analysis>,
    },
    /// From the worker: the secrets in job `id`'s inputs, and how long each step took, the scan
    /// included. The job is done.
    Scanned {
        id: u64,
        secrets: Rc<Vec<Secret>>,
        timings: Rc<Vec<Timing>>,
    },
    /// The worker stopped without a result (out of memory, an engine error).
    AnalysisFailed {
        id: u64,
        failure: Failure,
    },
    /// From the worker: job `id`'s report's texts in another language ([`State::localize_request`]).
    Localized {
        id: u64,
        texts: Rc<Texts>,
    },
    /// From the worker: lines of a large file for the input viewer.
    Excerpt(Rc<Excerpt>),
    /// A view is about to show the rules' documentation: the worker is asked for it, once.
    WantDocs,
    /// From the worker: the rules' documentation is here ([`crate::rule_docs::install`]).
    DocsArrived,
}

/// `report` with its entries known only by age placed against `captured_at` (the engine's
/// [`faultline_report::timeline::place`], on the report alone). Their `estimated_from`
/// named the inferred moment: it is dropped; `age` and the report's `capture` say it now.
pub fn anchored(report: &Report, captured_at: Option<faultline_report::instant::Instant>) -> Report {
    let mut report = report.clone();
    if captured_at.is_some() {
        report.capture = faultline_report::timeline::place(&mut report.timeline, captured_at);
        for entry in report.timeline.iter_mut().filter(|e| e.age.is_some()) {
            entry.estimated_from = None;
        }
    }
    report
}

impl Default for State {
    fn default() -> Self {
        Self::with_sample(samples::DEFAULT_SAMPLE)
    }
}
