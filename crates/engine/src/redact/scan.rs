//! The line and pattern scanners: secrets recognisable from the text itself, in any format.
//! Every scanner is one linear pass over the text.

use crate::hash::Map;
use crate::ingest::segment::leading_spaces;
use crate::lines::next_line;
use std::ops::Range;

use super::structure::block_span;
use super::{ScanOptions, SecretKind, Span};

pub(crate) fn find(text: &str, options: &ScanOptions) -> Vec<Span> {
    let mut out = Vec::new();
    // A PEM key spans lines: looked for over the whole text, never cut at a region's end.
    private_keys(text, &mut out);
    let mut key_values = KeyValues {
        kubeconfig: is_kubeconfig(text),
        ..KeyValues::default()
    };
    for region in regions(text) {
        scan_region(text, region, &mut key_values, &mut out);
    }
    if options.include_network {
        ip_addresses(text, &mut out);
        emails(text, &mut out);
        internal_hostnames(text, &mut out);
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

fn push(out: &mut Vec<Span>, kind: SecretKind, start: usize, end: usize, text: &str) {
    if start < end && is_plausible_value(&text[start..end]) {
        out.push(Span { kind, start, end });
    }
}

fn is_b64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn is_b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// The bytes of a word for [`patterns`] (ASCII letters, digits, `_`), as a table: every byte of the
/// text is tested, and one load is cheaper than the three range tests of `is_ascii_alphanumeric`.
static WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

fn run(bytes: &[u8], from: usize, ok: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while i < bytes.len() && ok(bytes[i]) {
        i += 1;
    }
    i
}

/// PEM private key blocks, markers included (a PEM line inside a JSON string has `\n` escapes).
fn private_keys(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    // Where each `-----END <label>-----` is, by label, found in one pass: looking for a block's end
    // marker from its start was a search to the end of the text for every block never ended (a
    // paste of PEM header lines: quadratic).
    let mut ends: Map<&str, Vec<usize>> = Map::default();
    for found in memchr::memmem::find_iter(bytes, b"-----END ") {
        let label_start = found + "-----END ".len();
        if let Some(label) = pem_label(text, label_start) {
            ends.entry(label).or_default().push(label_start + label.len() + 5);
        }
    }
    let mut from = 0;
    let begin = memchr::memmem::Finder::new(b"-----BEGIN ");
    while let Some(found) = begin.find(&bytes[from..]) {
        let start = from + found;
        let label_start = start + "-----BEGIN ".len();
        from = label_start;
        let Some(label) = pem_label(text, label_start) else {
            continue;
        };
        from = label_start + label.len() + 5;
        if !label.ends_with("PRIVATE KEY") {
            continue;
        }
        // The first end marker of this label after the begin marker.
        let end_marker = ends.get(label).and_then(|ends| {
            let i = ends.partition_point(|&e| e - label.len() - "-----END -----".len() < from);
            ends.get(i).copied()
        });
        let end = match end_marker {
            Some(end) => end,
            // Cut off: the base64 lines that follow.
            None => {
                let mut end = from;
                while end < bytes.len() {
                    match pem_body_line_end(bytes, end) {
                        Some(line_end) => end = line_end,
                        None => break,
                    }
                }
                text[..end].trim_end().len().max(from)
            }
        };
        out.push(Span {
            kind: SecretKind::PrivateKey,
            start,
            end,
        });
        from = end;
    }
}

/// When the line starting at `at` is (empty or) base64, `\n` escapes and white space aside: the start
/// of the next line. Read only up to its first other byte: a line of JSON holding many cut-off keys
/// is not read to its end once per key.
fn pem_body_line_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => return Some(i + 1),
            b'\\' if bytes.get(i + 1) == Some(&b'n') => i += 2,
            b if is_b64(b) || b.is_ascii_whitespace() => i += 1,
            _ => return None,
        }
    }
    Some(i)
}

/// The label of a PEM marker whose label starts at `at` (`RSA PRIVATE KEY` of
/// `-----BEGIN RSA PRIVATE KEY-----`): at most 40 bytes on one line, closed by `-----`.
fn pem_label(text: &str, at: usize) -> Option<&str> {
    let window = &text.as_bytes()[at..text.len().min(at + 45)];
    let len = memchr::memmem::find(window, b"-----")?;
    let label = text.get(at..at + len)?;
    (len <= 40 && !label.contains('\n')).then_some(label)
}

