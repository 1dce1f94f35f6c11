//! The app's state and every change to it, as a reducer: all logic lives here, with no DOM types, so
//! it is tested natively. Components only render [`State`] and dispatch [`Action`]s.
//!
//! Analysis is asynchronous: the engine runs in a Web Worker (`hooks/use_engine_worker.rs`). A change
//! of the inputs sets [`State::pending`] to a new job; the worker's progress and result come back as
//! actions carrying that job's id, and anything for another id is ignored, so a newer edit simply
//! supersedes a running analysis. Until the report arrives the previous one stays on screen, marked
//! stale; the secret scan of the same inputs comes after the report, and the job is pending until it
//! is done too. The built-in samples' reports are computed at build time and need no job.

use std::rc::Rc;

use faultline_engine::{InputError, Progress, Report};
use faultline_worker::protocol::{Excerpt, Job, Secret, Timing};
use yew::Reducible;

use crate::i18n::Lang;
use crate::route::{Route, View};
use crate::samples;

pub use faultline_worker::looks_binary;

/// An input's text. Dropped or picked files above [`INLINE_FILE_BYTES`] are never copied into the
/// page: it keeps the browser's handle to the file and the worker reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    Inline(Rc<str>),
    /// A file held by the page's file registry (`files.rs`) under `id`, `bytes` long.
    File {
        id: u32,
        bytes: u64,
    },
}

impl Text {
    pub fn len(&self) -> u64 {
        match self {
            Text::Inline(text) => text.len() as u64,
            Text::File { bytes, .. } => *bytes,
        }
    }

    /// The text, when the page holds it.
    pub fn inline(&self) -> Option<&str> {
        match self {
            Text::Inline(text) => Some(text),
            Text::File { .. } => None,
        }
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text::Inline(text.into())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text::Inline(text.into())
    }
}

/// One input as the user gave it. The text is never rewritten: errors point into it, nothing edits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub name: String,
    pub text: Text,
}

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

// The components take the report as `Rc<Report>` props, compared at every render of the app (each
// progress message, each keystroke). `Rc`'s equality checks the pointer first only when the value is
// `Eq`: without it, every render compared the whole report field by field, ~100 ms for a 10k-pod
// dump's. This stops the build if `Report` loses `Eq`.
const _: fn() = || {
    fn compared_by_pointer_first<T: Eq>() {}
    compared_by_pointer_first::<Report>();
};

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

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The paste area's text; analysed as the input named [`PASTE_NAME`] when not empty.
    pub paste: Rc<str>,
    /// Dropped or picked files, and the files of a loaded sample.
    pub files: Vec<Input>,
    /// The sample currently shown, if the inputs are a sample's, unchanged.
    pub sample: Option<&'static str>,
    /// Files that could not be read (name, why): shown, never turned into input text.
    pub unreadable: Vec<(String, String)>,
    /// The last report received. While [`State::pending`] is set (or [`State::stale`]), it is of
    /// earlier inputs.
    pub report: Rc<Report>,
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
}

pub const PASTE_NAME: &str = "paste";

/// Files up to this size are read into the page (so the input viewer can show them at once); larger
/// ones stay the browser's file handles and only the worker reads them, off the main thread.
pub const INLINE_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// The page analyses at most this much input at once. The worker's wasm memory is at most 4 GiB and
/// the engine needs several bytes of memory per byte of input; a 200 MB `kubectl get -o yaml` fits.
/// Larger dumps get a message pointing to the command line, which has no such limit.
pub const MAX_INPUT_BYTES: u64 = 512 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The paste area's text changed.
    EditPaste(String),
    /// Files were dropped or picked; a file with the same name replaces the older one.
    AddFile(Input),
    RemoveFile(usize),
    /// A dropped or picked file could not be read (a folder dropped as a file, a permission error).
    FileUnreadable {
        name: String,
        reason: String,
    },
    LoadSample(&'static str),
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
    /// Show an input line (evidence, an error, a timeline entry's source) in the input viewer.
    ShowLine {
        source: String,
        line: u32,
    },
    /// Open the findings view at one finding.
    ShowFinding(usize),
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
        message: String,
    },
    /// From the worker: lines of a large file for the input viewer.
    Excerpt(Rc<Excerpt>),
}

