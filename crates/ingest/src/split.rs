//! A big `kubectl get -A -o json|yaml` List read in parts, each part by another thread (the app's
//! reader workers), and the parts' readings merged into the reading of the whole input.
//!
//! Why: reading (parsing and building the trees) is most of a big dump's time before the model, and
//! one parse is single-threaded; a List's items are independent of each other, so its text can be
//! cut at item boundaries and the parts parsed at once. The cut is found by a scan for the line
//! pattern between two items, not by a parse, so finding it costs little next to the parse saved.
//!
//! The merged reading must be the reading of the whole input, object for object, position for
//! position: the report may not depend on how many cores read it. So this module takes no chances:
//! a part is only used when it parses without any error, the rest of the List (its head and tail,
//! the "skeleton") must read as an empty List without an error, and the whole text must be one that the readers take as it is (nothing unwrapped, rejoined
//! or split into segments first: [`plain`]). Otherwise the caller reads the whole input itself
//! ([`crate::ingest_observed`]); that fallback gives the same report, only later.
//!
//! Flow: [`plan`] and [`check`] (coordinator) → [`read_part`] (each reader, on its part of the
//! text; [`encode_items`] when it is another worker) → [`decode_items`] and [`ingest_merged`]
//! (coordinator, in input order). The command line reads a YAML List so on its two threads.

use std::ops::Range;

use memchr::memmem;

use crate::node::{Keys, MapEntry, Node, NodeValue, Pos, ScalarStyle};
use crate::sniff::{dedent, indented_block_end, is_log_file, sniff, Sniffed};
use crate::{json, looks_binary, rewrap, segment, wrappers, yaml, Ingested, Scope, Source, PRUNED};

/// Inputs smaller than this are read whole: below it, starting the parts and merging them costs
/// more than the parse saved (a 1-MB List parses in a few milliseconds).
pub const SPLIT_FROM: usize = 4 << 20;

/// How a List was printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    Json,
    Yaml,
}

impl ListFormat {
    /// The format's id in a reader's message.
    pub fn id(self) -> u8 {
        match self {
            ListFormat::Json => 0,
            ListFormat::Yaml => 1,
        }
    }

    /// The format `text` would be cut as, if it is a List ([`cut_list`]): JSON when it starts with
    /// `{`, YAML otherwise.
    pub fn of(text: &str) -> Self {
        if text.starts_with('{') {
            ListFormat::Json
        } else {
            ListFormat::Yaml
        }
    }

    /// The format of an id from [`ListFormat::id`].
    pub fn from_id(id: u8) -> Option<Self> {
        match id {
            0 => Some(ListFormat::Json),
            1 => Some(ListFormat::Yaml),
            _ => None,
        }
    }
}

/// One part of a List's items: whole lines of the text, and the line number of its first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub range: Range<usize>,
    pub first_line: u32,
}

/// Where a List's items are and how they are cut into parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCut {
    pub format: ListFormat,
    /// The bytes of all items, from the first item's line to the line after the last item.
    pub items: Range<usize>,
    /// The parts, in order, together exactly [`ListCut::items`]; never empty.
    pub parts: Vec<Part>,
}

impl ListCut {
    /// The text without its items: the List's head and tail, read as an empty List to check them
    /// and to make the input's summary. Its lines after the items are not where they were; no
    /// position of it is kept, as it is only used when it reads without an error and makes no
    /// object ([`check_skeleton`]).
    pub fn skeleton(&self, text: &str) -> String {
        let mut skeleton = String::with_capacity(text.len() - self.items.len());
        skeleton.push_str(&text[..self.items.start]);
        skeleton.push_str(&text[self.items.end..]);
        skeleton
    }
}

