//! Byte offsets to 1-based line and character column, and back.

use std::cell::Cell;

/// Maps byte offsets to 1-based line and character column and back. Columns count characters, so
/// finding one walks its line from the start; on a long line with many values (a Secret printed as
/// one line of JSON, a flow map) that walk, once per value, made the scan quadratic. So the index
/// remembers where its last walk ended and, asked about a later place on the same line, walks on
/// from there: values asked about in text order cost one walk over each line in all.
pub struct LineIndex {
    starts: Vec<usize>,
    /// The last place found: (line start, byte offset, 0-based character column).
    cursor: Cell<(usize, usize, usize)>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(faultline_ingest::lines::line_ends(text));
        Self {
            starts,
            cursor: Cell::new((0, 0, 0)),
        }
    }

    /// The byte offset of the start of a 1-based line.
    pub fn line_start(&self, line: u32) -> Option<usize> {
        self.starts.get((line as usize).checked_sub(1)?).copied()
    }

    /// The byte offset where a 1-based line ends (its line break, or the text's end).
    pub fn line_end(&self, text: &str, line: u32) -> Option<usize> {
        let start = self.line_start(line)?;
        let next = self.starts.get(line as usize).copied().unwrap_or(text.len());
        let line_text = text.get(start..next)?;
        Some(start + line_text.trim_end_matches('\n').len())
    }

    /// The 1-based line and character column of a byte offset.
    pub fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line.saturating_sub(1)];
        let (from, chars) = self.resume(start, offset);
        let column = match text.get(from..offset) {
            Some(s) => chars + s.chars().count(),
            None => offset - start,
        };
        self.cursor.set((start, offset, column));
        (line as u32, column as u32 + 1)
    }

    /// The byte offset of a 1-based line and character column (`None` past the line's text).
    pub fn offset(&self, text: &str, line: u32, column: u32) -> Option<usize> {
        let start = self.line_start(line)?;
        let want = (column as usize).checked_sub(1)?;
        let (mut at, mut chars) = (start, 0);
        let (cursor_line, cursor_at, cursor_chars) = self.cursor.get();
        if cursor_line == start && cursor_chars <= want {
            (at, chars) = (cursor_at, cursor_chars);
        }
        let rest = text.get(at..self.line_end(text, line)?)?;
        let i = nth_char(rest, want - chars)?;
        self.cursor.set((start, at + i, want));
        Some(at + i)
    }

    /// Where a walk along the line starting at `line_start` towards `offset` can start: the
    /// remembered place when it is on that line and not past `offset`.
    fn resume(&self, line_start: usize, offset: usize) -> (usize, usize) {
        let (cursor_line, cursor_at, cursor_chars) = self.cursor.get();
        if cursor_line == line_start && cursor_at <= offset {
            (cursor_at, cursor_chars)
        } else {
            (line_start, 0)
        }
    }
}

/// The byte offset of the `n`-th (0-based) char of `s`: `s.char_indices().nth(n)`, with the common
/// case, ASCII up to there (the `n`-th char is the `n`-th byte), tested words at a time rather
/// than decoded char by char.
fn nth_char(s: &str, n: usize) -> Option<usize> {
    if s.len() > n && s.as_bytes()[..n].is_ascii() {
        return Some(n);
    }
    s.char_indices().nth(n).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset and column, asked in any order, gives what a walk from the line's start gives.
    #[test]
    fn positions_and_offsets_agree_with_a_walk_from_the_line_start() {
        let text = "ab\né:ü x\n\nlast line, no end";
        let index = LineIndex::new(text);
        let mut expected = Vec::new();
        for (n, line) in text.split('\n').enumerate() {
            let start = index.line_start(n as u32 + 1).unwrap_or(usize::MAX);
            for (col, (i, _)) in line.char_indices().enumerate() {
                expected.push((start + i, n as u32 + 1, col as u32 + 1));
            }
        }
        // Forwards, backwards and interleaved, so the remembered place is both used and refused.
        let mut order: Vec<_> = expected.clone();
        order.extend(expected.iter().rev());
        order.extend(expected.iter().step_by(3));
        for &(offset, line, column) in &order {
            assert_eq!(index.position(text, offset), (line, column), "{offset}");
            assert_eq!(index.offset(text, line, column), Some(offset), "{line}:{column}");
        }
        assert_eq!(index.offset(text, 1, 9), None);
        for s in ["", "abc", "é:ü x", "aé", "ab\u{1F600}c"] {
            for n in 0..=s.chars().count() + 1 {
                assert_eq!(
                    nth_char(s, n),
                    s.char_indices().nth(n).map(|(i, _)| i),
                    "{s:?} {n}"
                );
            }
        }
        assert_eq!(index.line_end(text, 2), Some(10));
        assert_eq!(index.line_end(text, 4), Some(text.len()));
    }
}
