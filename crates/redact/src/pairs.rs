//! Secrets written as `KEY=value` (env output, query strings and presigned URLs' signatures,
//! connection strings), as `key = value` (`.properties`, INI files such as AWS's credentials), as
//! `key: value` inside a log line, in one-line flow maps (`env: [{name: API_TOKEN, value: …}]`), and
//! as command-line flags (`--db-password VALUE`, the value on the next list item, mysql's
//! `-pVALUE`).

use super::keys::is_secret_key;
use super::scan::{push, run};
use super::{SecretKind, Span};

/// `KEY=value` pairs: shell and env output, command-line flags, query strings, connection strings.
pub(super) fn env_pairs(text: &str, line_start: usize, content: &str, out: &mut Vec<Span>) {
    let bytes = content.as_bytes();
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'=', &bytes[from..]) {
        let eq = from + found;
        from = eq + 1;
        let mut key_start = eq;
        while key_start > 0
            && (bytes[key_start - 1].is_ascii_alphanumeric()
                || matches!(bytes[key_start - 1], b'_' | b'-' | b'.'))
        {
            key_start -= 1;
        }
        if key_start == eq {
            continue;
        }
        let before = key_start.checked_sub(1).map(|i| bytes[i]);
        if !matches!(
            before,
            None | Some(b' ' | b'\t' | b'"' | b'\'' | b';' | b'&' | b'?' | b',' | b'{' | b'(' | b'=')
        ) {
            continue;
        }
        let key = &content[key_start..eq];
        // A URL's signature query parameter: Azure Storage SAS `sig`, S3 and GCS presigned URLs'
        // `X-Amz-Signature` and `X-Goog-Signature` (and their V2 `Signature`).
        let signature = matches!(before, Some(b'&' | b'?'))
            && ["sig", "signature", "x-amz-signature", "x-goog-signature"]
                .iter()
                .any(|k| key.eq_ignore_ascii_case(k));
        if !signature && !is_secret_key(key) {
            continue;
        }
        let (value_start, quote) = match bytes.get(eq + 1) {
            Some(q @ (b'"' | b'\'')) => (eq + 2, Some(*q)),
            _ => (eq + 1, None),
        };
        let value_end = match quote {
            Some(q) => run(bytes, value_start, |b| b != q),
            None => run(bytes, value_start, |b| {
                !(b.is_ascii_whitespace()
                    || matches!(b, b'"' | b'\'' | b';' | b'&' | b',' | b'\\' | b')' | b'}'))
            }),
        };
        let kind = if signature {
            SecretKind::UrlCredential
        } else if before == Some(b';') || bytes.get(value_end) == Some(&b';') {
            SecretKind::ConnectionString
        } else {
            SecretKind::EnvSecret
        };
        push(out, kind, line_start + value_start, line_start + value_end, text);
        from = value_end.max(from);
    }
}

/// `key: value` inside a line, after its start (a log line's `db password: VALUE, pool 10`): the
/// value is the word after the colon. A key at the line's start is a YAML or describe key, read
/// elsewhere.
pub(super) fn colon_pairs(text: &str, line_start: usize, content: &str, out: &mut Vec<Span>) {
    let bytes = content.as_bytes();
    // The line's first key, after its indentation and any list markers (`- - key:`), is not read here.
    let mut first = faultline_ingest::segment::leading_spaces(bytes);
    while content[first..].starts_with("- ") {
        first = run(bytes, first + 2, |b| b == b' ');
    }
    for colon in memchr::memchr_iter(b':', bytes) {
        if bytes.get(colon + 1) != Some(&b' ') {
            continue;
        }
        let mut key_start = colon;
        while key_start > 0
            && (bytes[key_start - 1].is_ascii_alphanumeric()
                || matches!(bytes[key_start - 1], b'_' | b'-' | b'.'))
        {
            key_start -= 1;
        }
        if key_start == colon || key_start <= first {
            continue;
        }
        if !matches!(bytes[key_start - 1], b' ' | b'\t' | b'[' | b'(' | b',' | b';') {
            continue;
        }
        if !is_secret_key(&content[key_start..colon]) {
            continue;
        }
        let value_start = run(bytes, colon + 1, |b| b == b' ');
        let value_end = run(bytes, value_start, |b| {
            !(b.is_ascii_whitespace() || matches!(b, b',' | b';' | b')' | b']' | b'}' | b'"' | b'\''))
        });
        push(
            out,
            SecretKind::EnvSecret,
            line_start + value_start,
            line_start + value_end,
            text,
        );
    }
}

