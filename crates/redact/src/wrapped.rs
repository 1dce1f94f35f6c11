//! A value cut by a hard wrap: a terminal or a chat client wrapped a long log line at its width, so
//! a token at the line's end goes on at the start of the next line (issue 42: the last piece of a
//! value split across lines was left behind). The piece on the next line is joined to the value
//! when everything says it is one: the value ends its line, the line is as long as a wrapped one,
//! and the next line starts, unindented, with a run of the value's alphabet that reads as random
//! (not a timestamp, a log level or a word).

use super::{SecretKind, Span};
use crate::gitleaks::entropy;

/// A line shorter than this was not wrapped.
const MIN_WRAPPED_LINE: usize = 60;

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+' | b'/' | b'=' | b'~' | b'%')
}

/// Extends each span of `spans` (sorted, not overlapping) that a hard wrap cut over its piece on
/// the next line.
pub(crate) fn join(text: &str, spans: &mut [Span]) {
    let bytes = text.as_bytes();
    for i in 0..spans.len() {
        let span = spans[i];
        // What the structure found has its own extent (a block scalar, a PEM block).
        if matches!(
            span.kind,
            SecretKind::SecretData
                | SecretKind::DockerConfig
                | SecretKind::KubeconfigCredential
                | SecretKind::PrivateKey
        ) {
            continue;
        }
        let value = &bytes[span.start..span.end];
        if value.len() < 16 || !value.iter().all(|&b| is_token_byte(b)) {
            continue;
        }
        let next = match bytes.get(span.end..) {
            Some([b'\n', ..]) => span.end + 1,
            Some([b'\r', b'\n', ..]) => span.end + 2,
            _ => continue,
        };
        let line_start = memchr::memrchr(b'\n', &bytes[..span.start]).map_or(0, |i| i + 1);
        if span.end - line_start < MIN_WRAPPED_LINE {
            continue;
        }
        let mut end = next;
        while end < bytes.len() && is_token_byte(bytes[end]) {
            end += 1;
        }
        let piece = &bytes[next..end];
        let ends_well = bytes.get(end).is_none_or(|&b| {
            b.is_ascii_whitespace() || matches!(b, b',' | b';' | b')' | b']' | b'"' | b'\'')
        });
        // The piece is spelled as the value is: no punctuation the value does not have (so the
        // next line's `REGION=eu-west-1` is not a token's tail).
        let same_alphabet = piece
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || value.contains(b));
        if piece.len() < 4 || !ends_well || !same_alphabet || !looks_random(piece) {
            continue;
        }
        // Never into the next span.
        if spans.get(i + 1).is_some_and(|s| s.start < end) {
            continue;
        }
        spans[i].end = end;
    }
}

/// A run that reads as part of a token: letters and digits mixed, not a date or a time, and of a
/// token's entropy.
fn looks_random(piece: &[u8]) -> bool {
    let digits = piece.iter().filter(|b| b.is_ascii_digit()).count();
    let letters = piece.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let upper = piece.iter().filter(|b| b.is_ascii_uppercase()).count();
    let mixed = digits > 0 && letters > 0 || upper > 0 && upper < letters;
    let date_like = piece.len() >= 5 && piece[..4].iter().all(u8::is_ascii_digit) && piece[4] == b'-';
    mixed && !date_like && entropy(piece) >= 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(text: &str, value: &str) -> String {
        let start = text.find(value).unwrap_or_default();
        let mut spans = [Span {
            rule: None,
            kind: SecretKind::BearerToken,
            start,
            end: start + value.len(),
        }];
        join(text, &mut spans);
        text[spans[0].start..spans[0].end].to_string()
    }

    #[test]
    fn a_wrapped_token_is_joined_and_the_next_record_is_not() {
        let head = "2026-12-01T09:14:02Z ERROR request failed: Authorization: Bearer ";
        let text = format!("{head}Zk3p9Qw7Lm2xR8tY6uV4\nb7N1cD5eF0gH rejected (401)\n");
        assert_eq!(
            joined(&text, "Zk3p9Qw7Lm2xR8tY6uV4"),
            "Zk3p9Qw7Lm2xR8tY6uV4\nb7N1cD5eF0gH"
        );
        // The next line is the next record, or a word, or indented.
        for next in [
            "2026-12-01T09:14:03Z INFO retrying",
            "rejected (401)",
            "  b7N1cD5eF0gH x",
            "REGION=eu-west-1",
        ] {
            let text = format!("{head}Zk3p9Qw7Lm2xR8tY6uV4\n{next}\n");
            assert_eq!(
                joined(&text, "Zk3p9Qw7Lm2xR8tY6uV4"),
                "Zk3p9Qw7Lm2xR8tY6uV4",
                "{next}"
            );
        }
        // A short line was not wrapped.
        let text = "token Zk3p9Qw7Lm2xR8tY6uV4\nb7N1cD5eF0gH\n";
        assert_eq!(joined(text, "Zk3p9Qw7Lm2xR8tY6uV4"), "Zk3p9Qw7Lm2xR8tY6uV4");
    }
}
