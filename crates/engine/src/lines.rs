//! Line ends in big texts. A dump is hundreds of thousands of short lines, walked by the segmenter,
//! the readers, the line index and the secret scan; `memchr` finds each `\n` (with SIMD where the
//! target has it), about twice as fast here as `str::find('\n')` and `split_inclusive('\n')`,
//! which go through the generic char pattern for every line.

/// The start of the line after the one `at` is in (just after its `\n`), or the end of `text`.
pub(crate) fn next_line(text: &str, at: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i + 1)
}

/// `text`'s lines, each with its `\n` (the last one may have none): `str::split_inclusive('\n')`.
pub(crate) fn split_inclusive(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// The offsets just after each `\n` in `text`.
pub(crate) fn line_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)
}

/// See [`split_inclusive`].
pub(crate) struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        self.at = next_line(self.text, start);
        Some(&self.text[start..self.at])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_standard_librarys() {
        for text in ["", "a", "a\n", "a\nb", "\n\n", "é\r\nß\n\nlast", "x\n", "\nlead"] {
            let ours: Vec<&str> = split_inclusive(text).collect();
            let std: Vec<&str> = text.split_inclusive('\n').collect();
            assert_eq!(ours, std, "{text:?}");
            let ends: Vec<usize> = line_ends(text).collect();
            let std_ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
            assert_eq!(ends, std_ends, "{text:?}");
            let mut at = 0;
            for line in &std {
                assert_eq!(next_line(text, at), at + line.len(), "{text:?} at {at}");
                at += line.len();
            }
        }
    }
}
