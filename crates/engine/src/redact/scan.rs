//! The line and pattern scanners: secrets recognisable from the text itself, in any format.
//! Every scanner is one linear pass over the text.

use crate::hash::Map;
use crate::ingest::segment::leading_spaces;
use crate::lines::next_line;
use std::ops::Range;

use super::structure::block_span;
use super::{network, patterns};
use super::{ScanOptions, SecretKind, Span};

pub(crate) fn find(text: &str, options: &ScanOptions) -> Vec<Span> {
    let mut out = Vec::new();
    // A PEM key spans lines: looked for over the whole text, never cut at a region's end.
    patterns::private_keys(text, &mut out);
    let mut key_values = KeyValues {
        kubeconfig: is_kubeconfig(text),
        ..KeyValues::default()
    };
    for region in regions(text) {
        scan_region(text, region, &mut key_values, &mut out);
    }
    if options.include_network {
        network::ip_addresses(text, &mut out);
        network::emails(text, &mut out);
        network::internal_hostnames(text, &mut out);
    }
    out
}

/// Whether a key names a secret: its last word is `password`, `token`, `secret`, ... or it ends in
/// `api key`, `access key`, ... (`DB_PASSWORD`, `api-token`, `clientSecret`, `X-Api-Key`). Keys that
/// only mention one (`token-ttl`, `secretName`, `secretKeyRef`) are not.
pub(crate) fn is_secret_key(key: &str) -> bool {
    let key = key.trim_matches(['"', '\'', '-', ' ']);
    if key.is_empty() || key.len() > 120 {
        return false;
    }
    // Most keys end in none of the words below: their last three letters say so, cheaply (this runs
    // for every key of every line of a big paste). Each ending, and `client-key-data`, ends in one of
    // these; ASCII letters are lower-cased by setting bit 0x20, which leaves digits as they are.
    let tail = key
        .trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
        .as_bytes();
    let Some(&[a, b, c]) = tail.get(tail.len().saturating_sub(3)..) else {
        return false;
    };
    if !matches!(
        &[a | 0x20, b | 0x20, c | 0x20],
        b"ord" | b"swd" | b"pwd" | b"ase" | b"ret" | b"ken" | b"key" | b"als" | b"ial" | b"ass" | b"ata"
    ) {
        return false;
    }
    // The last two words, as byte ranges of `key`: words split at anything not an ASCII letter or
    // digit, and where a lower-case letter or digit is followed by an upper-case one (camelCase).
    // Called for every key of every line of a big paste: no allocation.
    let bytes = key.as_bytes();
    let (mut last, mut before) = (None, None);
    let mut start = None;
    let mut prev_lower = false;
    let mut end_word = |start: &mut Option<usize>, at: usize| {
        if let Some(s) = start.take() {
            before = last;
            last = Some(&key[s..at]);
        }
    };
    for (i, &c) in bytes.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            end_word(&mut start, i);
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower {
            end_word(&mut start, i);
        }
        start.get_or_insert(i);
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    end_word(&mut start, bytes.len());
    let Some(last) = last else {
        return false;
    };
    const ENDINGS: [&str; 11] = [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "accesskey",
        "secretkey",
        "privatekey",
        "credentials",
        "credential",
    ];
    let ends_with = |word: &str, ending: &str| {
        word.len() >= ending.len()
            && word.as_bytes()[word.len() - ending.len()..].eq_ignore_ascii_case(ending.as_bytes())
    };
    if ENDINGS.iter().any(|e| ends_with(last, e))
        || last.eq_ignore_ascii_case("pwd")
        || last.eq_ignore_ascii_case("pass")
    {
        return true;
    }
    if last.eq_ignore_ascii_case("key") {
        if let Some(prev) = before {
            return [
                "api",
                "access",
                "secret",
                "private",
                "signing",
                "encryption",
                "auth",
                "master",
                "account",
            ]
            .iter()
            .any(|p| prev.eq_ignore_ascii_case(p));
        }
    }
    // kubeconfig's `client-key-data`.
    key.eq_ignore_ascii_case("client-key-data")
}

