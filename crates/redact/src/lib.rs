//! Finds secrets in what was pasted and produces a redacted copy that is safe to share.
//!
//! Pure and deterministic like the rest of the engine. Three finders feed one list of hits:
//! - a structural one over the positioned node trees ingest builds (a Secret's `data` and
//!   `stringData`, a written-out docker config's credentials, a kubeconfig's user credentials, the
//!   Secret inside a `last-applied-configuration` annotation or a `kubectl -v=8` response body),
//!   because only the tree knows that a value under `data:` belongs to a `kind: Secret` printed
//!   further down (`structure`);
//! - gitleaks' maintained rule set for the tokens of known services ([`gitleaks`]: about 220 rules,
//!   vendored as data, each hit named by its rule, `github-pat`), with the few formats it lacks in
//!   [`tokens::FAMILIES`];
//! - a line scanner for what is Kubernetes' or any format's (YAML, JSON, describe, logs, curl
//!   output): PEM and PGP keys (also base64-encoded), JWTs, `Authorization` headers, credentials in
//!   URLs and connection strings, URL signatures, values of keys named like secrets (`DB_PASSWORD`,
//!   `api-token`, `SECRET_KEY_BASE`) in env lists, flow maps, annotations, `.properties` and INI
//!   lines, log lines and command-line flags, and a Secret's `data` pasted without its kind (`scan`,
//!   `pairs`, `inferred`).
//!
//! Where finders overlap, one span covers the value (the structure's first, then the specific
//! patterns, then names that merely look secret); a value that a service's rule found too is named
//! by that rule. A value cut by a hard wrap is joined with its piece on the next line (`wrapped`).
//!
//! Names are not secrets: a value is replaced, never its key; keys that name a Secret rather than
//! hold one (ingress-nginx's `auth-secret`, the External Secrets Operator's `secretKey`) are not read
//! as secret-named; and a value that reads like a name (`password`, `basic-auth`) is not looked for
//! elsewhere, where it would take key and object names with it.
//!
//! Every value found is then looked for everywhere else in the inputs — as written, decoded when it
//! is base64 and encoded in base64 — and so is every value of an earlier redaction ([`Known`]), so a
//! token that also appears in a log line, an annotation, the output of `base64 -d` or an input added
//! later is redacted there too, with the same replacement: `<redacted:NAME:N>` (NAME the kind, or
//! the rule for a token), numbered per name in first-seen order after any token already in the
//! inputs, one value and all its forms always one token, so correlation across objects survives.
//! Only values are replaced, never keys, and the replacement keeps YAML and JSON valid (it has no
//! quote, backslash, comma or bracket) and keeps the line count (a multi-line key becomes one line
//! of token and blank lines), so evidence lines of the redacted copy still point at the same places.
//!
//! The structural and line scanners are hand-written, each a linear pass; gitleaks' rules run only
//! around their keywords, on bounded windows, so hostile input stays linear too.

mod base64;
pub mod gitleaks;
mod inferred;
mod keys;
mod line_index;
mod network;
mod pairs;
mod patterns;
mod propagate;
mod scan;
pub mod shapes;
mod structure;
pub mod tokens;
mod wrapped;

pub use line_index::LineIndex;
pub use propagate::Known;
use propagate::{is_word_byte, propagate};

use faultline_report::hash::Map;
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
        SecretKind::Jwt | SecretKind::Token => 4,
        SecretKind::AnnotationSecret | SecretKind::EnvSecret => 5,
        SecretKind::IpAddress | SecretKind::InternalHostname | SecretKind::Email => 6,
    }
}

/// gitleaks' rule for any value under a secret-like key (`api_key = …`), a name-based rule like
/// the line scanner's own.
pub(crate) const GENERIC_RULE: &str = "generic-api-key";

/// gitleaks' rules that name no service, only where a secret is (a `curl` header, a JWT, a PEM
/// key, a Kubernetes Secret): a value they find that another finder found too keeps that finder's
/// kind, where a service's rule names it (`github-pat`).
const UNNAMING_RULES: [&str; 8] = [
    GENERIC_RULE,
    "curl-auth-header",
    "curl-auth-user",
    "jwt",
    "jwt-base64",
    "private-key",
    "kubernetes-secret-yaml",
    "nuget-config-password",
];

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
    /// The rule that found it: a gitleaks rule's id (`github-pat`; a [`SecretKind::Token`]'s, or
    /// `generic-api-key` for a value named by its key) or one of [`tokens::FAMILIES`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
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

