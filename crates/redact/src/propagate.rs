//! A value once known is redacted everywhere: every value found is looked for in every input — as
//! written, escaped in JSON, decoded when it is base64 and encoded in base64 — and so is every value
//! of an earlier redaction ([`Known`]), in inputs added after it.

use std::borrow::Cow;

use faultline_ingest::Source;
use faultline_report::hash::{Map, Set};

use super::{base64, json_escape, merge_by_start, overlaps_any, resolve_overlaps, SecretKind, Span};

/// Characters that can continue a secret value: an occurrence of a value counts only when it is not
/// part of a longer word.
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-' | b'.')
}

/// Values shorter than this are redacted where found but not searched for elsewhere: a short value
/// (`admin`) would match unrelated words.
const MIN_PROPAGATED_LEN: usize = 8;

/// Whether a value found is looked for elsewhere too: not a short one (`admin` would match unrelated
/// words), not a number, and not a name (`password`, `basic-auth`: lower-case words and hyphens are
/// key and object names far more often than secrets, and replacing a name everywhere it recurs takes
/// the diagnosis's words away).
pub(crate) fn is_propagated(value: &str) -> bool {
    value.len() >= MIN_PROPAGATED_LEN
        && !value.bytes().all(|b| b.is_ascii_digit())
        && !value.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
}

/// The values of earlier redactions, each with its token (name and number): a value redacted from
/// one input is redacted, with the same token, from an input added later, where nothing else may
/// say it is a secret (the app's worker keeps them from one redaction to the next). Only values
/// worth looking for elsewhere are kept ([`is_propagated`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    pub(crate) values: Map<String, KnownValue>,
}

/// A known value's kind, rule, and token (name and number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KnownValue {
    pub kind: SecretKind,
    pub rule: Option<&'static str>,
    pub name: &'static str,
    pub number: usize,
}

impl Known {
    /// How many values are known.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every known value and its token, in no particular order (for the command line's listing).
    pub fn tokens(&self) -> impl Iterator<Item = (&str, String)> {
        self.values
            .iter()
            .map(|(v, k)| (v.as_str(), format!("<redacted:{}:{}>", k.name, k.number)))
    }
}

/// The forms in which `value` is looked for: as written; escaped once and twice as in JSON strings
/// (usually the same, so not built); what it decodes to when it is base64 (a Secret's value printed
/// by `base64 -d`, or logged), or else its base64 (a `stringData` value stored in `data`; base64 of
/// base64 is not pasted).
pub(crate) fn variants(value: &str) -> [Option<Cow<'_, str>>; 5] {
    let once = json_escape(value);
    let twice = once.as_deref().and_then(json_escape);
    let decoded = base64::decode_text(value);
    let encoded = decoded.is_none().then(|| base64::encode(value.as_bytes()));
    [
        Some(Cow::Borrowed(value)),
        once.map(Cow::Owned),
        twice.map(Cow::Owned),
        decoded.filter(|d| is_propagated(d)).map(Cow::Owned),
        encoded.map(Cow::Owned),
    ]
}

/// What found a value: its kind and rule.
type Origin = (SecretKind, Option<&'static str>);

/// Puts each form of `value` in with its kind: one word in `values`, a phrase in `multi_word`.
fn add<'a>(
    value: &'a str,
    kind: Origin,
    values: &mut Map<Cow<'a, str>, Origin>,
    multi_word: &mut Vec<(Cow<'a, str>, Origin)>,
) {
    for variant in variants(value).into_iter().flatten() {
        if variant.bytes().all(is_word_byte) {
            values.entry(variant).or_insert(kind);
        } else if multi_word.len() < 64 && !multi_word.iter().any(|(v, _)| *v == variant) {
            multi_word.push((variant, kind));
        }
    }
}

/// Looks for every value found, and every `known` value, anywhere in the inputs and marks those
/// occurrences too, with the kind of the first finding. Linear: the texts are cut into words once
/// and each word looked up.
// Called once a redaction: not inlined, so that a profile tells its cost apart.
#[inline(never)]
pub(crate) fn propagate(sources: &[Source], per_input: &mut [Vec<Span>], known: &Known) {
    // Keyed by the text itself where it is as written (no copy for each of a big paste's values).
    let mut values: Map<Cow<'_, str>, Origin> = Map::default();
    // Each value goes in with its other form: no rehashing as a paste of many values fills it.
    values.reserve(2 * per_input.iter().map(Vec::len).sum::<usize>() + 2 * known.len());
    let mut multi_word: Vec<(Cow<'_, str>, Origin)> = Vec::new();
    for (value, k) in &known.values {
        add(value, (k.kind, k.rule), &mut values, &mut multi_word);
    }
    // A value already looked at is not looked at again (a Secret's value is often found twice: in
    // `data` and in its last-applied annotation; a paste may hold one PEM header line over and
    // over).
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
            add(value, (span.kind, span.rule), &mut values, &mut multi_word);
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
            // And a value after `KEY=` (`=` is a byte of base64, so of a word): the rest of the word
            // after its first `=` that is not padding.
            let assigned = memchr::memchr(b'=', &text[start..i])
                .filter(|&eq| text.get(start + eq + 1).is_some_and(|&b| b != b'='))
                .map(|eq| eq + 1);
            let candidates = [
                (0, word),
                (0, trimmed),
                (assigned.unwrap_or(0), &word[assigned.unwrap_or(0)..]),
            ];
            let tried = if assigned.is_some() {
                &candidates[..]
            } else if trimmed.len() != word.len() {
                &candidates[..2]
            } else {
                &candidates[..1]
            };
            for &(offset, candidate) in tried {
                if let Some(&(kind, rule)) = values.get(candidate) {
                    extra.push(Span {
                        rule,
                        kind,
                        start: start + offset,
                        end: start + offset + candidate.len(),
                    });
                    break;
                }
            }
        }
        for (value, (kind, rule)) in &multi_word {
            // One searcher for each value, not one set up for each occurrence: a paste of the same
            // PEM header line over and over holds the value once per line.
            let finder = memchr::memmem::Finder::new(value.as_bytes());
            let mut from = 0;
            while let Some(found) = finder.find(&text[from..]) {
                let start = from + found;
                let end = start + value.len();
                // A value of several words is distinctive: it needs no more than not to go on into
                // letters or digits (`KEY=value` is found, `value` in `valuex` is not).
                let before_ok = start == 0 || !text[start - 1].is_ascii_alphanumeric();
                let after_ok = end == text.len() || !text[end].is_ascii_alphanumeric();
                if before_ok && after_ok {
                    extra.push(Span {
                        rule: *rule,
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
