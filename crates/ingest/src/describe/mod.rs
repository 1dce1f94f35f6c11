//! `kubectl describe` text, the format pasted most during incidents.
//!
//! Describe output is turned into the same positioned [`Node`] tree a YAML object would give, with
//! every node carrying the line of the describe text it came from: `Reason: CreateContainerConfigError`
//! under a container's `State:` becomes `status.containerStatuses[0].state.waiting.reason` at that
//! line. Typed decoding and every rule then work unchanged, and evidence points at the describe line.
//! The `Events:` section becomes event rows about the described object.
//!
//! Several objects in one output (`kubectl describe pods`) are split at each `Name:` at the margin.

use k8s_openapi::jiff::fmt::rfc2822::DateTimeParser;

use crate::events_table::{self, is_cluster_scoped, TableEvent};
use crate::node::{MapBuilder as Obj, Node, NodeValue, Pos};
use crate::segment::Command;

mod event;
mod fields;
mod pod;
mod reindent;

use fields::{generic, pairs};
use pod::pod;
pub use pod::{conditions_fragment, container_fragment};
pub use reindent::reindent;

/// One described object: its tree (shaped like the object's YAML) and its events.
#[derive(Debug)]
pub struct Described {
    pub node: Node,
    pub events: Vec<TableEvent>,
    /// The whole describe: from its `Name:` line to its `Events:` section, as `kubectl describe
    /// KIND NAME` prints it (not a part of one the command names).
    pub whole: bool,
}

/// A line of describe output: `Key:   value`, or a value alone (continuations, table rows).
#[derive(Clone, Debug)]
struct Line<'a> {
    line: u32,
    /// Byte offset of the line in the segment text.
    start: usize,
    indent: usize,
    key: Option<&'a str>,
    value: &'a str,
}

/// An item of the indentation tree.
#[derive(Clone, Debug)]
struct Item<'a> {
    line: Line<'a>,
    /// Value lines indented under a key (label continuations, `Args:` items, table rows).
    more: Vec<Line<'a>>,
    children: Vec<Item<'a>>,
}

impl<'a> Item<'a> {
    fn child(&self, key: &str) -> Option<&Item<'a>> {
        self.children.iter().find(|c| c.line.key == Some(key))
    }

    fn value(&self) -> &'a str {
        self.line.value
    }

    /// The value with its continuation lines (multi-line messages), `None` when empty or `<none>`.
    fn text(&self) -> Option<String> {
        let mut parts: Vec<&str> = vec![self.line.value];
        parts.extend(self.more.iter().map(|l| l.value));
        let text = parts
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        (!text.is_empty() && !is_none(&text)).then_some(text)
    }

    fn pos(&self) -> Pos {
        Pos::new(self.line.line, self.line.indent as u32 + 1)
    }
}

fn is_none(text: &str) -> bool {
    matches!(text.trim(), "<none>" | "<unset>" | "<nil>" | "")
}

/// Whether a segment looks like describe output: it starts with `Name:` and a padded value, or with
/// the `Events:` section alone (`kubectl describe pod x | tail`) when the command says what it is.
/// `Name:"mongo-0",` (a Go-printed `ObjectReference` that a hard wrap put at the margin) is no
/// describe: describe puts space after its keys.
pub fn is_describe(first_line: &str, command: Option<&Command>) -> bool {
    first_line
        .strip_prefix("Name:")
        .is_some_and(|value| value.starts_with([' ', '\t']) && !value.trim().is_empty())
        || (first_line.trim_end() == "Events:" && command.is_some_and(|c| described_object(c).is_some()))
}

/// The kind and name a `kubectl describe KIND NAME` / `describe KIND/NAME` command names.
pub fn described_object(command: &Command) -> Option<(String, String)> {
    let words: Vec<&str> = command.own_words();
    let at = words.iter().position(|w| *w == "describe")?;
    // The words that are not flags, nor the values of the flags that take one
    // (`describe pod -n kube-system coredns-x`: the name is `coredns-x`, not `kube-system`).
    let mut operands = Vec::new();
    let mut value_of_flag = false;
    for word in &words[at + 1..] {
        if value_of_flag {
            value_of_flag = false;
        } else if word.starts_with('-') {
            value_of_flag = !word.contains('=')
                && matches!(
                    *word,
                    "-n" | "--namespace"
                        | "--context"
                        | "--kubeconfig"
                        | "--cluster"
                        | "--user"
                        | "-l"
                        | "--selector"
                        | "-f"
                        | "--filename"
                );
        } else {
            operands.push(*word);
        }
    }
    let mut rest = operands.into_iter();
    let first = rest.next()?;
    let kind = command_kind(&format!("describe {first}"))?;
    let name = match first.split_once('/') {
        Some((_, name)) => name.to_string(),
        None => rest.next()?.to_string(),
    };
    Some((kind, name))
}

