//! Input as bytes: text from bytes ([`text_from_bytes`]), and binary input, one check for every reader of input (the app as a file is dropped, its worker as a
//! large file is read, the CLI's `analyze` and `redact`), so that each refuses it the same way and
//! with the same words ([`BINARY_REASON`]).

/// How much of a text's start is looked at (in characters): a binary file shows itself early.
const SAMPLE: usize = 64 * 1024;

/// Whether a text (as decoded from bytes, invalid UTF-8 as U+FFFD) is a binary file's, not text
/// kubectl printed: it has a NUL byte, or more than a tenth of the characters at its start were not
/// valid UTF-8.
pub fn looks_binary(text: &str) -> bool {
    let (mut chars, mut replaced) = (0usize, 0usize);
    for c in text.chars().take(SAMPLE) {
        if c == '\0' {
            return true;
        }
        chars += 1;
        replaced += usize::from(c == '\u{FFFD}');
    }
    replaced * 10 > chars.max(1)
}

/// Why an input that [`looks_binary`] is not read (the app's inputs list, the CLI's message, the
/// report's error).
pub const BINARY_REASON: &str =
    "looks like a binary file (it has NUL bytes or is not UTF-8 text), not kubectl output; it was not analysed";

/// Text from bytes as read from a file or received: valid UTF-8 is kept as it is, without a copy;
/// invalid sequences become U+FFFD, as a browser's text decoder does. (`String::from_utf8_lossy`
/// checks the bytes char by char and copies them: a tenth of analysing a big dump.)
pub fn text_from_bytes(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_bytes_or_mostly_invalid_utf8_is_binary_and_text_is_not() {
        assert!(looks_binary("PK\u{3}\u{4}\0\0"));
        let invalid = String::from_utf8_lossy(&[0xff, 0xfe, 0xfd, b'a', 0xc3, 0x28]).into_owned();
        assert!(looks_binary(&invalid));
        for text in [
            "",
            "apiVersion: v1\nkind: Pod\n",
            "名前: ウェブ\n",
            "a stray \u{FFFD} in long enough text",
        ] {
            assert!(!looks_binary(text), "{text:?}");
        }
        // Only the start is looked at.
        let late = format!("{}\0", "a".repeat(SAMPLE));
        assert!(!looks_binary(&late));
    }
}
