//! Text in, Kubernetes objects out: format detection, parsing with positions, typed decoding.
//!
//! Nothing here decides anything about Kubernetes failures; it only turns what was pasted into objects
//! that remember the source and line they came from, and records every error and every thing it could
//! not use, so nothing is dropped silently.

pub mod api;
mod binary;
pub mod catalog;
pub mod decode;
pub mod describe;
pub mod events_table;
pub mod fragments;
pub mod get_table;
pub mod http;
pub mod json;
pub mod kubectl_yaml;
pub mod messages;
pub mod node;
pub mod segment;
mod wrappers;
pub mod yaml;

pub use binary::{looks_binary, BINARY_REASON};

use api::{CoreEvent, EventsV1Event, Pod};

use crate::report::{InputError, InputSummary, ObjectRef};
use events_table::TableEvent;
use node::{Node, NodeValue, Pos, Text};
use segment::Segment;

/// One input: pasted text or a dropped file. The name is what evidence cites ("pod.yaml", "paste").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Text from bytes as read from a file or received: valid UTF-8 is kept as it is, without a copy;
/// invalid sequences become U+FFFD, as a browser's text decoder does. (`String::from_utf8_lossy`
/// checks the bytes char by char and copies them: a tenth of analysing a big dump.)
pub fn text_from_bytes(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The text a command printed, when it is not a format the engine reads (`etcdctl alarm list`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandOutput {
    pub source: usize,
    pub command: String,
    pub first_line: u32,
    pub text: String,
    /// The HTTP statuses in `text`, read once here ([`http::statuses`]).
    pub http: Vec<http::HttpStatus>,
}

/// A decoded object of a kind some rule reads; everything else is kept as its node tree only.
#[derive(Clone, Debug)]
pub enum Typed {
    Pod(Box<Pod>),
    Event(Box<CoreEvent>),
    EventV1(Box<EventsV1Event>),
    /// A kind no rule reads yet, or one whose typed decoding failed (the error is reported).
    Untyped,
}

/// A Kubernetes object found in an input, with the tree it was read from for locating fields.
#[derive(Clone, Debug)]
pub struct Object {
    pub id: ObjectRef,
    pub api_version: String,
    /// Index of the input in the slice given to `analyze`.
    pub source: usize,
    pub node: Node,
    pub typed: Typed,
}

impl Object {
    /// Where a field path of this object sits in its input, if it is there.
    pub fn locate(&self, path: &str) -> Option<(Pos, &Node)> {
        self.node.locate(path)
    }
}

/// Everything ingest produced from all inputs.
#[derive(Debug, Default)]
pub struct Ingested {
    pub inputs: Vec<InputSummary>,
    pub objects: Vec<Object>,
    /// Rows of event tables, with the index of the input they came from.
    pub table_events: Vec<(usize, TableEvent)>,
    /// What kubectl printed instead of objects (API errors, connection failures), by input.
    pub messages: Vec<(usize, messages::ClientMessage)>,
    /// The output of other commands shown in a paste, by input: (input, command, first line, text).
    pub outputs: Vec<CommandOutput>,
    pub errors: Vec<InputError>,
    /// Lines no reader could use, by input: every line is read, recognised as other text (kept in
    /// `outputs`), or listed here with why.
    pub unread: Vec<(usize, fragments::UnreadLines)>,
}

/// The formats the engine recognises, as they appear in the report's `inputs[].format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    YamlList,
    YamlDocuments,
    Json,
    JsonList,
    EventsTable,
    GetTable,
    Describe,
    /// kubectl's own messages: API errors, connection failures, warnings.
    Messages,
    /// Container logs (a `logs.txt` of a cluster-info dump, a bundle's `*.log`): not analysed.
    ContainerLog,
    /// The output of a command other than kubectl's readers (`etcdctl`, `kubeadm`, `curl` through
    /// `kubectl run`): kept as text that rules may read, as the weakest kind of evidence.
    CommandOutput,
    /// Several segments (commands) of different formats in one input.
    Mixed,
    /// Text no whole-format reader takes, in which single records were found by content: event
    /// rows without their header, kubectl messages, messages of the catalog.
    Fragments,
    /// Text in which nothing was recognised: prose, logs, shell output, or unread lines.
    Text,
    /// Not text at all (NUL bytes, mostly invalid UTF-8): refused, nothing read.
    Binary,
    Empty,
}

impl Format {
    pub fn id(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::YamlList => "yaml-list",
            Format::YamlDocuments => "yaml-documents",
            Format::Json => "json",
            Format::JsonList => "json-list",
            Format::EventsTable => "events-table",
            Format::Describe => "describe",
            Format::GetTable => "get-table",
            Format::Messages => "kubectl-messages",
            Format::ContainerLog => "container-log",
            Format::CommandOutput => "command-output",
            Format::Mixed => "mixed",
            Format::Fragments => "fragments",
            Format::Text => "text",
            Format::Binary => "binary",
            Format::Empty => "empty",
        }
    }
}

pub fn ingest(sources: &[Source]) -> Ingested {
    ingest_observed(sources, &mut |_, _| {})
}

