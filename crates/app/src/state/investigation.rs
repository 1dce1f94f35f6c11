//! One incident at a time (issue 40). An investigation is the inputs of one incident: the paste,
//! dropped or opened files, and the outputs of next steps pasted with "Paste its output" (the
//! follow-ups, [`State::follow_ups`]), which answered that incident's report.
//!
//! New evidence that replaces the incident starts a new investigation: the paste box's text replaced
//! (typed over or pasted over, of any size: what the box held is mostly gone), a paste into the box
//! emptied after next steps were answered (or beside a large paste), files dropped or opened. The
//! old inputs go with their follow-ups, one click away ([`State::previous`]: "Restore" swaps them
//! back, "Add to it" joins the new inputs to them and says what the new ones changed). Evidence
//! added inside the investigation keeps it: typing into the paste, pasting below what the box
//! holds, a paste into the empty box beside dropped files, a follow-up.

use std::rc::Rc;

use faultline_report::Report;

use super::input::Input;
use super::State;

/// An investigation set aside by a new one: its inputs as they were, and its report.
#[derive(Clone, Debug, PartialEq)]
pub struct Investigation {
    pub paste: Rc<str>,
    pub files: Vec<Input>,
    pub follow_ups: Vec<String>,
    pub report: Rc<Report>,
    pub captured_at: Option<faultline_report::instant::Instant>,
}

impl Investigation {
    /// How many inputs it had (the paste counts as one).
    pub fn inputs(&self) -> usize {
        usize::from(!self.paste.trim().is_empty()) + self.files.len()
    }
}

/// Whether `new` replaces `old` in the paste box rather than editing it: `old` held text and less
/// than half of it is left at the start and end of `new` (a select-all then paste or type). An
/// edit inside the text, or a paste below or above it, keeps all of it.
pub fn replaces(old: &str, new: &str) -> bool {
    if old.trim().is_empty() || new.trim().is_empty() {
        return false;
    }
    let prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    let rest = old.len().min(new.len()) - prefix;
    let suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(rest)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix + suffix) * 2 < old.len()
}

impl State {
    /// Whether the inputs are an investigation of the user's (a sample's are not).
    fn investigating(&self) -> bool {
        self.sample.is_none() && (!self.paste.trim().is_empty() || !self.files.is_empty())
    }

    /// Sets the current investigation aside as [`State::previous`] and starts an empty one. Nothing
    /// happens while a sample is shown (the first input replaces it: `replace_sample`) or when there
    /// are no inputs.
    pub(super) fn start_investigation(&mut self) {
        if !self.investigating() {
            return;
        }
        self.previous = Some(Rc::new(Investigation {
            paste: std::mem::replace(&mut self.paste, "".into()),
            files: std::mem::take(&mut self.files),
            follow_ups: std::mem::take(&mut self.follow_ups),
            report: self.report.clone(),
            captured_at: self.captured_at.take(),
        }));
        // Past the sample: one "restore" on screen, the incident's.
        self.removed_sample = None;
        self.leave_incident();
    }

    /// What belonged to the incident on screen, beside its inputs, goes with it: the follow-up
    /// asked for, the comparison, the line shown, the finding selected, the filter.
    fn leave_incident(&mut self) {
        self.unreadable.clear();
        self.follow_up = None;
        self.baseline = None;
        self.changes = None;
        self.focus = None;
        self.excerpt = None;
        self.selected_finding = None;
        self.filter = Default::default();
    }

    /// "Restore": the previous investigation comes back, and the current one is set aside in its
    /// place (so the restore can be undone the same way).
    pub(super) fn restore_investigation(&mut self) -> bool {
        let Some(previous) = self.previous.take() else {
            return false;
        };
        let previous = Rc::unwrap_or_clone(previous);
        // A sample shown is not the user's: it goes, not set aside.
        let sample = self.sample.take().is_some();
        let current = Investigation {
            paste: std::mem::replace(&mut self.paste, previous.paste),
            files: std::mem::replace(&mut self.files, previous.files),
            follow_ups: std::mem::replace(&mut self.follow_ups, previous.follow_ups),
            report: std::mem::replace(&mut self.report, previous.report),
            captured_at: std::mem::replace(&mut self.captured_at, previous.captured_at),
        };
        self.previous = (!sample && current.inputs() > 0).then(|| Rc::new(current));
        self.removed_sample = None;
        self.leave_incident();
        true
    }

    /// "Add to it": the new inputs join the previous investigation, as new evidence of its report
    /// ("What changed" compares with it). A paste joins below the previous paste; a large paste is
    /// numbered after the previous ones; another file named as one of the previous investigation's
    /// replaces it.
    pub(super) fn join_previous(&mut self) -> bool {
        let Some(previous) = self.previous.take() else {
            return false;
        };
        let previous = Rc::unwrap_or_clone(previous);
        self.paste = match (previous.paste.trim().is_empty(), self.paste.trim().is_empty()) {
            (_, true) => previous.paste,
            (true, false) => self.paste.clone(),
            (false, false) => format!("{}\n\n{}", previous.paste.trim_end_matches('\n'), self.paste).into(),
        };
        let current = std::mem::replace(&mut self.files, previous.files);
        for mut file in current {
            // Both have a `paste-1`: the new one is numbered after the old ones.
            if super::input::is_large_paste(&file.name) && self.files.iter().any(|f| f.name == file.name) {
                file.name = self.next_large_paste_name();
            }
            match self.files.iter_mut().find(|f| f.name == file.name) {
                Some(existing) => *existing = file,
                None => self.files.push(file),
            }
        }
        let mut follow_ups = previous.follow_ups;
        follow_ups.append(&mut self.follow_ups);
        self.follow_ups = follow_ups;
        self.captured_at = previous.captured_at;
        self.baseline = Some(previous.report);
        self.changes = None;
        true
    }
}