fn lex(text: &str, first_line: u32) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (line_no, raw) in (first_line..).zip(text.split_inclusive('\n')) {
        let content = raw.trim_end_matches(['\n', '\r']).trim_end();
        let indent = content.len() - content.trim_start().len();
        let body = content.trim_start();
        let (key, value) = split_key(body);
        lines.push(Line {
            line: line_no,
            start,
            indent,
            key,
            value,
        });
        start += raw.len();
    }
    lines
}

/// `Restart Count:  7` -> (Some("Restart Count"), "7"). A key is words with single spaces; a colon
/// followed by a non-space (`node.kubernetes.io/not-ready:NoExecute`) is not a key separator.
fn split_key(body: &str) -> (Option<&str>, &str) {
    let Some(colon) = body.find(':') else {
        return (None, body);
    };
    let key = &body[..colon];
    let after = &body[colon + 1..];
    let key_ok = !key.is_empty()
        && !key.contains("  ")
        && key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '/' | '(' | ')'))
        && (after.is_empty() || after.starts_with([' ', '\t']));
    if key_ok {
        (Some(key), after.trim())
    } else {
        (None, body)
    }
}

/// Builds the indentation tree of one object's lines (without its Events section).
fn tree<'a>(lines: &[Line<'a>]) -> Vec<Item<'a>> {
    let mut roots: Vec<Item<'a>> = Vec::new();
    for line in lines {
        if line.value.is_empty() && line.key.is_none() {
            continue;
        }
        insert(&mut roots, line.clone());
    }
    roots
}

fn insert<'a>(siblings: &mut Vec<Item<'a>>, line: Line<'a>) {
    if let Some(last) = siblings.last_mut() {
        if line.indent > last.line.indent {
            // A key under a key nests (`State:` > `Reason:`); a value line continues the deepest
            // item it is indented under (label continuations, `Args:` items, table rows).
            if line.key.is_some() {
                insert(&mut last.children, line);
            } else if let Some(child) = last.children.last_mut().filter(|c| line.indent > c.line.indent) {
                append_value(child, line);
            } else {
                last.more.push(line);
            }
            return;
        }
    }
    siblings.push(Item {
        line,
        more: Vec::new(),
        children: Vec::new(),
    });
}

fn append_value<'a>(item: &mut Item<'a>, line: Line<'a>) {
    match item.children.last_mut().filter(|c| line.indent > c.line.indent) {
        Some(child) => append_value(child, line),
        None => item.more.push(line),
    }
}

/// Reads every object of a describe segment.
pub fn parse(text: &str, first_line: u32, command: Option<&Command>) -> Vec<Described> {
    let lines = lex(text, first_line);
    // Only the Events section (`| tail`): the object is the one the command names.
    if lines.first().is_some_and(|l| l.key == Some("Events")) {
        let Some((kind, name)) = command.and_then(described_object) else {
            return Vec::new();
        };
        let namespace = command
            .and_then(|c| c.namespace.clone())
            .filter(|_| !is_cluster_scoped(&kind));
        let events = section_events(text, &lines, &kind, namespace.as_deref(), &name);
        let pos = Pos::new(first_line, 1);
        let mut object = Obj::new(pos);
        object.str("kind", &kind, pos);
        let mut meta = Obj::new(pos);
        meta.str("name", &name, pos);
        if let Some(ns) = &namespace {
            meta.str("namespace", ns, pos);
        }
        object.put("metadata", meta.node(), pos);
        return vec![Described {
            node: object.node(),
            events,
            whole: false,
        }];
    }
    let mut objects = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        let boundary =
            i == lines.len() || (lines[i].indent == 0 && lines[i].key == Some("Name") && i > start);
        if boundary {
            if let Some(object) = parse_object(text, &lines[start..i], command) {
                objects.push(object);
            }
            start = i;
        }
    }
    objects
}