/// A key whose value the readers step over without building it: `metadata.managedFields`, the
/// server-side-apply bookkeeping that no rule reads and that is close to half of a `kubectl get -A -o
/// yaml|json` dump. Its syntax is still checked as far as bracket and string balance (JSON) or
/// indentation (YAML) go.
pub const SKIPPED_KEY: &str = "managedFields";

/// Fields dropped from an object's tree once it is read, by kind: the Pod template of a workload
/// controller. No rule, model or scan reads it (the Pods it made are what rules read, and a secret in
/// a template's `env` is found in the text), yet it is a third of a ReplicaSet or Deployment and, on a
/// 1,000-Pod dump, 3.8 MB of trees, kept until the report is made. The text stays as it was. Only
/// the built-in kinds (core, `apps`, `batch`, `extensions` groups): a custom resource's `spec.template`
/// is kept.
pub const PRUNED: [(&str, &str); 7] = [
    ("Deployment", "spec.template"),
    ("ReplicaSet", "spec.template"),
    ("ReplicationController", "spec.template"),
    ("StatefulSet", "spec.template"),
    ("DaemonSet", "spec.template"),
    ("Job", "spec.template"),
    ("CronJob", "spec.jobTemplate"),
];

/// How often reading reports progress, in bytes of input.
pub const PROGRESS_STEP: u64 = 256 * 1024;

/// Tells how far a reader has got in its text: called with a byte offset into the text it was given,
/// after each document and each item of a top-level List.
pub type Reached<'r> = &'r mut dyn FnMut(usize);

/// [`ingest`], calling `progress(bytes_done, documents_done)` about every [`PROGRESS_STEP`] bytes
/// (the readers report after each document and each List item, so one big List moves the count too)
/// and after each input. Documents here count List items one by one.
pub fn ingest_observed(sources: &[Source], progress: &mut dyn FnMut(u64, u64)) -> Ingested {
    let mut out = Ingested::default();
    let mut done = 0u64;
    let mut documents = 0u64;
    let mut next_report = PROGRESS_STEP;
    for (index, source) in sources.iter().enumerate() {
        let base = done;
        ingest_one(index, source, &mut out, &mut |offset| {
            documents += 1;
            let at = base + offset as u64;
            if at >= next_report {
                next_report = at + PROGRESS_STEP;
                progress(at, documents);
            }
        });
        done += source.text.len() as u64;
        progress(done, documents);
    }
    // Kept through the whole analysis: without its growth room.
    out.objects.shrink_to_fit();
    out
}

fn ingest_one(index: usize, source: &Source, out: &mut Ingested, reached: Reached<'_>) {
    // A binary file is refused as the app refuses it: one error, nothing read.
    if looks_binary(&source.text) {
        out.errors.push(InputError {
            source: source.name.clone(),
            line: 1,
            column: 1,
            message: format!("{} {BINARY_REASON}", source.name),
        });
        out.inputs.push(InputSummary {
            source: source.name.clone(),
            format: Format::Binary.id().to_string(),
            documents: 0,
            objects: 0,
            kinds: Default::default(),
        });
        return;
    }
    let objects_before = out.objects.len();
    let events_before = out.table_events.len();
    let mut formats: Vec<Format> = Vec::new();
    let mut documents = 0;
    // Quoting, k9s borders and colour codes taken off, line for line (`None`: the text has none).
    let unwrapped = wrappers::unwrap(&source.text);
    let text = unwrapped.as_deref().unwrap_or(&source.text);
    for segment in segment::split(text) {
        // Segments are slices of the text: their offset turns the readers' offsets into the input's.
        let base = segment.text.as_ptr() as usize - text.as_ptr() as usize;
        let (format, docs) = ingest_segment(index, source, &segment, out, &mut |at| reached(base + at));
        documents += docs;
        if format != Format::Empty {
            formats.push(format);
        }
    }
    let format = match formats.as_slice() {
        [] if is_log_file(&source.name) => Format::ContainerLog,
        [] => Format::Empty,
        [one] => *one,
        _ => Format::Mixed,
    };
    let mut kinds = std::collections::BTreeMap::new();
    for object in &out.objects[objects_before..] {
        *kinds.entry(object.id.kind.to_string()).or_insert(0) += 1;
    }
    if out.table_events.len() > events_before {
        *kinds.entry("Event".to_string()).or_insert(0) += out.table_events.len() - events_before;
    }
    out.inputs.push(InputSummary {
        source: source.name.clone(),
        format: format.id().to_string(),
        documents,
        objects: out.objects.len() - objects_before + out.table_events.len() - events_before,
        kinds,
    });
}