impl State {
    pub fn with_sample(id: &'static str) -> Self {
        let mut state = Self {
            paste: "".into(),
            files: Vec::new(),
            sample: None,
            unreadable: Vec::new(),
            report: Rc::default(),
            secrets: Rc::default(),
            include_network: false,
            before_redaction: None,
            redacted_input: false,
            timings: Rc::default(),
            pending: None,
            stale: false,
            last_job: 0,
            view: View::default(),
            lang: Lang::En,
            focus: None,
            excerpt: None,
            selected_finding: None,
        };
        state.load_sample(id);
        state.analyse(false);
        state
    }

    /// The state a page opens in: the hash's sample (else the default one) and view, in `lang`.
    pub fn open(route: Route, lang: Lang) -> Self {
        let mut state = Self::with_sample(route.sample.unwrap_or(samples::DEFAULT_SAMPLE));
        state.view = route.view.unwrap_or_default();
        state.lang = lang;
        state
    }

    fn load_sample(&mut self, id: &'static str) {
        if let Some(sample) = samples::find(id) {
            self.paste = "".into();
            self.files = sample
                .files
                .iter()
                .map(|(n, t)| Input {
                    name: n.to_string(),
                    text: (*t).into(),
                })
                .collect();
            self.sample = Some(sample.id);
            self.focus = None;
            self.selected_finding = None;
        }
    }

    /// The inputs in the order the engine sees them: the paste first, then files.
    pub fn inputs(&self) -> Vec<Input> {
        let paste = (!self.paste.trim().is_empty()).then(|| Input {
            name: PASTE_NAME.to_string(),
            text: Text::Inline(self.paste.clone()),
        });
        paste.into_iter().chain(self.files.iter().cloned()).collect()
    }

    /// The input names in the order of [`State::inputs`].
    pub fn input_names(&self) -> Vec<String> {
        self.inputs().into_iter().map(|i| i.name).collect()
    }

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

    /// Whether the analysis runs on redacted input: just redacted, or text holding redaction tokens.
    pub fn is_redacted(&self) -> bool {
        self.before_redaction.is_some() || self.redacted_input
    }

    /// Whether the user has given input of their own (a sample is not theirs to lose).
    pub fn has_own_input(&self) -> bool {
        !self.paste.trim().is_empty() || (!self.files.is_empty() && self.sample.is_none())
    }

    /// The ids of every file the state still refers to (the page's registry drops the others).
    pub fn file_ids(&self) -> Vec<u32> {
        let before = self.before_redaction.iter().flat_map(|(_, files)| files);
        self.files
            .iter()
            .chain(before)
            .filter_map(|f| match f.text {
                Text::File { id, .. } => Some(id),
                Text::Inline(_) => None,
            })
            .collect()
    }

