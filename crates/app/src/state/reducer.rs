//! The reducer: every [`Action`] applied to [`State`].

use std::rc::Rc;

use yew::Reducible;

use super::error_reports::failed;
use super::{looks_binary, Action, Input, Origin, State};
use crate::route::{Route, View};

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // A large paste is a file named after the pastes before it; a large paste moved into the
        // paste box is an edit of the box (and the removal of that input).
        let action = match action {
            Action::PasteLarge(text, into_text) => {
                let mut next = (*self).clone();
                // Over all of the box's text, or into the emptied box of an investigated incident
                // (next steps answered, or a large paste already there): a new incident.
                let over_box = !into_text && !self.paste.trim().is_empty();
                let investigated = !self.follow_ups.is_empty()
                    || self.files.iter().any(|f| super::input::is_large_paste(&f.name));
                if over_box || (!into_text && investigated) {
                    next.start_investigation();
                }
                let name = next.next_large_paste_name();
                return Rc::new(next).reduce(Action::AddFile(Input { name, text }));
            }
            Action::Pasted(text) => {
                // Into the box emptied after next steps were answered: a new incident too.
                let after_follow_ups = self.paste.trim().is_empty() && !self.follow_ups.is_empty();
                if !super::investigation::replaces(&self.paste, &text) && !after_follow_ups {
                    return self.reduce(Action::EditPaste(text));
                }
                let mut next = (*self).clone();
                next.start_investigation();
                return Rc::new(next).reduce(Action::EditPaste(text));
            }
            Action::EditLargePaste { name, text } => {
                let Some(index) = self.files.iter().position(|f| f.name == name) else {
                    return self;
                };
                let mut next = (*self).clone();
                next.files.remove(index);
                let paste = if self.paste.trim().is_empty() {
                    text
                } else {
                    format!("{}\n{text}", self.paste.trim_end_matches('\n'))
                };
                return Rc::new(next).reduce(Action::EditPaste(paste));
            }
            other => other,
        };
        let mut next = (*self).clone();
        if matches!(
            action,
            Action::EditPaste(_)
                | Action::AddFile(_)
                | Action::RemoveFile(_)
                | Action::LoadSample(_)
                | Action::RestoreSample
                | Action::EditFollowUp(_)
                | Action::RestorePrevious
                | Action::JoinPrevious
                | Action::Clear
                | Action::Route(Route { sample: Some(_), .. })
        ) {
            // Undo is offered only until the user changes the inputs.
            next.before_redaction = None;
        }
        match action {
            // Rewritten into `AddFile` and `EditPaste` above.
            Action::PasteLarge(..) | Action::EditLargePaste { .. } | Action::Pasted(_) => return self,
            Action::EditPaste(text) => {
                if text.trim().is_empty() && next.sample.is_some() {
                    // Nothing of the user's yet: the sample stays.
                    next.paste = text.into();
                    return Rc::new(next);
                }
                // Typed over: what the box held is mostly gone.
                if super::investigation::replaces(&next.paste, &text) {
                    next.start_investigation();
                }
                next.replace_sample();
                next.paste = text.into();
                next.sample = None;
                // The first paste is not new evidence of a report: nothing to compare it with.
                next.baseline = None;
                next.changes = None;
            }
            Action::AddFile(input) if input.text.inline().is_some_and(looks_binary) => {
                next.unreadable.retain(|(n, _)| *n != input.name);
                next.unreadable
                    .push((input.name, faultline_render::protocol::Unreadable::Binary));
                return Rc::new(next);
            }
            Action::AddFile(input) => {
                if next.sample.is_some() {
                    next.replace_sample();
                } else if next.has_own_input() && !next.analysing() {
                    // A file dropped beside the user's input: new evidence of the report shown.
                    next.baseline = Some(next.report.clone());
                    next.changes = None;
                }
                next.unreadable.retain(|(n, _)| *n != input.name);
                match next.files.iter_mut().find(|f| f.name == input.name) {
                    Some(existing) => *existing = input,
                    None => next.files.push(input),
                }
                next.sample = None;
            }
            Action::FilesArriving => {
                // Dropped or opened while a next step's output is asked for: evidence of this
                // incident (`AddFile` makes the report shown its baseline).
                if next.follow_up.is_none() {
                    next.start_investigation();
                }
            }
            Action::RestorePrevious => {
                if !next.restore_investigation() {
                    return self;
                }
            }
            Action::JoinPrevious => {
                if !next.join_previous() {
                    return self;
                }
            }
            Action::RemoveFile(index) => {
                if index < next.files.len() {
                    let name = next.files.remove(index).name;
                    next.follow_ups.retain(|f| *f != name);
                    next.sample = None;
                    next.baseline = None;
                    next.changes = None;
                }
            }
            Action::FileUnreadable { name, reason } => {
                next.unreadable.retain(|(n, _)| *n != name);
                next.unreadable.push((name, reason));
                return Rc::new(next);
            }
            Action::LoadSample(id) => {
                // Another incident: the user's is set aside (restorable), and the capture moment
                // is the sample's own.
                next.start_investigation();
                next.captured_at = None;
                next.load_sample(id);
                next.unreadable.clear();
            }
            Action::RestoreSample => {
                let Some(id) = next.removed_sample else {
                    return self;
                };
                next.load_sample(id);
                next.unreadable.clear();
            }
            Action::OpenFollowUp(command) => {
                next.follow_up = Some(command);
                if !next.analysing() {
                    next.baseline = Some(next.report.clone());
                }
                next.changes = None;
                return Rc::new(next);
            }
            Action::EditFollowUp(text) => {
                let Some(name) = next.follow_up.clone() else {
                    return self;
                };
                let existing = next.files.iter().position(|f| f.name == name);
                match (existing, text.trim().is_empty()) {
                    (Some(i), true) => {
                        next.files.remove(i);
                        next.follow_ups.retain(|f| *f != name);
                    }
                    (Some(i), false) => next.files[i].text = text.into(),
                    (None, true) => return Rc::new(next),
                    (None, false) => {
                        next.follow_ups.push(name.clone());
                        next.files.push(super::Input {
                            name,
                            text: text.into(),
                        })
                    }
                }
                // A sample explored further is the user's now (its report is the baseline).
                next.sample = None;
            }
            Action::CloseFollowUp => {
                next.follow_up = None;
                return Rc::new(next);
            }
            Action::Guide(guide) => {
                next.guide = guide;
                return Rc::new(next);
            }
            Action::Clear => {
                next.captured_at = None;
                next.paste = "".into();
                next.files.clear();
                next.unreadable.clear();
                next.sample = None;
                next.focus = None;
                next.removed_sample = None;
                next.follow_up = None;
                next.follow_ups.clear();
                next.previous = None;
                next.baseline = None;
                next.changes = None;
                next.filter = Default::default();
            }
            Action::SetView(view) => {
                next.view = view;
                return Rc::new(next);
            }
            Action::SetCapture(at) => {
                next.captured_at = at;
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
            Action::CloseViewer => {
                next.focus = None;
                next.excerpt = None;
                return Rc::new(next);
            }
            Action::ShowFinding(index) => {
                next.view = View::Findings;
                next.selected_finding = Some(index);
                // A finding the filter hides is still shown when asked for: the filter goes.
                if next
                    .report
                    .findings
                    .get(index)
                    .is_some_and(|f| !next.filter.matches(f))
                {
                    next.filter = Default::default();
                }
                return Rc::new(next);
            }
            Action::SetFilter(filter) => {
                next.filter = filter;
                next.selected_finding = None;
                return Rc::new(next);
            }
            Action::Route(route) => {
                if let Some(view) = route.view {
                    next.view = view;
                }
                match route.sample {
                    Some(id) if next.sample != Some(id) => {
                        next.start_investigation();
                        next.captured_at = None;
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
            Action::WantDocs => {
                if self.docs_wanted || self.docs_loaded {
                    return self;
                }
                next.docs_wanted = true;
                return Rc::new(next);
            }
            Action::DocsArrived => {
                next.docs_loaded = true;
                return Rc::new(next);
            }
        }
        next.analyse(false);
        Rc::new(next)
    }
}