/// Cuts the items of a List printed by kubectl (`-o json` or `-o yaml`, any size) into at most
/// `parts` parts, each cut at the start of an item's line; `None` when the text is not such a List.
/// The first part is `first` of the items' bytes (0.0 to 1.0; under 0 or over 1 it is taken as
/// 0 or 1), the others share the rest about equally; with one item (or too few for the parts
/// asked) there are fewer parts.
///
/// JSON: the text starts with `{`, the List's `"items": [` ends its line and the next line's indent
/// is the items'; a cut falls where one item's `},` line is followed by the next item's `{` line at
/// that indent, which only the boundary between two items of that array can be in a pretty-printed
/// text (a string holds no line break). YAML: `items:` is a line at the margin and its items are `- `
/// lines at the margin; the items end at the first other line at the margin after the last one.
pub fn cut_list(text: &str, parts: usize, first: f64) -> Option<ListCut> {
    let (format, items, boundary, cut_at) = match ListFormat::of(text) {
        ListFormat::Json => json_items(text)?,
        ListFormat::Yaml => yaml_items(text)?,
    };
    let parts = parts.max(1);
    let first = (items.len() as f64 * first.clamp(0.0, 1.0)) as usize;
    let size = (items.len() - first) / (parts - 1).max(1);
    let finder = memmem::Finder::new(boundary.as_bytes());
    let mut starts = vec![items.start];
    for k in 1..parts {
        let target = items.start + first + size * (k - 1);
        let from = target.max(*starts.last().unwrap_or(&0));
        let Some(found) = finder.find(&text.as_bytes()[from..items.end]) else {
            break;
        };
        // The cut is at the start of the second item's line.
        let cut = from + found + cut_at;
        if cut >= items.end {
            break;
        }
        if cut > *starts.last().unwrap_or(&0) {
            starts.push(cut);
        }
    }
    let mut line = 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..items.start]).count() as u32;
    let mut out = Vec::with_capacity(starts.len());
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(items.end);
        out.push(Part {
            range: start..end,
            first_line: line,
        });
        line += memchr::memchr_iter(b'\n', &text.as_bytes()[start..end]).count() as u32;
    }
    Some(ListCut {
        format,
        items,
        parts: out,
    })
}

/// A JSON List's items (from the first item's line to the line of the closing `]`), the text
/// between two items and where in it the second item's line starts.
fn json_items(text: &str) -> Option<(ListFormat, Range<usize>, String, usize)> {
    let first_line_end = text.find('\n')?;
    if text[..first_line_end].trim_end() != "{" {
        return None;
    }
    // The root's members are indented alike: the first one's indent is theirs.
    let member = &text[first_line_end + 1..];
    let member_indent = member.len() - member.trim_start_matches(' ').len();
    let opening = format!("\n{}\"items\": [\n", " ".repeat(member_indent));
    let items_start = memmem::find(text.as_bytes(), opening.as_bytes())? + opening.len();
    let first_item = &text[items_start..];
    let item_indent = first_item.len() - first_item.trim_start_matches(' ').len();
    if !first_item[item_indent..].starts_with("{\n") || item_indent <= member_indent {
        return None;
    }
    let closing = format!("\n{}]", " ".repeat(member_indent));
    let items_end = memmem::rfind(text.as_bytes(), closing.as_bytes())? + 1;
    if items_end <= items_start {
        return None;
    }
    let indent = " ".repeat(item_indent);
    let boundary = format!("\n{indent}}},\n{indent}{{\n");
    let cut_at = 1 + item_indent + "},\n".len();
    Some((ListFormat::Json, items_start..items_end, boundary, cut_at))
}

/// A YAML List's items (from the first `- ` line after `items:` to the next line at the margin that
/// is not an item's) and the text before an item.
fn yaml_items(text: &str) -> Option<(ListFormat, Range<usize>, String, usize)> {
    let items_start = if text.starts_with("items:\n") {
        "items:\n".len()
    } else {
        memmem::find(text.as_bytes(), b"\nitems:\n")? + "\nitems:\n".len()
    };
    if !text[items_start..].starts_with("- ") {
        return None;
    }
    // The last item starts at the last `- ` at the margin; the items end at the first line at the
    // margin after it that is not empty and not an item's.
    let last = memmem::rfind(text.as_bytes(), b"\n- ").map_or(items_start, |at| at + 1);
    if last < items_start {
        return None;
    }
    let mut end = text.len();
    let mut at = last;
    for line in text[last..].split_inclusive('\n') {
        let margin = line
            .as_bytes()
            .first()
            .is_some_and(|b| !matches!(b, b' ' | b'\n' | b'\r'));
        if at > last && margin && !line.starts_with("- ") {
            end = at;
            break;
        }
        at += line.len();
    }
    Some((ListFormat::Yaml, items_start..end, "\n- ".to_string(), 1))
}