fn parse_object(text: &str, lines: &[Line<'_>], command: Option<&Command>) -> Option<Described> {
    let events_at = lines
        .iter()
        .position(|l| l.indent == 0 && l.key == Some("Events"));
    let (body, events) = match events_at {
        Some(at) => (&lines[..at], Some(&lines[at..])),
        None => (lines, None),
    };
    let items = tree(body);
    let find = |key: &str| items.iter().find(|i| i.line.key == Some(key));
    // A describe cut before its `Name:` (only its `Taints:` pasted): the name the command gives
    // (`kubectl describe node nodex`), placed at the first field.
    let named_by_command = command.and_then(command_target_name);
    let name_item = match find("Name") {
        Some(item) => item,
        None if named_by_command.is_some() => items.first()?,
        None => return None,
    };
    let name = match find("Name") {
        Some(item) => item.value().to_string(),
        None => named_by_command.unwrap_or_default(),
    };
    let mut kind = detect_kind(&items, command);
    if kind.is_empty() {
        // A describe cut to its head and its events (`Name:`, `Status:`, `Events:`): the kind the
        // events' reasons are recorded on.
        kind = events.map(kind_of_events).unwrap_or_default();
    }
    let namespace = find("Namespace")
        .and_then(Item::text)
        .filter(|_| !is_cluster_scoped(&kind));
    let mut object = Obj::new(name_item.pos());
    object.str("kind", &kind, name_item.pos());
    let mut meta = Obj::new(name_item.pos());
    meta.str("name", &name, name_item.pos());
    if let Some(ns_item) = find("Namespace") {
        if let Some(ns) = &namespace {
            meta.str("namespace", ns, ns_item.pos());
        }
    }
    if let Some(labels) = find("Labels") {
        meta.put("labels", pairs(labels, '='), labels.pos());
    }
    if let Some(owner) = find("Controlled By").and_then(|i| Some((i, i.text()?))) {
        if let Some((kind, name)) = owner.1.split_once('/') {
            let mut reference = Obj::new(owner.0.pos());
            reference.str("apiVersion", "", owner.0.pos());
            reference.str("kind", kind, owner.0.pos());
            reference.str("name", name, owner.0.pos());
            reference.str("uid", "", owner.0.pos());
            meta.put(
                "ownerReferences",
                seq(vec![reference.node()], owner.0.pos()),
                owner.0.pos(),
            );
        }
    }
    if let Some((at, created)) = find("CreationTimestamp").and_then(|i| Some((i.pos(), time(i.value())?))) {
        meta.str("creationTimestamp", &created, at);
    }
    object.put("metadata", meta.node(), name_item.pos());
    match kind.as_str() {
        "Pod" => pod(&items, &mut object),
        "Event" => event::event(&items, &mut object),
        _ => generic(&kind, &items, &mut object),
    }
    // A Pod's `Events:  <none>`: kubectl found no event about it at all (a Pod the scheduler never
    // looked at has none), which an absent Events section does not say.
    if kind == "Pod" {
        if let Some(line) = events
            .and_then(|e| e.first())
            .filter(|l| l.value.trim() == "<none>")
        {
            let at = Pos::new(line.line, 1);
            let mut kubectl = Obj::new(at);
            kubectl.str("events", "<none>", at);
            object.put("kubectl", kubectl.node(), at);
        }
    }
    let whole = events.is_some() && find("Name").is_some();
    let events = events
        .map(|lines| section_events(text, lines, &kind, namespace.as_deref(), &name))
        .unwrap_or_default();
    Some(Described {
        node: object.node(),
        events,
        whole,
    })
}

/// The kind of a described object: from the command (`describe pod x`), else from its sections.
fn detect_kind(items: &[Item<'_>], command: Option<&Command>) -> String {
    if let Some(kind) = command.and_then(|c| command_kind(&c.line)) {
        return kind;
    }
    let has = |key: &str| items.iter().any(|i| i.line.key == Some(key));
    let controlled_by = items
        .iter()
        .find(|i| i.line.key == Some("Controlled By"))
        .map(|i| i.value())
        .unwrap_or("");
    if (has("Containers") || has("Init Containers")) && (has("QoS Class") || has("Node") || has("IP"))
        // A Pod's head, cut before its containers: its node and start time (no other kind has both).
        || has("Node") && (has("Start Time") || has("Priority Class Name")) && has("Status")
        // … or its node and its own IP, with its namespace or owner (issue 40: a Service has an IP
        // but no `Node:`, a Node neither key).
        || has("Node") && has("IP") && (has("Controlled By") || has("Namespace"))
    {
        "Pod".into()
    } else if has("Involved Object") && (has("Message") || has("Reason")) {
        // `kubectl describe event x`: the generic describer's title-cased fields.
        "Event".into()
    } else if has("StrategyType") || has("RollingUpdateStrategy") {
        "Deployment".into()
    } else if has("Pods Status") && controlled_by.starts_with("Deployment/")
        || has("Pods Status") && has("Replicas") && !has("Update Strategy") && !has("Completions")
    {
        "ReplicaSet".into()
    } else if has("Completions") || has("Parallelism") {
        "Job".into()
    } else if has("Desired Number of Nodes Scheduled") {
        "DaemonSet".into()
    } else if has("Update Strategy") && has("Replicas") {
        "StatefulSet".into()
    } else if has("Reclaim Policy") && (has("Claim") || has("Source")) {
        // Only a PersistentVolume has a reclaim policy; it has a Capacity too, which is no Node's.
        "PersistentVolume".into()
    } else if has("Reference") && (has("Min replicas") || has("Max replicas")) {
        "HorizontalPodAutoscaler".into()
    } else if has("Access Modes") && has("StorageClass") && has("Status") && !has("Claim") {
        "PersistentVolumeClaim".into()
    } else if has("Taints") || has("Capacity") || has("System Info") {
        "Node".into()
    } else if items
        .iter()
        .any(|i| i.line.key.is_none() && i.value().starts_with("Resource") && i.value().contains("Hard"))
    {
        "ResourceQuota".into()
    } else if has("Default backend") && (has("Rules") || has("Address")) {
        "Ingress".into()
    } else if has("Subsets") {
        "Endpoints".into()
    } else if has("Selector") && (has("Type") || has("IP") || has("Port")) {
        "Service".into()
    } else {
        String::new()
    }
}

/// The kind of object a describe's Events rows are about, when every reason known to be recorded
/// on one kind names the same kind (`FailedScheduling`, `BackOff`: a Pod).
fn kind_of_events(lines: &[Line<'_>]) -> String {
    let mut kinds = lines.iter().skip(1).filter_map(|l| {
        let mut cells = l.value.split_whitespace();
        let first = cells.next()?;
        let reason = if matches!(first, "Normal" | "Warning") {
            cells.next()?
        } else {
            return None;
        };
        crate::catalog::kind_of_reason(reason)
    });
    let Some(first) = kinds.next() else {
        return String::new();
    };
    if kinds.all(|k| k == first) {
        first.to_string()
    } else {
        String::new()
    }
}

/// The object a `describe` command names: `kubectl describe node nodex` -> `nodex`,
/// `kubectl describe pod/web-0` -> `web-0`; `None` for a command that names a kind only.
fn command_target_name(command: &Command) -> Option<String> {
    let words = command.own_words();
    let at = words.iter().position(|w| *w == "describe")?;
    let mut rest = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
    let target = rest.next()?;
    if let Some((_, name)) = target.split_once('/') {
        return Some(name.to_string()).filter(|n| !n.is_empty());
    }
    // After `-n NS` the namespace is a word too: the name is the word after the kind, unless it is
    // the namespace.
    rest.find(|w| Some(**w) != command.namespace.as_deref())
        .map(|w| w.to_string())
}

/// `kubectl describe pod x`, `kubectl -n ns describe pods`, `kubectl describe rs/x` -> the kind.
fn command_kind(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "describe")?;
    let target = words[at + 1..].iter().find(|w| !w.starts_with('-'))?;
    crate::get_table::kind_of_resource(target)
}

/// The Events section: a table whose rows are about the described object.
fn section_events(
    text: &str,
    lines: &[Line<'_>],
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Vec<TableEvent> {
    let Some(header) = lines.get(1) else {
        return Vec::new();
    };
    let end = lines.last().map_or(text.len(), |l| {
        text[l.start..].find('\n').map_or(text.len(), |n| l.start + n + 1)
    });
    let section = &text[header.start..end];
    let mut rows = events_table::parse(section, header.line, None).unwrap_or_default();
    for row in &mut rows {
        row.kind = kind.to_string();
        row.name = name.to_string();
        row.namespace = namespace.map(str::to_string);
    }
    rows
}

/// describe's times (`Mon, 08 Jul 2024 08:40:31 +0200`, RFC 2822-like) -> RFC 3339 UTC.
fn time(text: &str) -> Option<String> {
    static PARSER: DateTimeParser = DateTimeParser::new();
    PARSER.parse_timestamp(text.trim()).ok().map(|t| t.to_string())
}

fn seq(items: Vec<Node>, pos: Pos) -> Node {
    Node::new(NodeValue::Seq(items.into()), pos)
}

#[cfg(test)]
mod tests;