/// Reads one segment of an input; returns its format and how many documents (or tables) it held.
fn ingest_segment(
    index: usize,
    source: &Source,
    segment: &Segment<'_>,
    out: &mut Ingested,
    reached: Reached<'_>,
) -> (Format, usize) {
    let error = |pos: Pos, message: String| InputError {
        source: source.name.clone(),
        line: pos.line,
        column: pos.column,
        message,
    };
    if segment.log {
        return (Format::ContainerLog, 0);
    }
    // A markdown code block (every line indented by four spaces or more), or output pasted with an
    // indent: read as if it started at the left margin, lines where they were.
    if let Some(dedented) = dedent(segment.text) {
        let moved = Segment {
            first_line: segment.first_line,
            text: &dedented,
            command: segment.command.clone(),
            log: false,
        };
        return ingest_segment(index, source, &moved, out, reached);
    }
    match sniff(segment.text, segment.command.as_ref()) {
        Sniffed::Empty => (Format::Empty, 0),
        Sniffed::Json => {
            let docs = json::parse_documents_observed(segment.text, segment.first_line, reached);
            let count = docs.len();
            let mut list = false;
            // `kubectl get job x -o json | jq .status`, run again and again: a stream of the same
            // object's field, of which the last document is the state now.
            let fragment = segment.command.as_ref().and_then(fragment_of_command);
            let last_ok = docs.iter().rposition(|d| d.result.is_ok());
            for (i, doc) in docs.into_iter().enumerate() {
                let field_alone = doc.result.as_ref().is_ok_and(|n| n.get("kind").is_none());
                if let (Some(fragment), true) = (&fragment, field_alone) {
                    if let (Ok(node), true) = (doc.result, Some(i) == last_ok) {
                        add_object(index, source, fragment.wrap(node), None, out);
                    }
                    continue;
                }
                if let Some(cut) = &doc.cut_off {
                    out.errors.push(error(
                        cut.pos,
                        format!(
                            "{}: the input ends here, inside a JSON value (cut off?); everything complete \
                             before this point was read, the rest is lost",
                            cut.message
                        ),
                    ));
                }
                match doc.result {
                    Ok(node) => list |= add_document(index, source, node, out),
                    Err(e) => out.errors.push(error(e.pos, e.message)),
                }
            }
            (if list { Format::JsonList } else { Format::Json }, count)
        }
        Sniffed::Yaml => {
            let docs = yaml::parse_documents_observed(segment.text, segment.first_line, reached);
            let mut count = 0;
            let mut list = false;
            for doc in docs {
                match doc.result {
                    Ok(Some(node)) => {
                        count += 1;
                        list |= add_document(index, source, node, out);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        count += 1;
                        out.errors.push(error(e.pos, e.message));
                    }
                }
            }
            let format = match (list, count) {
                (true, 1) => Format::YamlList,
                (_, 0 | 1) => Format::Yaml,
                _ => Format::YamlDocuments,
            };
            (format, count)
        }
        Sniffed::EventsTable => {
            let rows = events_table::parse(segment.text, segment.first_line, segment.command.as_ref())
                .unwrap_or_default();
            out.table_events.extend(rows.into_iter().map(|row| (index, row)));
            (Format::EventsTable, 1)
        }
        Sniffed::Messages => {
            let found = messages::parse(segment.text, segment.first_line, segment.command.as_ref());
            let count = found.len();
            out.messages.extend(found.into_iter().map(|m| (index, m)));
            (Format::Messages, count)
        }
        Sniffed::GetTable => {
            for node in get_table::parse(segment.text, segment.first_line, segment.command.as_ref()) {
                add_object(index, source, node, None, out);
            }
            (Format::GetTable, 1)
        }
        Sniffed::Describe => {
            let objects = describe::parse(segment.text, segment.first_line, segment.command.as_ref());
            let count = objects.len();
            for object in objects {
                out.table_events
                    .extend(object.events.into_iter().map(|row| (index, row)));
                let kind_known = object
                    .node
                    .get("kind")
                    .and_then(Node::as_str)
                    .is_some_and(|k| !k.is_empty());
                if kind_known {
                    add_object(index, source, object.node, None, out);
                } else {
                    out.errors.push(error(
                        object.node.pos,
                        "cannot tell which kind of object this describe output is about (paste the \
                         `kubectl describe` command line with it); its events are still read"
                            .into(),
                    ));
                }
            }
            (Format::Describe, count)
        }
        // Logs saved by `kubectl cluster-info dump --output-directory` (`<ns>/<pod>/logs.txt`) and by
        // support bundles (`*.log`) are the application's, not kubectl's: set aside, not errors.
        Sniffed::Other if is_log_file(&source.name) => (Format::ContainerLog, 0),
        // Known command, unknown output format: kept as text, not an error.
        Sniffed::Other
            if segment
                .command
                .as_ref()
                .is_some_and(|c| !is_kubectl_reader(&c.line)) =>
        {
            let command = segment
                .command
                .as_ref()
                .map(|c| c.line.clone())
                .unwrap_or_default();
            out.outputs.push(CommandOutput {
                source: index,
                http: http::statuses(&command, segment.first_line, segment.text),
                command,
                first_line: segment.first_line,
                text: segment.text.to_string(),
            });
            (Format::CommandOutput, 1)
        }
        Sniffed::Other => read_other(index, source, segment, out, reached),
    }
}