/// Whether the whole `source` is read by the JSON or YAML reader as it is: not a log file, nothing
/// unwrapped, unpadded or rejoined first, one segment from its first line, no indented block. Only
/// then is its reading that of its List's items one after the other, as the parts are read.
pub fn plain(source: &Source, format: ListFormat) -> bool {
    let text = source.text.as_str();
    if is_log_file(&source.name)
        || looks_binary(text)
        || rewrap::rejoin_broken_prefix(text).is_some()
        || wrappers::unwrap(text).is_some()
        || wrappers::unpad(text).is_some()
        || rewrap::rejoin_tables(text).is_some()
    {
        return false;
    }
    let segments = segment::split(text);
    let [segment] = segments.as_slice() else {
        return false;
    };
    if segment.command.is_some()
        || segment.log
        || segment.first_line != 1
        || segment.text.len() != text.len()
        || dedent(segment.text).is_some()
        || indented_block_end(segment.text).is_some()
    {
        return false;
    }
    matches!(
        (sniff(segment.text, None), format),
        (Sniffed::Json, ListFormat::Json) | (Sniffed::Yaml, ListFormat::Yaml)
    )
}

/// Reads one part's items (`part` is the part's text, whole lines from an item's start; its first
/// line is line `first_line` of the input), each node at its place in the whole input. `None` when
/// anything in the part does not read cleanly: the caller then reads the input whole, where the
/// error is reported where it is.
///
/// The items are read inside a one-line head like the List's own (`{"items":[` or `items:`), so that
/// they are nested as deep as in the whole input (the JSON reader refuses a too deep nesting).
/// Workload templates are pruned here already ([`PRUNED`]), as the object would be, so that they are
/// not sent back.
pub fn read_part(part: &str, first_line: u32, format: ListFormat) -> Option<Vec<Node>> {
    let head_line = first_line.checked_sub(1).filter(|l| *l >= 1)?;
    let root = match format {
        ListFormat::Json => {
            let body = part.trim_end();
            let body = body.strip_suffix(',').unwrap_or(body);
            let mut text = String::with_capacity(body.len() + 16);
            text.push_str("{\"items\":[\n");
            text.push_str(body);
            text.push_str("]}");
            let mut docs = json::parse_documents(&text, head_line);
            if docs.len() != 1 {
                return None;
            }
            let doc = docs.pop()?;
            if doc.cut_off.is_some() {
                return None;
            }
            doc.result.ok()?
        }
        ListFormat::Yaml => {
            let mut text = String::with_capacity(part.len() + 8);
            text.push_str("items:\n");
            text.push_str(part);
            let mut docs = yaml::parse_documents(&text, head_line);
            if docs.len() != 1 {
                return None;
            }
            docs.pop()?.result.ok()??
        }
    };
    let NodeValue::Map(entries) = root.value else {
        return None;
    };
    let entries: [MapEntry; 1] = Vec::from(entries).try_into().ok()?;
    let [MapEntry {
        value: Node {
            value: NodeValue::Seq(items),
            ..
        },
        ..
    }] = entries
    else {
        return None;
    };
    let mut items = Vec::from(items);
    for item in &mut items {
        prune(item);
    }
    Some(items)
}

/// Takes out of a workload's tree what [`crate::objects`] takes out of it once read ([`PRUNED`]),
/// for an item that states its kind (one without is pruned when it becomes an object).
fn prune(node: &mut Node) {
    let text = |key: &str| node.get(key).and_then(Node::as_str).unwrap_or_default();
    let group = text("apiVersion").rsplit_once('/').map_or("", |(group, _)| group);
    if !matches!(group, "" | "apps" | "batch" | "extensions") {
        return;
    }
    let kind = text("kind").to_string();
    for (pruned_kind, path) in PRUNED {
        if kind == pruned_kind {
            node.remove(path);
        }
    }
}

