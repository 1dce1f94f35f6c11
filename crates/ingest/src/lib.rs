//! Text in, Kubernetes objects out: format detection, parsing with positions, typed decoding.
//!
//! Nothing here decides anything about Kubernetes failures; it only turns what was pasted into objects
//! that remember the source and line they came from, and records every error and every thing it could
//! not use, so nothing is dropped silently.

pub mod api;
pub mod catalog;
pub mod decode;
pub mod describe;
pub mod events_table;
pub mod fragments;
pub mod get_table;
pub mod http;
pub mod json;
pub mod known;
pub mod kubectl_yaml;
pub mod lines;
pub mod log_errors;
pub mod logs;
pub mod messages;
mod namespaces;
pub mod node;
mod objects;
mod other;
pub mod pasted;
pub mod reading;
mod rewrap;
pub mod segment;
mod sniff;
pub mod split;
mod unread;
mod wrappers;
pub mod yaml;

pub use faultline_report::input::{looks_binary, text_from_bytes, BINARY_REASON};

use api::{CoreEvent, EventsV1Event, Pod};

use events_table::TableEvent;
use faultline_report::{InputError, InputSummary, ObjectRef};
use node::{Node, Pos};
use objects::{add_document, add_object};
use other::{fragment_of_command, read_other};
use segment::Segment;
use sniff::{dedent, indented_block_end, is_kubectl_reader, is_log_file, sniff, Sniffed};

/// One input: pasted text or a dropped file. The name is what evidence cites ("pod.yaml", "paste").
pub use faultline_report::Source;

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

impl CommandOutput {
    /// The output of `command` (empty when the paste does not show it), its HTTP statuses read.
    pub fn new(source: usize, command: Option<&segment::Command>, first_line: u32, text: String) -> Self {
        let command = command.map(|c| c.line.clone()).unwrap_or_default();
        Self {
            source,
            http: http::statuses(&command, first_line, &text),
            command,
            first_line,
            text,
        }
    }
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
    /// Container logs, by the Pod (or Job) they are of, with their terminal error ([`logs`]).
    pub logs: Vec<logs::LogBlock>,
    /// What this reading builds ([`ingest_trees`]: the objects' trees only).
    pub scope: Scope,
    /// The objects (indices into `objects`) of each `kubectl get` table whose rows name no
    /// namespace: one table lists one namespace ([`namespaces::unify_namespaces`]).
    pub tables_without_namespace: Vec<std::ops::Range<usize>>,
    /// Sentences that quote a record the input also holds (input, line): read as such, never as
    /// events of their own ([`fragments::drop_quoted_records`]).
    pub quoted: Vec<(usize, u32)>,
    /// The commands whose output the inputs hold ([`pasted`]): a next step never repeats one.
    pub commands: Vec<pasted::PastedCommand>,
}

/// What a reading builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// Everything the analysis reads.
    #[default]
    Analysis,
    /// The objects and their trees only, as redaction reads them ([`ingest_trees`]).
    Trees,
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

/// The objects of the inputs with their trees, as [`ingest`] reads them, and nothing else: what
/// redaction reads ([`crate::redact::redact`]). Their typed form is not decoded (every object is
/// [`Typed::Untyped`]), and the readers that make no objects are not run: events and `get` rows
/// without a header, kubectl's messages, container logs, other commands' output, unread lines. Those
/// readers go through every line of a text that is not YAML or JSON and were most of the cost of
/// redacting one (a paste of `password: …` lines); what decides where a document or a table starts
/// within such a text is run as in [`ingest`], so the objects are the same, at the same places.
pub fn ingest_trees(sources: &[Source]) -> Ingested {
    let mut out = Ingested {
        scope: Scope::Trees,
        ..Ingested::default()
    };
    for (index, source) in sources.iter().enumerate() {
        ingest_one(index, source, &mut out, &mut |_| {});
    }
    out
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
    ingest_observed_given(sources, None, progress)
}

