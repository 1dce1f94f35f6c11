//! Finds secrets in what was pasted and produces a redacted copy that is safe to share.
//!
//! Pure and deterministic like the rest of the engine. Two finders feed one list of hits:
//! - a structural one over the positioned node trees ingest builds (a Secret's `data` and
//!   `stringData`, a written-out docker config's credentials, a kubeconfig's user credentials, the
//!   Secret inside a `last-applied-configuration` annotation or a `kubectl -v=8` response body),
//!   because only the tree knows that a value under `data:` belongs to a `kind: Secret` printed
//!   further down (`structure`);
//! - a line scanner for everything else, in any format (YAML, JSON, describe, logs, curl output):
//!   PEM and PGP keys (also base64-encoded), JWTs, `Authorization` headers, the token families of
//!   [`tokens::FAMILIES`] (a table, each with its source), credentials in URLs and connection
//!   strings, values of keys named like secrets (`DB_PASSWORD`, `api-token`, `SECRET_KEY_BASE`) in
//!   env lists, flow maps, annotations, `.properties` and INI lines and command-line flags, and a
//!   Secret's `data` pasted without its kind (`scan`, `pairs`, `inferred`).
//!
//! Names are not secrets: a value is replaced, never its key; keys that name a Secret rather than
//! hold one (ingress-nginx's `auth-secret`, the External Secrets Operator's `secretKey`) are not read
//! as secret-named; and a value that reads like a name (`password`, `basic-auth`) is not looked for
//! elsewhere, where it would take key and object names with it.
//!
//! Every value found is then looked for everywhere else in the inputs — as written, decoded when it
//! is base64 and encoded in base64 — so a token that also appears in a log line, an annotation or the
//! output of `base64 -d` is redacted there too, with the same replacement: `<redacted:KIND:N>`,
//! numbered per kind in first-seen order, the same value always the same token across all inputs of
//! one call, so correlation across objects survives. Only values are replaced, never keys, and the
//! replacement keeps YAML and JSON valid (it has no quote, backslash, comma or bracket) and keeps the
//! line count (a multi-line key becomes one line of token and blank lines), so evidence lines of the
//! redacted copy still point at the same places.
//!
//! Scanners are hand-written rather than regexes: each is a linear pass (hostile input stays linear),
//! and the wasm build stays small.

mod base64;
mod inferred;
mod keys;
mod line_index;
mod network;
mod pairs;
mod patterns;
mod scan;
pub mod shapes;
mod structure;
pub mod tokens;

pub use line_index::LineIndex;

use faultline_report::hash::{Map, Set};
use std::borrow::Cow;
use std::cell::OnceCell;

use serde::Serialize;

use faultline_ingest::{Ingested, Source};

pub use faultline_report::SecretKind;

/// When two finders claim overlapping text, the lower rank wins: what the structure says first,
/// then the specific patterns, then names that merely look secret, then network details.
pub(crate) fn rank(kind: SecretKind) -> u8 {
    match kind {
        SecretKind::SecretData | SecretKind::DockerConfig | SecretKind::KubeconfigCredential => 0,
        SecretKind::PrivateKey => 1,
        SecretKind::UrlCredential | SecretKind::ConnectionString => 2,
        SecretKind::BearerToken | SecretKind::BasicAuth => 3,
        SecretKind::Jwt | SecretKind::CloudKey => 4,
        SecretKind::AnnotationSecret | SecretKind::EnvSecret => 5,
        SecretKind::IpAddress | SecretKind::InternalHostname | SecretKind::Email => 6,
    }
}

/// What to look for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanOptions {
    /// Also find IP addresses, internal host names and e-mail addresses (off by default: they are
    /// often the evidence itself).
    pub include_network: bool,
}

/// One secret found: where it is and what kind it is — never the secret itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SecretHit {
    pub kind: SecretKind,
    /// Index of the input in the slice given to [`scan`] or [`redact`].
    pub input: usize,
    /// 1-based line and column (in characters) of the value's first character.
    pub line: u32,
    pub column: u32,
    /// Byte span of the value in its input's text.
    #[serde(skip)]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
    /// A masked preview: at most the first two characters and the length (`hu… (7 chars)`).
    pub preview: String,
}

