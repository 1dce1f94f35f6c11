//! Line ends in big texts. A dump is hundreds of thousands of short lines, walked by the segmenter,
//! the readers, the line index and the secret scan. Natively `memchr` finds each `\n` with SIMD,
//! about twice as fast as `str::find('\n')` and `split_inclusive('\n')`, which go through the
//! generic char pattern for every line; in wasm, a loop over eight-byte words does (see
//! [`newline`]).

/// The start of the line after the one `at` is in (just after its `\n`), or the end of `text`.
pub fn next_line(text: &str, at: usize) -> usize {
    newline(&text.as_bytes()[at..]).map_or(text.len(), |i| at + i + 1)
}

/// The first `\n` in `bytes`: `memchr` natively; in wasm a loop over eight-byte words
/// ([`newline_in_words`]). Without SIMD, `memchr` in wasm went four bytes at a time behind a per-call
/// set-up that cost more than most of a dump's lines; with wasm SIMD (the app's build since it was
/// turned on) it measured the same as this loop on the 1k-pod dumps, so the loop stayed.
#[inline]
pub fn newline(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    let found = newline_in_words(bytes);
    #[cfg(not(target_arch = "wasm32"))]
    let found = memchr::memchr(b'\n', bytes);
    found
}

/// The first `\n` in `bytes`, eight bytes at a time ([`byte_in_words`]).
#[cfg(any(target_arch = "wasm32", test))]
fn newline_in_words(bytes: &[u8]) -> Option<usize> {
    byte_in_words(bytes, b'\n')
}

/// The first `byte` in `bytes`, eight bytes at a time (a zero byte of `word ^ [byte; 8]` marks one;
/// the lowest flag of the classic has-zero-byte test is always right). For wasm, where `memchr`'s
/// per-call set-up is not paid back on a short line.
#[cfg(any(target_arch = "wasm32", test))]
pub fn byte_in_words(bytes: &[u8], byte: u8) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let splat = u64::from_le_bytes([byte; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default()) ^ splat;
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words.remainder().iter().position(|&b| b == byte).map(|i| at + i)
}

/// How many characters the UTF-8 `bytes` hold: the bytes that do not continue a character (not
/// `0b10xx_xxxx`), counted eight at a time. The readers count a value's column from its line's start,
/// which in a dump is mostly indentation: one byte at a time, that count was a good part of reading
/// a pretty-printed JSON dump in wasm.
pub fn chars(bytes: &[u8]) -> usize {
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut continuing = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // Bit 7 set and bit 6 clear, per byte: `word << 1` brings each byte's bit 6 to its bit 7.
        continuing += (word & !(word << 1) & HIGH).count_ones() as usize;
    }
    continuing += words.remainder().iter().filter(|b| (**b & 0xC0) == 0x80).count();
    bytes.len() - continuing
}

/// `text`'s lines, each with its `\n` (the last one may have none): `str::split_inclusive('\n')`.
pub fn split_inclusive(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// The offsets just after each `\n` in `text`.
pub fn line_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        at += newline(&bytes[at..])? + 1;
        Some(at)
    })
}

/// See [`split_inclusive`].
pub struct Lines<'a> {
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

/// The words of a line (split at white space), each with its byte offset in the line.
pub fn words(line: &str) -> Vec<(usize, &str)> {
    line.split_whitespace()
        .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_counts_what_str_chars_counts() {
        let text = "        \"name\": \"é日本語😀 — kubectl\",  ascii only here, then ÿ\u{10FFFF}\u{80}x";
        for start in 0..text.len() {
            for end in start..=text.len() {
                if let Some(slice) = text.get(start..end) {
                    assert_eq!(chars(slice.as_bytes()), slice.chars().count(), "{slice:?}");
                }
            }
        }
    }

    #[test]
    fn line_ends_are_after_each_newline() {
        for text in [
            "",
            "a",
            "\n",
            "a\nb",
            "a\nb\n",
            "\n\n\nx\r\n",
            "é\n0123456789abcdef\n",
        ] {
            let expected: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
            assert_eq!(line_ends(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    #[test]
    fn newline_in_words_is_memchr() {
        let text = "a\nbc\n\n0123456789abcdef\nxyz é\n\u{a0a}\u{10a0a}ẊẊẊẊẊẊ\n\n\n no newline at the end";
        let bytes = text.as_bytes();
        for start in 0..bytes.len() {
            for end in start..=bytes.len() {
                let slice = &bytes[start..end];
                assert_eq!(
                    newline_in_words(slice),
                    memchr::memchr(b'\n', slice),
                    "{start}..{end}"
                );
            }
        }
        // Every byte value next to a newline, at every position in a word.
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut bytes = vec![b; 24];
                bytes[at] = b'\n';
                assert_eq!(
                    newline_in_words(&bytes),
                    memchr::memchr(b'\n', &bytes),
                    "{b} at {at}"
                );
            }
        }
    }

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
