//! The line and pattern scanners: secrets recognisable from the text itself, in any format.
//! Every scanner is one linear pass over the text.

use faultline_ingest::lines::next_line;
use faultline_ingest::segment::leading_spaces;
use faultline_report::hash::Map;
use std::ops::Range;

pub use super::keys::{is_plausible_value, is_secret_key};
use super::pairs::{self, flow_maps, flow_pairs, Flags};
use super::structure::block_span;
use super::{gitleaks, inferred, network, patterns};
use super::{ScanOptions, SecretKind, Span};

pub fn find(text: &str, options: &ScanOptions) -> Vec<Span> {
    let mut out = Vec::new();
    // A PEM key spans lines: looked for over the whole text, never cut at a region's end.
    patterns::private_keys(text, &mut out);
    inferred::secret_data_without_kind(text, &mut out);
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

pub(super) fn push(out: &mut Vec<Span>, kind: SecretKind, start: usize, end: usize, text: &str) {
    if start < end && is_plausible_value(&text[start..end]) {
        out.push(Span {
            rule: None,
            kind,
            start,
            end,
        });
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
    let before = out.len();
    patterns::patterns(text, region.clone(), out);
    patterns::url_credentials(text, region.clone(), out);
    patterns::encoded_private_keys(text, region.clone(), out);
    key_values.scan(text, region.clone(), out);
    // gitleaks' rules, except inside PEM blocks (found before any region) and, for its generic
    // rule, on lines where a value was already found by its key's name: a hostile paste of PEM
    // headers or `password: …` lines is read once, not once more by the rules. Its generic rule reads a value by its key's name, as
    // `key_values` does: its hits are of that kind, after the line scanner's, which keeps a value
    // it found too (an annotation's stays an annotation's). The others are tokens of the service
    // they name.
    // (Only PEM blocks: a token inside a header, a URL or an env value is still read by its rule,
    // which names it.)
    let mut spans: Vec<(usize, usize)> = out[..before]
        .iter()
        .filter(|s| s.kind == SecretKind::PrivateKey && s.end > region.start && s.start < region.end)
        .map(|s| (s.start, s.end))
        .collect();
    spans.sort_unstable();
    let mut named_lines: Vec<usize> = out[before..]
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                SecretKind::EnvSecret | SecretKind::AnnotationSecret | SecretKind::KubeconfigCredential
            )
        })
        .map(|s| memchr::memrchr(b'\n', &text.as_bytes()[..s.start]).map_or(0, |i| i + 1))
        .collect();
    named_lines.sort_unstable();
    named_lines.dedup();
    let covered = gitleaks::Covered {
        spans: &spans,
        named_lines: &named_lines,
    };
    let mut found = Vec::new();
    gitleaks::find(text, region, covered, &mut found);
    out.extend(found.into_iter().map(|f| {
        let rule = gitleaks::RULES[f.rule].id;
        Span {
            rule: Some(rule),
            kind: if rule == super::GENERIC_RULE {
                SecretKind::EnvSecret
            } else {
                SecretKind::Token
            },
            start: f.start,
            end: f.end,
        }
    }));
}

/// The text to scan, as ranges of whole lines of at most about [`REGION`] bytes, without the
/// `managedFields` blocks of kubectl's YAML and JSON (about 40 % of a `get -A -o yaml|json` dump): they
/// hold field names and timestamps, never values. A block is stepped over only when it has that
/// shape: `managedFields:` followed by a `- apiVersion:` / `- manager:` item (YAML), or
/// `"managedFields": [` followed by `{` (JSON), and it ends where its indentation does.
pub fn regions(text: &str) -> Vec<Range<usize>> {
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
    /// (column, line number) of the last `remoteRef:` or `secretName:` key: an External Secrets
    /// Operator item or a chart's Secret reference, whose `secretKey` beside it names a key
    /// ([`is_eso_name`]).
    remote_ref: Option<(usize, usize)>,
    /// Lines scanned so far (the regions' lines, in order).
    lines: usize,
    /// Command-line flags, whose value may be on the next line.
    flags: Flags,
}

impl KeyValues {
    fn scan(&mut self, text: &str, region: Range<usize>, out: &mut Vec<Span>) {
        let kubeconfig = self.kubeconfig;
        let mut annotations_indent = self.annotations_indent;
        let mut env_name = self.env_name;
        let mut remote_ref = self.remote_ref;
        let mut next = region.start;
        while next < region.end {
            let line_no = self.lines;
            self.lines += 1;
            let line_start = next;
            next = next_line(text, line_start).min(region.end);
            let line = &text[line_start..next];
            // `line.trim_end_matches(['\n', '\r'])`, bytewise.
            let breaks = line
                .bytes()
                .rev()
                .take_while(|b| matches!(b, b'\n' | b'\r'))
                .count();
            let content = &line[..line.len() - breaks];
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
            // Flow maps on one line: `- {name: DB_PASSWORD, value: s3cret}`, and those in a flow
            // list after a key, `env: [{name: API_TOKEN, value: s3cret}]`.
            for open in flow_maps(item) {
                let mut name_is_secret = false;
                for (key, (s, e)) in flow_pairs(text, key_col + open, line_start + content.len()) {
                    if key == "name" {
                        name_is_secret = is_secret_key(text[s..e].trim_matches(['"', '\'']));
                    } else if key == "value" && name_is_secret || is_secret_key(key) {
                        push(out, kind_for(key, annotations_indent.is_some()), s, e, text);
                    }
                }
            }
            if let Some((key, value_start)) = yaml_key(item).filter(|_| !item.starts_with('{')) {
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
                } else if key == "remoteRef" || key == "secretName" {
                    remote_ref = Some((key_col - line_start, line_no));
                } else if is_secret_key(key)
                    && !(key == "secretKey"
                        && is_eso_name(text, next, key_col - line_start, line_no, remote_ref))
                {
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
                    // A docker config's `auths`: `auth` is base64 of `user:password`.
                    ("auth", Some((s, e))) if patterns::decodes_to_user_password(&text[s..e]) => {
                        push(out, SecretKind::DockerConfig, s, e, text)
                    }
                    _ => {}
                }
            });
            // `KEY=value`, `--password=value`, `Password=value;`.
            pairs::env_pairs(text, line_start, content, out);
            pairs::spaced_pair(text, line_start, content, out);
            pairs::colon_pairs(text, line_start, content, out);
            self.flags.scan(text, line_start, content, out);
        }
        self.annotations_indent = annotations_indent;
        self.env_name = env_name;
        self.remote_ref = remote_ref;
    }
}

