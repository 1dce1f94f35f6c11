//! The lines of the inputs that the catalog knows ([`faultline_ingest::known`]), as typed signals:
//! which entry, where (input and line), and what its placeholders named.

use faultline_ingest::known::{self, Layer, Recognised};
use faultline_ingest::node::{Node, NodeValue};
use faultline_report::hash::Set;
use faultline_report::Source;

use crate::line_index::{self, LineIndex};
use crate::Model;

/// A known line of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownLine {
    /// The input's index.
    pub source: usize,
    /// 1-based.
    pub line: u32,
    /// The text the entry matched (the rest of the line is layout: a table's columns, a log prefix).
    pub text: String,
    pub recognised: Recognised,
}

/// Lines longer than this are not matched: a minified document on one line is read by the JSON
/// reader, and checking a template around each of its many hits would be quadratic.
const LONGEST: usize = 16 * 1024;

/// Every known line of `sources`, the best entry of each, with where each source's lines start:
/// one pass over every line ([`crate::Prescan::of`]).
pub fn scan(sources: &[Source]) -> (Vec<LineIndex>, Vec<KnownLine>) {
    let mut out = Vec::new();
    let mut indices = Vec::with_capacity(sources.len());
    // The lines the catalog does not know, each text once. A dump repeats most of its lines word
    // for word (`      ready: true`, a Pod template's fields): the 1,000-Pod YAML dump has 625,094
    // lines to look at and 49,654 distinct ones, of which 2,593 hold a needle. Matching each line
    // against the catalog's 920 needles was most of the rules' time on a dump (issue 43); a line
    // already found unknown is now only hashed. Known lines are matched again (they are few, and
    // their placeholders' values are the line's own).
    // Sized for what a dump needs (one distinct line in about 400 bytes: the 1,000-Pod dumps have
    // 49,654 in 19.8 MB of YAML and 50,144 in 42.9 MB of JSON), so that it is not grown through
    // five rehashes, each hashing every line again.
    let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
    let mut unknown: Set<&str> = Set::with_capacity_and_hasher(bytes / 512, Default::default());
    for (source, input) in sources.iter().enumerate() {
        let mut index = line_index::Builder::default();
        for (i, (start, line)) in line_index::lines(&input.text).enumerate() {
            index.push(start);
            if line.len() > LONGEST || line.len() < 12 || unknown.contains(line) {
                continue;
            }
            let text = line;
            let line = unescaped(line);
            let Some(recognised) = known::best(&line) else {
                unknown.insert(text);
                continue;
            };
            out.push(KnownLine {
                source,
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                text: line[recognised.start..recognised.end].to_string(),
                recognised,
            });
        }
        indices.push(index.finish(&input.text));
    }
    (indices, out)
}

