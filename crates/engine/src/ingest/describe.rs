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

use super::events_table::{self, is_cluster_scoped, kind_from_table, TableEvent};
use super::node::{MapBuilder as Obj, Node, NodeValue, Pos};
use super::segment::Command;

/// One described object: its tree (shaped like the object's YAML) and its events.
#[derive(Debug)]
pub struct Described {
    pub node: Node,
    pub events: Vec<TableEvent>,
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
pub fn is_describe(first_line: &str, command: Option<&Command>) -> bool {
    (first_line.starts_with("Name:") && first_line.len() > 5)
        || (first_line.trim_end() == "Events:" && command.is_some_and(|c| described_object(c).is_some()))
}

/// The kind and name a `kubectl describe KIND NAME` / `describe KIND/NAME` command names.
pub(crate) fn described_object(command: &Command) -> Option<(String, String)> {
    let words: Vec<&str> = command
        .line
        .split_whitespace()
        .take_while(|w| *w != "|")
        .collect();
    let at = words.iter().position(|w| *w == "describe")?;
    let mut rest = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
    let first = rest.next()?;
    let kind = command_kind(&format!("describe {first}"))?;
    let name = match first.split_once('/') {
        Some((_, name)) => name.to_string(),
        None => rest.find(|w| !matches!(**w, "-n" | "--namespace"))?.to_string(),
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

/// A container's part of `kubectl describe pod` pasted alone (`State:`, `Last State:`, `Ready:`,
/// `Restart Count:`, often indented as a markdown code block): a Pod named `name` (empty when the
/// paste does not say) with that one container, its state read as in a whole describe. `None` when
/// the lines hold no `State:` with `Last State:`, `Ready:` or `Restart Count:` beside it.
pub fn container_fragment(text: &str, first_line: u32, name: &str, namespace: Option<&str>) -> Option<Node> {
    let lines = lex(text, first_line);
    let roots = tree(&lines);
    let has = |key: &str| roots.iter().any(|i| i.line.key == Some(key));
    if !(has("State") && (has("Last State") || has("Ready") || has("Restart Count"))) {
        return None;
    }
    let first = roots.first()?;
    let pos = first.pos();
    let container = Item {
        line: Line {
            key: Some(""),
            value: "",
            indent: first.line.indent.saturating_sub(1),
            ..first.line.clone()
        },
        more: Vec::new(),
        children: roots,
    };
    let (spec, status) = container_nodes(&container);
    let mut object = Obj::new(pos);
    object.str("kind", "Pod", pos);
    let mut meta = Obj::new(pos);
    meta.str("name", name, pos);
    if let Some(ns) = namespace {
        meta.str("namespace", ns, pos);
    }
    object.put("metadata", meta.node(), pos);
    let mut pod_spec = Obj::new(pos);
    pod_spec.put("containers", seq(vec![spec], pos), pos);
    object.put("spec", pod_spec.node(), pos);
    let mut pod_status = Obj::new(pos);
    pod_status.put("containerStatuses", seq(vec![status], pos), pos);
    object.put("status", pod_status.node(), pos);
    Some(object.node())
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
    let name_item = find("Name")?;
    let name = name_item.value().to_string();
    let kind = detect_kind(&items, command);
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
        _ => generic(&kind, &items, &mut object),
    }
    let events = events
        .map(|lines| section_events(text, lines, &kind, namespace.as_deref(), &name))
        .unwrap_or_default();
    Some(Described {
        node: object.node(),
        events,
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
    if has("Containers") && (has("QoS Class") || has("Node") || has("IP")) {
        "Pod".into()
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
    } else if has("Access Modes") && has("StorageClass") && has("Status") && !has("Claim") {
        "PersistentVolumeClaim".into()
    } else if has("Taints") || has("Capacity") || has("System Info") {
        "Node".into()
    } else if items
        .iter()
        .any(|i| i.line.key.is_none() && i.value().starts_with("Resource") && i.value().contains("Hard"))
    {
        "ResourceQuota".into()
    } else if has("Subsets") {
        "Endpoints".into()
    } else if has("Selector") && (has("Type") || has("IP") || has("Port")) {
        "Service".into()
    } else {
        String::new()
    }
}

/// `kubectl describe pod x`, `kubectl -n ns describe pods`, `kubectl describe rs/x` -> the kind.
fn command_kind(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "describe")?;
    let target = words[at + 1..].iter().find(|w| !w.starts_with('-'))?;
    let resource = target.split('/').next().unwrap_or(target);
    let kind = match resource.trim_end_matches('s') {
        "po" | "pod" => "Pod",
        "deploy" | "deployment" => "Deployment",
        "r" | "replicaset" => "ReplicaSet",
        "st" | "statefulset" => "StatefulSet",
        "d" | "daemonset" => "DaemonSet",
        "job" => "Job",
        "no" | "node" => "Node",
        "svc" | "service" => "Service",
        "ep" | "endpoint" => "Endpoints",
        "pvc" | "persistentvolumeclaim" => "PersistentVolumeClaim",
        "pv" | "persistentvolume" => "PersistentVolume",
        "quota" | "resourcequota" => "ResourceQuota",
        _ => return Some(kind_from_table(resource)),
    };
    Some(kind.to_string())
}

fn pod(items: &[Item<'_>], object: &mut Obj) {
    let find = |key: &str| items.iter().find(|i| i.line.key == Some(key));
    let mut spec = Obj::new(Pos::new(items[0].line.line, 1));
    let mut status = Obj::new(Pos::new(items[0].line.line, 1));
    if let Some(node) = find("Node") {
        if let Some(text) = node.text() {
            let name = text.split('/').next().unwrap_or(&text);
            spec.str("nodeName", name, node.pos());
        }
    }
    if let Some(sa) = find("Service Account").and_then(|i| Some((i.pos(), i.text()?))) {
        spec.str("serviceAccountName", &sa.1, sa.0);
    }
    if let Some(selectors) = find("Node-Selectors") {
        spec.put("nodeSelector", pairs(selectors, '='), selectors.pos());
    }
    if let Some(item) = find("Status").and_then(|i| Some((i.pos(), i.text()?))) {
        let phase = item.1.split_whitespace().next().unwrap_or_default().to_string();
        status.str("phase", &phase, item.0);
    }
    for (key, field) in [
        ("Reason", "reason"),
        ("Message", "message"),
        ("IP", "podIP"),
        ("NominatedNodeName", "nominatedNodeName"),
    ] {
        if let Some(item) = find(key).and_then(|i| Some((i.pos(), i.text()?))) {
            status.str(field, &item.1, item.0);
        }
    }
    if let Some(start) = find("Start Time").and_then(|i| Some((i.pos(), time(i.value())?))) {
        status.str("startTime", &start.1, start.0);
    }
    for (section, spec_key, status_key) in [
        ("Init Containers", "initContainers", "initContainerStatuses"),
        ("Containers", "containers", "containerStatuses"),
    ] {
        let Some(section) = find(section) else { continue };
        let mut specs = Vec::new();
        let mut statuses = Vec::new();
        for container in section.children.iter().filter(|c| c.line.key.is_some()) {
            let (c_spec, c_status) = container_nodes(container);
            specs.push(c_spec);
            statuses.push(c_status);
        }
        spec.put(spec_key, seq(specs, section.pos()), section.pos());
        status.put(status_key, seq(statuses, section.pos()), section.pos());
    }
    if let Some(conditions) = find("Conditions") {
        status.put("conditions", condition_rows(conditions), conditions.pos());
    }
    if spec.get("containers").is_none() {
        // Required by the Pod schema; a describe cut before its Containers section has none.
        spec.put("containers", seq(Vec::new(), spec.pos()), spec.pos());
    }
    object.put("spec", spec.node(), Pos::new(items[0].line.line, 1));
    object.put("status", status.node(), Pos::new(items[0].line.line, 1));
}

/// A container's spec and status nodes from its describe block.
fn container_nodes(container: &Item<'_>) -> (Node, Node) {
    let name = container.line.key.unwrap_or_default();
    let pos = container.pos();
    let field = |key: &str| container.child(key).and_then(|i| Some((i.pos(), i.text()?)));
    let mut spec = Obj::new(pos);
    spec.str("name", name, pos);
    let mut status = Obj::new(pos);
    status.str("name", name, pos);
    let image = field("Image");
    if let Some((at, image)) = &image {
        spec.str("image", image, *at);
    }
    status.str(
        "image",
        image.as_ref().map_or("", |i| i.1.as_str()),
        image.as_ref().map_or(pos, |i| i.0),
    );
    let image_id = field("Image ID");
    status.str(
        "imageID",
        image_id.as_ref().map_or("", |i| i.1.as_str()),
        image_id.as_ref().map_or(pos, |i| i.0),
    );
    let (ready_pos, ready) = field("Ready").unwrap_or((pos, "false".into()));
    status.plain("ready", &ready.to_ascii_lowercase(), ready_pos);
    let (restarts_pos, restarts) = field("Restart Count").unwrap_or((pos, "0".into()));
    status.plain("restartCount", &restarts, restarts_pos);
    if let Some(state) = container.child("State") {
        status.put("state", state_node(state), state.pos());
    }
    if let Some(state) = container.child("Last State") {
        status.put("lastState", state_node(state), state.pos());
    }
    (spec.node(), status.node())
}

/// `State: Waiting` + `Reason:` / `Message:` / `Exit Code:` ... -> `{waiting: {reason, message}}`.
fn state_node(item: &Item<'_>) -> Node {
    let pos = item.pos();
    let mut detail = Obj::new(pos);
    let key = match item.value().split_whitespace().next().unwrap_or_default() {
        "Waiting" => "waiting",
        "Running" => "running",
        "Terminated" => "terminated",
        _ => return Obj::new(pos).node(),
    };
    for child in &item.children {
        let Some(value) = child.text() else { continue };
        let at = child.pos();
        match child.line.key.unwrap_or_default() {
            "Reason" => detail.str("reason", &value, at),
            "Message" => detail.str("message", &value, at),
            "Exit Code" => detail.plain("exitCode", &value, at),
            "Signal" => detail.plain("signal", &value, at),
            "Started" => {
                if let Some(t) = time(&value) {
                    detail.str("startedAt", &t, at);
                }
            }
            "Finished" => {
                if let Some(t) = time(&value) {
                    detail.str("finishedAt", &t, at);
                }
            }
            _ => {}
        }
    }
    if key == "terminated" && detail.get("exitCode").is_none() {
        detail.plain("exitCode", "0", pos);
    }
    let mut state = Obj::new(pos);
    state.put(key, detail.node(), pos);
    state.node()
}

/// The Conditions table (`Type  Status [LastHeartbeatTime …] Reason Message`) -> status.conditions.
fn condition_rows(section: &Item<'_>) -> Node {
    let rows: Vec<&Line<'_>> = section.more.iter().collect();
    let Some((header, body)) = rows.split_first() else {
        return seq(Vec::new(), section.pos());
    };
    let columns: Vec<String> = header.value.split_whitespace().map(str::to_string).collect();
    let mut conditions = Vec::new();
    for row in body {
        if row.value.trim_start().starts_with('-') {
            continue;
        }
        let cells: Vec<&str> = split_cells(row.value, columns.len());
        let pos = Pos::new(row.line, row.indent as u32 + 1);
        let mut condition = Obj::new(pos);
        for (column, cell) in columns.iter().zip(&cells) {
            let key = match column.as_str() {
                "Type" => "type",
                "Status" => "status",
                "Reason" => "reason",
                "Message" => "message",
                "LastTransitionTime" | "LastHeartbeatTime" => {
                    let key = if column == "LastTransitionTime" {
                        "lastTransitionTime"
                    } else {
                        "lastHeartbeatTime"
                    };
                    if let Some(t) = time(cell) {
                        condition.str(key, &t, pos);
                    }
                    continue;
                }
                _ => continue,
            };
            condition.str(key, cell, pos);
        }
        if condition.get("type").is_some() && condition.get("status").is_some() {
            conditions.push(condition.node());
        }
    }
    seq(conditions, section.pos())
}

/// Cells separated by runs of 2+ spaces; the last takes the rest of the line.
fn split_cells(line: &str, max: usize) -> Vec<&str> {
    let mut cells = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if cells.len() + 1 == max {
            cells.push(rest);
            break;
        }
        match rest.find("  ") {
            Some(at) => {
                cells.push(&rest[..at]);
                rest = rest[at..].trim_start();
            }
            None => {
                cells.push(rest);
                break;
            }
        }
    }
    cells
}

/// Kinds other than Pod: the status phase and the conditions table, when the object shows them.
fn generic(kind: &str, items: &[Item<'_>], object: &mut Obj) {
    let find = |key: &str| items.iter().find(|i| i.line.key == Some(key));
    let pos = Pos::new(items[0].line.line, 1);
    let mut spec = Obj::new(pos);
    let mut status = Obj::new(pos);
    if kind == "PersistentVolumeClaim" {
        if let Some(phase) = find("Status").and_then(|i| Some((i.pos(), i.text()?))) {
            status.str("phase", &phase.1, phase.0);
        }
        if let Some(class) = find("StorageClass").and_then(|i| Some((i.pos(), i.text()?))) {
            spec.str("storageClassName", &class.1, class.0);
        }
        if let Some(volume) = find("Volume").and_then(|i| Some((i.pos(), i.text()?))) {
            spec.str("volumeName", &volume.1, volume.0);
        }
    }
    let field = |key: &str| find(key).and_then(|i| Some((i.pos(), i.text()?)));
    match kind {
        "Node" => {
            if let Some(taints) = find("Taints") {
                spec.put("taints", taint_list(taints), taints.pos());
            }
            if let Some((at, value)) = field("Unschedulable") {
                spec.plain("unschedulable", &value, at);
            }
            for (key, field_name) in [("Capacity", "capacity"), ("Allocatable", "allocatable")] {
                if let Some(section) = find(key) {
                    let mut resources = Obj::new(section.pos());
                    for child in &section.children {
                        if let (Some(name), Some(value)) = (child.line.key, child.text()) {
                            resources.str(name, &value, child.pos());
                        }
                    }
                    status.put(field_name, resources.node(), section.pos());
                }
            }
        }
        "Service" => {
            if let Some(selector) = find("Selector") {
                spec.put("selector", pairs_comma(selector), selector.pos());
            }
            if let Some((at, value)) = field("Type") {
                spec.str("type", &value, at);
            }
            if let Some((at, value)) = field("IP") {
                spec.str("clusterIP", &value, at);
            }
            // `Port: https  443/TCP` and `TargetPort: 8443/TCP` (one port; describe lists each
            // port as such a pair), and `Endpoints:` as kubectl printed it (its summary of the
            // ready addresses, `<none>` when there are none).
            if let Some((at, value)) = field("Port") {
                let mut port = Obj::new(at);
                let mut words = value.split_whitespace().rev();
                if let Some((number, protocol)) = words.next().and_then(|w| w.split_once('/')) {
                    port.plain("port", number, at);
                    port.str("protocol", protocol, at);
                }
                if let Some(name) = words.next().filter(|n| *n != "<unset>") {
                    port.str("name", name, at);
                }
                if let Some((at, target)) = field("TargetPort") {
                    let target = target.split('/').next().unwrap_or_default();
                    port.str("targetPort", target, at);
                }
                spec.put("ports", seq(vec![port.node()], at), at);
            }
            if let Some(item) = find("Endpoints") {
                let printed = item.value().trim();
                let mut kubectl = Obj::new(item.pos());
                kubectl.str(
                    "endpoints",
                    if printed.is_empty() { "<none>" } else { printed },
                    item.pos(),
                );
                object.put("kubectl", kubectl.node(), item.pos());
            }
        }
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => {
            if let Some(selector) = find("Selector") {
                let mut label_selector = Obj::new(selector.pos());
                label_selector.put("matchLabels", pairs_comma(selector), selector.pos());
                spec.put("selector", label_selector.node(), selector.pos());
            }
            if let Some((at, value)) = field("Replicas") {
                replica_counts(&value, at, &mut spec, &mut status);
            }
        }
        _ => {}
    }
    if let Some(conditions) = find("Conditions") {
        status.put("conditions", condition_rows(conditions), conditions.pos());
    }
    if kind == "ResourceQuota" {
        quota_table(items, &mut status);
    }
    object.put("spec", spec.node(), pos);
    object.put("status", status.node(), pos);
}

/// `Replicas: 3 desired | 1 updated | 4 total | 2 available | 2 unavailable` (Deployment, StatefulSet)
/// or `Replicas: 0 current / 3 desired` (ReplicaSet) -> spec.replicas and the status counts.
fn replica_counts(value: &str, at: Pos, spec: &mut Obj, status: &mut Obj) {
    for part in value.split(['|', '/']) {
        let mut words = part.split_whitespace();
        let (Some(n), Some(what)) = (words.next(), words.next()) else {
            continue;
        };
        if n.parse::<u32>().is_err() {
            continue;
        }
        match what {
            "desired" => spec.plain("replicas", n, at),
            "updated" => status.plain("updatedReplicas", n, at),
            "total" | "current" => status.plain("replicas", n, at),
            "available" => status.plain("availableReplicas", n, at),
            "unavailable" => status.plain("unavailableReplicas", n, at),
            "ready" => status.plain("readyReplicas", n, at),
            _ => {}
        }
    }
}

/// `Selector: app=web,tier=front` -> a map (set-based terms such as `env in (a,b)` are skipped).
fn pairs_comma(item: &Item<'_>) -> Node {
    let mut map = Obj::new(item.pos());
    if let Some(text) = item.text() {
        for pair in text.split(',') {
            if let Some((k, v)) = pair.trim().split_once('=') {
                map.str(k, v, item.pos());
            }
        }
    }
    map.node()
}

/// `Taints: dedicated=ci:NoSchedule` + continuation lines -> spec.taints.
fn taint_list(item: &Item<'_>) -> Node {
    let mut taints = Vec::new();
    for line in std::iter::once(&item.line).chain(item.more.iter()) {
        let text = line.value.trim();
        if is_none(text) {
            continue;
        }
        let Some((key_value, effect)) = text.rsplit_once(':') else {
            continue;
        };
        let pos = Pos::new(line.line, line.indent as u32 + 1);
        let mut taint = Obj::new(pos);
        match key_value.split_once('=') {
            Some((key, value)) => {
                taint.str("key", key, pos);
                taint.str("value", value, pos);
            }
            None => taint.str("key", key_value, pos),
        }
        taint.str("effect", effect, pos);
        taints.push(taint.node());
    }
    seq(taints, item.pos())
}

/// A ResourceQuota's `Resource  Used  Hard` table -> `status.used` and `status.hard`, each value at
/// its row's line.
fn quota_table(items: &[Item<'_>], status: &mut Obj) {
    let Some(header) = items.iter().position(|i| {
        i.line.key.is_none()
            && i.value().starts_with("Resource")
            && i.value().contains("Used")
            && i.value().contains("Hard")
    }) else {
        return;
    };
    let header_pos = items[header].pos();
    let mut used = Obj::new(header_pos);
    let mut hard = Obj::new(header_pos);
    for row in items[header + 1..].iter().take_while(|i| i.line.key.is_none()) {
        let cells: Vec<&str> = row.value().split_whitespace().collect();
        if let [resource, used_value, hard_value] = cells[..] {
            if resource.starts_with('-') {
                continue;
            }
            used.str(resource, used_value, row.pos());
            hard.str(resource, hard_value, row.pos());
        }
    }
    status.put("used", used.node(), header_pos);
    status.put("hard", hard.node(), header_pos);
}

/// `Labels: app=web` + continuation lines -> a map (`<none>` -> empty).
fn pairs(item: &Item<'_>, separator: char) -> Node {
    let mut map = Obj::new(item.pos());
    let lines = std::iter::once(&item.line).chain(item.more.iter());
    for line in lines {
        if is_none(line.value) {
            continue;
        }
        if let Some((k, v)) = line.value.trim().split_once(separator) {
            map.str(k, v, Pos::new(line.line, line.indent as u32 + 1));
        }
    }
    map.node()
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
mod tests {
    use super::*;
    use crate::ingest::api::Pod;
    use crate::ingest::decode::decode;

    const CRASHING: &str = "Name:             event-router-69d8c7f5b6-t8wqz
Namespace:        events-pipeline
Node:             node-pool-b-2/10.30.2.12
Start Time:       Wed, 22 May 2024 16:49:28 +0000
Labels:           app=event-router
                  pod-template-hash=69d8c7f5b6
Status:           Running
Controlled By:  ReplicaSet/event-router-69d8c7f5b6
Containers:
  router:
    Image:         registry.pipeline.example/ingest/event-router:5.0.0
    Args:
      --config=/etc/router/router.yaml
    State:       Waiting
      Reason:    CrashLoopBackOff
    Last State:  Terminated
      Reason:    Error
      Message:   fatal: load config: unknown field \"retry_backof\"

      Exit Code:    1
      Started:      Wed, 22 May 2024 17:01:56 +0000
      Finished:     Wed, 22 May 2024 17:01:57 +0000
    Ready:          False
    Restart Count:  7
Conditions:
  Type                        Status
  Ready                       False 
  PodScheduled                True 
Events:
  Type     Reason   Age                 From     Message
  ----     ------   ----                ----     -------
  Warning  BackOff  14s (x63 over 14m)  kubelet  Back-off restarting failed container router
";

    #[test]
    fn a_pod_becomes_a_positioned_tree_that_decodes() {
        let objects = parse(CRASHING, 1, None);
        assert_eq!(objects.len(), 1);
        let node = &objects[0].node;
        assert_eq!(node.get("kind").unwrap().as_str(), Some("Pod"));
        let (pos, reason) = node
            .locate("status.containerStatuses[0].state.waiting.reason")
            .unwrap();
        assert_eq!((pos.line, reason.as_str()), (15, Some("CrashLoopBackOff")));
        let (pos, code) = node
            .locate("status.containerStatuses[0].lastState.terminated.exitCode")
            .unwrap();
        assert_eq!((pos.line, code.as_str()), (20, Some("1")));
        assert_eq!(
            node.locate("spec.nodeName").unwrap().1.as_str(),
            Some("node-pool-b-2")
        );
        assert_eq!(
            node.locate("metadata.labels")
                .unwrap()
                .1
                .get("pod-template-hash")
                .unwrap()
                .as_str(),
            Some("69d8c7f5b6")
        );
        let pod: Pod = decode(node).unwrap();
        let status = pod.status.unwrap();
        let container = &status.container_statuses.unwrap()[0];
        assert_eq!(container.restart_count, 7);
        let last = container
            .last_state
            .as_ref()
            .unwrap()
            .terminated
            .as_ref()
            .unwrap();
        assert_eq!(last.exit_code, 1);
        assert!(last.message.as_deref().unwrap().contains("retry_backof"));
        assert_eq!(
            last.finished_at.as_ref().unwrap().0.to_string(),
            "2024-05-22T17:01:57Z"
        );
        assert_eq!(status.conditions.unwrap().len(), 2);
        assert_eq!(
            node.locate("metadata.ownerReferences[0].kind")
                .unwrap()
                .1
                .as_str(),
            Some("ReplicaSet")
        );
    }

    #[test]
    fn the_events_section_is_about_the_described_object() {
        let objects = parse(CRASHING, 1, None);
        let events = &objects[0].events;
        assert_eq!(events.len(), 1);
        let e = &events[0];
        assert_eq!(
            (e.kind.as_str(), e.name.as_str()),
            ("Pod", "event-router-69d8c7f5b6-t8wqz")
        );
        assert_eq!(e.namespace.as_deref(), Some("events-pipeline"));
        assert_eq!((e.line, e.count, e.last_age), (32, 63, Some(14)));
        assert_eq!(e.reporter.as_deref(), Some("kubelet"));
    }

    #[test]
    fn a_resource_quota_table_becomes_used_and_hard() {
        let text = "Name:            team-reports-quota\nNamespace:       team-reports\nResource         Used   Hard\n--------         ----   ----\nlimits.memory    22Gi   32Gi\nrequests.memory  11Gi   16Gi\n";
        let objects = parse(text, 1, None);
        let node = &objects[0].node;
        assert_eq!(node.get("kind").unwrap().as_str(), Some("ResourceQuota"));
        let (pos, used) = node.locate(r#"status.used["requests.memory"]"#).unwrap();
        assert_eq!((pos.line, used.as_str()), (6, Some("11Gi")));
        assert_eq!(
            node.locate(r#"status.hard["limits.memory"]"#).unwrap().1.as_str(),
            Some("32Gi")
        );
    }

    #[test]
    fn an_events_section_alone_belongs_to_the_object_the_command_names() {
        let text = "Events:\n  Type     Reason            Age                  From               Message\n  ----     ------            ----                 ----               -------\n  Warning  FailedScheduling  5m11s (x7 over 35m)  default-scheduler  0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.\n";
        let command = Command::parse("kubectl -n warehouse describe pod warehouse-db-0 | tail -4");
        assert!(is_describe("Events:", Some(&command)));
        assert!(!is_describe("Events:", None));
        let objects = parse(text, 21, Some(&command));
        let e = &objects[0].events[0];
        assert_eq!(
            (e.kind.as_str(), e.name.as_str(), e.namespace.as_deref()),
            ("Pod", "warehouse-db-0", Some("warehouse"))
        );
        assert_eq!((e.line, e.count), (24, 7));
    }

    const NODE: &str = "Name:               edge-node-3
Roles:              <none>
Labels:             kubernetes.io/hostname=edge-node-3
CreationTimestamp:  Mon, 10 Feb 2025 08:00:00 +0000
Taints:             node.kubernetes.io/disk-pressure:NoSchedule
                    dedicated=ci-runners:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   Tue, 11 Feb 2025 09:40:00 +0000   Mon, 10 Feb 2025 08:00:10 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
  DiskPressure     True    Tue, 11 Feb 2025 09:40:00 +0000   Tue, 11 Feb 2025 09:20:41 +0000   KubelethasDiskPressure       kubelet has disk pressure
  Ready            True    Tue, 11 Feb 2025 09:40:00 +0000   Mon, 10 Feb 2025 08:00:30 +0000   KubeletReady                 kubelet is posting ready status
Capacity:
  cpu:                4
  ephemeral-storage:  102626232Ki
Allocatable:
  cpu:                3800m
System Info:
  Machine ID:                 abc
Events:                       <none>
";

    #[test]
    fn a_node_keeps_taints_conditions_with_times_and_capacity() {
        let objects = parse(NODE, 1, None);
        let node = &objects[0].node;
        assert_eq!(node.get("kind").unwrap().as_str(), Some("Node"));
        assert_eq!(node.locate("metadata.namespace"), None);
        assert_eq!(
            node.locate("metadata.creationTimestamp").unwrap().1.as_str(),
            Some("2025-02-10T08:00:00Z")
        );
        let (pos, key) = node.locate("spec.taints[1].key").unwrap();
        assert_eq!((pos.line, key.as_str()), (6, Some("dedicated")));
        assert_eq!(
            node.locate("spec.taints[1].effect").unwrap().1.as_str(),
            Some("NoSchedule")
        );
        assert_eq!(
            node.locate("spec.taints[0].key").unwrap().1.as_str(),
            Some("node.kubernetes.io/disk-pressure")
        );
        let (pos, status) = node.locate("status.conditions[1].status").unwrap();
        assert_eq!((pos.line, status.as_str()), (12, Some("True")));
        assert_eq!(
            node.locate("status.conditions[1].reason").unwrap().1.as_str(),
            Some("KubelethasDiskPressure")
        );
        assert_eq!(
            node.locate("status.conditions[1].lastTransitionTime")
                .unwrap()
                .1
                .as_str(),
            Some("2025-02-11T09:20:41Z")
        );
        assert_eq!(
            node.locate("status.capacity[\"ephemeral-storage\"]")
                .unwrap()
                .1
                .as_str(),
            Some("102626232Ki")
        );
        assert_eq!(
            node.locate("spec.unschedulable").unwrap().1.as_str(),
            Some("false")
        );
    }

    #[test]
    fn workloads_and_services_keep_counts_and_selectors() {
        let text = "Name:                   web\nNamespace:              shop\nSelector:               app=web,tier=front\nReplicas:               3 desired | 1 updated | 4 total | 2 available | 2 unavailable\nStrategyType:           RollingUpdate\nConditions:\n  Type           Status  Reason\n  ----           ------  ------\n  Available      True    MinimumReplicasAvailable\n  Progressing    False   ProgressDeadlineExceeded\nEvents:          <none>\n";
        let deploy = &parse(text, 1, None)[0].node;
        assert_eq!(deploy.get("kind").unwrap().as_str(), Some("Deployment"));
        assert_eq!(deploy.locate("spec.replicas").unwrap().1.as_str(), Some("3"));
        assert_eq!(
            deploy.locate("status.availableReplicas").unwrap().1.as_str(),
            Some("2")
        );
        assert_eq!(
            deploy
                .locate("spec.selector.matchLabels.tier")
                .unwrap()
                .1
                .as_str(),
            Some("front")
        );
        assert_eq!(
            deploy.locate("status.conditions[1].reason").unwrap().1.as_str(),
            Some("ProgressDeadlineExceeded")
        );
        let rs = "Name:           web-84b6\nNamespace:      shop\nSelector:       app=web,pod-template-hash=84b6\nControlled By:  Deployment/web\nReplicas:       0 current / 3 desired\nPods Status:    0 Running / 0 Waiting / 0 Succeeded / 0 Failed\n";
        let rs = &parse(rs, 1, None)[0].node;
        assert_eq!(rs.get("kind").unwrap().as_str(), Some("ReplicaSet"));
        assert_eq!(
            (
                rs.locate("spec.replicas").unwrap().1.as_str(),
                rs.locate("status.replicas").unwrap().1.as_str()
            ),
            (Some("3"), Some("0"))
        );
        let svc = "Name:              echo\nNamespace:         exp-ready\nSelector:          app=echo\nType:              ClusterIP\nIP:                10.96.12.34\nPort:              http  80/TCP\nEndpoints:         <none>\n";
        let svc = &parse(svc, 1, None)[0].node;
        assert_eq!(svc.get("kind").unwrap().as_str(), Some("Service"));
        assert_eq!(svc.locate("spec.selector.app").unwrap().1.as_str(), Some("echo"));
        assert_eq!(svc.locate("spec.type").unwrap().1.as_str(), Some("ClusterIP"));
    }

    #[test]
    fn several_objects_and_kinds_from_the_command() {
        let text = "Name:         a\nNamespace:    ns\nStatus:       Pending\nEvents:       <none>\n\n\nName:         b\nNamespace:    ns\nStatus:       Bound\nEvents:       <none>\n";
        let command = Command::parse("kubectl describe pvc -n ns");
        let objects = parse(text, 10, Some(&command));
        assert_eq!(objects.len(), 2);
        assert_eq!(
            objects[1].node.get("kind").unwrap().as_str(),
            Some("PersistentVolumeClaim")
        );
        assert_eq!(objects[1].node.locate("status.phase").unwrap().0.line, 18);
        assert!(objects[0].events.is_empty());
    }
}