/// [`ingest_observed`], one input's List read in parts ([`split::ingest_merged`]).
fn ingest_observed_given(
    sources: &[Source],
    mut merged: Option<split::Merged>,
    progress: &mut dyn FnMut(u64, u64),
) -> Ingested {
    let mut out = Ingested::default();
    let mut done = 0u64;
    let mut documents = 0u64;
    let mut next_report = PROGRESS_STEP;
    for (index, source) in sources.iter().enumerate() {
        let base = done;
        let mut reached = |offset: usize| {
            documents += 1;
            let at = base + offset as u64;
            if at >= next_report {
                next_report = at + PROGRESS_STEP;
                progress(at, documents);
            }
        };
        match merged.take_if(|m| m.index == index) {
            Some(merged) => ingest_one_with(
                index,
                &merged.skeleton,
                &mut out,
                &mut reached,
                Some((merged.items, merged.implied_kind.as_deref())),
            ),
            None => ingest_one(index, source, &mut out, &mut reached),
        }
        done += source.text.len() as u64;
        progress(done, documents);
    }
    out.quoted = fragments::drop_quoted_records(&mut out.table_events);
    // Kept through the whole analysis: without its growth room.
    out.objects.shrink_to_fit();
    out
}

fn ingest_one(index: usize, source: &Source, out: &mut Ingested, reached: Reached<'_>) {
    ingest_one_with(index, source, out, reached, None);
}

/// [`ingest_one`]; `items` are a List's items read elsewhere ([`split`]), with the kind the List
/// implies for them, added where the List's own would be: after its text is read, before the
/// input's namespaces are unified.
fn ingest_one_with(
    index: usize,
    source: &Source,
    out: &mut Ingested,
    reached: Reached<'_>,
    items: Option<(Vec<Node>, Option<&str>)>,
) {
    // A binary file is refused as the app refuses it: one error, nothing read.
    if looks_binary(&source.text) {
        out.errors.push(InputError::new(
            &source.name,
            Pos { line: 1, column: 1 },
            crate::reading::Msg::Binary {
                name: source.name.clone(),
            },
        ));
        out.inputs.push(InputSummary {
            source: source.name.clone(),
            format: Format::Binary.id().to_string(),
            documents: 0,
            objects: 0,
            kinds: Default::default(),
            sha256: String::new(),
        });
        return;
    }
    let objects_before = out.objects.len();
    let events_before = out.table_events.len();
    let mut formats: Vec<Format> = Vec::new();
    let mut documents = 0;
    // The rests a hard wrap moved out of a quoted or indented block, joined back, line for line.
    let rejoined_block = rewrap::rejoin_broken_prefix(&source.text);
    let text = rejoined_block.as_deref().unwrap_or(&source.text);
    // Quoting, k9s borders and colour codes taken off, line for line (`None`: the text has none).
    let unwrapped = wrappers::unwrap(text);
    let text = unwrapped.as_deref().unwrap_or(text);
    // The spaces a terminal or chat client padded every line with, taken off.
    let unpadded = wrappers::unpad(text);
    let text = unpadded.as_deref().unwrap_or(text);
    // Table headers and rows a mail client hard-wrapped, joined, line for line.
    let rejoined = rewrap::rejoin_tables(text);
    let text = rejoined.as_deref().unwrap_or(text);
    let segments = segment::split(text);
    // A file named like a log is one log (a `% Total` line of curl's is no prompt there), unless a
    // `kubectl logs` prompt in it says whose each part is.
    let analysis = out.scope == Scope::Analysis;
    if analysis {
        if let Some(block) = logs::read_file(index, &source.name, text, &segments) {
            out.logs.push(block);
        }
    }
    // Each segment's command with what its output read (objects, event rows), for [`pasted`].
    let mut outputs: Vec<pasted::Output> = Vec::new();
    for segment in segments {
        let read_from = (out.objects.len(), out.table_events.len());
        // Segments are slices of the text: their offset turns the readers' offsets into the input's.
        let base = segment.text.as_ptr() as usize - text.as_ptr() as usize;
        // A container's log is kept as evidence, whatever else reads the segment.
        if analysis {
            if let Some(block) = logs::read(index, &text[..base], &segment) {
                out.logs.push(block);
            }
        }
        let (format, docs) = ingest_segment(index, source, &segment, out, &mut |at| reached(base + at));
        if let Some(command) = &segment.command {
            outputs.push(pasted::Output {
                line: segment.first_line.saturating_sub(1),
                command: command.line.clone(),
                objects: read_from.0..out.objects.len(),
                events: read_from.1..out.table_events.len(),
            });
        }
        documents += docs;
        if format != Format::Empty {
            formats.push(format);
        }
    }
    if let Some((items, implied_kind)) = items {
        for item in items {
            add_object(index, source, item, implied_kind, out);
        }
    }
    if analysis {
        namespaces::unify_namespaces(out, objects_before, events_before);
        pasted::record(index, source, &outputs, objects_before, events_before, out);
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
        sha256: String::new(),
    });
}