impl SecretHit {
    /// What the hit is called in a token and a listing: its rule's id, or its kind's.
    pub fn name(&self) -> &'static str {
        self.rule.unwrap_or(self.kind.id())
    }
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
    /// The values replaced, this time and before, with their tokens: for a redaction of inputs
    /// added later ([`redact_known`]).
    pub known: Known,
}

/// A candidate span before overlaps are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The rule that found it (a [`SecretKind::Token`]'s).
    pub rule: Option<&'static str>,
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
    scan_known(sources, ingested, options, &Known::default())
}

/// [`scan_ingested`], also finding every value of an earlier redaction (`known`) wherever it is.
pub fn scan_known(
    sources: &[Source],
    ingested: &Ingested,
    options: &ScanOptions,
    known: &Known,
) -> Vec<SecretHit> {
    // Each input's line index, built only if something needs a position (one pass over the text).
    let lines: Vec<OnceCell<LineIndex>> = sources.iter().map(|_| OnceCell::new()).collect();
    let spans = find_all(sources, ingested, &lines, options, known);
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
                rule: span.rule,
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
    redact_with(sources, ingested, options, &Known::default(), false)
}

/// [`redact_ingested`], also replacing every value of an earlier redaction (`known`) wherever it
/// is, by the token it had; new values are numbered after every token already in the inputs or in
/// `known`, so no two values share one. [`Redacted::known`] is `known` with this redaction's values.
pub fn redact_known(
    sources: &[Source],
    ingested: &Ingested,
    options: &ScanOptions,
    known: &Known,
) -> Redacted {
    redact_with(sources, ingested, options, known, true)
}

/// [`redact_known`]; [`Redacted::known`] is left empty unless `keep` (a copy of every value is the
/// most of redacting a paste of many values, and only the app's worker keeps them).
fn redact_with(
    sources: &[Source],
    ingested: &Ingested,
    options: &ScanOptions,
    known: &Known,
    keep: bool,
) -> Redacted {
    let hits = scan_known(sources, ingested, options, known);
    // Each value's token, as its name and number: written out where it goes, not kept as a string.
    // A value's other forms (decoded, encoded, escaped) get its token too.
    let mut tokens: Map<Cow<'_, str>, (&'static str, usize)> = Map::default();
    tokens.reserve(hits.len());
    let mut per_kind: Map<&'static str, usize> = tokens_in(sources);
    let mut next = if keep { known.clone() } else { Known::default() };
    // Distinct values replaced: those given a new token, and the known ones met.
    let mut new_tokens = 0;
    let mut known_used: faultline_report::hash::Set<(&'static str, usize)> = Default::default();
    let known_tokens: faultline_report::hash::Set<(&'static str, usize)> =
        known.values.values().map(|k| (k.name, k.number)).collect();
    for (value, k) in &known.values {
        let n = per_kind.entry(k.name).or_insert(0);
        *n = (*n).max(k.number);
        for variant in propagate::variants(value).into_iter().flatten() {
            tokens
                .entry(Cow::Owned(variant.into_owned()))
                .or_insert((k.name, k.number));
        }
    }
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
            // A value not seen yet may be another form of one seen (its base64, or what it decodes
            // to): then it has that one's token. Looked up on a miss only, not built for every value.
            let other_form = || {
                let decoded = base64::decode_text(value).and_then(|d| tokens.get(d.as_str()).copied());
                decoded.or_else(|| {
                    propagate::is_propagated(value)
                        .then(|| base64::encode(value.as_bytes()))
                        .and_then(|e| tokens.get(e.as_str()).copied())
                })
            };
            let (name, n) = match tokens.get(value).copied().or_else(other_form) {
                Some(token) => token,
                None => {
                    let n = per_kind.entry(hit.name()).or_insert(0);
                    *n += 1;
                    let token = (hit.name(), *n);
                    tokens.insert(Cow::Borrowed(value), token);
                    new_tokens += 1;
                    if keep && propagate::is_propagated(value) {
                        next.values
                            .entry(value.to_string())
                            .or_insert(propagate::KnownValue {
                                kind: hit.kind,
                                rule: hit.rule,
                                name: token.0,
                                number: token.1,
                            });
                    }
                    token
                }
            };
            if known_tokens.contains(&(name, n)) {
                known_used.insert((name, n));
            }
            redacted.push_str(&text[at..hit.start]);
            redacted.push_str("<redacted:");
            redacted.push_str(name);
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
    // Distinct values replaced: each token once, however many forms it had.
    let count = new_tokens + known_used.len();
    Redacted {
        sources: out,
        hits,
        tokens: count,
        known: next,
    }
}

/// For each token name, the highest number of a `<redacted:NAME:N>` already in the inputs (a copy
/// redacted before, with an input added since).
fn tokens_in(sources: &[Source]) -> Map<&'static str, usize> {
    let mut out: Map<&'static str, usize> = Map::default();
    for source in sources {
        let text = source.text.as_str();
        for at in memchr::memmem::find_iter(text.as_bytes(), b"<redacted:") {
            let rest = &text[at + "<redacted:".len()..];
            let Some(end) = rest.get(..rest.len().min(80)).and_then(|r| r.find('>')) else {
                continue;
            };
            let Some((name, number)) = rest[..end].rsplit_once(':') else {
                continue;
            };
            let Ok(number) = number.parse::<usize>() else {
                continue;
            };
            if let Some(name) = token_name(name) {
                let n = out.entry(name).or_insert(0);
                *n = (*n).max(number);
            }
        }
    }
    out
}