/// Checks that the skeleton of a cut List ([`ListCut::skeleton`]) reads as an empty List with no
/// error and nothing else, as its items would be read within it; returns the kind the List implies
/// for items without one (`PodList`: `Pod`), `Some(None)` for a plain `List`.
pub fn check_skeleton(skeleton: &Source) -> Option<Option<String>> {
    let mut out = Ingested {
        scope: Scope::Analysis,
        ..Ingested::default()
    };
    crate::ingest_one(0, skeleton, &mut out, &mut |_| {});
    let [summary] = out.inputs.as_slice() else {
        return None;
    };
    let clean = matches!(summary.format.as_str(), "json-list" | "yaml-list")
        && summary.documents == 1
        && out.objects.is_empty()
        && out.errors.is_empty()
        && out.table_events.is_empty()
        && out.messages.is_empty()
        && out.outputs.is_empty()
        && out.unread.is_empty()
        && out.logs.is_empty()
        && out.commands.is_empty();
    if !clean {
        return None;
    }
    let root = if summary.format == "json-list" {
        json::parse_documents(&skeleton.text, 1).pop()?.result.ok()?
    } else {
        yaml::parse_documents(&skeleton.text, 1).pop()?.result.ok()??
    };
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or_default();
    Some(
        kind.strip_suffix("List")
            .filter(|k| !k.is_empty())
            .map(str::to_string),
    )
}

/// How the biggest input is cut, when it is a List big enough to be read in parts.
#[derive(Debug)]
pub struct Plan {
    /// The input cut: the biggest.
    pub index: usize,
    pub cut: ListCut,
}

impl Plan {
    /// Each part's text, its first line and the List's format, in order.
    pub fn parts<'a>(
        &'a self,
        sources: &'a [Source],
    ) -> impl Iterator<Item = (&'a str, u32, ListFormat)> + 'a {
        let text = sources[self.index].text.as_str();
        self.cut
            .parts
            .iter()
            .map(move |part| (&text[part.range.clone()], part.first_line, self.cut.format))
    }
}

/// How the biggest input, when it has at least `from` bytes and is a List, is cut into at most
/// `parts` parts, the first `first` of the items ([`cut_list`]); `None` (read whole) for fewer than
/// two parts or when it cannot be cut in two at least.
pub fn plan(sources: &[Source], parts: usize, from: usize, first: f64) -> Option<Plan> {
    if parts < 2 {
        return None;
    }
    let (index, source) = sources.iter().enumerate().max_by_key(|(_, s)| s.text.len())?;
    if source.text.len() < from {
        return None;
    }
    let cut = cut_list(&source.text, parts, first)?;
    (cut.parts.len() >= 2).then_some(Plan { index, cut })
}

/// A planned input checked: it reads as it is ([`plain`]), and its skeleton reads as an empty List
/// ([`check_skeleton`]).
pub struct Checked {
    skeleton: Source,
    implied_kind: Option<String>,
}

impl Checked {
    /// The input read from its parts' `items` (all of them, in order), for [`ingest_merged`].
    pub fn merged(self, plan: &Plan, items: Vec<Node>) -> Merged {
        Merged {
            index: plan.index,
            skeleton: self.skeleton,
            implied_kind: self.implied_kind,
            items,
        }
    }
}

/// The planned input [`Checked`]; `None` when it must be read whole.
pub fn check(sources: &[Source], plan: &Plan) -> Option<Checked> {
    let source = &sources[plan.index];
    if !plain(source, plan.cut.format) {
        return None;
    }
    let skeleton = Source::new(source.name.clone(), plan.cut.skeleton(&source.text));
    let implied_kind = check_skeleton(&skeleton)?;
    Some(Checked {
        skeleton,
        implied_kind,
    })
}

/// One input's List read in parts: the skeleton it is read as, the kind it implies for its items,
/// and every item, in input order.
pub struct Merged {
    pub index: usize,
    pub skeleton: Source,
    pub implied_kind: Option<String>,
    pub items: Vec<Node>,
}

/// [`crate::ingest_observed`] of `sources`, the input `merged.index` read from its parts: the
/// skeleton is read as that input (its summary, its head and tail), and its items become objects
/// where the List's would, before the namespaces of the input are unified. Given a plain input
/// ([`plain`]), clean parts ([`read_part`]) and a clean skeleton ([`check_skeleton`]), the result
/// is that of reading the whole input (the tests hold it to that).
pub fn ingest_merged(sources: &[Source], merged: Merged, progress: &mut dyn FnMut(u64, u64)) -> Ingested {
    crate::ingest_observed_given(sources, Some(merged), progress)
}

