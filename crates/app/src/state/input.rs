//! The inputs as the user gave them: a paste and files, their texts (inline, or a file the worker
//! reads), and how much the page takes.

use std::rc::Rc;

use super::State;

pub use faultline_report::input::looks_binary;

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

pub const PASTE_NAME: &str = "paste";

/// A paste longer than this many UTF-16 code units (about 1 MB of text) never goes into the paste
/// box: a textarea holding megabytes makes every keystroke and every render of the page slow (0.7 s a
/// key at 5 MB). It becomes an input of its own, held like a large dropped file (the browser's
/// `Blob`, read by the worker with its progress shown), named [`large_paste_name`].
pub const LARGE_PASTE_CHARS: u32 = 1_000_000;

/// The name of the `n`th large paste: `paste-1`, `paste-2`, …
pub fn large_paste_name(n: usize) -> String {
    format!("{PASTE_NAME}-{n}")
}

/// Whether an input's name is a large paste's ([`large_paste_name`]).
pub fn is_large_paste(name: &str) -> bool {
    large_paste_number(name).is_some()
}

fn large_paste_number(name: &str) -> Option<usize> {
    let n = name.strip_prefix(PASTE_NAME)?.strip_prefix('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Files up to this size are read into the page (so the input viewer can show them at once); larger
/// ones stay the browser's file handles and only the worker reads them, off the main thread.
pub const INLINE_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// The page analyses at most this much input at once. The worker's wasm memory is at most 4 GiB and
/// the engine needs several bytes of memory per byte of input; a 200 MB `kubectl get -o yaml` fits.
/// Larger dumps get a message pointing to the command line, which has no such limit.
pub const MAX_INPUT_BYTES: u64 = 512 * 1024 * 1024;

impl State {
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

    /// Whether the user has given input of their own (a sample is not theirs to lose).
    pub fn has_own_input(&self) -> bool {
        !self.paste.trim().is_empty() || (!self.files.is_empty() && self.sample.is_none())
    }

    /// The name the next large paste gets: one more than the highest `paste-N` among the inputs.
    pub fn next_large_paste_name(&self) -> String {
        let last = self
            .files
            .iter()
            .filter_map(|f| large_paste_number(&f.name))
            .max();
        large_paste_name(last.unwrap_or(0) + 1)
    }

    /// The ids of every file the state still refers to (the page's registry drops the others).
    pub fn file_ids(&self) -> Vec<u32> {
        let before = self.before_redaction.iter().flat_map(|(_, files)| files);
        let previous = self.previous.iter().flat_map(|p| &p.files);
        self.files
            .iter()
            .chain(before)
            .chain(previous)
            .filter_map(|f| match f.text {
                Text::File { id, .. } => Some(id),
                Text::Inline(_) => None,
            })
            .collect()
    }
}