/// The redacted copy of the inputs, with what was replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted {
    /// The inputs, same names and order, each secret value replaced by its token.
    pub sources: Vec<Source>,
    /// What was found, positions in the original texts.
    pub hits: Vec<SecretHit>,
    /// How many distinct values were replaced (each got one token).
    pub tokens: usize,
}

/// A candidate span before overlaps are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub kind: SecretKind,
    pub start: usize,
    pub end: usize,
}

/// Finds every secret in the inputs, in input order, then text order.
pub fn scan(sources: &[Source], options: &ScanOptions) -> Vec<SecretHit> {
    scan_ingested(sources, &faultline_ingest::ingest_trees(sources), options)
}

/// [`scan`] with the inputs already read (`ingested` must be [`ingest::ingest`] of `sources`, or
/// the reading of their trees alone that [`scan`] does): the structure of Secrets, kubeconfigs and
/// annotations comes from its objects, so an analysis and a scan of the same inputs read them once
/// (the engine's `analyze_for_scan`).
// Called once a redaction: not inlined, so that a profile tells its cost apart.
#[inline(never)]
pub fn scan_ingested(sources: &[Source], ingested: &Ingested, options: &ScanOptions) -> Vec<SecretHit> {
    // Each input's line index, built only if something needs a position (one pass over the text).
    let lines: Vec<OnceCell<LineIndex>> = sources.iter().map(|_| OnceCell::new()).collect();
    let spans = find_all(sources, ingested, &lines, options);
    let mut hits = Vec::new();
    for (input, (source, spans)) in sources.iter().zip(&spans).enumerate() {
        if spans.is_empty() {
            continue;
        }
        let lines = lines[input].get_or_init(|| LineIndex::new(&source.text));
        for span in spans {
            let (line, column) = lines.position(&source.text, span.start);
            hits.push(SecretHit {
                kind: span.kind,
                input,
                line,
                column,
                start: span.start,
                end: span.end,
                preview: preview(&source.text[span.start..span.end]),
            });
        }
    }
    hits
}

/// [`scan`], then replaces every value found by its token. Tokens are shared across the inputs.
pub fn redact(sources: &[Source], options: &ScanOptions) -> Redacted {
    redact_ingested(sources, &faultline_ingest::ingest_trees(sources), options)
}

/// [`redact`] with the inputs already read (`ingested` must be [`ingest::ingest`] of `sources`), as
/// [`scan_ingested`] is [`scan`]: a redaction of inputs already analysed does not read them again
/// ([`crate::Reading::redact`]).
pub fn redact_ingested(sources: &[Source], ingested: &Ingested, options: &ScanOptions) -> Redacted {
    let hits = scan_ingested(sources, ingested, options);
    // Each value's token, as its kind and number: written out where it goes, not kept as a string.
    let mut tokens: Map<&str, (SecretKind, usize)> = Map::default();
    tokens.reserve(hits.len());
    let mut per_kind: Map<SecretKind, usize> = Map::default();
    let mut out = Vec::with_capacity(sources.len());
    // Hits come in input order: each input's are the next run of them.
    let mut rest = hits.as_slice();
    for (input, source) in sources.iter().enumerate() {
        let text = &source.text;
        let mut redacted = String::with_capacity(text.len());
        let mut at = 0;
        let count = rest.iter().take_while(|h| h.input == input).count();
        let (of_input, after) = rest.split_at(count);
        rest = after;
        for hit in of_input {
            let value = &text[hit.start..hit.end];
            let &mut (kind, n) = tokens.entry(value).or_insert_with(|| {
                let n = per_kind.entry(hit.kind).or_insert(0);
                *n += 1;
                (hit.kind, *n)
            });
            redacted.push_str(&text[at..hit.start]);
            redacted.push_str("<redacted:");
            redacted.push_str(kind.id());
            redacted.push(':');
            push_number(&mut redacted, n);
            redacted.push('>');
            // Keep the line count: each line the value spanned stays, blank, with its indentation
            // (inside a YAML block scalar a blank line is still part of the block). Inside double
            // quotes each line break is escaped, `\` at the end of the line: a break folds into a
            // space there and a blank line into a line break, and the token must read as itself.
            let quoted = text[..hit.start].ends_with('"');
            let mut rest = value;
            while let Some(nl) = rest.find('\n') {
                if quoted {
                    redacted.push('\\');
                }
                redacted.push('\n');
                rest = &rest[nl + 1..];
                let indent = rest.len() - rest.trim_start_matches([' ', '\t']).len();
                redacted.push_str(&rest[..indent]);
            }
            at = hit.end;
        }
        redacted.push_str(&text[at..]);
        out.push(Source::new(source.name.clone(), redacted));
    }
    let count = tokens.len();
    Redacted {
        sources: out,
        hits,
        tokens: count,
    }
}

