//! Secrets written as `KEY=value` (env output, query strings, connection strings), as `key = value`
//! (`.properties`, INI files such as AWS's credentials), and as command-line flags (`--db-password
//! VALUE`, the value on the next list item, mysql's `-pVALUE`).

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
        // A shared access signature's `sig` query parameter (Azure Storage SAS URLs).
        let signature = key == "sig" && matches!(before, Some(b'&' | b'?'));
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