/// A whole line `key = value` (`.properties`, INI): the value to the end of the line.
pub(super) fn spaced_pair(text: &str, line_start: usize, content: &str, out: &mut Vec<Span>) {
    // Bytewise: this runs for every line, and a JSON line's indentation is tens of spaces.
    let trimmed = &content[faultline_ingest::segment::leading_spaces(content.as_bytes())..];
    // Indented with tabs too (an INI section's keys often are).
    let trimmed = trimmed.trim_start_matches([' ', '\t']);
    let bytes = trimmed.as_bytes();
    let key_end = run(bytes, 0, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
    });
    if key_end == 0 || !trimmed[key_end..].starts_with(" = ") {
        return;
    }
    if !is_secret_key(&trimmed[..key_end]) {
        return;
    }
    let value_at = key_end + 3 + (trimmed[key_end + 3..].len() - trimmed[key_end + 3..].trim_start().len());
    let offset = line_start + (content.len() - trimmed.len());
    push(
        out,
        SecretKind::EnvSecret,
        offset + value_at,
        offset + trimmed.trim_end().len(),
        text,
    );
}

/// Command-line flags whose value is a secret, in a shell line, a YAML list or a JSON array:
/// `--db-password VALUE`, `--db-password` with the value as the next list item, and `-pVALUE` on a
/// line that runs a MySQL client. (`--password=VALUE` is an [`env_pairs`] pair.)
#[derive(Default)]
pub(super) struct Flags {
    /// A flag ended the last line read: its value is the next line's item.
    pending: bool,
}

impl Flags {
    pub(super) fn scan(&mut self, text: &str, line_start: usize, content: &str, out: &mut Vec<Span>) {
        // Most lines hold no flag: only a line after a flag, or one with `--` or ` -p` (a dash after
        // white space or a quote, then `p`), is cut into words. This runs for every line of a paste.
        let bytes = content.as_bytes();
        let flag_like = memchr::memchr_iter(b'-', bytes).any(|at| match bytes.get(at + 1) {
            Some(b'-') => true,
            Some(b'p') => at > 0 && matches!(bytes[at - 1], b' ' | b'"' | b'\''),
            _ => false,
        });
        if !self.pending && !flag_like {
            return;
        }
        let words = words(content);
        if std::mem::take(&mut self.pending) {
            let item = content.trim_start();
            let is_item = item.starts_with("- ") || item.starts_with('"');
            if let Some(&(s, e)) = words.first().filter(|_| is_item && words.len() == 1) {
                if !content[s..e].starts_with('-') {
                    push(out, SecretKind::EnvSecret, line_start + s, line_start + e, text);
                }
            }
        }
        let mysql = memchr::memmem::find(content.as_bytes(), b"mysql").is_some()
            || memchr::memmem::find(content.as_bytes(), b"mariadb").is_some();
        for (n, &(s, e)) in words.iter().enumerate() {
            let word = &content[s..e];
            if mysql && word.len() > 2 && word.starts_with("-p") && !word.contains('=') {
                push(
                    out,
                    SecretKind::EnvSecret,
                    line_start + s + 2,
                    line_start + e,
                    text,
                );
                continue;
            }
            if !word.starts_with('-') || word.contains('=') || !is_secret_key(word) {
                continue;
            }
            match words.get(n + 1) {
                Some(&(vs, ve)) if !content[vs..ve].starts_with('-') => {
                    push(out, SecretKind::EnvSecret, line_start + vs, line_start + ve, text);
                }
                Some(_) => {}
                None => self.pending = true,
            }
        }
    }
}

