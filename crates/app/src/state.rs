//! The app's state and every change to it, as a reducer: all logic lives here, with no DOM types, so
//! it is tested natively. Components only render [`State`] and dispatch [`Action`]s.

use std::rc::Rc;

use faultline_engine::redact::{self, ScanOptions, SecretHit};
use faultline_engine::{analyze, InputError, Report, Source};
use yew::Reducible;

use crate::i18n::Lang;
use crate::route::{Route, View};
use crate::samples;

/// One input as the user gave it. The text is never rewritten: errors point into it, nothing edits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub name: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The paste area's text; analysed as the input named [`PASTE_NAME`] when not empty.
    pub paste: String,
    /// Dropped or picked files, and the files of a loaded sample.
    pub files: Vec<Input>,
    /// The sample currently shown, if the inputs are a sample's, unchanged.
    pub sample: Option<&'static str>,
    /// Files that could not be read (name, why): shown, never turned into input text.
    pub unreadable: Vec<(String, String)>,
    pub report: Rc<Report>,
    /// Secrets found in the inputs (kind, input, line; never shown with their value).
    pub secrets: Rc<Vec<SecretHit>>,
    /// Whether IP addresses, internal host names and e-mail addresses count as secrets too.
    pub include_network: bool,
    /// The inputs as they were before the last redaction, until the user edits anything.
    pub before_redaction: Option<(String, Vec<Input>)>,
    /// The view shown; re-analysis keeps it.
    pub view: View,
    pub lang: Lang,
    /// The input line the input viewer shows highlighted: (input name, line).
    pub focus: Option<(String, u32)>,
    /// The finding (index into the report) to bring into view in the findings view.
    pub selected_finding: Option<usize>,
}

pub const PASTE_NAME: &str = "paste";

/// The page analyses at most this much input at once, on its main thread: the engine needs about
/// 12 bytes of memory per byte of YAML, and a tab has a few GB at most. Larger dumps get a message
/// pointing to the command line, which has no such limit.
pub const MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

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
}

impl State {
    pub fn with_sample(id: &'static str) -> Self {
        let mut state = Self {
            paste: String::new(),
            files: Vec::new(),
            sample: None,
            unreadable: Vec::new(),
            report: Rc::default(),
            secrets: Rc::default(),
            include_network: false,
            before_redaction: None,
            view: View::default(),
            lang: Lang::En,
            focus: None,
            selected_finding: None,
        };
        state.load_sample(id);
        state.reanalyze();
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
            self.paste.clear();
            self.files = sample
                .files
                .iter()
                .map(|(n, t)| Input {
                    name: n.to_string(),
                    text: t.to_string(),
                })
                .collect();
            self.sample = Some(sample.id);
            self.focus = None;
            self.selected_finding = None;
        }
    }

    /// The inputs in the order the engine sees them: the paste first, then files.
    pub fn sources(&self) -> Vec<Source> {
        let paste = (!self.paste.trim().is_empty()).then(|| Source::new(PASTE_NAME, self.paste.clone()));
        paste
            .into_iter()
            .chain(
                self.files
                    .iter()
                    .map(|f| Source::new(f.name.clone(), f.text.clone())),
            )
            .collect()
    }

    /// The input names in the order of [`State::sources`], without copying the texts.
    pub fn input_names(&self) -> Vec<String> {
        let paste = (!self.paste.trim().is_empty()).then(|| PASTE_NAME.to_string());
        paste
            .into_iter()
            .chain(self.files.iter().map(|f| f.name.clone()))
            .collect()
    }

    /// Whether the analysis runs on redacted input: just redacted, or text holding redaction tokens.
    pub fn is_redacted(&self) -> bool {
        self.before_redaction.is_some()
            || self.paste.contains("<redacted:")
            || self.files.iter().any(|f| f.text.contains("<redacted:"))
    }

    /// Whether the user has given input of their own (a sample is not theirs to lose).
    pub fn has_own_input(&self) -> bool {
        !self.paste.trim().is_empty() || (!self.files.is_empty() && self.sample.is_none())
    }

    fn scan_options(&self) -> ScanOptions {
        ScanOptions {
            include_network: self.include_network,
        }
    }

    fn reanalyze(&mut self) {
        let sources = self.sources();
        let total: usize = sources.iter().map(|s| s.text.len()).sum();
        if total > MAX_INPUT_BYTES {
            self.report = Rc::new(too_large(&sources, total));
            self.secrets = Rc::default();
            return;
        }
        self.secrets = Rc::new(redact::scan(&sources, &self.scan_options()));
        self.report = Rc::new(analyze(&sources));
    }

    fn redact(&mut self) {
        let sources = self.sources();
        let redacted = redact::redact(&sources, &self.scan_options());
        if redacted.hits.is_empty() {
            return;
        }
        self.before_redaction = Some((self.paste.clone(), self.files.clone()));
        let mut copies = redacted.sources.into_iter();
        if !self.paste.trim().is_empty() {
            if let Some(copy) = copies.next() {
                self.paste = copy.text;
            }
        }
        for (file, copy) in self.files.iter_mut().zip(copies) {
            file.text = copy.text;
        }
        self.sample = None;
    }
}