/// The rows of one `kubectl get` table as objects; a table whose rows name no namespace is
/// remembered as one ([`Ingested::tables_without_namespace`]).
fn add_table(index: usize, source: &Source, rows: Vec<Node>, out: &mut Ingested) {
    let first = out.objects.len();
    for node in rows {
        add_object(index, source, node, None, out);
    }
    let table = first..out.objects.len();
    if !table.is_empty()
        && out.objects[table.clone()]
            .iter()
            .all(|o| o.id.namespace.is_none())
    {
        out.tables_without_namespace.push(table);
    }
}

/// Reads one segment of an input; returns its format and how many documents (or tables) it held.
fn ingest_segment(
    index: usize,
    source: &Source,
    segment: &Segment<'_>,
    out: &mut Ingested,
    reached: Reached<'_>,
) -> (Format, usize) {
    let error =
        |pos: Pos, message: faultline_report::message::Message| InputError::new(&source.name, pos, message);
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
    // A document in a markdown code block with a sentence after it (`    apiVersion: v1` …, a blank
    // line, `Any idea?` at the margin): the block is read alone, then the sentence, so the
    // document does not end in a syntax error at the sentence.
    if let Some(end) = indented_block_end(segment.text) {
        if matches!(
            sniff(&segment.text[..end], segment.command.as_ref()),
            Sniffed::Yaml | Sniffed::Json
        ) {
            let block = Segment {
                first_line: segment.first_line,
                text: &segment.text[..end],
                command: segment.command.clone(),
                log: false,
            };
            let rest = Segment {
                first_line: segment.first_line
                    + segment.text[..end].bytes().filter(|&b| b == b'\n').count() as u32,
                text: &segment.text[end..],
                command: segment.command.clone(),
                log: false,
            };
            let (format, documents) = ingest_segment(index, source, &block, out, &mut *reached);
            let (after, more) = ingest_segment(index, source, &rest, out, &mut |at| reached(end + at));
            let format = match after {
                Format::Empty | Format::Text => format,
                _ => Format::Mixed,
            };
            return (format, documents + more);
        }
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
                        crate::reading::Msg::JsonCutOff {
                            error: cut.message.clone(),
                        }
                        .into(),
                    ));
                }
                match doc.result {
                    Ok(node) => list |= add_document(index, source, node, out),
                    Err(e) => out.errors.push(error(e.pos, *e.message)),
                }
            }
            (if list { Format::JsonList } else { Format::Json }, count)
        }
        Sniffed::Yaml => {
            let mut docs = yaml::parse_documents_observed(segment.text, segment.first_line, reached);
            // A document that does not parse may have been hard-wrapped by a mail client: read the
            // rejoined copy when it parses better.
            // Fewer documents that do not parse, or as many with the first error further on.
            let broken = |docs: &[yaml::YamlDocument]| {
                let errors = docs.iter().filter(|d| d.result.is_err()).count();
                let first = docs
                    .iter()
                    .find_map(|d| d.result.as_ref().err())
                    .map(|e| e.pos.line);
                (errors, std::cmp::Reverse(first))
            };
            if broken(&docs).0 > 0 {
                if let Some(joined) = rewrap::rejoin(segment.text, rewrap::Keys::Yaml) {
                    let again = yaml::parse_documents(&joined, segment.first_line);
                    if broken(&again) < broken(&docs) {
                        docs = again;
                    }
                }
            }
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
                        out.errors.push(error(e.pos, *e.message));
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
        // What makes no objects, not read for a reading of trees ([`ingest_trees`]).
        Sniffed::EventsTable if out.scope == Scope::Trees => (Format::EventsTable, 1),
        Sniffed::Messages if out.scope == Scope::Trees => (Format::Messages, 0),
        Sniffed::EventsTable => {
            let rows = events_table::parse(segment.text, segment.first_line, segment.command.as_ref())
                .unwrap_or_default();
            if rows.is_empty() {
                // A header whose rows do not fit its columns (tab-aligned 1.4 events whose tabs do
                // not line up once expanded): the rows are read one by one, as event lines,
                // rather than dropped under a table of nothing.
                return read_other(index, source, segment, out, reached);
            }
            out.table_events.extend(rows.into_iter().map(|row| (index, row)));
            (Format::EventsTable, 1)
        }
        Sniffed::Messages => {
            // kubectl's warning before its output (`Warning: v1 ComponentStatus is deprecated in
            // v1.19+`, then the table): the messages up to where a whole format starts, then that
            // output as a segment of its own.
            let mut offset = 0;
            for (i, raw) in segment.text.split_inclusive('\n').enumerate() {
                let line = raw.trim_end();
                // A table's header only: a message's own continuation may be JSON (`error when
                // applying patch:` then the patch).
                let table =
                    get_table::is_header(line, segment.command.as_ref()) || events_table::is_header(line);
                if i > 0 && table {
                    let head = Segment {
                        first_line: segment.first_line,
                        text: &segment.text[..offset],
                        command: segment.command.clone(),
                        log: false,
                    };
                    let rest = Segment {
                        first_line: segment.first_line + i as u32,
                        text: &segment.text[offset..],
                        command: segment.command.clone(),
                        log: false,
                    };
                    let (_, messages) = ingest_segment(index, source, &head, out, &mut *reached);
                    let (format, documents) =
                        ingest_segment(index, source, &rest, out, &mut |at| reached(offset + at));
                    return (format, messages + documents);
                }
                offset += raw.len();
            }
            let found = messages::parse(segment.text, segment.first_line, segment.command.as_ref());
            let count = found.len();
            out.messages.extend(found.into_iter().map(|m| (index, m)));
            (Format::Messages, count)
        }
        Sniffed::GetTable => {
            // A table and, with no prompt between them, other output after it (`get nodes`, then a
            // manifest): the rest is read as what it is, never as rows.
            if let Some(end) = sniff::table_end(segment.text, segment.command.as_ref()) {
                let table = Segment {
                    first_line: segment.first_line,
                    text: &segment.text[..end],
                    command: segment.command.clone(),
                    log: false,
                };
                let rest = Segment {
                    first_line: segment.first_line
                        + segment.text[..end].bytes().filter(|&b| b == b'\n').count() as u32,
                    text: &segment.text[end..],
                    command: None,
                    log: false,
                };
                let (_, tables) = ingest_segment(index, source, &table, out, &mut *reached);
                let (format, docs) = ingest_segment(index, source, &rest, out, &mut |at| reached(end + at));
                let format = if format == Format::GetTable || format == Format::Empty {
                    Format::GetTable
                } else {
                    Format::Mixed
                };
                return (format, tables + docs);
            }
            let (rows, cut) =
                get_table::parse_rows(segment.text, segment.first_line, segment.command.as_ref());
            if let Some(line) = cut {
                out.unread.push((
                    index,
                    fragments::UnreadLines {
                        line,
                        end_line: line,
                        reason: fragments::UnreadReason::CutRow,
                    },
                ));
            }
            // A table of a kind no command names (a custom resource's): its rows stay text.
            if rows.is_empty() && out.scope == Scope::Analysis {
                out.outputs.push(CommandOutput::new(
                    index,
                    segment.command.as_ref(),
                    segment.first_line,
                    segment.text.to_string(),
                ));
            }
            add_table(index, source, rows, out);
            (Format::GetTable, 1)
        }
        Sniffed::Describe => {
            // Fields a mail client hard-wrapped, rejoined (one line of the copy per line of the text).
            let joined = rewrap::rejoin(segment.text, rewrap::Keys::Describe);
            let text = joined.as_deref().unwrap_or(segment.text);
            // Its indentation given back where it was lost (collapsed spaces, tabs).
            let reindented = describe::reindent(text);
            let text = reindented.as_deref().unwrap_or(text);
            let objects = describe::parse(text, segment.first_line, segment.command.as_ref());
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
                    if object.whole {
                        pasted::described(index, out);
                    }
                } else {
                    out.errors.push(error(
                        object.node.pos,
                        crate::reading::Msg::DescribeKindUnknown {}.into(),
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
            if out.scope == Scope::Analysis {
                // What kubectl itself said while it wrote (`kubectl apply`'s `Error from server
                // (Forbidden): … exceeded quota`) is kubectl's message, read as such; the rest of
                // its output stays text.
                if segment
                    .command
                    .as_ref()
                    .is_some_and(|c| fragments::is_kubectl_client(&c.line))
                {
                    let found = messages::parse(segment.text, segment.first_line, segment.command.as_ref());
                    out.messages.extend(found.into_iter().map(|m| (index, m)));
                }
                out.outputs.push(CommandOutput::new(
                    index,
                    segment.command.as_ref(),
                    segment.first_line,
                    segment.text.to_string(),
                ));
            }
            (Format::CommandOutput, 1)
        }
        Sniffed::Other => read_other(index, source, segment, out, reached),
    }
}

#[cfg(test)]
mod tests;
