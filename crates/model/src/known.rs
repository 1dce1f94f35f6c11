//! The lines of the inputs that the catalog knows ([`faultline_ingest::known`]), as typed signals:
//! which entry, where (input and line), and what its placeholders named.

use faultline_ingest::known::{self, Recognised};
use faultline_ingest::node::{Node, NodeValue};
use faultline_report::Source;

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

/// Every known line of `sources`, the best entry of each.
pub fn scan(sources: &[Source]) -> Vec<KnownLine> {
    let mut out = Vec::new();
    for (source, input) in sources.iter().enumerate() {
        for (i, line) in input.text.lines().enumerate() {
            if line.len() > LONGEST || line.len() < 12 {
                continue;
            }
            // A line of JSON escapes the quotes that the component printed.
            let unescaped;
            let line = if line.contains("\\\"") {
                unescaped = line.replace("\\\"", "\"");
                unescaped.as_str()
            } else {
                line
            };
            if let Some(recognised) = known::best(line) {
                out.push(KnownLine {
                    source,
                    line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    text: line[recognised.start..recognised.end].to_string(),
                    recognised,
                });
            }
        }
    }
    out
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

/// The lines each object spans, as (input, first, last): `events` says whether Event objects count.
pub fn object_spans(model: &Model<'_>, events: bool) -> Vec<(usize, u32, u32)> {
    let mut read = Vec::new();
    for object in model.objects.iter().filter(|o| events || o.id.kind != "Event") {
        let mut lines = (u32::MAX, 0);
        extent(&object.node, &mut lines);
        if lines.0 <= lines.1 && lines.0 > 0 {
            read.push((object.source, lines.0, lines.1));
        }
    }
    read
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
    let mut read = object_spans(model, true);
    for event in &model.events {
        if let Some(at) = model.event_source_line(event) {
            if let Some(source) = model.sources.iter().position(|s| s.name == at.source.as_str()) {
                read.push((source, at.line, at.line));
            }
        }
    }
    read.extend(model.messages.iter().map(|(s, m)| (*s, m.line, m.line)));
    read.extend(model.logs.iter().map(|b| (b.source, b.first_line, b.last_line)));
    read.extend(model.known_lines().iter().map(|k| (k.source, k.line, k.line)));
    let mut out = Vec::new();
    for (source, input) in model.sources.iter().enumerate() {
        for (i, line) in input.text.lines().enumerate() {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('$') || line.len() > 2000
            {
                continue;
            }
            let lower = trimmed.to_lowercase();
            if !FAILURE_WORDS.iter().any(|w| lower.contains(w)) {
                continue;
            }
            if read
                .iter()
                .any(|(s, a, b)| *s == source && (*a..=*b).contains(&number))
            {
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