/// JWTs, bearer and basic credentials, and cloud keys with a known prefix.
fn patterns(text: &str, region: Range<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let word = |c: u8| WORD[usize::from(c)];
    let mut i = region.start;
    // A JWT's parts are runs of base64url, which goes on past the end of a word (`-`): where one
    // failed to start, none that starts later in the same run can succeed (its parts end where the
    // failed one's did, and are shorter), so the run is not read again for each word in it.
    let mut no_jwt_before = 0;
    while i < region.end {
        let b = bytes[i];
        if !word(b) {
            i = run(bytes, i + 1, |c| !word(c));
            continue;
        }
        // Patterns start only at a word's start, and every one with one of these letters: any other
        // word, and the rest of a word, is stepped over whole (no position inside it is a start).
        let at_word_start = i == 0 || !word(bytes[i - 1]);
        if !at_word_start || !matches!(b, b'e' | b'b' | b'B' | b'A' | b'g' | b'x' | b's' | b'r') {
            i = run(bytes, i + 1, word);
            continue;
        }
        let rest = &bytes[i..];
        if b == b'e' && i >= no_jwt_before {
            match jwt_at(bytes, i) {
                Ok(end) => {
                    out.push(Span {
                        kind: SecretKind::Jwt,
                        start: i,
                        end,
                    });
                    i = end;
                    continue;
                }
                Err(checked_to) => no_jwt_before = checked_to,
            }
        }
        if rest.len() > 7 && rest[..7].eq_ignore_ascii_case(b"bearer ") {
            let start = run(bytes, i + 7, |b| b == b' ');
            let end = run(bytes, start, |b| {
                is_b64url(b) || matches!(b, b'.' | b'~' | b'+' | b'/' | b'=')
            });
            if end - start >= 8 {
                push(out, SecretKind::BearerToken, start, end, text);
                i = end;
                continue;
            }
        }
        if rest.len() > 6 && rest[..6].eq_ignore_ascii_case(b"basic ") {
            let start = run(bytes, i + 6, |b| b == b' ');
            let end = run(bytes, start, is_b64);
            if end - start >= 8 && decodes_to_user_password(&text[start..end]) {
                push(out, SecretKind::BasicAuth, start, end, text);
                i = end;
                continue;
            }
        }
        if let Some(end) = cloud_key_at(bytes, i) {
            out.push(Span {
                kind: SecretKind::CloudKey,
                start: i,
                end,
            });
            i = end;
            continue;
        }
        i += 1;
    }
}

/// `eyJ<header>.<payload>.<signature>`, the first two parts at least 10 characters: where it ends,
/// or, when there is none at `i`, how far no JWT can start (the end of the base64url run read).
fn jwt_at(bytes: &[u8], i: usize) -> Result<usize, usize> {
    if !bytes[i..].starts_with(b"eyJ") {
        return Err(i + 1);
    }
    let header_end = run(bytes, i, is_b64url);
    if header_end - i < 10 || bytes.get(header_end) != Some(&b'.') {
        return Err(header_end);
    }
    let payload_end = run(bytes, header_end + 1, is_b64url);
    if payload_end - header_end - 1 < 10 || bytes.get(payload_end) != Some(&b'.') {
        return Err(header_end);
    }
    Ok(run(bytes, payload_end + 1, is_b64url))
}