/// All spans of all inputs, overlaps resolved, sorted by start.
// Called once a redaction: not inlined, so that a profile tells its cost apart.
#[inline(never)]
fn find_all(
    sources: &[Source],
    ingested: &Ingested,
    lines: &[OnceCell<LineIndex>],
    options: &ScanOptions,
) -> Vec<Vec<Span>> {
    let mut per_input: Vec<Vec<Span>> = sources
        .iter()
        .enumerate()
        .map(|(input, source)| {
            let objects = || ingested.objects.iter().filter(move |o| o.source == input);
            let mut candidates = structure::find(&source.text, &lines[input], objects());
            let mut found = scan::find(&source.text, options);
            // What the line scanner takes for a secret by its key's name, the structure may know to
            // be a name (an ExternalSecret's `secretKey: password`).
            // Only what was taken for a secret by its key's name: a token of a known shape is one
            // wherever it is.
            let mut names = structure::names(&source.text, &lines[input], objects());
            if !names.is_empty() {
                names.sort_unstable();
                found.retain(|s| {
                    let by_name = matches!(s.kind, SecretKind::EnvSecret | SecretKind::AnnotationSecret);
                    let i = names.partition_point(|&(start, _)| start <= s.start);
                    !(by_name && i > 0 && names[..i].iter().rev().take(4).any(|&(_, end)| s.end <= end))
                });
            }
            candidates.extend(found);
            resolve_overlaps(candidates)
        })
        .collect();
    propagate(sources, &mut per_input);
    per_input
}

/// Keeps, of overlapping candidates, the one whose kind ranks first (then the earliest, the longest).
fn resolve_overlaps(mut candidates: Vec<Span>) -> Vec<Span> {
    candidates.retain(|s| s.start < s.end);
    // Most often nothing overlaps: then every candidate stays, in text order.
    candidates.sort_unstable_by_key(|s| (s.start, s.end, rank(s.kind)));
    if candidates.windows(2).all(|w| w[0].end <= w[1].start) {
        return candidates;
    }
    // Candidates are taken rank by rank, each rank's from the earliest (the longest first where two
    // start together), each kept when it overlaps none kept before. Those kept of the ranks before
    // are in text order and overlap each other nowhere: a candidate overlaps one of them exactly
    // when it overlaps the last that starts before it ends (a binary search). Those kept of its own
    // rank so far all start before it: it can overlap only the last of them. (A sorted `Vec` with
    // inserts was quadratic in the number of spans, and a `BTreeMap` of them a third of redacting a
    // Secret of many keys.)
    let mut by_rank: [Vec<Span>; 7] = Default::default();
    for span in candidates {
        by_rank[usize::from(rank(span.kind))].push(span);
    }
    let mut accepted: Vec<Span> = Vec::new();
    for mut rank in by_rank {
        if rank.is_empty() {
            continue;
        }
        // Stable: spans of one start and end keep their order (sorted by start already, this is
        // one pass unless spans start together).
        rank.sort_by_key(|s| (s.start, usize::MAX - s.end));
        let mut kept: Vec<Span> = Vec::with_capacity(rank.len());
        for span in rank {
            let before = accepted.partition_point(|a| a.start < span.end);
            let overlaps = before > 0 && accepted[before - 1].end > span.start
                || kept.last().is_some_and(|k| k.end > span.start);
            if !overlaps {
                kept.push(span);
            }
        }
        accepted = merge_by_start(accepted, kept);
    }
    accepted
}