/// The text without the indentation all its non-blank lines share, when that is two or more
/// columns and the text starts like describe output or a table (`    Name:  web`, `    NAME  READY
/// …`). YAML and JSON read the same at any indentation and are left alone.
fn dedent(text: &str) -> Option<String> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if !first.starts_with("  ") {
        return None;
    }
    let body = first.trim_start();
    let tabular = body.starts_with("Name:")
        || body.starts_with("NAME ")
        || body.starts_with("NAMESPACE ")
        || body.starts_with("LAST SEEN")
        || body.starts_with("Events:")
        || events_table::is_header(body);
    if !tabular {
        return None;
    }
    let common = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()?;
    if common < 2 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        out.push_str(
            line.get(common..)
                .filter(|_| line.len() > common && line[..common].trim().is_empty())
                .unwrap_or(line.trim_start_matches(' ')),
        );
    }
    Some(out)
}

/// A segment no whole-format reader takes from its first line: its lines are read one by one
/// ([`fragments`]) up to the first line where a whole format starts (an events or `get` table's
/// header, a describe object, a document), which is read from there on as a segment of its own.
/// Prose before a table, a sentence between two outputs, a describe fragment after `...` no longer
/// hide what follows them.
fn read_other(
    index: usize,
    source: &Source,
    segment: &Segment<'_>,
    out: &mut Ingested,
    reached: Reached<'_>,
) -> (Format, usize) {
    let text = segment.text;
    let command = segment.command.as_ref();
    // `kubectl get pods | grep web`: rows without their header.
    if let Some(rows) = get_table::headerless(text, segment.first_line, command) {
        for node in rows {
            add_object(index, source, node, None, out);
        }
        return (Format::GetTable, 1);
    }
    let mut offset = 0;
    let mut start_at = None;
    for (line_no, raw) in (segment.first_line..).zip(text.split_inclusive('\n')) {
        if offset > 0 && starts_whole_format(raw.trim_end(), command) {
            start_at = Some((offset, line_no));
            break;
        }
        offset += raw.len();
    }
    let mut head = &text[..start_at.map_or(text.len(), |(at, _)| at)];
    // A container's `State:` / `Last State:` block pasted alone: a Pod of its own, then the rest.
    if let Some((from, to, line)) = container_block(head, segment.first_line) {
        let context = fragments::Context::of(command);
        let node = describe::container_fragment(
            &head[from..to],
            line,
            context.name.as_deref().unwrap_or_default(),
            context.namespace.as_deref(),
        );
        if let Some(node) = node {
            let before = Segment {
                first_line: segment.first_line,
                text: &head[..from],
                command: segment.command.clone(),
                log: false,
            };
            let (_, mut documents) = ingest_segment(index, source, &before, out, reached);
            add_object(index, source, node, None, out);
            documents += 1;
            let after_line = line + head[from..to].lines().count() as u32;
            let after = Segment {
                first_line: after_line,
                text: &text[to..],
                command: segment.command.clone(),
                log: false,
            };
            let (_, more) = ingest_segment(index, source, &after, out, &mut |_| {});
            return (Format::Describe, documents + more);
        }
    }
    head = head.trim_end_matches(' ');
    let read = fragments::read(head, segment.first_line, command);
    let records = read.events.len() + read.messages.len();
    let mut format = if records > 0 {
        Format::Fragments
    } else {
        Format::Text
    };
    out.table_events
        .extend(read.events.into_iter().map(|e| (index, e)));
    out.messages.extend(read.messages.into_iter().map(|m| (index, m)));
    out.unread.extend(read.unread.into_iter().map(|u| (index, u)));
    for (first_line, text) in read.other {
        let command = command.map(|c| c.line.clone()).unwrap_or_default();
        out.outputs.push(CommandOutput {
            source: index,
            http: http::statuses(&command, first_line, &text),
            command,
            first_line,
            text,
        });
    }
    let mut documents = usize::from(records > 0);
    if let Some((at, line)) = start_at {
        let rest = Segment {
            first_line: line,
            text: &text[at..],
            command: segment.command.clone(),
            log: false,
        };
        let (rest_format, docs) = ingest_segment(index, source, &rest, out, &mut |o| reached(at + o));
        documents += docs;
        if rest_format != Format::Empty {
            format = if records > 0 || format == Format::Fragments {
                Format::Mixed
            } else {
                rest_format
            };
        }
    }
    (format, documents)
}

/// The block of consecutive non-blank lines around a `State:` line indented at least as far as it:
/// (start offset, end offset, first line number), when it also holds `Last State:`, `Ready:` or
/// `Restart Count:`.
fn container_block(text: &str, first_line: u32) -> Option<(usize, usize, u32)> {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let state = lines
        .iter()
        .position(|(_, l)| l.trim_start().starts_with("State:"))?;
    let depth = indent(lines[state].1);
    let inside = |l: &str| !l.trim().is_empty() && indent(l) >= depth;
    let mut first = state;
    while first > 0 && inside(lines[first - 1].1) {
        first -= 1;
    }
    let mut last = state;
    while last + 1 < lines.len() && inside(lines[last + 1].1) {
        last += 1;
    }
    let block = &lines[first..=last];
    let keyed = |key: &str| block.iter().any(|(_, l)| l.trim_start().starts_with(key));
    if !(keyed("Last State:") || keyed("Restart Count:") || keyed("Ready:")) {
        return None;
    }
    let end = lines[last].0 + lines[last].1.len();
    Some((lines[first].0, end, first_line + first as u32))
}

