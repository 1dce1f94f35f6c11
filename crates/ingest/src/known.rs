//! The catalog's matcher: which known line (catalog/*.toml, compiled by build.rs) a line of text is,
//! whatever layout it sits in — an events-table row, a describe `Events:` section, `kubectl events`,
//! a klog line, a sentence of prose. One Aho–Corasick automaton over every entry's needle (its
//! longest literal) finds the candidates in one pass over the line; each candidate's whole template
//! is then checked around its needle, and the placeholders' values are read. Ingest only recognises:
//! what a match means for a fault is the rules' to say.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use faultline_report::{Boundary, Severity};

/// How a component records what it printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `Warning` event.
    Warning,
    /// A `Normal` event.
    Normal,
    /// A line of a component's log.
    Log,
    /// An error a client or tool prints.
    Error,
}

/// What an entry's words say for a line in which another entry is matched (catalog/README.md,
/// "Layers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// The line's author: the component that failed, whatever it quotes as the cause.
    Author,
    /// Words that only carry what they quote (`0/{n} nodes are available: {text}`, `Error from
    /// server ({reason}): {error}`, `Liveness probe failed: {text}`): an entry inside speaks for
    /// the line.
    Frame,
    /// A library's error that programs quote inside their own (`dial tcp {address}: i/o
    /// timeout`): it speaks for the line only when no other entry does.
    Library,
}

/// A piece of a template: text printed as it is, or a placeholder (`pod`, `node`, `error`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Text(&'static str),
    Hole(&'static str),
}

/// One entry of the catalog (catalog/README.md).
#[derive(Debug)]
pub struct Known {
    /// `<file>.<name>`: `kubelet.failed-mount`.
    pub id: &'static str,
    pub component: &'static str,
    /// The event reason it is recorded with (empty for a log line or an error).
    pub reason: &'static str,
    pub kind: Kind,
    /// The kind of object the line is about (empty when none).
    pub subject: &'static str,
    pub boundary: Boundary,
    pub severity: Severity,
    pub layer: Layer,
    pub template: &'static str,
    pub parts: &'static [Part],
    /// `owner/repo:path@tag`.
    pub source: &'static str,
    pub example: &'static str,
    /// For a failure an application logs about what it depends on (catalog/README.md,
    /// "Dependencies"): the kind of dependency (`postgresql`, `redis`, `http`, `any` …); empty
    /// for every other entry.
    pub dependency: &'static str,
    /// What went wrong (`refused`, `timeout`, `unresolved`, `certificate-expired`, `slow`,
    /// `crash` …); empty where the entry does not say.
    pub failure: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/known_entries.rs"));

/// A line the catalog knows: the entry, where the match is in the line, and what each placeholder
/// stood for there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recognised {
    pub entry: &'static Known,
    /// Byte range of the match in the line.
    pub start: usize,
    pub end: usize,
    /// (placeholder, value), in template order; a leading or trailing placeholder takes one word.
    pub values: Vec<(&'static str, String)>,
}

impl PartialEq for Known {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Known {}

impl Recognised {
    /// The value of the first placeholder named `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, v)| *n == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    }
}

/// The needle of an entry: its longest literal part (the automaton's pattern), and its index.
fn needle(entry: &Known) -> (usize, &'static str) {
    let mut best = (0, "");
    for (i, part) in entry.parts.iter().enumerate() {
        if let Part::Text(t) = part {
            if t.len() > best.1.len() {
                best = (i, t);
            }
        }
    }
    best
}

struct Matcher {
    automaton: AhoCorasick,
    /// The first eight bytes of every needle, hashed into a bitmap of [`FIRST8_BITS`] bits: a line
    /// with none of them at a place a needle fits holds no needle, and is not searched
    /// ([`Matcher::may_match`]).
    first8: Box<[u64]>,
    /// For each pattern of the automaton, the entries whose needle it is (and the needle's part).
    by_pattern: Vec<Vec<(usize, usize)>>,
}

/// The needles are at least this long (a test checks every entry's).
const SHORTEST_NEEDLE: usize = 12;

/// The size of [`Matcher::first8`], in bits (2^20: 128 KB). With 920 needles about one place in a
/// thousand of a line that holds none passes by chance (more pass by holding a word a needle
/// starts with).
const FIRST8_BITS: u32 = 20;

/// The bit of [`Matcher::first8`] for the eight bytes at the start of `bytes` (at least eight).
fn first8_bit(bytes: &[u8]) -> usize {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[..8]);
    (u64::from_le_bytes(word).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FIRST8_BITS)) as usize
}

