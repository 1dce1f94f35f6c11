//! The app's state and every change to it, as a reducer: all logic lives here, with no DOM types, so
//! it is tested natively. Components only render [`State`] and dispatch [`Action`]s.

use std::rc::Rc;

use faultline_engine::{analyze, Report, Source};
use yew::Reducible;

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
}

pub const PASTE_NAME: &str = "paste";

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
}

impl State {
    pub fn with_sample(id: &'static str) -> Self {
        let mut state = Self {
            paste: String::new(),
            files: Vec::new(),
            sample: None,
            unreadable: Vec::new(),
            report: Rc::default(),
        };
        state.load_sample(id);
        state.reanalyze();
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

    fn reanalyze(&mut self) {
        self.report = Rc::new(analyze(&self.sources()));
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
        match action {
            Action::EditPaste(text) => {
                next.paste = text;
                next.sample = None;
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
            }
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
}