/// The object and field a command printed one field of: `kubectl get job x -o json | jq .status`,
/// `oc get pod y -n ns -o jsonpath='{.status}'`.
struct FieldOf {
    kind: String,
    name: String,
    namespace: Option<String>,
    field: String,
}

impl FieldOf {
    /// The field's document as the object it belongs to (`kind`, `metadata`, and the field).
    fn wrap(&self, value: Node) -> Node {
        let pos = value.pos;
        let mut object = node::MapBuilder::new(pos);
        object.str("kind", &self.kind, pos);
        let mut meta = node::MapBuilder::new(pos);
        meta.str("name", &self.name, pos);
        if let Some(ns) = &self.namespace {
            meta.str("namespace", ns, pos);
        }
        object.put("metadata", meta.node(), pos);
        object.put(&self.field, value, pos);
        object.node()
    }
}

fn fragment_of_command(command: &segment::Command) -> Option<FieldOf> {
    let line = &command.line;
    let field = if let Some((_, jq)) = line.split_once("| jq ") {
        jq.split_whitespace()
            .next()?
            .trim_matches(['\'', '"'])
            .strip_prefix('.')?
            .to_string()
    } else {
        let at = line.find("jsonpath=")?;
        let path = line[at + "jsonpath=".len()..].trim_matches(['\'', '"']);
        path.strip_prefix("{.")?
            .split(['}', '.', '['])
            .next()?
            .to_string()
    };
    if !matches!(field.as_str(), "status" | "spec" | "metadata") {
        return None;
    }
    let words: Vec<&str> = line.split_whitespace().take_while(|w| *w != "|").collect();
    let at = words.iter().position(|w| *w == "get")?;
    let mut args = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
    let target = args.next()?;
    let (kind, name) = match target.split_once('/') {
        Some((kind, name)) => (kind, name.to_string()),
        None => (
            *target,
            args.find(|w| command.namespace.as_deref().is_none_or(|ns| ns != **w))?
                .to_string(),
        ),
    };
    let kind = match kind.trim_end_matches('s') {
        "job" => "Job",
        "pod" | "po" => "Pod",
        "deployment" | "deploy" => "Deployment",
        "statefulset" | "st" => "StatefulSet",
        "node" | "no" => "Node",
        "persistentvolumeclaim" | "pvc" => "PersistentVolumeClaim",
        "service" | "svc" => "Service",
        _ => return None,
    };
    Some(FieldOf {
        kind: kind.to_string(),
        name,
        namespace: command.namespace.clone(),
        field,
    })
}

/// Whether a line starts a format read as a whole: an events table's header, a `get` table's
/// header, a describe object's `Name:`, a JSON document, a YAML object's first key.
fn starts_whole_format(line: &str, command: Option<&segment::Command>) -> bool {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return false;
    }
    // At any indentation: a markdown code block after a sentence is read as a whole too.
    events_table::is_header(trimmed)
        || describe::is_describe(trimmed, command)
        || get_table::is_header(trimmed, command)
        || trimmed == "{"
        || trimmed.starts_with("{\"")
        || trimmed.starts_with("apiVersion:")
        || trimmed.starts_with("kind:")
        || (line == trimmed && trimmed == "---")
}

/// kubectl commands whose output the engine is meant to read (`get`, `describe`, `events`): their
/// output in an unknown layout is an error worth reporting, not just text.
fn is_kubectl_reader(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    matches!(words.first(), Some(&"kubectl" | &"k" | &"oc"))
        && words.iter().any(|w| matches!(*w, "get" | "describe" | "events"))
}

fn is_log_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with("logs.txt") || name.ends_with(".log")
}

enum Sniffed {
    Empty,
    Json,
    Yaml,
    EventsTable,
    GetTable,
    Describe,
    Messages,
    /// None of these from its first meaningful line: read line by line ([`read_other`]).
    Other,
}

/// Decides how to read an input from its first meaningful line. YAML is tried only when that line
/// looks like YAML (a `key:`, a `---`, a `- ` item), so a pasted table is not reported as a YAML
/// syntax error somewhere in its middle.
fn sniff(text: &str, command: Option<&segment::Command>) -> Sniffed {
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || is_thematic_break(trimmed) {
            continue;
        }
        if events_table::is_header(trimmed) {
            return Sniffed::EventsTable;
        }
        if describe::is_describe(line, command) {
            return Sniffed::Describe;
        }
        if get_table::is_header(line, command) {
            return Sniffed::GetTable;
        }
        if messages::is_client_message(line)
            || command.is_some_and(|c| fragments::is_kubectl_client(&c.line)) && messages::is_message(line)
        {
            return Sniffed::Messages;
        }
        if looks_like_json_start(trimmed) {
            return Sniffed::Json;
        }
        // `---` is a document marker only alone or before a space: `-----BEGIN … KEY-----` (a key
        // printed by `cat`) is not YAML, and its redacted copy must read as it does.
        let marker = trimmed
            .strip_prefix("---")
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']));
        if marker || trimmed.starts_with("- ") || looks_like_yaml_key(trimmed) {
            return Sniffed::Yaml;
        }
        return Sniffed::Other;
    }
    Sniffed::Empty
}