impl Matcher {
    /// Whether `line` may hold a needle: whether the eight bytes at some place a needle fits are the
    /// start of one (or share its bit). Never false when a needle is there, so a line for which it
    /// is false is not searched: the automaton's overlapping search costs about 60 instructions a
    /// byte, this about 6, and on a 1,000-Pod dump 99 % of the lines hold no needle.
    fn may_match(&self, line: &[u8]) -> bool {
        let Some(last) = line.len().checked_sub(SHORTEST_NEEDLE) else {
            return false;
        };
        (0..=last).any(|at| {
            let bit = first8_bit(&line[at..]);
            self.first8[bit / 64] & (1 << (bit % 64)) != 0
        })
    }
}

fn matcher() -> Option<&'static Matcher> {
    static MATCHER: OnceLock<Option<Matcher>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let mut patterns: Vec<&'static str> = Vec::new();
            let mut by_pattern: Vec<Vec<(usize, usize)>> = Vec::new();
            for (e, entry) in ENTRIES.iter().enumerate() {
                let (part, text) = needle(entry);
                if text.is_empty() {
                    continue;
                }
                match patterns.iter().position(|p| *p == text) {
                    Some(at) => by_pattern[at].push((e, part)),
                    None => {
                        patterns.push(text);
                        by_pattern.push(vec![(e, part)]);
                    }
                }
            }
            let mut first8 = vec![0u64; (1 << FIRST8_BITS) / 64].into_boxed_slice();
            for needle in &patterns {
                let bit = first8_bit(needle.as_bytes());
                first8[bit / 64] |= 1 << (bit % 64);
            }
            let automaton = AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&patterns)
                .ok()?;
            Some(Matcher {
                automaton,
                first8,
                by_pattern,
            })
        })
        .as_ref()
}

/// A placeholder's value where it is bounded by literals: the text between them, trimmed of the
/// quotes and spaces around a name.
fn clean(value: &str) -> String {
    value
        .trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '\\')
        .to_string()
}

/// A placeholder before the first literal: the word right before it, with where it starts.
fn word_before(line: &str, at: usize) -> (String, usize) {
    let text = line[..at].trim_end();
    let start = text.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    (clean(&text[start..]), start)
}

/// A placeholder after the last literal: the word right after it, with where it ends.
fn word_after(line: &str, at: usize) -> (String, usize) {
    let text = &line[at..];
    let skipped = text.len() - text.trim_start().len();
    let word = text.trim_start();
    let len = word.find(char::is_whitespace).unwrap_or(word.len());
    (clean(&word[..len]), at + skipped + len)
}

/// Whether `value` may stand for placeholder `name` (`{n}` is a number).
fn fits(name: &str, value: &str) -> bool {
    match name {
        "n" => value
            .trim()
            .trim_start_matches('-')
            .starts_with(|c: char| c.is_ascii_digit()),
        _ => true,
    }
}