fn cloud_key_at(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = &bytes[i..];
    // A key of an exact length is read at most one byte past it: its characters (base64url) run on
    // past the end of a word, and reading the whole run again at every word in it was quadratic.
    let exact = |prefix: &[u8], len: usize, ok: fn(u8) -> bool| -> Option<usize> {
        if !rest.starts_with(prefix) {
            return None;
        }
        let from = i + prefix.len();
        let window = &bytes[..bytes.len().min(from + len + 1)];
        let end = run(window, from, ok);
        (end - from == len).then_some(end)
    };
    let at_least = |prefix: &[u8], len: usize, ok: fn(u8) -> bool| -> Option<usize> {
        if !rest.starts_with(prefix) {
            return None;
        }
        let end = run(bytes, i + prefix.len(), ok);
        (end - i - prefix.len() >= len).then_some(end)
    };
    let upper_digit: fn(u8) -> bool = |b| b.is_ascii_uppercase() || b.is_ascii_digit();
    let alnum: fn(u8) -> bool = |b| b.is_ascii_alphanumeric();
    exact(b"AKIA", 16, upper_digit)
        .or_else(|| exact(b"ASIA", 16, upper_digit))
        .or_else(|| exact(b"AIza", 35, is_b64url))
        .or_else(|| {
            [b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"]
                .into_iter()
                .find_map(|p| exact(p, 36, alnum))
        })
        .or_else(|| at_least(b"github_pat_", 22, |b| b.is_ascii_alphanumeric() || b == b'_'))
        .or_else(|| at_least(b"glpat-", 20, is_b64url))
        .or_else(|| {
            [b"xoxb-", b"xoxp-", b"xoxa-", b"xoxr-", b"xoxs-"]
                .into_iter()
                .find_map(|p| at_least(p, 10, |b| b.is_ascii_alphanumeric() || b == b'-'))
        })
        .or_else(|| at_least(b"sk_live_", 16, alnum))
        .or_else(|| at_least(b"rk_live_", 16, alnum))
}

/// Basic auth is base64 of `user:password`: decoding tells it from an ordinary word after "basic".
fn decodes_to_user_password(b64: &str) -> bool {
    let mut bits = 0u32;
    let mut nbits = 0;
    let mut decoded = Vec::new();
    for b in b64.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return false,
        };
        bits = (bits << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            decoded.push((bits >> nbits) as u8);
        }
    }
    decoded.contains(&b':') && decoded.iter().all(|b| b.is_ascii_graphic() || *b == b' ')
}