/// Binary form of a part's items, for the message back to the coordinator: smaller and much
/// faster to write and read than JSON. Per node: a tag byte, line and column as LEB128, then the
/// value (text: length and bytes; list: count and nodes; map: count, then key, key position and
/// node per entry).
pub fn encode_items(items: &[Node]) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() * 1024);
    put_uint(&mut out, items.len() as u64);
    for item in items {
        put_node(&mut out, item);
    }
    out
}

/// The items of [`encode_items`]; `None` when the bytes are not such a form.
pub fn decode_items(bytes: &[u8]) -> Option<Vec<Node>> {
    let mut reader = Bytes {
        bytes,
        at: 0,
        keys: Keys::for_text(bytes.len()),
    };
    let count = reader.uint()? as usize;
    let mut items = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        items.push(reader.node(0)?);
    }
    (reader.at == bytes.len()).then_some(items)
}

const NULL: u8 = 0;
const SCALAR: u8 = 1;
const QUOTED: u8 = 2;
const SEQ: u8 = 3;
const MAP: u8 = 4;

/// Deeper than any tree the readers build (the JSON reader refuses deeper ones): a bound so that
/// bad bytes cannot exhaust the stack.
const MAX_DEPTH: usize = 512;

fn put_uint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn put_str(out: &mut Vec<u8>, text: &str) {
    put_uint(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

fn put_pos(out: &mut Vec<u8>, pos: Pos) {
    put_uint(out, u64::from(pos.line));
    put_uint(out, u64::from(pos.column));
}

fn put_node(out: &mut Vec<u8>, node: &Node) {
    let tag = match &node.value {
        NodeValue::Null => NULL,
        NodeValue::Scalar(_) | NodeValue::Shared(_) => SCALAR,
        NodeValue::Quoted(_) => QUOTED,
        NodeValue::Seq(_) => SEQ,
        NodeValue::Map(_) => MAP,
    };
    out.push(tag);
    put_pos(out, node.pos);
    match &node.value {
        NodeValue::Null => {}
        NodeValue::Scalar(text) => put_str(out, text),
        NodeValue::Shared(text) => put_str(out, text),
        NodeValue::Quoted(text) => put_str(out, text),
        NodeValue::Seq(items) => {
            put_uint(out, items.len() as u64);
            for item in items.iter() {
                put_node(out, item);
            }
        }
        NodeValue::Map(entries) => {
            put_uint(out, entries.len() as u64);
            for entry in entries.iter() {
                put_str(out, &entry.key);
                put_pos(out, entry.key_pos);
                put_node(out, &entry.value);
            }
        }
    }
}

struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: Keys,
}

impl<'a> Bytes<'a> {
    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn uint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Some(value);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.uint()?).ok()
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.uint()?).ok()?;
        let end = self.at.checked_add(len)?;
        let text = std::str::from_utf8(self.bytes.get(self.at..end)?).ok()?;
        self.at = end;
        Some(text)
    }

    fn pos(&mut self) -> Option<Pos> {
        Some(Pos {
            line: self.u32()?,
            column: self.u32()?,
        })
    }

    fn count(&mut self) -> Option<usize> {
        // Every element takes a byte at least: a count beyond the bytes left is not one.
        let count = usize::try_from(self.uint()?).ok()?;
        (count <= self.bytes.len() - self.at).then_some(count)
    }

    fn node(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let tag = self.byte()?;
        let pos = self.pos()?;
        let value = match tag {
            NULL => NodeValue::Null,
            SCALAR => {
                let text = self.str()?;
                NodeValue::scalar_in(text, ScalarStyle::Plain, &mut self.keys)
            }
            QUOTED => NodeValue::Quoted(self.str()?.into()),
            SEQ => {
                let count = self.count()?;
                let mut items = Vec::with_capacity(count);
                for _ in 0..count {
                    items.push(self.node(depth + 1)?);
                }
                NodeValue::Seq(items.into_boxed_slice())
            }
            MAP => {
                let count = self.count()?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let key = self.str()?;
                    let key = self.keys.get(key);
                    let key_pos = self.pos()?;
                    let value = self.node(depth + 1)?;
                    entries.push(MapEntry { key, key_pos, value });
                }
                NodeValue::Map(entries.into_boxed_slice())
            }
            _ => return None,
        };
        Some(Node { value, pos })
    }
}

#[cfg(test)]
mod tests;
