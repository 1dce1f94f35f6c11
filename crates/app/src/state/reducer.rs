//! The reducer: every [`Action`] applied to [`State`].

use std::rc::Rc;

use yew::Reducible;

use super::error_reports::failed;
use super::{looks_binary, Action, Origin, State};
use crate::route::{Route, View};

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
                next.set_lang(lang);
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
                let lang = pending.lang;
                next.receive(id, lang, &analysis);
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
            Action::AnalysisFailed { id, failure } => {
                if next.pending_mut(id).is_none() {
                    return self;
                }
                next.pending = None;
                next.report = Rc::new(failed(&next.inputs(), &failure, next.lang));
                next.origin = Origin::Failed(failure);
                next.secrets = Rc::default();
                return Rc::new(next);
            }
            Action::Localized { id, texts } => {
                if !next.localized(id, &texts) {
                    return self;
                }
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
