//! A described Pod: its containers (`State:`, `Last State:`, `Ready:`, `Restart Count:`, limits and
//! requests), its conditions table and its top-level fields, as `kubectl get pod -o yaml` shapes them;
//! and a container's block pasted without the rest.

use super::fields::pairs;
use super::{lex, seq, time, tree, Item, Line};
use crate::node::{MapBuilder as Obj, Node, NodeValue, Pos};

/// A container's part of `kubectl describe pod` pasted alone (`State:`, `Last State:`, `Ready:`,
/// `Restart Count:`, often indented as a markdown code block): a Pod named `name` (empty when the
/// paste does not say) with that one container, its state read as in a whole describe. `None` when
/// the lines hold no `State:` or `Last State:` with `Ready:` or `Restart Count:` beside it (or
/// `State:` with `Last State:`, or a `Last State:` with its `Reason:` and `Exit Code:`).
pub fn container_fragment(text: &str, first_line: u32, name: &str, namespace: Option<&str>) -> Option<Node> {
    // Its indentation given back where it was lost (collapsed spaces or tabs inside quoting).
    let reindented = super::reindent::reindent_container(text);
    let text = reindented.as_deref().unwrap_or(text);
    let lines = lex(text, first_line);
    let roots = tree(&lines);
    let has = |key: &str| roots.iter().any(|i| i.line.key == Some(key));
    // `Last State:` with its container's `Ready:` or `Restart Count:` is the block too, when the
    // paste starts below `State:` (the termination is what was worth quoting).
    let beside = has("Ready") || has("Restart Count");
    // A termination quoted alone (`Last State: Terminated` with its `Reason:` and `Exit Code:`) is
    // what the paste says of the container, and read as such.
    let termination = roots.iter().any(|i| {
        i.line.key == Some("Last State")
            && i.children.iter().any(|c| c.line.key == Some("Exit Code"))
            && i.children.iter().any(|c| c.line.key == Some("Reason"))
    });
    if !((has("State") && (has("Last State") || beside)) || (has("Last State") && beside) || termination) {
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

/// A `Conditions:` section of `kubectl describe node` (or pod) pasted alone: a Node (its table has
/// `LastHeartbeatTime`) or a Pod (`Type  Status` only) named `name` (empty when the paste does not
/// say), with those conditions. `None` for any other table.
pub fn conditions_fragment(text: &str, first_line: u32, name: &str, namespace: Option<&str>) -> Option<Node> {
    let lines = lex(text, first_line);
    let roots = tree(&lines);
    let section = roots.iter().find(|i| i.line.key == Some("Conditions"))?;
    let header: Vec<&str> = section.more.first()?.value.split_whitespace().collect();
    let kind = if header.contains(&"LastHeartbeatTime") {
        "Node"
    } else if header == ["Type", "Status"] {
        "Pod"
    } else {
        return None;
    };
    let conditions = condition_rows(section);
    let pos = section.pos();
    let mut object = Obj::new(pos);
    object.str("kind", kind, pos);
    let mut meta = Obj::new(pos);
    meta.str("name", name, pos);
    if let (Some(ns), "Pod") = (namespace, kind) {
        meta.str("namespace", ns, pos);
    }
    object.put("metadata", meta.node(), pos);
    let mut status = Obj::new(pos);
    status.put("conditions", conditions, pos);
    object.put("status", status.node(), pos);
    if kind == "Pod" {
        let mut spec = Obj::new(pos);
        spec.put("containers", seq(Vec::new(), pos), pos);
        object.put("spec", spec.node(), pos);
    }
    Some(object.node())
}

pub(super) fn pod(items: &[Item<'_>], object: &mut Obj) {
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
pub(super) fn container_nodes(container: &Item<'_>) -> (Node, Node) {
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
    for (key, field_name) in [
        ("Liveness", "livenessProbe"),
        ("Readiness", "readinessProbe"),
        ("Startup", "startupProbe"),
    ] {
        if let Some((at, probe)) = field(key) {
            spec.put(field_name, probe_node(&probe, at), at);
        }
    }
    if let Some(ports) = container.child("Ports").or_else(|| container.child("Port")) {
        let list = port_list(ports);
        if !list.is_empty() {
            spec.put("ports", seq(list, ports.pos()), ports.pos());
            // Describe prints no port names: kept as printed, so a rule knows the names are unknown.
            let mut printed = Obj::new(ports.pos());
            printed.str("ports", ports.text().as_deref().unwrap_or_default(), ports.pos());
            spec.put("kubectl", printed.node(), ports.pos());
        }
    }
    // `Command:` and `Args:`: one item a line, as describe prints them.
    for key in ["Command", "Args"] {
        let Some(item) = container.child(key) else {
            continue;
        };
        let words: Vec<Node> = std::iter::once(&item.line)
            .chain(item.more.iter())
            .filter(|l| !l.value.trim().is_empty())
            .map(|l| {
                let at = Pos::new(l.line, l.indent as u32 + 1);
                let mut text = l.value.trim().to_string();
                if let Some(k) = l.key.filter(|_| l.line != item.line.line) {
                    // An argument that looks like a key (`--opt: x`) was split at its colon.
                    text = format!("{k}: {text}").trim_end().to_string();
                }
                Node::new(NodeValue::Scalar(text.as_str().into()), at)
            })
            .chain(item.children.iter().map(|c| {
                let text = format!("{}: {}", c.line.key.unwrap_or_default(), c.line.value);
                Node::new(NodeValue::Scalar(text.trim_end().into()), c.pos())
            }))
            .collect();
        if !words.is_empty() {
            spec.put(&key.to_ascii_lowercase(), seq(words, item.pos()), item.pos());
        }
    }
    let mut resources = Obj::new(pos);
    for (key, field_name) in [("Limits", "limits"), ("Requests", "requests")] {
        let Some(item) = container.child(key) else {
            continue;
        };
        let mut values = Obj::new(item.pos());
        for child in &item.children {
            if let (Some(k), Some(v)) = (child.line.key, child.text()) {
                values.str(k, &v, child.pos());
            }
        }
        if values.get("memory").is_some() || values.get("cpu").is_some() || !item.children.is_empty() {
            resources.put(field_name, values.node(), item.pos());
        }
    }
    if resources.get("limits").is_some() || resources.get("requests").is_some() {
        spec.put("resources", resources.node(), pos);
    }
    if let Some(item) = container.child("Environment") {
        let env: Vec<Node> = item.children.iter().filter_map(env_var).collect();
        if !env.is_empty() {
            spec.put("env", seq(env, item.pos()), item.pos());
        }
    }
    if let Some(item) = container.child("Environment Variables from") {
        let from: Vec<Node> = std::iter::once(&item.line)
            .chain(item.more.iter())
            .filter_map(env_from)
            .collect();
        if !from.is_empty() {
            spec.put("envFrom", seq(from, item.pos()), item.pos());
        }
    }
    if let Some(state) = container.child("State") {
        status.put("state", state_node(state), state.pos());
    }
    if let Some(state) = container.child("Last State") {
        status.put("lastState", state_node(state), state.pos());
    }
    (spec.node(), status.node())
}

/// `8080/TCP` or `8080/TCP, 9090/UDP` (describe's `Port:` / `Ports:`) -> `[{containerPort, protocol}]`.
fn port_list(item: &Item<'_>) -> Vec<Node> {
    let mut out = Vec::new();
    for line in std::iter::once(&item.line).chain(item.more.iter()) {
        let at = Pos::new(line.line, line.indent as u32 + 1);
        for word in line.value.split(',') {
            let word = word.trim();
            let (number, protocol) = word.split_once('/').unwrap_or((word, "TCP"));
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let mut port = Obj::new(at);
            port.plain("containerPort", number, at);
            port.str("protocol", protocol, at);
            out.push(port.node());
        }
    }
    out
}

/// An `Environment:` line: `REDIS_ADDR:  redis-cart:6379` -> `{name, value}`; `DB_PASSWORD:  <set to
/// the key 'password' in secret 'db'>  Optional: false` -> `{name, valueFrom: {secretKeyRef}}`
/// (kubectl's words for a key of a Secret, and `of config map` for a ConfigMap's).
fn env_var(item: &Item<'_>) -> Option<Node> {
    let name = item.line.key?;
    let at = item.pos();
    let mut var = Obj::new(at);
    var.str("name", name, at);
    let value = item.line.value;
    let reference = value.strip_prefix("<set to the key '").and_then(|rest| {
        let (key, rest) = rest.split_once('\'')?;
        let (kind, rest) = if let Some(r) = rest.strip_prefix(" in secret '") {
            ("secretKeyRef", r)
        } else {
            ("configMapKeyRef", rest.strip_prefix(" of config map '")?)
        };
        let (object, rest) = rest.split_once('\'')?;
        Some((key, kind, object, rest.contains("Optional: true")))
    });
    match reference {
        Some((key, kind, object, optional)) => {
            let mut r = Obj::new(at);
            r.str("name", object, at);
            r.str("key", key, at);
            if optional {
                r.plain("optional", "true", at);
            }
            let mut from = Obj::new(at);
            from.put(kind, r.node(), at);
            var.put("valueFrom", from.node(), at);
        }
        None if value.starts_with('<') || value.starts_with('(') => {}
        None => {
            let text = item.text().unwrap_or_default();
            // A field or resource reference, printed with its resolved value: `api-0
            // (v1:metadata.name)`, `402653184 (limits.memory)`: the value is not in the spec.
            let reference = text
                .strip_suffix(')')
                .and_then(|t| t.rsplit_once(" ("))
                .is_some_and(|(_, r)| {
                    r.starts_with("v1:") || r.starts_with("limits.") || r.starts_with("requests.")
                });
            if !reference {
                var.str("value", &text, at);
            }
        }
    }
    Some(var.node())
}

/// An `Environment Variables from:` line: `app-config  ConfigMap  Optional: false` -> `{configMapRef}`.
fn env_from(line: &Line<'_>) -> Option<Node> {
    let words: Vec<&str> = line.value.split_whitespace().collect();
    let (&name, rest) = words.split_first()?;
    let kind = match *rest.first()? {
        "ConfigMap" => "configMapRef",
        "Secret" => "secretRef",
        _ => return None,
    };
    let at = Pos::new(line.line, line.indent as u32 + 1);
    let mut r = Obj::new(at);
    r.str("name", name, at);
    if line.value.contains("Optional: true") {
        r.plain("optional", "true", at);
    }
    let mut from = Obj::new(at);
    from.put(kind, r.node(), at);
    Some(from.node())
}

/// A probe as describe prints it (`http-get http://:8080/healthz delay=0s timeout=1s period=10s
/// #success=1 #failure=30`): its timing fields (`initialDelaySeconds`, `timeoutSeconds`,
/// `periodSeconds`, `successThreshold`, `failureThreshold`), all at the probe's line.
fn probe_node(text: &str, at: Pos) -> Node {
    let mut probe = Obj::new(at);
    // `http-get http://:8080/healthz`, `tcp-socket :6379`, `grpc <pod>:9090 <service>`: the port,
    // a number or a name, as the spec wrote it.
    let mut words = text.split_whitespace();
    let handler = match words.next() {
        Some("http-get") => Some("httpGet"),
        Some("tcp-socket") => Some("tcpSocket"),
        Some("grpc") => Some("grpc"),
        _ => None,
    };
    if let (Some(handler), Some(target)) = (handler, words.next()) {
        let after_scheme = target.split_once("://").map_or(target, |(_, rest)| rest);
        let host_port = after_scheme.split('/').next().unwrap_or_default();
        if let Some((_, port)) = host_port.rsplit_once(':') {
            if !port.is_empty() {
                let mut h = Obj::new(at);
                if port.bytes().all(|b| b.is_ascii_digit()) {
                    h.plain("port", port, at);
                } else {
                    h.str("port", port, at);
                }
                probe.put(handler, h.node(), at);
            }
        }
    }
    for word in text.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let field = match key {
            "delay" => "initialDelaySeconds",
            "timeout" => "timeoutSeconds",
            "period" => "periodSeconds",
            "#success" => "successThreshold",
            "#failure" => "failureThreshold",
            _ => continue,
        };
        let value = value.trim_end_matches('s');
        if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
            probe.plain(field, value, at);
        }
    }
    probe.node()
}

/// `State: Waiting` + `Reason:` / `Message:` / `Exit Code:` ... -> `{waiting: {reason, message}}`.
pub(super) fn state_node(item: &Item<'_>) -> Node {
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
pub(super) fn condition_rows(section: &Item<'_>) -> Node {
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

/// Cells separated by runs of 2+ spaces, or by a tab with any spaces around it (kubectl before 1.8
/// aligned describe's tables with tabs: `OutOfDisk \t\tUnknown \tSat, 04 Mar 2017 …`); the last
/// takes the rest of the line.
pub(super) fn split_cells(line: &str, max: usize) -> Vec<&str> {
    let mut cells = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if cells.len() + 1 == max {
            cells.push(rest);
            break;
        }
        let gap = rest.find("  ");
        let tab = rest.find('\t').map(|at| rest[..at].trim_end().len());
        match gap.into_iter().chain(tab).min() {
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