/// A markdown horizontal rule between parts of a post (`- - -`, `* * *`, `___`): not YAML's `---`.
fn is_thematic_break(line: &str) -> bool {
    let marks = line.chars().filter(|c| !c.is_whitespace()).count();
    marks >= 3
        && line.contains(' ')
        && ['-', '*', '_']
            .iter()
            .any(|m| line.chars().all(|c| c == *m || c == ' '))
        || matches!(line, "***" | "___")
}

/// `{"kind": …`, `{` alone, `[` followed by a value: JSON. `[check-expiration] …` (kubeadm) and
/// `[10:01:44.429][ApiProxy]` (a log's time field) are not.
fn looks_like_json_start(line: &str) -> bool {
    if let Some(number) = line.strip_prefix('[').map(str::trim_start) {
        let after = number.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
        if number.starts_with(|c: char| c.is_ascii_digit())
            && !after.trim_start().starts_with([',', ']'])
            && !after.trim().is_empty()
        {
            return false;
        }
    }
    let mut chars = line.chars();
    let first = chars.next();
    matches!(
        (first, chars.find(|c| !c.is_whitespace())),
        (Some('{'), None | Some('"' | '}'))
            | (Some('['), None | Some('{' | '[' | '"' | ']' | '-' | '0'..='9'))
    )
}

/// The first line of a Kubernetes object in YAML: one of the top-level keys `kubectl get -o yaml`
/// and manifests start with. `kubectl describe` (`Name:         web`) and kubectl's own messages
/// (`error: the server doesn't have a resource type`) must not be read as YAML.
fn looks_like_yaml_key(line: &str) -> bool {
    let line = line.strip_prefix("- ").unwrap_or(line);
    let Some((key, rest)) = line.split_once(':') else {
        return false;
    };
    (rest.is_empty() || rest.starts_with(' '))
        && matches!(
            key.trim_matches(['"', '\'']),
            "apiVersion" | "kind" | "metadata" | "items" | "spec" | "status" | "data" | "stringData"
        )
}

/// Adds the objects of one parsed document; returns whether it was a `kind: List`.
fn add_document(index: usize, source: &Source, node: Node, out: &mut Ingested) -> bool {
    let kind = node
        .get("kind")
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    if kind == "List" || kind.ends_with("List") && node.get("items").is_some() {
        let item_kind = kind
            .strip_suffix("List")
            .filter(|k| !k.is_empty())
            .map(str::to_string);
        if let NodeValue::Map(entries) = node.value {
            for entry in entries {
                if entry.key == "items" {
                    if let NodeValue::Seq(items) = entry.value.value {
                        for item in items {
                            add_object(index, source, item, item_kind.as_deref(), out);
                        }
                    }
                }
            }
        }
        return true;
    }
    add_object(index, source, node, None, out);
    false
}

fn add_object(index: usize, source: &Source, mut node: Node, implied_kind: Option<&str>, out: &mut Ingested) {
    if !matches!(node.value, NodeValue::Map(_)) {
        out.errors.push(InputError {
            source: source.name.clone(),
            line: node.pos.line,
            column: node.pos.column,
            message: "this document is not a Kubernetes object (expected a map with `kind`)".into(),
        });
        return;
    }
    let text = |key: &str| node.get(key).and_then(Node::as_str);
    let meta = node.get("metadata");
    let meta_text = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Node::as_str)
            .map(Text::from)
    };
    let Some(kind) = text("kind").or(implied_kind).map(Text::from) else {
        out.errors.push(InputError {
            source: source.name.clone(),
            line: node.pos.line,
            column: node.pos.column,
            message: "this object has no `kind`, so it cannot be interpreted".into(),
        });
        return;
    };
    let id = ObjectRef {
        kind: kind.clone(),
        namespace: meta_text("namespace"),
        name: meta_text("name").unwrap_or_default(),
        uid: meta_text("uid"),
    };
    let api_version = text("apiVersion").unwrap_or_default().to_string();
    let (typed, problems) = decode_tolerant(&kind, &api_version, &node);
    let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
    if matches!(group, "" | "apps" | "batch" | "extensions") {
        for (pruned_kind, path) in PRUNED {
            if kind == pruned_kind {
                node.remove(path);
            }
        }
    }
    let gave_up = matches!(typed, Typed::Untyped) && !problems.is_empty();
    for (i, e) in problems.iter().enumerate() {
        let pos = e.pos.unwrap_or(node.pos);
        let outcome = if gave_up && i + 1 == problems.len() {
            "the object is kept for what can still be read from it"
        } else {
            "this field was ignored, the rest of the object was read"
        };
        out.errors.push(InputError {
            source: source.name.clone(),
            line: pos.line,
            column: pos.column,
            message: format!("{kind} {:?}: {e}; {outcome}", id.name),
        });
    }
    out.objects.push(Object {
        id,
        api_version,
        source: index,
        node,
        typed,
    });
}

