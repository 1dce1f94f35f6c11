//! A segment no whole-format reader takes from its first line: read line by line up to where a
//! whole format starts; a container's state block pasted alone; one field of an object printed by
//! `jq` or `-o jsonpath`.

use super::node::{self, Node};
use super::objects::add_object;
use super::segment::{self, Segment};
use super::sniff::starts_whole_format;
use super::{describe, fragments, get_table, ingest_segment};
use super::{CommandOutput, Format, Ingested, Reached, Scope, Source};

/// A segment no whole-format reader takes from its first line: its lines are read one by one
/// ([`fragments`]) up to the first line where a whole format starts (an events or `get` table's
/// header, a describe object, a document), which is read from there on as a segment of its own.
/// Prose before a table, a sentence between two outputs, a describe fragment after `...` no longer
/// hide what follows them.
pub(super) fn read_other(
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
        super::add_table(index, source, rows, out);
        return (Format::GetTable, 1);
    }
    // `kubectl get nodes` or `get pods` rows alone, without the command (it was named in a sentence
    // before them, or cut): the run of rows is read as a table, the text after it on its own.
    if command.is_none() {
        let end = get_table::node_rows_end(text).max(get_table::pod_rows_end(text));
        if end > 0 && end < text.len() {
            let rows = Segment {
                first_line: segment.first_line,
                text: &text[..end],
                command: None,
                log: false,
            };
            let (format, documents) = ingest_segment(index, source, &rows, out, &mut |_| {});
            let after = Segment {
                first_line: segment.first_line + text[..end].lines().count() as u32,
                text: &text[end..],
                command: None,
                log: false,
            };
            let (_, more) = ingest_segment(index, source, &after, out, &mut |o| reached(end + o));
            return (format, documents + more);
        }
    }
    let mut offset = 0;
    let mut start_at = None;
    for (line_no, raw) in (segment.first_line..).zip(text.split_inclusive('\n')) {
        let node_rows =
            command.is_none() && (get_table::node_rows_end(raw) > 0 || get_table::pod_rows_end(raw) > 0);
        if offset > 0 && (starts_whole_format(raw.trim_end(), command) || node_rows) {
            start_at = Some((offset, line_no));
            break;
        }
        offset += raw.len();
    }
    let mut head = &text[..start_at.map_or(text.len(), |(at, _)| at)];
    // A container's `State:` / `Last State:` block, or a node's `Conditions:` table, pasted alone:
    // an object of its own, then the rest.
    let context = fragments::Context::of(command);
    let name = context.name.as_deref().unwrap_or_default();
    let namespace = context.namespace.as_deref();
    let fragment = container_block(head, segment.first_line)
        .and_then(|(from, to, line)| {
            Some((
                from,
                to,
                line,
                describe::container_fragment(&head[from..to], line, name, namespace)?,
            ))
        })
        .or_else(|| {
            let (from, to, line) = conditions_block(head, segment.first_line)?;
            Some((
                from,
                to,
                line,
                describe::conditions_fragment(&head[from..to], line, name, namespace)?,
            ))
        })
        .or_else(|| {
            let (from, to, line) = taints_block(head, segment.first_line)?;
            Some((from, to, line, node_taints(&head[from..to], line, name)?))
        });
    if let Some((from, to, line, node)) = fragment {
        {
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
    // Lines read one by one make no objects: a reading of trees only steps over them.
    let read = if out.scope == Scope::Analysis {
        fragments::read(head, segment.first_line, command)
    } else {
        fragments::Read::default()
    };
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
        // A crash's log pasted without its command, beside the describe of its Pod.
        if segment.command.is_none() {
            if let Some(block) = super::logs::by_shape(index, first_line, &text) {
                out.logs.push(block);
            }
        }
        out.outputs
            .push(CommandOutput::new(index, command, first_line, text));
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
pub(super) fn container_block(text: &str, first_line: u32) -> Option<(usize, usize, u32)> {
    // Most texts have no such line: they are not cut into lines for nothing.
    memchr::memmem::find(text.as_bytes(), b"State:")?;
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    // `State:`, or `Last State:` where the paste starts below the current state.
    let state = lines
        .iter()
        .position(|(_, l)| l.trim_start().starts_with("State:"))
        .or_else(|| {
            lines
                .iter()
                .position(|(_, l)| l.trim_start().starts_with("Last State:"))
        })?;
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
    let anchor_is_last = lines[state].1.trim_start().starts_with("Last State:");
    let beside = keyed("Restart Count:") || keyed("Ready:");
    // A termination quoted alone: `Last State: Terminated`, its `Reason:` and `Exit Code:`.
    let termination = anchor_is_last && keyed("Reason:") && keyed("Exit Code:");
    if !(beside || termination || (!anchor_is_last && keyed("Last State:"))) {
        return None;
    }
    let end = lines[last].0 + lines[last].1.len();
    Some((lines[first].0, end, first_line + first as u32))
}

/// A `Conditions:` line and the table indented under it: (start offset, end offset, first line).
pub(super) fn conditions_block(text: &str, first_line: u32) -> Option<(usize, usize, u32)> {
    // Most texts have no such line: they are not read line by line for nothing.
    memchr::memmem::find(text.as_bytes(), b"Conditions:")?;
    let mut at = 0;
    let mut found: Option<(usize, usize, u32)> = None;
    for (number, line) in (first_line..).zip(text.split_inclusive('\n')) {
        let indent = line.len() - line.trim_start().len();
        match &mut found {
            None if line.trim() == "Conditions:" => found = Some((at, at + line.len(), number)),
            Some((start, end, _)) => {
                let title = &text[*start..];
                let depth = title.len() - title.trim_start().len();
                if line.trim().is_empty() || indent <= depth {
                    break;
                }
                *end = at + line.len();
            }
            None => {}
        }
        at += line.len();
    }
    found.filter(|(start, end, _)| text[*start..*end].lines().count() > 2)
}

/// A node's `Taints:` field pasted alone (a describe cut to it): from its line to the last taint
/// under it, when one of them is a node condition's (`node.kubernetes.io/…`).
fn taints_block(text: &str, first_line: u32) -> Option<(usize, usize, u32)> {
    let at = memchr::memmem::find(text.as_bytes(), b"Taints:")?;
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    if !text[start..at].trim().is_empty() {
        return None;
    }
    let line = first_line + text[..start].matches('\n').count() as u32;
    // The field's line, and the lines under it that hold one taint each (describe aligns them).
    let mut end = start;
    for (i, raw) in text[start..].split_inclusive('\n').enumerate() {
        let body = raw.trim();
        let taint = body.trim_start_matches("Taints:").trim();
        let is_taint = taint.contains(':') && !taint.contains(' ') && !taint.is_empty();
        if (i == 0 && is_taint) || (i > 0 && is_taint && raw.starts_with(' ')) {
            end += raw.len();
        } else {
            break;
        }
    }
    (end > start && text[start..end].contains("node.kubernetes.io/")).then_some((start, end, line))
}

/// A Node object of the taints of a [`taints_block`]: `key[=value]:Effect` each, at its line.
fn node_taints(text: &str, first_line: u32, name: &str) -> Option<Node> {
    use super::node::MapBuilder as Obj;
    let pos = node::Pos::new(first_line, 1);
    let mut taints = Vec::new();
    for (n, raw) in (first_line..).zip(text.lines()) {
        let taint = raw.trim().trim_start_matches("Taints:").trim();
        let (head, effect) = taint.rsplit_once(':')?;
        let key = head.split('=').next().unwrap_or(head);
        let at = node::Pos::new(n, (raw.len() - raw.trim_start().len() + 1) as u32);
        let mut t = Obj::new(at);
        t.str("key", key, at);
        t.str("effect", effect, at);
        taints.push(t.node());
    }
    let mut object = Obj::new(pos);
    object.str("kind", "Node", pos);
    let mut meta = Obj::new(pos);
    meta.str("name", name, pos);
    object.put("metadata", meta.node(), pos);
    let mut spec = Obj::new(pos);
    spec.put(
        "taints",
        Node::new(node::NodeValue::Seq(taints.into_boxed_slice()), pos),
        pos,
    );
    object.put("spec", spec.node(), pos);
    Some(object.node())
}

/// The object and field a command printed one field of: `kubectl get job x -o json | jq .status`,
/// `oc get pod y -n ns -o jsonpath='{.status}'`.
pub(super) struct FieldOf {
    kind: String,
    name: String,
    namespace: Option<String>,
    field: String,
}

impl FieldOf {
    /// The field's document as the object it belongs to (`kind`, `metadata`, and the field).
    pub(super) fn wrap(&self, value: Node) -> Node {
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

pub(super) fn fragment_of_command(command: &segment::Command) -> Option<FieldOf> {
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
    let words: Vec<&str> = line
        .split('|')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
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
    let kind = get_table::kind_of_resource(kind).filter(|k| {
        matches!(
            k.as_str(),
            "Job" | "Pod" | "Deployment" | "StatefulSet" | "Node" | "PersistentVolumeClaim" | "Service"
        )
    })?;
    Some(FieldOf {
        kind,
        name,
        namespace: command.namespace.clone(),
        field,
    })
}