/// A line as the component printed it: a line of JSON escapes its quotes, and Go's encoder its
/// `<`, `>` and `&` (`read udp 127.0.0.1:43082-\u003e127.0.0.53:53`).
pub fn unescaped(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\\') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = line.replace("\\\"", "\"");
    for (escape, c) in [("\\u003e", ">"), ("\\u003c", "<"), ("\\u0026", "&")] {
        if out.contains(escape) {
            out = out.replace(escape, c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The components whose lines a client of the API server prints as its own: kubectl's messages and
/// the API server's answers.
const API_CLIENT: [&str; 2] = ["kubectl", "kube-apiserver"];

/// Whether the catalog knows `line` as another component's than a client of the API server: its
/// author (the entry that speaks for the line, not a library's error such as `dial tcp …: i/o
/// timeout` that any client prints) is a runtime, a kubelet, a plugin, an add-on, etcd or a
/// controller. Such a line quoted after a kubectl command, or in a component's log, is that
/// component's failure, not kubectl's, even when it quotes an API server's refusal or a
/// connection error.
pub fn another_components_line(line: &str) -> bool {
    known::best(line).is_some_and(|r| another_component(r.entry))
}

/// Whether `line` is nothing but a library's error (`dial tcp 10.96.0.1:443: i/o timeout`, `lookup
/// db on 10.96.0.10:53: no such host`): no client of the API server prints one bare (kubectl says
/// `Unable to connect to the server: …`, client-go `couldn't get current server API group list:
/// …`), so whoever printed it, it is not kubectl's report.
pub fn bare_library_error(line: &str) -> bool {
    let line = line.trim();
    known::best(line).is_some_and(|r| {
        // Go's resolver error is its dial's: `dial tcp: lookup db: no such host`.
        let before = line[..r.start].trim_end();
        r.entry.layer == Layer::Library
            && (before.is_empty() || before == "dial tcp:" || before == "dial udp:")
    })
}

fn another_component(entry: &known::Known) -> bool {
    entry.layer != Layer::Library && !API_CLIENT.contains(&entry.component)
}

/// [`another_components_line`] for a line a rule cites: its text as cited, or the whole line of
/// the input it was read from (a reader may cite only the part it understood, such as a client-go
/// request inside a plugin's log line).
pub fn cites_another_component(model: &Model<'_>, evidence: &faultline_report::Evidence) -> bool {
    if another_components_line(&evidence.value) {
        return true;
    }
    let Some(source) = model.sources.iter().position(|s| s.name == evidence.source) else {
        return false;
    };
    // The one line asked about, not a scan of the whole input.
    model
        .input_line(source, evidence.line)
        .filter(|l| (12..=LONGEST).contains(&l.len()))
        .is_some_and(|l| another_components_line(&unescaped(l)))
}

/// The first and last line a node tree spans.
fn extent(node: &Node, lines: &mut (u32, u32)) {
    lines.0 = lines.0.min(node.pos.line);
    lines.1 = lines.1.max(node.pos.line);
    match &node.value {
        NodeValue::Map(entries) => {
            for e in entries.iter() {
                lines.0 = lines.0.min(e.key_pos.line);
                extent(&e.value, lines);
            }
        }
        NodeValue::Seq(items) => items.iter().for_each(|n| extent(n, lines)),
        _ => {}
    }
}

/// Lines of the inputs, marked: which a reader read. One flag per line, so asking costs nothing
/// whatever the input's size.
pub struct LineSet(Vec<Vec<bool>>);

impl LineSet {
    /// No line of `model`'s inputs marked.
    pub fn new(model: &Model<'_>) -> Self {
        LineSet(
            model
                .sources
                .iter()
                .map(|s| vec![false; s.text.lines().count() + 2])
                .collect(),
        )
    }

    /// Marks lines `first..=last` (1-based) of input `source`.
    pub fn mark(&mut self, source: usize, first: u32, last: u32) {
        if let Some(lines) = self.0.get_mut(source) {
            let end = (last as usize + 1).min(lines.len());
            for flag in lines.iter_mut().take(end).skip(first as usize) {
                *flag = true;
            }
        }
    }

    pub fn has(&self, source: usize, line: u32) -> bool {
        self.0
            .get(source)
            .and_then(|l| l.get(line as usize))
            .copied()
            .unwrap_or(false)
    }
}

/// Where an event was read: its input and line.
pub fn event_at(model: &Model<'_>, event: &crate::EventRecord) -> Option<(usize, u32)> {
    let at = model.event_source_line(event)?;
    let source = model.sources.iter().position(|s| s.name == at.source.as_str())?;
    Some((source, at.line))
}

/// Marks the lines each object spans; `events` says whether Event objects count.
pub fn mark_objects(model: &Model<'_>, events: bool, read: &mut LineSet) {
    for object in model.objects.iter().filter(|o| events || o.id.kind != "Event") {
        let mut lines = (u32::MAX, 0);
        extent(&object.node, &mut lines);
        if lines.0 <= lines.1 && lines.0 > 0 {
            read.mark(object.source, lines.0, lines.1);
        }
    }
}

/// Words a line that reports a failure has (lower case).
const FAILURE_WORDS: [&str; 20] = [
    "error",
    "failed",
    "failing",
    "failure",
    "refused",
    "timed out",
    "timeout",
    "denied",
    "back-off",
    "backoff",
    "exit code",
    "oomkilled",
    "out of memory",
    "unhealthy",
    "crashloop",
    "cannot ",
    "unable to",
    "panic",
    "fatal",
    "no such host",
];

/// The lines of the inputs that read like a failure (`error`, `failed`, `refused`, `timed out`, an
/// exit code, …) that no reader read as an object, an event, a kubectl message or a log, and that
/// the catalog does not know: what the engine could not judge, which a report must not call "no
/// fault". As (input, line), at most `most`.
pub fn unknown_failure_lines(model: &Model<'_>, most: usize) -> Vec<(usize, u32)> {
    let mut read = LineSet::new(model);
    mark_objects(model, true, &mut read);
    for (source, line) in model.events.iter().filter_map(|e| event_at(model, e)) {
        read.mark(source, line, line);
    }
    for (source, message) in model.messages {
        read.mark(*source, message.line, message.line);
    }
    for block in model.logs {
        read.mark(block.source, block.first_line, block.last_line);
    }
    for known in model.known_lines() {
        read.mark(known.source, known.line, known.line);
    }
    for &(source, line) in model.quoted {
        read.mark(source, line, line);
    }
    let mut out = Vec::new();
    for (source, input) in model.sources.iter().enumerate() {
        for (i, line) in input.text.lines().enumerate() {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('$') || line.len() > 2000
            {
                continue;
            }
            // A table's header (`NAME  STATUS  MESSAGE  ERROR`): column names, no failure.
            let header = trimmed.bytes().any(|b| b.is_ascii_uppercase())
                && trimmed.bytes().all(|b| {
                    b.is_ascii_uppercase()
                        || b.is_ascii_digit()
                        || matches!(b, b' ' | b'\t' | b'-' | b'_' | b'(' | b')' | b'/' | b'.')
                });
            if header {
                continue;
            }
            let lower = trimmed.to_lowercase();
            if !FAILURE_WORDS.iter().any(|w| lower.contains(w)) {
                continue;
            }
            if read.has(source, number) {
                continue;
            }
            out.push((source, number));
            if out.len() >= most {
                return out;
            }
        }
    }
    out
}
