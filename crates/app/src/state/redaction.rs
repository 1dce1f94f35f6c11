//! Redaction and its undo: the inputs are replaced by the worker's redacted copy, and the originals
//! kept until the user edits anything.

use super::input::Text;
use super::State;

impl State {
    /// Whether the analysis runs on redacted input: just redacted, or text holding redaction tokens.
    pub fn is_redacted(&self) -> bool {
        self.before_redaction.is_some() || self.redacted_input
    }

    pub(super) fn apply_redaction(&mut self, texts: Vec<Text>) {
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
