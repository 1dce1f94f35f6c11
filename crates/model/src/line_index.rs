//! Where the lines of an input start, found in one pass with the catalog's scan ([`crate::Prescan`])
//! and kept small: the start of every [`EVERY`]th line. A line between two kept ones is found by
//! looking for the line breaks from the last kept start before it.
//!
//! The index of every line was 2.6 MB (`u32`) of the 1,000-Pod YAML dump's 86 MB peak of memory,
//! 25 MB of the 10,000-Pod one's, and [`crate::Model::input_line`] is asked for a few thousand lines.

/// One start in this many lines is kept: a line is found after at most `EVERY - 1` line breaks
/// (about 2 KB of a dump's text, read 16 or 32 bytes at a time by `memchr`).
const EVERY: usize = 32;

/// Where the lines of one input start (byte offsets, `u32` as in the app's worker on wasm32: the
/// lines of a native input past 4 GiB are not indexed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// The start of line `EVERY * i` (0-based) at `i`.
    kept: Vec<u32>,
    /// How many lines there are: one more than the line breaks (the text after the last one is a
    /// line, empty or not), as far as they are indexed.
    lines: usize,
}

impl LineIndex {
    /// The index of `text`.
    pub fn of(text: &str) -> Self {
        let mut index = Builder::default();
        for (start, _) in lines(text) {
            index.push(start);
        }
        index.finish(text)
    }

    /// Where 0-based line `line` of `text` (the text this index is of) starts.
    pub fn start(&self, text: &str, line: usize) -> Option<usize> {
        if line >= self.lines {
            return None;
        }
        let mut at = *self.kept.get(line / EVERY)? as usize;
        for _ in 0..line % EVERY {
            at += memchr::memchr(b'\n', text.as_bytes().get(at..)?)? + 1;
        }
        Some(at)
    }

    /// How many lines the text has (one more than its line breaks).
    pub fn len(&self) -> usize {
        self.lines
    }

    /// Whether the index is of no text at all (never: an empty text has one empty line).
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }
}

/// A [`LineIndex`] built from the starts of the lines [`lines`] gives, in order.
#[derive(Default)]
pub(crate) struct Builder {
    kept: Vec<u32>,
    seen: usize,
    /// Lines are no longer indexed: one started past 4 GiB.
    full: bool,
}

impl Builder {
    pub(crate) fn push(&mut self, start: usize) {
        if self.full {
            return;
        }
        let Ok(offset) = u32::try_from(start) else {
            self.full = true;
            return;
        };
        if self.seen % EVERY == 0 {
            self.kept.push(offset);
        }
        self.seen += 1;
    }

    /// The index, once every line [`lines`] gives of `text` was pushed: the line after the last
    /// line break, when [`lines`] left it out because it is empty, is one too.
    pub(crate) fn finish(mut self, text: &str) -> LineIndex {
        if text.is_empty() || text.ends_with('\n') {
            self.push(text.len());
        }
        self.kept.shrink_to_fit();
        LineIndex {
            kept: self.kept,
            lines: self.seen,
        }
    }
}

/// Each line of `text` with where it starts, as [`str::lines`] gives them (a `\r` before a line
/// break dropped; no empty line after the last break). The line breaks are found by `memchr`, 16 or
/// 32 bytes at a time.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut breaks = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut at = Some(0);
    std::iter::from_fn(move || {
        let start = at?;
        match breaks.next() {
            Some(end) => {
                at = Some(end + 1);
                let line = &text[start..end];
                Some((start, line.strip_suffix('\r').unwrap_or(line)))
            }
            None => {
                at = None;
                (start < text.len()).then(|| (start, &text[start..]))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASES: [&str; 11] = [
        "",
        "\n",
        "a",
        "a\n",
        "a\r\nb",
        "a\n\nb\r\n",
        "\r\n\r\n",
        "a\rb\n",
        "é\n中\r\n",
        "\r",
        "x\n\ny\n ",
    ];

    /// Every line's start, as the whole index had them.
    fn every_start(text: &str) -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    #[test]
    fn finds_every_line_as_a_full_index_would() {
        let long: String = (0..200).map(|i| format!("line {i}\r\n")).collect();
        for text in CASES.into_iter().chain([long.as_str()]) {
            let index = LineIndex::of(text);
            let starts = every_start(text);
            assert_eq!(index.len(), starts.len(), "{text:?}");
            for (line, start) in starts.iter().enumerate() {
                assert_eq!(index.start(text, line), Some(*start), "{text:?} line {line}");
            }
            assert_eq!(index.start(text, starts.len()), None, "{text:?}");
        }
    }

    #[test]
    fn lines_are_those_of_str_lines() {
        for text in CASES {
            let got: Vec<&str> = lines(text).map(|(_, l)| l).collect();
            let want: Vec<&str> = text.lines().collect();
            assert_eq!(got, want, "{text:?}");
            for (start, line) in lines(text) {
                assert!(text[start..].starts_with(line), "{text:?}");
            }
        }
    }
}