/// `scheme://user:password@host`: the password. Database schemes make it a connection string.
fn url_credentials(text: &str, region: Range<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut from = region.start;
    // `memmem`, not `str::find`: the general substring search goes byte by byte in wasm. One finder
    // for the region, not one set up for every URL.
    let separator = memchr::memmem::Finder::new(b"://");
    while let Some(found) = bytes.get(from..region.end).and_then(|t| separator.find(t)) {
        let sep = from + found;
        from = sep + 3;
        let scheme_start = {
            let mut s = sep;
            while s > 0
                && (bytes[s - 1].is_ascii_alphanumeric() || matches!(bytes[s - 1], b'+' | b'.' | b'-'))
            {
                s -= 1;
            }
            s
        };
        let scheme = text[scheme_start..sep].to_ascii_lowercase();
        let authority_end = run(bytes, from, |b| {
            !(b.is_ascii_whitespace()
                || matches!(
                    b,
                    b'/' | b'?' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`' | b')' | b']'
                ))
        });
        let authority = &text[from..authority_end];
        let Some(at) = authority.rfind('@') else { continue };
        let Some(colon) = authority[..at].find(':') else {
            continue;
        };
        let kind = if matches!(
            scheme.as_str(),
            "postgres"
                | "postgresql"
                | "mysql"
                | "mariadb"
                | "mongodb"
                | "mongodb+srv"
                | "redis"
                | "rediss"
                | "amqp"
                | "amqps"
                | "jdbc:postgresql"
                | "jdbc:mysql"
                | "sqlserver"
                | "clickhouse"
                | "nats"
                | "kafka"
        ) {
            SecretKind::ConnectionString
        } else {
            SecretKind::UrlCredential
        };
        push(out, kind, from + colon + 1, from + at, text);
        from = authority_end.max(from);
    }
}

/// The most text one region holds (it ends at the first line end past this).
const REGION: usize = 64 * 1024;

/// The scanners of one region. One call per region, not one pass over a whole 400 MB text: the
/// browser's wasm engine compiles a hot function's optimised code for its next call (it cannot swap
/// the code of a call that is running), so a first big paste is scanned by optimised code after the
/// first few regions instead of by the baseline code from start to end.
#[inline(never)]
fn scan_region(text: &str, region: Range<usize>, key_values: &mut KeyValues, out: &mut Vec<Span>) {
    patterns(text, region.clone(), out);
    url_credentials(text, region.clone(), out);
    key_values.scan(text, region, out);
}

/// The text to scan, as ranges of whole lines of at most about [`REGION`] bytes, without the
/// `managedFields` blocks of kubectl's YAML and JSON (about 40 % of a `get -A -o yaml|json` dump): they
/// hold field names and timestamps, never values. A block is stepped over only when it has that
/// shape: `managedFields:` followed by a `- apiVersion:` / `- manager:` item (YAML), or
/// `"managedFields": [` followed by `{` (JSON), and it ends where its indentation does.
pub(crate) fn regions(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < text.len() {
        let line_end = next_line(text, at);
        let line = &text[at..line_end];
        let trimmed = &line[leading_spaces(line.as_bytes())..];
        if trimmed.starts_with("managedFields:") || trimmed.starts_with("\"managedFields\": [") {
            if let Some(block_end) = managed_fields_end(text, line_end, line.len() - trimmed.len(), trimmed) {
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
fn managed_fields_end(text: &str, from: usize, indent: usize, key_line: &str) -> Option<usize> {
    let key_line = key_line.trim_end();
    let json = key_line.starts_with('"');
    if !(json && key_line == "\"managedFields\": [" || !json && key_line == "managedFields:") {
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

fn ip_addresses(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit()
            || (i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'.' | b'_')))
        {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i;
        let mut octets = 0;
        let mut ok = true;
        while octets < 4 {
            let end = run(bytes, j, |b| b.is_ascii_digit());
            let len = end - j;
            if len == 0 || len > 3 || text[j..end].parse::<u16>().map_or(true, |v| v > 255) {
                ok = false;
                break;
            }
            octets += 1;
            j = end;
            if octets < 4 {
                if bytes.get(j) != Some(&b'.') {
                    ok = false;
                    break;
                }
                j += 1;
            }
        }
        let followed = bytes.get(j).is_some_and(|b| b.is_ascii_alphanumeric())
            || (bytes.get(j) == Some(&b'.') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit));
        if ok && !followed && !matches!(&text[start..j], "0.0.0.0" | "255.255.255.255") {
            out.push(Span {
                kind: SecretKind::IpAddress,
                start,
                end: j,
            });
            i = j;
        } else {
            i = run(bytes, i, |b| b.is_ascii_digit() || b == b'.');
        }
    }
}

fn emails(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let local_ok = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut from = 0;
    while let Some(found) = text[from..].find('@') {
        let at = from + found;
        from = at + 1;
        let mut start = at;
        while start > 0 && local_ok(bytes[start - 1]) {
            start -= 1;
        }
        if start == at || (start > 0 && matches!(bytes[start - 1], b':' | b'/')) {
            continue;
        }
        let end = run(bytes, at + 1, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
        });
        let domain = text[at + 1..end].trim_end_matches('.');
        let Some(dot) = domain.rfind('.') else { continue };
        let tld = &domain[dot + 1..];
        if tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic()) {
            out.push(Span {
                kind: SecretKind::Email,
                start,
                end: at + 1 + domain.len(),
            });
        }
    }
}

fn internal_hostnames(text: &str, out: &mut Vec<Span>) {
    const SUFFIXES: [&str; 11] = [
        ".internal",
        ".local",
        ".localdomain",
        ".lan",
        ".corp",
        ".intranet",
        ".intra",
        ".home.arpa",
        ".svc",
        ".private",
        ".cluster.local",
    ];
    let bytes = text.as_bytes();
    let host = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-');
    let mut i = 0;
    while i < bytes.len() {
        if !host(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i = run(bytes, i, host);
        if start > 0 && matches!(bytes[start - 1], b'@' | b'_') {
            continue;
        }
        let word = text[start..i].trim_end_matches(['.', '-']);
        let lower = word.to_ascii_lowercase();
        if let Some(suffix) = SUFFIXES.iter().find(|s| lower.ends_with(**s)) {
            let name = &lower[..lower.len() - suffix.len()];
            if !name.is_empty()
                && !name.starts_with('.')
                && !name.ends_with('.')
                && name.bytes().any(|b| b.is_ascii_alphabetic())
            {
                out.push(Span {
                    kind: SecretKind::InternalHostname,
                    start,
                    end: start + word.len(),
                });
            }
        }
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
    fn the_word_table_is_the_word_test() {
        for b in 0..=u8::MAX {
            assert_eq!(
                WORD[usize::from(b)],
                b.is_ascii_alphanumeric() || b == b'_',
                "{b}"
            );
        }
    }

    #[test]
    fn url_credentials_are_found_at_either_end_of_a_region() {
        let text = "a: postgres://app:s3cret-pw@db:5432/x\nb: https://u:p4ss-word@h/\n";
        let mut out = Vec::new();
        url_credentials(text, 0..text.len(), &mut out);
        let found: Vec<&str> = out.iter().map(|s| &text[s.start..s.end]).collect();
        assert_eq!(found, ["s3cret-pw", "p4ss-word"]);
        // A region that ends inside the second URL's scheme separator does not see it.
        let second = text.rfind("://").unwrap_or_default();
        let mut out = Vec::new();
        url_credentials(text, 0..second + 1, &mut out);
        assert_eq!(out.len(), 1);
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