/// `entry` at the needle found at `at..at + needle.len()` of `line`, its other literals around it in
/// order; `None` when they are not there.
fn check(entry: &'static Known, needle_part: usize, line: &str, at: usize) -> Option<Recognised> {
    let parts = entry.parts;
    let Part::Text(needle) = parts[needle_part] else {
        return None;
    };
    // Literal positions: (start, end) per literal part, found backwards before the needle and
    // forwards after it; placeholders are the text between.
    let mut bounds: Vec<Option<(usize, usize)>> = vec![None; parts.len()];
    bounds[needle_part] = Some((at, at + needle.len()));
    let mut limit = at;
    for i in (0..needle_part).rev() {
        if let Part::Text(t) = parts[i] {
            let start = line[..limit].rfind(t)?;
            bounds[i] = Some((start, start + t.len()));
            limit = start;
        }
    }
    let mut from = at + needle.len();
    for i in needle_part + 1..parts.len() {
        if let Part::Text(t) = parts[i] {
            let start = from + line[from..].find(t)?;
            bounds[i] = Some((start, start + t.len()));
            from = start + t.len();
        }
    }
    let mut start = bounds.iter().flatten().map(|b| b.0).min().unwrap_or(at);
    let mut end = bounds.iter().flatten().map(|b| b.1).max().unwrap_or(at);
    let mut values = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let Part::Hole(name) = part else { continue };
        let before = (0..i).rev().find_map(|j| bounds[j]).map(|(_, end)| end);
        let after = (i + 1..parts.len())
            .find_map(|j| bounds[j])
            .map(|(start, _)| start);
        let value = match (before, after) {
            (Some(b), Some(a)) if b <= a => clean(&line[b..a]),
            (Some(_), Some(_)) => return None,
            (None, Some(a)) => {
                let (word, from) = word_before(line, a);
                start = start.min(from);
                word
            }
            (Some(b), None) if matches!(*name, "error" | "text") => {
                end = line.trim_end().len().max(b);
                clean(&line[b..])
            }
            (Some(b), None) => {
                let (word, to) = word_after(line, b);
                end = end.max(to);
                word
            }
            (None, None) => String::new(),
        };
        if !fits(name, &value) {
            return None;
        }
        values.push((*name, value));
    }
    Some(Recognised {
        entry,
        start,
        end,
        values,
    })
}

/// Every entry that `line` is, each once: the most specific for each stretch of the line, failures
/// first.
pub fn recognise(line: &str) -> Vec<Recognised> {
    let Some(m) = matcher() else {
        return Vec::new();
    };
    if !m.may_match(line.as_bytes()) {
        return Vec::new();
    }
    let mut found: Vec<Recognised> = Vec::new();
    for hit in m.automaton.find_overlapping_iter(line) {
        for &(e, part) in &m.by_pattern[hit.pattern().as_usize()] {
            let entry = &ENTRIES[e];
            if found.iter().any(|f| f.entry.id == entry.id) {
                continue;
            }
            if let Some(r) = check(entry, part, line, hit.start()) {
                found.push(r);
            }
        }
    }
    // The most specific entry decides the text it spans: a more general one over the same text
    // (`Error from server ({reason})` over `Error from server (NotFound)`) is dropped, unless the
    // more specific one is a frame and the other what it carries. Of what is
    // left, a failure comes before a remark elsewhere in the line (`No preemption victims found`
    // is the scheduler's remark on the `Too many pods` it just said). Of the failures, the line's
    // author comes first, and of the authors the one that spans most of the line: what it quotes
    // is its cause as it reports it (`Error syncing load balancer: … is forbidden: User …` is the
    // service controller's failure, not a client's refusal). A frame only carries what it quotes,
    // so an author inside it comes first (`0/3 nodes are available: 3 node(s) had untolerated
    // taint {node.kubernetes.io/unreachable: }`); a library's error (`dial tcp …: i/o timeout`)
    // speaks for the line last, whoever quotes it.
    found.sort_by_key(|r| std::cmp::Reverse(literal_len(r.entry)));
    let mut kept: Vec<Recognised> = Vec::with_capacity(found.len());
    for r in found {
        if !kept
            .iter()
            .any(|k| k.entry.layer != Layer::Frame && k.start <= r.start && r.end <= k.end)
        {
            kept.push(r);
        }
    }
    kept.sort_by_key(|r| {
        // Frames and libraries nest in each other (`rpc error: code = Unavailable desc = connection
        // error: desc = "transport: authentication handshake failed: …"`): of those, the most
        // words of its own is the most specific.
        let span = r.end - r.start;
        let outermost = if r.entry.layer == Layer::Author { span } else { 0 };
        (
            r.entry.severity == Severity::Info,
            r.entry.layer,
            std::cmp::Reverse(outermost),
            std::cmp::Reverse(literal_len(r.entry)),
            std::cmp::Reverse(span),
        )
    });
    kept
}