/// Whether a value is worth redacting: not empty, not a placeholder (`<none>`, `<set to the key ...>`,
/// an existing `<redacted>`), not already masked (`***`, `xxxx`), not a reference (`$(VAR)`), not a
/// boolean or a describe size (`7 bytes`).
pub(crate) fn is_plausible_value(value: &str) -> bool {
    let v = value.trim().trim_matches(['"', '\'']);
    if v.is_empty() || v.starts_with(['<', '{', '[']) || v.starts_with("$(") || v.starts_with("${") {
        return false;
    }
    if v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '•' | '.' | '-')) {
        return false;
    }
    if v.as_bytes()
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"redacted"))
    {
        return false;
    }
    if matches!(
        v,
        "true" | "false" | "True" | "False" | "null" | "~" | "yes" | "no" | "none" | "None" | "|" | ">"
    ) {
        return false;
    }
    if let Some(n) = v.strip_suffix(" bytes") {
        if n.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    true
}

pub(super) fn push(out: &mut Vec<Span>, kind: SecretKind, start: usize, end: usize, text: &str) {
    if start < end && is_plausible_value(&text[start..end]) {
        out.push(Span { kind, start, end });
    }
}

pub(super) fn is_b64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

pub(super) fn is_b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

pub(super) fn run(bytes: &[u8], from: usize, ok: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while i < bytes.len() && ok(bytes[i]) {
        i += 1;
    }
    i
}

/// The most text one region holds (it ends at the first line end past this).
const REGION: usize = 64 * 1024;

/// The scanners of one region. One call per region, not one pass over a whole 400 MB text: the
/// browser's wasm engine compiles a hot function's optimised code for its next call (it cannot swap
/// the code of a call that is running), so a first big paste is scanned by optimised code after the
/// first few regions instead of by the baseline code from start to end.
#[inline(never)]
fn scan_region(text: &str, region: Range<usize>, key_values: &mut KeyValues, out: &mut Vec<Span>) {
    patterns::patterns(text, region.clone(), out);
    patterns::url_credentials(text, region.clone(), out);
    key_values.scan(text, region, out);
}