/// The report for input too large to analyse in the page: one error per input, nothing analysed,
/// the text kept as it is.
fn too_large(sources: &[Source], total: usize) -> Report {
    let mb = |bytes: usize| bytes.div_ceil(1024 * 1024);
    let errors = sources
        .iter()
        .filter(|s| !s.text.is_empty())
        .map(|s| InputError {
            source: s.name.clone(),
            line: 1,
            column: 1,
            message: format!(
                "the input is too large to analyse in this page ({} MB in all, this one {} MB; the page \
                 takes up to {} MB): nothing was analysed. Remove some files, or run the `faultline` \
                 command line, which reads dumps of any size",
                mb(total),
                mb(s.text.len()),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}

/// A file with NUL bytes, or mostly characters that are not valid UTF-8, is not text kubectl printed.
pub fn looks_binary(text: &str) -> bool {
    let sample: String = text.chars().take(64 * 1024).collect();
    let replaced = sample.chars().filter(|c| *c == '\u{FFFD}').count();
    sample.contains('\0') || replaced * 10 > sample.chars().count().max(1)
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
        if !matches!(
            action,
            Action::Redact
                | Action::UndoRedaction
                | Action::SetIncludeNetwork(_)
                | Action::FileUnreadable { .. }
        ) {
            // Undo is offered only until the user changes the inputs.
            next.before_redaction = None;
        }
        match action {
            Action::EditPaste(text) => {
                next.paste = text;
                next.sample = None;
            }
            Action::AddFile(input) if looks_binary(&input.text) => {
                next.unreadable.retain(|(n, _)| *n != input.name);
                next.unreadable.push((
                    input.name,
                    "looks like a binary file (it has NUL bytes or is not UTF-8 text), not kubectl \
                     output; it was not analysed"
                        .to_string(),
                ));
                return Rc::new(next);
            }
            Action::AddFile(input) => {
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
                next.paste.clear();
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
            Action::Redact => next.redact(),
            Action::UndoRedaction => {
                let Some((paste, files)) = next.before_redaction.take() else {
                    return self;
                };
                next.paste = paste;
                next.files = files;
            }
            Action::SetIncludeNetwork(include) => next.include_network = include,
        }
        next.reanalyze();
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRASH_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: 'Back-off pulling image \"shop/web:9.9\"'\n";

    fn reduce(state: State, action: Action) -> State {
        (*Rc::new(state).reduce(action)).clone()
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
        assert_eq!(state.paste, broken);
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
            (state.secrets[0].kind.id(), state.secrets[0].line),
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
        assert_eq!(undone.paste, SECRET_POD);
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
        let kinds: Vec<&str> = state.secrets.iter().map(|h| h.kind.id()).collect();
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
        let big = "a".repeat(MAX_INPUT_BYTES + 1);
        let state = reduce(State::default(), Action::EditPaste(big.clone()));
        assert!(state.report.findings.is_empty());
        assert!(
            state.report.errors[0].message.contains("too large"),
            "{:?}",
            state.report.errors
        );
        assert_eq!(state.paste.len(), big.len());
        assert!(state.has_own_input());
    }
}