/// `entry` in `line`, by its own template alone (whether or not a more specific entry spans the
/// same text).
pub fn matches(entry: &'static Known, line: &str) -> Option<Recognised> {
    let (part, needle) = needle(entry);
    line.match_indices(needle)
        .find_map(|(at, _)| check(entry, part, line, at))
}

/// The best entry `line` is, if any.
pub fn best(line: &str) -> Option<Recognised> {
    recognise(line).into_iter().next()
}

fn literal_len(entry: &Known) -> usize {
    entry
        .parts
        .iter()
        .map(|p| match p {
            Part::Text(t) => t.len(),
            Part::Hole(_) => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_is_compiled_with_unique_ids_and_needles() {
        assert!(ENTRIES.len() >= 400, "{} entries", ENTRIES.len());
        let mut ids: Vec<&str> = ENTRIES.iter().map(|e| e.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "an id is declared twice");
        for entry in ENTRIES {
            assert!(
                needle(entry).1.len() >= SHORTEST_NEEDLE,
                "{}: needle too short",
                entry.id
            );
        }
        assert!(matcher().is_some());
    }

    /// The bitmap of the needles' first bytes lets through every line that holds a needle, and few
    /// others: on a `kubectl get -A -o json` dump and on every entry's example.
    #[test]
    fn the_first_bytes_filter_misses_no_needle_and_passes_few_other_lines() {
        let m = matcher().unwrap();
        let dump = include_str!("../../worker/warm/dump-3.json");
        let examples: Vec<&str> = ENTRIES.iter().map(|e| e.example).collect();
        let (mut passed, mut lines) = (0, 0);
        for line in dump.lines().chain(examples.iter().copied()) {
            let holds = m.automaton.find_overlapping_iter(line).next().is_some();
            let may = m.may_match(line.as_bytes());
            assert!(may || !holds, "a needle missed in {line:?}");
            lines += 1;
            passed += usize::from(may && !holds);
        }
        assert!(lines > 5000, "{lines}");
        // 228 of 5,375 here: words that start a needle too (`containers`, `resourceVersion`).
        assert!(
            passed * 100 < lines * 5,
            "{passed} of {lines} lines passed with no needle"
        );
    }

    /// Every entry's example is matched by its own template, alone on a line; and read by the automaton
    /// as that entry or a more specific one over the same text.
    #[test]
    fn every_example_is_recognised_as_its_own_entry() {
        let mut missed = Vec::new();
        for entry in ENTRIES {
            if matches(entry, entry.example).is_none() {
                missed.push(format!("{}: {}", entry.id, entry.example));
            }
        }
        assert!(
            missed.is_empty(),
            "{} missed:\n{}",
            missed.len(),
            missed.join("\n")
        );
    }

    /// The line's author speaks for it, whatever it quotes; a frame yields to an entry inside it;
    /// a library's error speaks last.
    #[test]
    fn the_author_of_a_line_speaks_for_it_not_what_it_quotes() {
        let id = |line: &str| best(line).map(|r| r.entry.id);
        // A registry request failure quoting a network error is containerd's.
        assert_eq!(
            id("failed to do request: Head \"https://registry.example.com/v2/app/manifests/1.0\": dial tcp 10.0.0.5:443: i/o timeout"),
            Some("runtime.containerd-registry-request-failed")
        );
        // The scheduler's frame yields to the refusal it carries.
        let line =
            "0/3 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.";
        assert_eq!(best(line).map(|r| r.entry.layer), Some(Layer::Author));
        // A network error alone is the library's.
        assert_eq!(
            id("dial tcp 10.96.0.1:443: i/o timeout"),
            Some("client.go-dial-io-timeout")
        );
    }

    #[test]
    fn placeholders_are_read_between_their_literals() {
        let line = "  Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"config\" : configmap \"app-config\" not found";
        let found = recognise(line);
        let mount = found
            .iter()
            .find(|r| r.entry.reason == "FailedMount")
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(mount.value("volume"), Some("config"));
        assert!(line[mount.start..mount.end].starts_with("MountVolume.SetUp failed"));
        assert!(recognise("nothing to see here, all pods are running fine").is_empty());
    }
}