/// The text to scan, as ranges of whole lines of at most about [`REGION`] bytes, without the
/// `managedFields` blocks of kubectl's YAML and JSON (about 40 % of a `get -A -o yaml|json` dump): they
/// hold field names and timestamps, never values. A block is stepped over only when it has that
/// shape: `managedFields:` followed by a `- apiVersion:` / `- manager:` item (YAML), or
/// `"managedFields": [` followed by `{` (JSON), and it ends where its indentation does.
pub(crate) fn regions(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    // For each indentation, where a JSON `"managedFields": [` found it was not closed: see
    // [`managed_fields_end`].
    let mut unclosed = Map::default();
    let mut start = 0;
    let mut at = 0;
    while at < text.len() {
        let line_end = next_line(text, at);
        let line = &text[at..line_end];
        let trimmed = &line[leading_spaces(line.as_bytes())..];
        if trimmed.starts_with("managedFields:") || trimmed.starts_with("\"managedFields\": [") {
            let indent = line.len() - trimmed.len();
            if let Some(block_end) = managed_fields_end(text, line_end, indent, trimmed, &mut unclosed) {
                if start < at {
                    out.push(start..at);
                }
                start = block_end;
                at = block_end;
                continue;
            }
        }
        at = line_end;
        if at - start >= REGION {
            out.push(start..at);
            start = at;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// Where the `managedFields` block whose key line (`key_line`, at `indent`) ends at `from` ends: the
/// start of the first line after it. `None` when what follows does not look like managedFields.
/// A JSON block that is never closed is read to where that shows (a line less indented, or the
/// text's end), and `unclosed` remembers it by indentation: another key at that indentation before
/// that place is not closed either (its block would end where the first one's did), so it is not read
/// again — a paste of such lines was quadratic.
fn managed_fields_end(
    text: &str,
    from: usize,
    indent: usize,
    key_line: &str,
    unclosed: &mut Map<usize, usize>,
) -> Option<usize> {
    let key_line = key_line.trim_end();
    let json = key_line.starts_with('"');
    if !(json && key_line == "\"managedFields\": [" || !json && key_line == "managedFields:") {
        return None;
    }
    if json && unclosed.get(&indent).is_some_and(|&end| end > from) {
        return None;
    }
    let mut at = from;
    let mut first = true;
    while at < text.len() {
        let line_end = next_line(text, at);
        let line = &text[at..line_end];
        let trimmed = &line[leading_spaces(line.as_bytes())..];
        let line_indent = line.len() - trimmed.len();
        if first {
            first = false;
            let shaped = if json {
                trimmed.trim_end() == "{" && line_indent > indent
            } else {
                line_indent >= indent
                    && ["- apiVersion:", "- manager:", "- fieldsType:", "- operation:"]
                        .iter()
                        .any(|k| trimmed.starts_with(k))
            };
            if !shaped {
                return None;
            }
        }
        if json {
            if line_indent == indent && trimmed.starts_with(']') {
                return Some(line_end);
            }
            if line_indent < indent && !trimmed.trim().is_empty() {
                unclosed.insert(indent, at);
                return None;
            }
        } else if !trimmed.trim().is_empty()
            && (line_indent < indent || line_indent == indent && !trimmed.starts_with("- "))
        {
            return Some(at);
        }
        at = line_end;
    }
    // The text ends inside the block (a cut-off paste): YAML's block ends with it; JSON's bracket
    // never closed, so nothing is skipped.
    if json {
        unclosed.insert(indent, text.len());
    }
    (!json).then_some(text.len())
}

/// Values of keys named like secrets, line by line: YAML and describe `key: value`, JSON
/// `"key": "value"` (also escaped, as inside an annotation), `KEY=value` and `Key=value;` connection
/// strings, env `name:`/`value:` pairs; inside an `annotations` block the kind says so.
#[derive(Default)]
struct KeyValues {
    /// The whole text is a kubeconfig ([`is_kubeconfig`]).
    kubeconfig: bool,
    /// The indentation of the `annotations:` key whose block the lines are in.
    annotations_indent: Option<usize>,
    /// (column of the `name` key, line number) of the last env-like `name: DB_PASSWORD`.
    env_name: Option<(usize, usize)>,
    /// Lines scanned so far (the regions' lines, in order).
    lines: usize,
}

impl KeyValues {
    fn scan(&mut self, text: &str, region: Range<usize>, out: &mut Vec<Span>) {
        let kubeconfig = self.kubeconfig;
        let mut annotations_indent = self.annotations_indent;
        let mut env_name = self.env_name;
        let mut next = region.start;
        while next < region.end {
            let line_no = self.lines;
            self.lines += 1;
            let line_start = next;
            next = next_line(text, line_start).min(region.end);
            let line = &text[line_start..next];
            let content = line.trim_end_matches(['\n', '\r']);
            let trimmed = trim_start(content);
            if trimmed.is_empty() {
                continue;
            }
            let indent = content.len() - trimmed.len();
            if annotations_indent.is_some_and(|a| indent <= a) {
                annotations_indent = None;
            }
            let kind_for = |key: &str, in_annotations: bool| {
                if in_annotations {
                    SecretKind::AnnotationSecret
                } else if kubeconfig
                    && matches!(
                        key,
                        "token"
                            | "password"
                            | "client-key-data"
                            | "id-token"
                            | "refresh-token"
                            | "client-secret"
                    )
                {
                    SecretKind::KubeconfigCredential
                } else {
                    SecretKind::EnvSecret
                }
            };
            // YAML or describe `key: value`.
            let item = trimmed.strip_prefix("- ").unwrap_or(trimmed);
            let key_col = line_start + (content.len() - item.len());
            if let Some((key, value_start)) = yaml_key(item) {
                let value_at = key_col + value_start;
                let value = &text[value_at..line_start + content.len()];
                if key.eq_ignore_ascii_case("annotations") {
                    annotations_indent = Some(indent);
                    // describe: `Annotations:  first/key: value` on the same line.
                    if let Some((inner, inner_start)) = yaml_key(value) {
                        if is_secret_key(inner) {
                            if let Some((s, e)) =
                                plain_or_quoted(text, value_at + inner_start, content, line_start)
                            {
                                push(out, SecretKind::AnnotationSecret, s, e, text);
                            }
                        }
                    }
                } else if key == "name" {
                    let name = value.trim().trim_matches(['"', '\'']);
                    env_name = is_secret_key(name).then_some((key_col - line_start, line_no));
                } else if key == "value"
                    && env_name.is_some_and(|(col, n)| col == key_col - line_start && line_no - n <= 4)
                {
                    if let Some((s, e)) = yaml_value_span(text, value_at, content, line_start) {
                        push(out, SecretKind::EnvSecret, s, e, text);
                    }
                } else if is_secret_key(key) {
                    if let Some((s, e)) = yaml_value_span(text, value_at, content, line_start) {
                        push(out, kind_for(key, annotations_indent.is_some()), s, e, text);
                    }
                }
            }
            // JSON pairs, anywhere on the line.
            json_pairs(line_start, content, |key, key_at, value| {
                let in_annotations = annotations_indent.is_some();
                match (key, value) {
                    ("annotations", None) => annotations_indent = Some(indent),
                    ("name", Some((s, e))) => {
                        env_name = is_secret_key(&text[s..e]).then_some((key_at - line_start, line_no));
                    }
                    ("value", Some((s, e)))
                        if env_name.is_some_and(|(col, n)| {
                            n == line_no || (col == key_at - line_start && line_no - n <= 4)
                        }) =>
                    {
                        push(out, SecretKind::EnvSecret, s, e, text);
                    }
                    (key, Some((s, e))) if is_secret_key(key) => {
                        push(out, kind_for(key, in_annotations), s, e, text)
                    }
                    _ => {}
                }
            });
            // `KEY=value`, `--password=value`, `Password=value;`.
            env_pairs(text, line_start, content, out);
        }
        self.annotations_indent = annotations_indent;
        self.env_name = env_name;
    }
}

/// `str::trim_start`, with the common case (ASCII spaces: a JSON line's indentation is tens of
/// them) done bytewise, runs of spaces eight bytes at a time: the char-by-char trim was a tenth of
/// scanning a JSON dump.
fn trim_start(s: &str) -> &str {
    let spaces = leading_spaces(s.as_bytes());
    let ascii = s.as_bytes()[spaces..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r'))
        .count();
    s[spaces + ascii..].trim_start()
}

/// Whether a line says `kind: Config` (YAML) or `"kind": "Config"` (JSON, also compact): the text
/// is a kubeconfig. Looks only at the lines where `Config` occurs.
fn is_kubeconfig(text: &str) -> bool {
    let mut from = 0;
    while let Some(found) = memchr::memmem::find(&text.as_bytes()[from..], b"Config") {
        let at = from + found;
        let line_start = text[from..at].rfind('\n').map_or(from, |i| from + i + 1);
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        // Each line once, however often it says `Config`.
        from = line_end;
        let t = text[line_start..line_end].trim();
        if t == "kind: Config" || t.starts_with("\"kind\": \"Config\"") || t.contains("\"kind\":\"Config\"") {
            return true;
        }
    }
    false
}

/// `key:` at the start of `item` (a YAML key or a describe label); returns the key and where its
/// value starts (after the colon and spaces).
fn yaml_key(item: &str) -> Option<(&str, usize)> {
    // One pass to the first colon, stopping at the first byte no key has (this runs for every line
    // of a big paste): letters, digits, `-_./`, and single spaces.
    let bytes = item.as_bytes();
    let mut colon = None;
    for (i, &b) in bytes.iter().enumerate().take(254) {
        match b {
            b':' => {
                colon = Some(i);
                break;
            }
            b' ' if i > 0 && bytes[i - 1] == b' ' => return None,
            b'-' | b'_' | b'.' | b'/' | b' ' => {}
            _ if b.is_ascii_alphanumeric() => {}
            _ => return None,
        }
    }
    let colon = colon.filter(|&c| c > 0)?;
    let key = &item[..colon];
    let after = &item[colon + 1..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let value_start = colon + 1 + (after.len() - after.trim_start().len());
    Some((key.trim(), value_start))
}

/// The span of a YAML value starting at `at`: quoted, block, or plain to the end of the line.
fn yaml_value_span(text: &str, at: usize, content: &str, line_start: usize) -> Option<(usize, usize)> {
    let line_end = line_start + content.len();
    let value = &text[at..line_end];
    let indicator = value.trim_end();
    if indicator.starts_with(['|', '>']) && indicator.len() <= 3 {
        return block_span(text, content, line_end);
    }
    plain_or_quoted(text, at, content, line_start)
}

fn plain_or_quoted(text: &str, at: usize, content: &str, line_start: usize) -> Option<(usize, usize)> {
    let line_end = line_start + content.len();
    let value = &text[at..line_end];
    match value.as_bytes().first()? {
        b'"' => {
            let bytes = value.as_bytes();
            let mut i = 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return Some((at + 1, at + i)),
                    _ => i += 1,
                }
            }
            None
        }
        b'\'' => value[1..].find('\'').map(|i| (at + 1, at + 1 + i)),
        _ => {
            let mut v = value;
            if let Some(comment) = v.find(" #") {
                v = &v[..comment];
            }
            Some((at, at + v.trim_end().len()))
        }
    }
}

/// Calls `each(key, key_offset, value_span)` for every `"key": "value"` (value `None` when the value is
/// not a string) on a line, in plain JSON and in JSON escaped inside a string (`\"key\":\"value\"`).
fn json_pairs(line_start: usize, content: &str, mut each: impl FnMut(&str, usize, Option<(usize, usize)>)) {
    let bytes = content.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            match memchr::memchr(b'"', &bytes[i..]) {
                Some(at) => i += at,
                None => break,
            }
        }
        let escaped = i > 0 && bytes[i - 1] == b'\\';
        let key_start = i + 1;
        let key_end = run(bytes, key_start, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b' ')
        });
        let close_ok = if escaped {
            bytes.get(key_end) == Some(&b'\\') && bytes.get(key_end + 1) == Some(&b'"')
        } else {
            bytes.get(key_end) == Some(&b'"')
        };
        if !close_ok || key_end == key_start {
            i = key_end.max(i + 1);
            continue;
        }
        let mut j = key_end + if escaped { 2 } else { 1 };
        j = run(bytes, j, |b| b == b' ');
        if bytes.get(j) != Some(&b':') {
            i = j;
            continue;
        }
        j = run(bytes, j + 1, |b| b == b' ');
        let key = &content[key_start..key_end];
        let value_open = if escaped {
            bytes.get(j) == Some(&b'\\') && bytes.get(j + 1) == Some(&b'"')
        } else {
            bytes.get(j) == Some(&b'"')
        };
        if !value_open {
            each(key, line_start + key_start, None);
            i = j;
            continue;
        }
        let value_start = j + if escaped { 2 } else { 1 };
        let mut k = value_start;
        let mut value_end = None;
        while k < bytes.len() {
            if escaped {
                if bytes[k] == b'\\' && bytes.get(k + 1) == Some(&b'"') {
                    value_end = Some(k);
                    break;
                }
                if bytes[k] == b'\\' && bytes.get(k + 1) == Some(&b'\\') {
                    k += 2;
                    continue;
                }
                k += 1;
            } else {
                match bytes[k] {
                    b'\\' => k += 2,
                    b'"' => {
                        value_end = Some(k);
                        break;
                    }
                    _ => k += 1,
                }
            }
        }
        let Some(value_end) = value_end else {
            break;
        };
        each(
            key,
            line_start + key_start,
            Some((line_start + value_start, line_start + value_end)),
        );
        i = value_end + if escaped { 2 } else { 1 };
    }
}