/// Whether a `secretKey:` at `column` of line `line_no` is an External Secrets Operator item's (the
/// key of the Secret it writes: a name), told by a `remoteRef:` beside it at the same column, on one
/// of the few lines before (kubectl sorts the keys: `remoteRef` first) or on the next line (as
/// written in a manifest); or a Helm chart's reference to a key of a Secret, told by the
/// `secretName:` beside it (Consul's `aclSyncToken: {secretName: …, secretKey: replicationToken}`).
/// Without either (MinIO's Helm values) the value is the secret key itself. A
/// parsed ExternalSecret is told by its kind ([`super::structure::names`]); this is for fragments.
fn is_eso_name(
    text: &str,
    next: usize,
    column: usize,
    line_no: usize,
    remote_ref: Option<(usize, usize)>,
) -> bool {
    if remote_ref.is_some_and(|(c, n)| c == column && line_no - n <= 6) {
        return true;
    }
    let line = &text[next..next_line(text, next)];
    let trimmed = line.trim_start_matches(' ');
    line.len() - trimmed.len() == column
        && (trimmed.starts_with("remoteRef:") || trimmed.starts_with("secretName:"))
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
pub(super) fn yaml_key(item: &str) -> Option<(&str, usize)> {
    // The first colon within the first 254 bytes (`memchr`: most lines of a big paste have none,
    // or one soon), then what is before it: only bytes a key has (letters, digits, `-_./`, and
    // single spaces). This runs for every line of a big paste.
    let bytes = item.as_bytes();
    let colon = memchr::memchr(b':', &bytes[..bytes.len().min(254)])?;
    for (i, &b) in bytes[..colon].iter().enumerate() {
        match b {
            b' ' if i > 0 && bytes[i - 1] == b' ' => return None,
            b'-' | b'_' | b'.' | b'/' | b' ' => {}
            _ if b.is_ascii_alphanumeric() => {}
            _ => return None,
        }
    }
    let colon = Some(colon).filter(|&c| c > 0)?;
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
    if let Some(span) = plain_or_quoted(text, at, content, line_start) {
        return Some(continued(text, content, span));
    }
    // A double-quoted value whose closing quote is on a later line (kubectl folds long strings).
    if value.starts_with('"') {
        let mut end = line_end;
        for _ in 0..MAX_CONTINUATION_LINES {
            let next_start = end + 1;
            if next_start >= text.len() {
                break;
            }
            end = text[next_start..]
                .find('\n')
                .map_or(text.len(), |i| next_start + i);
            let line = &text[next_start..end];
            if let Some(quote) = unescaped_quote(line) {
                return Some((at + 1, next_start + quote));
            }
        }
    }
    None
}

/// The most lines a multi-line plain or quoted value is followed over (a value goes on no longer in
/// what kubectl prints; a bound keeps a paste of unclosed quotes linear).
const MAX_CONTINUATION_LINES: usize = 64;

/// The first `"` in `line` that no backslash escapes.
fn unescaped_quote(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A plain value `span` that goes on over the following lines, indented deeper than its key and
/// holding no `key:` of their own (a folded plain scalar): to the end of its last line.
fn continued(text: &str, key_line: &str, span: (usize, usize)) -> (usize, usize) {
    let (start, mut end) = span;
    if text[start..end].starts_with(['"', '\'']) || text.as_bytes().get(start.wrapping_sub(1)) == Some(&b'"')
    {
        return span;
    }
    // kubectl folds a long plain value at a space: a value of one word is not folded, and the
    // indented lines after it are something else (a stack trace under a log line that says
    // `password: …`).
    if !text[start..end].contains(' ') {
        return span;
    }
    let key_indent = key_line.len() - key_line.trim_start_matches([' ', '-']).len();
    let mut at = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    for _ in 0..MAX_CONTINUATION_LINES {
        if at >= text.len() {
            break;
        }
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = text[at..line_end].trim_end_matches('\r');
        let trimmed = trim_start(line);
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty()
            || indent <= key_indent
            || trimmed.starts_with(['-', '#', '{', '[', '"', '\''])
            || yaml_key(trimmed).is_some()
            || trimmed.contains(": ")
        {
            break;
        }
        end = at + line.trim_end().len();
        at = line_end + 1;
    }
    (start, end)
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
            // `v.find(" #")`, without setting up a substring search for each value.
            let bytes = v.as_bytes();
            if let Some(hash) = memchr::memchr_iter(b'#', bytes).find(|&i| i > 0 && bytes[i - 1] == b' ') {
                v = &v[..hash - 1];
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