/// The `'static` name a token written as `name` has: a kind's id or a rule's.
fn token_name(name: &str) -> Option<&'static str> {
    SecretKind::ALL
        .iter()
        .map(|k| k.id())
        .chain(gitleaks::RULES.iter().map(|r| r.id))
        .chain(tokens::FAMILIES.iter().map(|f| f.id))
        .find(|&id| id == name)
}

/// All spans of all inputs, overlaps resolved, sorted by start.
// Called once a redaction: not inlined, so that a profile tells its cost apart.
#[inline(never)]
fn find_all(
    sources: &[Source],
    ingested: &Ingested,
    lines: &[OnceCell<LineIndex>],
    options: &ScanOptions,
    known: &Known,
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
                    let by_name = matches!(s.kind, SecretKind::EnvSecret | SecretKind::AnnotationSecret)
                        || s.rule == Some(GENERIC_RULE);
                    let i = names.partition_point(|&(start, _)| start <= s.start);
                    !(by_name && i > 0 && names[..i].iter().rev().take(4).any(|&(_, end)| s.end <= end))
                });
            }
            candidates.extend(found);
            // A value that a token rule and a pattern both found is one span, the pattern's, named
            // by the rule (a GitHub token as a URL's password is a `github-pat`); what the
            // structure found keeps its kind, and so does what gitleaks' generic rule found (it
            // reads a key's name, as the pattern did).
            let mut named: Vec<(usize, usize, &'static str)> = candidates
                .iter()
                .filter_map(|s| {
                    let rule = s
                        .rule
                        .filter(|r| s.kind == SecretKind::Token && !UNNAMING_RULES.contains(r))?;
                    Some((s.start, s.end, rule))
                })
                .collect();
            named.sort_unstable();
            let mut spans = resolve_overlaps(candidates);
            if !named.is_empty() {
                for span in spans.iter_mut().filter(|s| (2..=5).contains(&rank(s.kind))) {
                    let at = named.partition_point(|&(start, end, _)| (start, end) < (span.start, span.end));
                    if let Some(&(start, end, rule)) = named.get(at) {
                        if (start, end) == (span.start, span.end) {
                            span.kind = SecretKind::Token;
                            span.rule = Some(rule);
                        }
                    }
                }
            }
            wrapped::join(&source.text, &mut spans);
            spans
        })
        .collect();
    propagate(sources, &mut per_input, known);
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