/// Two lists of spans sorted by start, as one.
fn merge_by_start(a: Vec<Span>, b: Vec<Span>) -> Vec<Span> {
    if b.is_empty() {
        return a;
    }
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        if y.start < x.start {
            out.extend(b.next());
        } else {
            out.extend(a.next());
        }
    }
    out.extend(a);
    out.extend(b);
    out
}

/// Whether `span` overlaps any of `spans`, which are sorted by start and do not overlap each other.
fn overlaps_any(spans: &[Span], span: &Span) -> bool {
    let i = spans.partition_point(|s| s.end <= span.start);
    spans.get(i).is_some_and(|s| s.start < span.end)
}

/// Characters that can continue a secret value: an occurrence of a value counts only when it is not
/// part of a longer word.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-' | b'.')
}

/// Values shorter than this are redacted where found but not searched for elsewhere: a short value
/// (`admin`) would match unrelated words.
const MIN_PROPAGATED_LEN: usize = 8;

/// Whether a value found is looked for elsewhere too: not a short one (`admin` would match unrelated
/// words), not a number, and not a name (`password`, `basic-auth`: lower-case words and hyphens are
/// key and object names far more often than secrets, and replacing a name everywhere it recurs takes
/// the diagnosis's words away).
fn is_propagated(value: &str) -> bool {
    value.len() >= MIN_PROPAGATED_LEN
        && !value.bytes().all(|b| b.is_ascii_digit())
        && !value.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
}