/// The words of a command line, a YAML list item or a JSON array line: runs of bytes other than white
/// space, quotes, commas and brackets, with a list item's `- ` dropped.
fn words(content: &str) -> Vec<(usize, usize)> {
    let bytes = content.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let trimmed = content.trim_start();
    if trimmed.starts_with("- ") {
        i = content.len() - trimmed.len() + 2;
    }
    let separator = |b: u8| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b',' | b'[' | b']');
    while i < bytes.len() {
        if separator(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i = run(bytes, i, |b| !separator(b));
        out.push((start, i));
    }
    out
}

/// Where flow maps open in a line's `item`: at its start, and after `[` or `,` (maps in a flow list).
pub(super) fn flow_maps(item: &str) -> Vec<usize> {
    let bytes = item.as_bytes();
    let mut out = Vec::new();
    if bytes.first() == Some(&b'{') {
        out.push(0);
    }
    for at in memchr::memchr_iter(b'{', bytes).filter(|&at| at > 0) {
        let before = item[..at].trim_end_matches(' ');
        if before.ends_with('[') || before.ends_with(',') && out.last().is_some() {
            out.push(at);
        }
        if out.len() > 16 {
            break;
        }
    }
    out
}

/// The `key: value` pairs of a one-line flow map starting at `from` (at its `{`), not into nested
/// maps or lists: each key with its value's span (inside quotes for a quoted one).
pub(super) fn flow_pairs(text: &str, from: usize, line_end: usize) -> Vec<(&str, (usize, usize))> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from + 1;
    while i < line_end {
        i = run(&bytes[..line_end], i, |b| b == b' ');
        let key_start = i;
        i = run(&bytes[..line_end], i, |b| {
            !matches!(b, b':' | b',' | b'{' | b'}' | b'[' | b']')
        });
        if bytes.get(i) != Some(&b':') || i == key_start {
            return out;
        }
        let key = text[key_start..i].trim().trim_matches(['"', '\'']);
        i = run(&bytes[..line_end], i + 1, |b| b == b' ');
        match bytes.get(i) {
            Some(b'{' | b'[') => return out,
            Some(&q @ (b'"' | b'\'')) => {
                let close = run(&bytes[..line_end], i + 1, |b| b != q);
                if close >= line_end {
                    return out;
                }
                out.push((key, (i + 1, close)));
                i = close + 1;
            }
            _ => {
                let end = run(&bytes[..line_end], i, |b| !matches!(b, b',' | b'}'));
                let value = text[i..end].trim_end();
                out.push((key, (i, i + value.len())));
                i = end;
            }
        }
        i = run(&bytes[..line_end], i, |b| b == b' ');
        match bytes.get(i) {
            Some(b',') => i += 1,
            _ => return out,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(lines: &[&str]) -> Vec<String> {
        let text = lines.join("\n");
        let mut out = Vec::new();
        let mut flags = Flags::default();
        let mut at = 0;
        for line in lines {
            flags.scan(&text, at, line, &mut out);
            spaced_pair(&text, at, line, &mut out);
            at += line.len() + 1;
        }
        out.iter().map(|s| text[s.start..s.end].to_string()).collect()
    }

    #[test]
    fn flag_values_are_found_beside_below_and_glued() {
        assert_eq!(found(&["app --db-password s3cr3t-one --port 80"]), ["s3cr3t-one"]);
        assert_eq!(
            found(&["  - --db-password", "  - s3cr3t-two", "  - --dry-run"]),
            ["s3cr3t-two"]
        );
        assert_eq!(found(&["  \"--db-password\",", "  \"s3cr3t-3\","]), ["s3cr3t-3"]);
        assert_eq!(found(&["mysqldump -uroot -pS3cret4 db"]), ["S3cret4"]);
        // Not a MySQL client: `-p` is a port or a profile.
        assert_eq!(found(&["kubectl port-forward -p8080"]), Vec::<String>::new());
        // A flag followed by another flag has no value.
        assert_eq!(found(&["app --db-password --verbose"]), Vec::<String>::new());
        assert_eq!(
            found(&["spring.datasource.password = hunter2!", "server.port = 8080"]),
            ["hunter2!"]
        );
    }
}