/// `KEY=value` pairs: shell and env output, command-line flags, query strings, connection strings.
fn env_pairs(text: &str, line_start: usize, content: &str, out: &mut Vec<Span>) {
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
            None | Some(b' ' | b'\t' | b'"' | b'\'' | b';' | b'&' | b'?' | b',' | b'{' | b'(')
        ) {
            continue;
        }
        let key = &content[key_start..eq];
        if !is_secret_key(key) {
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
        let kind = if before == Some(b';') || bytes.get(value_end) == Some(&b';') {
            SecretKind::ConnectionString
        } else {
            SecretKind::EnvSecret
        };
        push(out, kind, line_start + value_start, line_start + value_end, text);
        from = value_end.max(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_trim_is_the_standard_one() {
        for s in [
            "",
            "  a",
            "\t \x0B\x0Cb ",
            "\u{a0} c",
            "  \u{2003}d",
            "e",
            "   ",
            " \u{a0}",
            // Eight spaces and more go by words; what follows them still by the slow paths.
            "        x",
            "            \t\ty",
            "                \u{a0}z",
            "                ",
        ] {
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
        }
    }

    #[test]
    fn yaml_keys_are_read_to_their_colon() {
        assert_eq!(yaml_key("password: x"), Some(("password", 10)));
        assert_eq!(yaml_key("a b:"), Some(("a b", 4)));
        assert_eq!(yaml_key("a  b: x"), None, "two spaces");
        assert_eq!(yaml_key(": x"), None);
        assert_eq!(yaml_key("url:http://x"), None, "no space after the colon");
        assert_eq!(yaml_key("{\"k\": 1}"), None);
        let long = format!("{}: v", "k".repeat(253));
        assert!(yaml_key(&long).is_some());
        assert_eq!(yaml_key(&format!("{}: v", "k".repeat(254))), None);
    }
}