/// Looks for every value found anywhere else in the inputs and marks those occurrences too, with the
/// kind of the first finding. Linear: the texts are cut into words once and each word looked up.
// Called once a redaction: not inlined, so that a profile tells its cost apart.
#[inline(never)]
fn propagate(sources: &[Source], per_input: &mut [Vec<Span>]) {
    // Keyed by the text itself where it is as written (no copy for each of a big paste's values).
    let mut values: Map<Cow<'_, str>, SecretKind> = Map::default();
    // Each value goes in with its other form: no rehashing as a paste of many values fills it.
    values.reserve(2 * per_input.iter().map(Vec::len).sum::<usize>());
    let mut multi_word: Vec<(Cow<'_, str>, SecretKind)> = Vec::new();
    // A value that is one of the forms in already is not looked at again; nor is a value already
    // looked at (a Secret's value is often found twice: in `data` and in its last-applied
    // annotation; a paste may hold one PEM header line over and over, which is not one word).
    let mut seen: Set<&str> = Set::default();
    for (source, spans) in sources.iter().zip(per_input.iter()) {
        for span in spans {
            let value = &source.text[span.start..span.end];
            // (A value of one word is one of the forms in once looked at: only the others need
            // `seen`.)
            if !is_propagated(value)
                || values.contains_key(value)
                || !value.bytes().all(is_word_byte) && !seen.insert(value)
            {
                continue;
            }
            // The value as written, and as it reads escaped once and twice in JSON strings: usually
            // all three the same, so only the first is built. Then its other form: what it decodes
            // to when it is base64 (a Secret's value printed by `base64 -d`, or logged), or else its
            // base64 (a `stringData` value stored in `data`; base64 of base64 is not pasted).
            let once = json_escape(value);
            let twice = once.as_deref().and_then(json_escape);
            let decoded = base64::decode_text(value);
            let encoded = decoded.is_none().then(|| base64::encode(value.as_bytes()));
            let variants = [
                Some(Cow::Borrowed(value)),
                once.map(Cow::Owned),
                twice.map(Cow::Owned),
                decoded.filter(|d| is_propagated(d)).map(Cow::Owned),
                encoded.map(Cow::Owned),
            ];
            for variant in variants.into_iter().flatten() {
                if variant.bytes().all(is_word_byte) {
                    values.entry(variant).or_insert(span.kind);
                } else if multi_word.len() < 64 && !multi_word.iter().any(|(v, _)| *v == variant) {
                    multi_word.push((variant, span.kind));
                }
            }
        }
    }
    if values.is_empty() && multi_word.is_empty() {
        return;
    }
    for (source, spans) in sources.iter().zip(per_input.iter_mut()) {
        let text = source.text.as_bytes();
        let mut extra = Vec::new();
        // The first found span that does not end before the word being read: a word that starts
        // inside a found span is not looked up, as what it would add overlaps that span and goes.
        // Most words looked up were the values found themselves: a big paste's values were each
        // looked up in a table of all of them, a cache miss apiece once the table outgrew the cache.
        let mut found = 0;
        let mut i = 0;
        while i < text.len() {
            if !is_word_byte(text[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < text.len() && is_word_byte(text[i]) {
                i += 1;
            }
            while spans.get(found).is_some_and(|s| s.end <= start) {
                found += 1;
            }
            if spans.get(found).is_some_and(|s| s.start <= start) {
                continue;
            }
            // A word may carry punctuation around the value (`value.`): try it trimmed too.
            let word = &source.text[start..i];
            // `word.trim_end_matches(['.', '-'])`, bytewise.
            let dots = text[start..i]
                .iter()
                .rev()
                .take_while(|b| matches!(b, b'.' | b'-'))
                .count();
            let trimmed = &word[..word.len() - dots];
            let candidates = if trimmed.len() == word.len() {
                &[word][..]
            } else {
                &[word, trimmed][..]
            };
            for &candidate in candidates {
                if let Some(kind) = values.get(candidate) {
                    extra.push(Span {
                        kind: *kind,
                        start,
                        end: start + candidate.len(),
                    });
                    break;
                }
            }
        }
        for (value, kind) in &multi_word {
            // One searcher for each value, not one set up for each occurrence: a paste of the same
            // PEM header line over and over holds the value once per line.
            let finder = memchr::memmem::Finder::new(value.as_bytes());
            let mut from = 0;
            while let Some(found) = finder.find(&text[from..]) {
                let start = from + found;
                let end = start + value.len();
                let before_ok = start == 0 || !is_word_byte(text[start - 1]);
                let after_ok = end == text.len() || !is_word_byte(text[end]);
                if before_ok && after_ok {
                    extra.push(Span {
                        kind: *kind,
                        start,
                        end,
                    });
                }
                from = end;
            }
        }
        if !extra.is_empty() {
            // Found spans keep priority over propagated ones: only those that overlap none of them
            // are kept, then resolved among themselves.
            let found = std::mem::take(spans);
            extra.retain(|e| !overlaps_any(&found, e));
            if extra.is_empty() {
                *spans = found;
                continue;
            }
            // Both in text order (the word pass's, then each phrase's): merged, they are sorted,
            // and sorting them again in `resolve_overlaps` is one pass.
            extra.sort_by_key(|s| s.start);
            *spans = resolve_overlaps(merge_by_start(found, extra));
        }
    }
}

/// `value` escaped as in a JSON string, or `None` when that changes nothing (most values).
pub fn json_escape(value: &str) -> Option<String> {
    if !value
        .bytes()
        .any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r' | b'\t'))
    {
        return None;
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    Some(out)
}

/// The first two characters (only of values long enough that this gives nothing away) and the
/// length; never the value.
fn preview(value: &str) -> String {
    // Built by hand, not with `format!`: one preview for each of a big paste's hits.
    let mut out = String::with_capacity(24);
    if value.contains('\n') {
        out.push('(');
        push_number(&mut out, value.lines().count());
        out.push_str(" lines)");
        return out;
    }
    let chars = value.chars().count();
    if chars >= 12 {
        out.extend(value.chars().take(2));
    }
    out.push_str("… (");
    push_number(&mut out, chars);
    out.push_str(" chars)");
    out
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

#[cfg(test)]
mod tests;
