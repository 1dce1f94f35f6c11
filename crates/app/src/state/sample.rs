//! The built-in samples as state: opening the page on one (the route's, or the default), and loading
//! one's files as the inputs.

use std::rc::Rc;

use super::input::Input;
use super::State;
use crate::i18n::Lang;
use crate::route::{Route, View};
use crate::samples;

impl State {
    pub fn with_sample(id: &'static str) -> Self {
        Self::with_sample_in(id, Lang::En)
    }

    /// [`State::with_sample`] in `lang`.
    pub fn with_sample_in(id: &'static str, lang: Lang) -> Self {
        let mut state = Self {
            paste: "".into(),
            files: Vec::new(),
            sample: None,
            unreadable: Vec::new(),
            report: Rc::default(),
            origin: super::Origin::Nothing,
            secrets: Rc::default(),
            include_network: false,
            before_redaction: None,
            redacted_input: false,
            timings: Rc::default(),
            pending: None,
            stale: false,
            last_job: 0,
            view: View::default(),
            lang,
            focus: None,
            excerpt: None,
            selected_finding: None,
            removed_sample: None,
            follow_up: None,
            follow_ups: Vec::new(),
            previous: None,
            baseline: None,
            changes: None,
            guide: None,
            filter: Default::default(),
            captured_at: None,
            docs_wanted: false,
            docs_loaded: crate::rule_docs::all().is_some(),
        };
        state.load_sample(id);
        state.analyse(false);
        state
    }

    /// The state a page opens in: the hash's sample (else the default one) and view, in `lang`.
    pub fn open(route: Route, lang: Lang) -> Self {
        let mut state = Self::with_sample_in(route.sample.unwrap_or(samples::DEFAULT_SAMPLE), lang);
        state.view = route.view.unwrap_or_default();
        state
    }

    /// The user's first input arrives while a sample is shown: the sample's inputs go (restorable).
    pub(super) fn replace_sample(&mut self) {
        if let Some(id) = self.sample.take() {
            self.files.clear();
            self.paste = "".into();
            self.removed_sample = Some(id);
            self.focus = None;
            self.filter = Default::default();
            self.selected_finding = None;
            self.follow_up = None;
            self.follow_ups.clear();
            self.baseline = None;
            self.changes = None;
        }
    }

    pub(super) fn load_sample(&mut self, id: &'static str) {
        if let Some(sample) = samples::find(id) {
            self.removed_sample = None;
            self.follow_up = None;
            self.follow_ups.clear();
            self.baseline = None;
            self.changes = None;
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
            self.filter = Default::default();
        }
    }
}