    /// Asks for an analysis of the current inputs — unless a built-in sample's report is at hand, the
    /// inputs are empty or too large: those are answered at once.
    fn analyse(&mut self, redact: bool) {
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
    fn pending_mut(&mut self, id: u64) -> Option<&mut Pending> {
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

    fn receive(&mut self, analysis: &Analysis) {
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

    fn apply_redaction(&mut self, texts: Vec<Text>) {
        self.before_redaction = Some((self.paste.clone(), self.files.clone()));
        let mut copies = texts.into_iter();
        if !self.paste.trim().is_empty() {
            if let Some(Text::Inline(copy)) = copies.next() {
                self.paste = copy;
            }
        }
        for (file, copy) in self.files.iter_mut().zip(copies) {
            file.text = copy;
        }
        self.sample = None;
    }
}

/// The report for input too large to analyse in the page: one error per input, nothing analysed,
/// the text kept as it is.
fn too_large(inputs: &[Input], total: u64) -> Report {
    let mb = |bytes: u64| bytes.div_ceil(1024 * 1024);
    let errors = inputs
        .iter()
        .filter(|i| i.text.len() > 0)
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            message: format!(
                "the input is too large to analyse in this page ({} MB in all, this one {} MB; the page \
                 takes up to {} MB): nothing was analysed. Remove some files, or run the `faultline` \
                 command line, which reads dumps of any size",
                mb(total),
                mb(i.text.len()),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}

/// The report when the worker stopped without a result: one error per input, pointing at the CLI.
fn failed(inputs: &[Input], message: &str) -> Report {
    let errors = inputs
        .iter()
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            message: format!(
                "the analysis stopped before it finished ({message}); the page may have run out of \
                 memory. The `faultline` command line reads dumps of any size"
            ),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}

impl Default for State {
    fn default() -> Self {
        Self::with_sample(samples::DEFAULT_SAMPLE)
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        if matches!(
            action,
            Action::EditPaste(_)
                | Action::AddFile(_)
                | Action::RemoveFile(_)
                | Action::LoadSample(_)
                | Action::Clear
                | Action::Route(Route { sample: Some(_), .. })
        ) {
            // Undo is offered only until the user changes the inputs.
            next.before_redaction = None;
        }
        match action {
            Action::EditPaste(text) => {
                next.paste = text.into();
                next.sample = None;
            }
            Action::AddFile(input) if input.text.inline().is_some_and(looks_binary) => {
                next.unreadable.retain(|(n, _)| *n != input.name);
                next.unreadable
                    .push((input.name, faultline_worker::BINARY_REASON.to_string()));
                return Rc::new(next);
            }
            Action::AddFile(input) => {
                next.unreadable.retain(|(n, _)| *n != input.name);
                match next.files.iter_mut().find(|f| f.name == input.name) {
                    Some(existing) => *existing = input,
                    None => next.files.push(input),
                }
                next.sample = None;
            }
            Action::RemoveFile(index) => {
                if index < next.files.len() {
                    next.files.remove(index);
                    next.sample = None;
                }
            }
            Action::FileUnreadable { name, reason } => {
                next.unreadable.retain(|(n, _)| *n != name);
                next.unreadable.push((name, reason));
                return Rc::new(next);
            }
            Action::LoadSample(id) => {
                next.load_sample(id);
                next.unreadable.clear();
            }
            Action::Clear => {
                next.paste = "".into();
                next.files.clear();
                next.unreadable.clear();
                next.sample = None;
                next.focus = None;
            }
            Action::SetView(view) => {
                next.view = view;
                return Rc::new(next);
            }
            Action::SetLang(lang) => {
                next.lang = lang;
                return Rc::new(next);
            }
            Action::ShowLine { source, line } => {
                next.focus = Some((source, line));
                next.excerpt = None;
                return Rc::new(next);
            }
            Action::ShowFinding(index) => {
                next.view = View::Findings;
                next.selected_finding = Some(index);
                return Rc::new(next);
            }
            Action::Route(route) => {
                if let Some(view) = route.view {
                    next.view = view;
                }
                match route.sample {
                    Some(id) if next.sample != Some(id) => {
                        next.load_sample(id);
                        next.unreadable.clear();
                    }
                    _ => return Rc::new(next),
                }
            }
            Action::Redact => {
                next.analyse(true);
                return Rc::new(next);
            }
            Action::UndoRedaction => {
                let Some((paste, files)) = next.before_redaction.take() else {
                    return self;
                };
                next.paste = paste;
                next.files = files;
            }
            Action::SetIncludeNetwork(include) => next.include_network = include,
            Action::Cancel => {
                // Once the report is in, the secret scan is not cancelled: it blocks nothing.
                if !next.analysing() {
                    return self;
                }
                next.pending = None;
                next.stale = true;
                return Rc::new(next);
            }
            Action::Reanalyse => {}
            Action::Progress { id, progress } => {
                let Some(pending) = next.pending_mut(id) else {
                    return self;
                };
                pending.progress = Some(progress);
                return Rc::new(next);
            }
            Action::Redacted { id, texts } => {
                if next.pending_mut(id).is_none() {
                    return self;
                }
                next.apply_redaction(texts);
                return Rc::new(next);
            }
            Action::Reported { id, analysis } => {
                let Some(pending) = next.pending_mut(id) else {
                    return self;
                };
                pending.reported = true;
                next.receive(&analysis);
                return Rc::new(next);
            }
            Action::Scanned { id, secrets, timings } => {
                if !next.pending_mut(id).is_some_and(|p| p.reported) {
                    return self;
                }
                next.pending = None;
                next.secrets = secrets;
                next.timings = timings;
                return Rc::new(next);
            }
            Action::AnalysisFailed { id, message } => {
                if next.pending_mut(id).is_none() {
                    return self;
                }
                next.pending = None;
                next.report = Rc::new(failed(&next.inputs(), &message));
                next.secrets = Rc::default();
                return Rc::new(next);
            }
            Action::Excerpt(excerpt) => {
                next.excerpt = Some(excerpt);
                return Rc::new(next);
            }
        }
        next.analyse(false);
        Rc::new(next)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const CRASH_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: 'Back-off pulling image \"shop/web:9.9\"'\n";

    /// The worker's replies to the pending job, as the page receives them, run natively.
    pub(crate) fn worker_actions(state: &State) -> Vec<Action> {
        let Some((job, inputs)) = state.job() else {
            return Vec::new();
        };
        let sources = inputs
            .iter()
            .map(|i| faultline_engine::Source::new(i.name.clone(), i.text.inline().unwrap_or_default()))
            .collect();
        let mut assembly = crate::replies::Assembly::default();
        let mut actions = Vec::new();
        let clock = || 0.0;
        let mut send = |bytes: Vec<u8>, texts: Vec<String>| {
            let reply = faultline_worker::protocol::decode(&bytes).unwrap();
            let texts = texts.into_iter().map(Text::from).collect();
            actions.extend(assembly.take(job.id, reply, texts));
        };
        // The page asks for the scan once it has the report.
        let mut analysed =
            faultline_worker::job::run(&job, sources, Vec::new(), Vec::new(), &clock, &mut send);
        faultline_worker::job::scan(&mut analysed, &clock, &mut send);
        actions
    }

    /// The state once the worker has answered its pending job.
    pub(crate) fn settled(state: State) -> State {
        let actions = worker_actions(&state);
        actions
            .into_iter()
            .fold(state, |state, action| (*Rc::new(state).reduce(action)).clone())
    }

    /// One action, then the worker's answer.
    fn reduce(state: State, action: Action) -> State {
        settled((*Rc::new(state).reduce(action)).clone())
    }

    fn reduce_only(state: State, action: Action) -> State {
        (*Rc::new(state).reduce(action)).clone()
    }

    fn paste_of(state: &State) -> &str {
        &state.paste
    }

    #[test]
    fn opens_with_the_sample_already_diagnosed() {
        let state = State::default();
        assert_eq!(state.sample, Some("image-pull"));
        assert_eq!(state.files.len(), 2);
        let top = &state.report.findings[0];
        assert_eq!(top.rule, "image-pull-failed");
        assert_eq!(top.subject.name, "tag-probe");
    }

    #[test]
    fn a_paste_is_analysed_with_the_files_and_named_paste() {
        let state = reduce(State::default(), Action::Clear);
        assert!(state.report.findings.is_empty());
        assert!(state.report.inputs.is_empty());
        let state = reduce(state, Action::EditPaste(CRASH_POD.into()));
        assert_eq!(state.report.inputs[0].source, "paste");
        let finding = &state.report.findings[0];
        assert_eq!(finding.subject.namespace.as_deref(), Some("shop"));
        assert_eq!(finding.evidence[0].source, "paste");
        assert_eq!(state.sample, None);
    }

    #[test]
    fn a_file_with_the_same_name_replaces_the_old_one_and_removal_reanalyses() {
        let state = reduce(
            State::default(),
            Action::AddFile(Input {
                name: "pod.yaml".into(),
                text: CRASH_POD.into(),
            }),
        );
        assert_eq!(state.files.len(), 2);
        assert_eq!(state.report.findings[0].subject.name, "web");
        let state = reduce(state, Action::RemoveFile(0));
        assert_eq!(state.files.len(), 1);
        assert!(
            state.report.findings.iter().all(|f| f.subject.name != "web"),
            "the removed file's finding is gone"
        );
    }

    #[test]
    fn an_unreadable_file_is_listed_not_analysed() {
        let state = reduce(
            State::default(),
            Action::FileUnreadable {
                name: "bundle".into(),
                reason: "could not be read".into(),
            },
        );
        assert_eq!(
            state.unreadable,
            vec![("bundle".to_string(), "could not be read".to_string())]
        );
        assert_eq!(state.files.len(), 2, "nothing was added as input");
        let state = reduce(state, Action::Clear);
        assert!(state.unreadable.is_empty());
    }

    #[test]
    fn editing_keeps_the_view_and_a_route_opens_sample_and_view() {
        let state = reduce(State::default(), Action::SetView(View::Timeline));
        let state = reduce(state, Action::EditPaste(CRASH_POD.into()));
        assert_eq!(state.view, View::Timeline, "re-analysis keeps the view");
        let state = reduce(
            state,
            Action::Route(Route {
                sample: Some("quota-403"),
                view: Some(View::Table),
            }),
        );
        assert_eq!((state.sample, state.view), (Some("quota-403"), View::Table));
        assert!(state.paste.is_empty());
        assert_eq!(state.report.findings[0].boundary.id(), "quota-admission");
        let opened = State::open(crate::route::parse("#sample=healthy&view=diagram"), Lang::Zh);
        assert_eq!(
            (opened.sample, opened.view, opened.lang),
            (Some("healthy"), View::Diagram, Lang::Zh)
        );
        assert_eq!(State::open(Route::default(), Lang::En).sample, Some("image-pull"));
    }

    #[test]
    fn evidence_and_findings_are_shown_without_reanalysis() {
        let state = State::default();
        let report = state.report.clone();
        let state = reduce(
            state,
            Action::ShowLine {
                source: "pod.yaml".into(),
                line: 111,
            },
        );
        assert_eq!(state.focus, Some(("pod.yaml".to_string(), 111)));
        assert!(Rc::ptr_eq(&report, &state.report));
        let state = reduce(
            reduce(state, Action::SetView(View::Table)),
            Action::ShowFinding(0),
        );
        assert_eq!((state.view, state.selected_finding), (View::Findings, Some(0)));
        let state = reduce(state, Action::LoadSample("healthy"));
        assert_eq!((state.focus, state.selected_finding), (None, None));
    }

    #[test]
    fn bad_input_keeps_the_text_as_typed() {
        let broken = "kind: Pod\nmetadata: [unclosed\n";
        let state = reduce(State::default(), Action::EditPaste(broken.into()));
        assert_eq!(paste_of(&state), broken);
        let error = state.report.errors.iter().find(|e| e.source == "paste").unwrap();
        assert_eq!(error.line, 3, "{error:?}");
        assert_eq!(
            state.report.findings[0].rule, "image-pull-failed",
            "the other inputs are still analysed"
        );
    }

    const SECRET_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\n    env:\n    - name: DB_PASSWORD\n      value: hunter2-hunter2\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n";

    #[test]
    fn secrets_are_listed_redacted_in_one_action_and_the_redaction_can_be_undone_until_an_edit() {
        let state = reduce(State::default(), Action::Clear);
        let state = reduce(state, Action::EditPaste(SECRET_POD.into()));
        assert_eq!(state.secrets.len(), 1);
        assert_eq!(
            (state.secrets[0].kind.as_str(), state.secrets[0].line),
            ("env-secret", 13)
        );
        let before = state.report.findings[0].clone();
        let state = reduce(state, Action::Redact);
        assert!(!state.paste.contains("hunter2-hunter2"));
        assert!(state.paste.contains("value: <redacted:env-secret:1>"));
        assert!(state.secrets.is_empty(), "nothing left to redact");
        assert_eq!(state.report.findings[0].rule, before.rule);
        assert_eq!(state.report.findings[0].subject, before.subject);
        let undone = reduce(state.clone(), Action::UndoRedaction);
        assert_eq!(paste_of(&undone), SECRET_POD);
        assert_eq!(undone.secrets.len(), 1);
        // An edit ends the chance to undo.
        let edited = reduce(state, Action::EditPaste("kind: Pod\n".into()));
        assert_eq!(edited.before_redaction, None);
        assert_eq!(reduce(edited.clone(), Action::UndoRedaction).paste, edited.paste);
    }

    #[test]
    fn network_details_are_secrets_only_when_asked() {
        let state = reduce(State::default(), Action::Clear);
        let state = reduce(
            state,
            Action::EditPaste("IP: 10.244.1.17\nNode: ip-10-0-1-2.ec2.internal\n".into()),
        );
        assert!(state.secrets.is_empty());
        let state = reduce(state, Action::SetIncludeNetwork(true));
        let kinds: Vec<&str> = state.secrets.iter().map(|h| h.kind.as_str()).collect();
        assert_eq!(kinds, ["ip-address", "internal-hostname"]);
        let state = reduce(state, Action::Redact);
        assert!(!state.paste.contains("10.244.1.17"));
    }

    #[test]
    fn a_binary_file_is_listed_as_unreadable_not_analysed() {
        let state = reduce(
            State::default(),
            Action::AddFile(Input {
                name: "core.bin".into(),
                text: "\u{7f}ELF\u{2}\u{1}\u{1}\0\0\0".into(),
            }),
        );
        assert_eq!(state.files.len(), 2, "not added");
        assert!(state.unreadable[0].1.contains("binary"), "{:?}", state.unreadable);
        let invalid_utf8 = String::from_utf8_lossy(&[0xff, 0xfe, 0xfd, b'a', 0xc3, 0x28]).into_owned();
        assert!(looks_binary(&invalid_utf8));
        assert!(!looks_binary(CRASH_POD));
    }

    #[test]
    fn input_over_the_limit_gets_a_message_and_is_kept_as_typed() {
        let big = Input {
            name: "cluster-dump.json".into(),
            text: Text::File {
                id: 1,
                bytes: MAX_INPUT_BYTES + 1,
            },
        };
        let state = reduce(State::default(), Action::AddFile(big.clone()));
        assert_eq!(state.pending, None, "nothing is sent to the worker");
        assert!(state.report.findings.is_empty());
        let error = state.report.errors.iter().find(|e| e.source == big.name).unwrap();
        assert!(error.message.contains("too large"), "{error:?}");
        assert!(error.message.contains("`faultline` command line"), "{error:?}");
        assert!(state.files.contains(&big));
        assert!(state.has_own_input());
    }

    #[test]
    fn an_edit_asks_the_worker_and_the_previous_report_stays_until_the_answer() {
        let opened = State::default();
        assert_eq!(
            opened.pending, None,
            "the sample's report was computed at build time"
        );
        let asked = reduce_only(opened.clone(), Action::EditPaste(CRASH_POD.into()));
        let pending = asked.pending.clone().unwrap();
        assert!(
            Rc::ptr_eq(&asked.report, &opened.report),
            "the old report stays, marked by `pending`"
        );
        let (job, inputs) = asked.job().unwrap();
        assert_eq!(job.id, pending.id);
        assert_eq!(job.names, ["paste", "pod.yaml", "events.txt"]);
        assert_eq!(inputs[0].text, Text::from(CRASH_POD));
        let actions = worker_actions(&asked);
        let mut state = asked;
        for action in actions {
            if let Action::Progress { progress, .. } = action {
                state = reduce_only(
                    state,
                    Action::Progress {
                        id: pending.id,
                        progress,
                    },
                );
                let shown = state.pending.as_ref().and_then(|p| p.progress).unwrap();
                assert!(shown.bytes_done <= shown.bytes_total);
            } else {
                state = reduce_only(state, action);
            }
        }
        assert_eq!(state.pending, None);
        assert_eq!(state.report.findings[0].subject.name, "web");
    }

    /// The report is shown as soon as it arrives, current, not stale; the job stays pending while the
    /// worker looks for secrets, which cannot be cancelled and come with every step's time.
    #[test]
    fn the_report_is_shown_before_the_secret_scan_ends() {
        let asked = reduce_only(State::default(), Action::EditPaste(SECRET_POD.into()));
        let actions = worker_actions(&asked);
        let reported = actions
            .iter()
            .position(|a| matches!(a, Action::Reported { .. }))
            .unwrap();
        assert!(matches!(actions.last(), Some(Action::Scanned { .. })));
        let state = actions[..=reported].iter().cloned().fold(asked, reduce_only);
        assert!(state.scanning() && !state.analysing());
        assert!(!state.report.findings.is_empty(), "the report is shown");
        assert!(state.secrets.is_empty(), "no secrets yet");
        assert!(state.timings.iter().all(|t| t.step != "scanning"));
        assert_eq!(
            reduce_only(state.clone(), Action::Cancel),
            state,
            "the scan is not cancelled"
        );
        let state = actions[reported + 1..].iter().cloned().fold(state, reduce_only);
        assert_eq!(state.pending, None);
        assert_eq!(state.secrets.len(), 1);
        assert_eq!(state.timings.last().map(|t| t.step.as_str()), Some("scanning"));
    }

    #[test]
    fn a_newer_edit_supersedes_a_running_analysis_and_late_replies_are_ignored() {
        let first = reduce_only(State::default(), Action::EditPaste(CRASH_POD.into()));
        let late = worker_actions(&first);
        let second = reduce_only(first, Action::EditPaste(SECRET_POD.into()));
        let state = late.into_iter().fold(second.clone(), reduce_only);
        assert_eq!(state, second, "replies to the superseded job change nothing");
        let state = settled(state);
        assert_eq!(state.secrets.len(), 1, "the newer text's analysis arrived");
    }

    #[test]
    fn cancel_keeps_the_text_and_the_previous_report_marked_stale() {
        let opened = State::default();
        let asked = reduce_only(opened.clone(), Action::EditPaste(CRASH_POD.into()));
        let late = worker_actions(&asked);
        let cancelled = reduce_only(asked, Action::Cancel);
        assert_eq!((cancelled.pending.as_ref(), cancelled.stale), (None, true));
        assert_eq!(paste_of(&cancelled), CRASH_POD);
        assert!(Rc::ptr_eq(&cancelled.report, &opened.report));
        let state = late.into_iter().fold(cancelled.clone(), reduce_only);
        assert_eq!(state, cancelled, "the cancelled job's replies are ignored");
        let again = reduce(state, Action::Reanalyse);
        assert!(!again.stale);
        assert_eq!(again.report.findings[0].subject.name, "web");
    }

    #[test]
    fn a_worker_failure_is_reported_on_each_input_with_the_text_kept() {
        let asked = reduce_only(State::default(), Action::EditPaste(CRASH_POD.into()));
        let id = asked.pending.as_ref().unwrap().id;
        let failed = reduce_only(
            asked,
            Action::AnalysisFailed {
                id,
                message: "out of memory".into(),
            },
        );
        assert_eq!(failed.pending, None);
        assert_eq!(failed.report.errors.len(), 3);
        assert!(failed.report.errors[0]
            .message
            .contains("`faultline` command line"));
        assert_eq!(paste_of(&failed), CRASH_POD);
    }

    #[test]
    fn a_large_file_is_a_handle_the_worker_reads_and_a_binary_one_is_listed_unreadable() {
        let state = reduce_only(
            State::default(),
            Action::AddFile(Input {
                name: "dump.yaml".into(),
                text: Text::File {
                    id: 3,
                    bytes: 200 * 1024 * 1024,
                },
            }),
        );
        assert!(state.pending.is_some(), "200 MB is analysed in the page");
        assert_eq!(state.file_ids(), [3]);
        let id = state.pending.as_ref().unwrap().id;
        let analysis = Analysis {
            unreadable: vec![("dump.yaml".into(), "looks like a binary file".into())],
            ..Analysis::default()
        };
        let state = reduce_only(
            state,
            Action::Reported {
                id,
                analysis: Rc::new(analysis),
            },
        );
        assert!(state.files.iter().all(|f| f.name != "dump.yaml"));
        assert_eq!(state.unreadable[0].0, "dump.yaml");
    }
}