/// Decodes the kinds rules read. A field that cannot be decoded (a redacted `restartCount: xxx`) is
/// removed and decoding retried, so one bad field costs that field, not the object: kube-rs's error
/// boundary, one level finer. (k8s-openapi defaults a missing required field, so removal is safe to
/// decode; rules that need such a field check the tree for its presence.) Each removed field is
/// returned as a problem to report.
fn decode_tolerant(kind: &str, api_version: &str, node: &Node) -> (Typed, Vec<decode::DecodeError>) {
    const MAX_REMOVALS: usize = 16;
    let mut problems = Vec::new();
    let mut patched: Option<Node> = None;
    loop {
        let current = patched.as_ref().unwrap_or(node);
        match decode_typed(kind, api_version, current) {
            Ok(typed) => return (typed, problems),
            Err(e) => {
                let target = patched.get_or_insert_with(|| node.clone());
                let removed = !e.path.is_empty() && problems.len() < MAX_REMOVALS && target.remove(&e.path);
                problems.push(e);
                if !removed {
                    return (Typed::Untyped, problems);
                }
            }
        }
    }
}

fn decode_typed(kind: &str, api_version: &str, node: &Node) -> Result<Typed, decode::DecodeError> {
    Ok(match (kind, api_version) {
        ("Pod", _) => Typed::Pod(Box::new(decode::decode(node)?)),
        ("Event", "events.k8s.io/v1") => Typed::EventV1(Box::new(decode::decode(node)?)),
        ("Event", _) => Typed::Event(Box::new(decode::decode(node)?)),
        _ => Typed::Untyped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_bytes_keeps_utf8_and_replaces_what_is_not() {
        let text = "kind: Pod # 日本語 ✓\n".to_string();
        let pointer = text.as_ptr();
        let kept = text_from_bytes(text.into_bytes());
        assert_eq!(kept, "kind: Pod # 日本語 ✓\n");
        assert_eq!(kept.as_ptr(), pointer, "valid UTF-8 is not copied");
        let bad = text_from_bytes(vec![b'a', 0xff, b'b', 0xc3, 0x28, b'c']);
        assert_eq!(bad, "a\u{FFFD}b\u{FFFD}(c");
    }

    /// A workload's Pod template is dropped from its tree once read (what the rest of the object
    /// says, and where, is unchanged); a custom resource's is kept; a secret in the template's `env`
    /// is still found, from the text.
    #[test]
    fn a_workload_pod_template_is_pruned_and_its_secrets_still_found() {
        let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-7d4\n  namespace: shop\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n        - name: DB_PASSWORD\n          value: hunter2-hunter2\nstatus:\n  replicas: 1\n";
        let custom = rs.replace("apps/v1", "example.com/v1");
        let sources = [Source::new("rs.yaml", rs), Source::new("custom.yaml", custom)];
        let got = ingest(&sources);
        assert_eq!(got.errors, vec![]);
        let workload = &got.objects[0];
        assert_eq!(workload.locate("spec.template").map(|(p, _)| p.line), None);
        assert_eq!(workload.locate("spec.replicas").map(|(p, _)| p.line), Some(7));
        assert_eq!(workload.locate("status.replicas").map(|(p, _)| p.line), Some(16));
        assert_eq!(
            got.objects[1].locate("spec.template").map(|(p, _)| p.line),
            Some(8)
        );
        let hits = crate::redact::scan_ingested(&sources, &got, &Default::default());
        assert!(
            hits.iter().any(|h| h.input == 0 && h.line == 14),
            "the template's env value is still a secret: {hits:?}"
        );
    }

    #[test]
    fn yaml_list_items_become_objects_with_their_own_positions() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n    namespace: ns\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n";
        let got = ingest(&[Source::new("list.yaml", text)]);
        assert_eq!(got.errors, vec![]);
        assert_eq!(got.inputs[0].format, "yaml-list");
        assert_eq!(got.objects.len(), 2);
        assert!(matches!(got.objects[0].typed, Typed::Pod(_)));
        assert_eq!(got.objects[1].id.kind, "ConfigMap");
        assert_eq!(got.objects[1].locate("metadata.name").unwrap().0.line, 12);
    }

    #[test]
    fn a_bad_object_is_reported_and_the_rest_still_ingested() {
        let text = "{\"kind\": \"PodList\", \"apiVersion\": \"v1\", \"items\": [\n{\"metadata\": {\"name\": \"ok\"}},\n{\"metadata\": {\"name\": \"bad\"}, \"spec\": {\"containers\": 7}}\n]}";
        let got = ingest(&[Source::new("pods.json", text)]);
        assert_eq!(got.inputs[0].format, "json-list");
        assert_eq!(got.objects.len(), 2, "both objects are kept");
        assert_eq!(got.errors.len(), 1);
        let err = &got.errors[0];
        assert_eq!((err.line, err.source.as_str()), (3, "pods.json"));
        assert!(err.message.contains("spec.containers"), "{}", err.message);
        assert!(
            matches!(got.objects[1].typed, Typed::Pod(_)),
            "only the bad field is lost"
        );
    }

    #[test]
    fn redacted_values_cost_only_their_field() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: <redacted>\n  namespace: RELEASE-NAME\n  uid: xxxx\nspec:\n  nodeName: '*.*.*.*'\n  containers: [{name: app, image: x}]\nstatus:\n  phase: Pending\n  podIP: '***'\n  containerStatuses:\n  - name: app\n    image: x\n    imageID: ''\n    ready: false\n    restartCount: xxx\n    state:\n      waiting:\n        reason: ErrImagePull\n";
        let got = ingest(&[Source::new("pod.yaml", text)]);
        assert_eq!(got.errors.len(), 1, "{:?}", got.errors);
        assert_eq!(got.errors[0].line, 18);
        assert!(got.errors[0].message.contains("restartCount") && got.errors[0].message.contains("ignored"));
        let Typed::Pod(pod) = &got.objects[0].typed else {
            panic!("the Pod is still decoded")
        };
        assert_eq!(got.objects[0].id.name, "<redacted>");
        let status = &pod.status.as_ref().unwrap().container_statuses.as_ref().unwrap()[0];
        assert_eq!(
            status
                .state
                .as_ref()
                .unwrap()
                .waiting
                .as_ref()
                .unwrap()
                .reason
                .as_deref(),
            Some("ErrImagePull")
        );
        // The tree keeps what was pasted, for evidence.
        assert_eq!(
            got.objects[0]
                .locate("status.containerStatuses[0].restartCount")
                .unwrap()
                .1
                .as_str(),
            Some("xxx")
        );
    }

    #[test]
    fn a_table_is_not_mistaken_for_broken_yaml() {
        let text = "LAST SEEN   TYPE      REASON   OBJECT       MESSAGE\n11s  Warning  Failed  pod/x  Failed to pull image \"a\": not found\n";
        let got = ingest(&[Source::new("events.txt", text)]);
        assert_eq!(got.inputs[0].format, "events-table");
        assert_eq!(got.errors, vec![]);
        assert_eq!(got.table_events[0].1.line, 2);
    }

    #[test]
    fn a_mixed_paste_reads_each_command_on_its_own_with_input_line_numbers() {
        let text = "$ kubectl -n shop get events\nLAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n1m          Warning   Failed   pod/a    Error: ErrImagePull\n\n$ kubectl -n shop get pod a -o yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: shop\n$ kubectl top pod\nerror: Metrics API not available\n";
        let got = ingest(&[Source::new("paste", text)]);
        assert_eq!(got.inputs[0].format, "mixed");
        assert_eq!(got.table_events[0].1.line, 3);
        assert_eq!(got.table_events[0].1.namespace.as_deref(), Some("shop"));
        assert_eq!(got.objects[0].locate("metadata.name").unwrap().0.line, 9);
        assert_eq!(got.errors, vec![]);
        let (_, message) = &got.messages[0];
        assert_eq!(
            (message.line, message.text.as_str()),
            (12, "Metrics API not available")
        );
        assert_eq!(message.command.as_deref(), Some("kubectl top pod"));
    }

    #[test]
    fn json_starts() {
        assert!(looks_like_json_start("{"));
        assert!(looks_like_json_start("{\"kind\": \"Pod\"}"));
        assert!(looks_like_json_start("[ {\"a\": 1} ]"));
        assert!(!looks_like_json_start("[check-expiration] Reading configuration"));
        assert!(!looks_like_json_start("{dedicated: ci-runners}"));
    }

    #[test]
    fn describe_text_is_read_as_describe_not_as_yaml() {
        let text = "$ kubectl describe pod mailer-7f4d6b8c95-gd2vr -n mail\nName:             mailer-7f4d6b8c95-gd2vr\nNamespace:        mail\nStatus:           Pending\n";
        let got = ingest(&[Source::new("d.txt", text)]);
        assert_eq!(got.inputs[0].format, "describe");
        assert_eq!(got.objects[0].id.kind, "Pod");
        assert_eq!(got.objects[0].locate("status.phase").unwrap().0.line, 4);
        // Without the command line and without sections that tell, the kind is unknown: said so.
        let got = ingest(&[Source::new("d.txt", &text[text.find('\n').unwrap() + 1..])]);
        assert!(got.objects.is_empty());
        assert!(
            got.errors[0].message.contains("cannot tell which kind"),
            "{:?}",
            got.errors
        );
    }

    #[test]
    fn events_of_both_api_groups_decode() {
        let text = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: e1\n  namespace: ns\neventTime: \"2025-02-11T09:35:34.000000Z\"\nreason: FailedScheduling\nregarding:\n  kind: Pod\n  name: p\n---\napiVersion: v1\nkind: Event\nmetadata:\n  name: e2\n  namespace: ns\ninvolvedObject:\n  kind: Pod\n  name: p\nreason: Failed\n";
        let got = ingest(&[Source::new("ev.yaml", text)]);
        assert_eq!(got.errors, vec![]);
        assert_eq!(got.inputs[0].format, "yaml-documents");
        assert!(matches!(got.objects[0].typed, Typed::EventV1(_)));
        assert!(matches!(got.objects[1].typed, Typed::Event(_)));
    }
}
