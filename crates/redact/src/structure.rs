//! Secrets that only the structure reveals: a Secret's `data` (kubectl prints `data:` before
//! `kind: Secret`), a kubeconfig's user credentials, and the Secret or env inside a
//! `last-applied-configuration` annotation (JSON inside a YAML string).

use std::cell::OnceCell;

use super::scan::is_secret_key;
use super::{LineIndex, SecretKind, Span};
use faultline_ingest::node::{MapEntry, Node, NodeValue};
use faultline_ingest::{json, Object};
use faultline_report::hash::Map;

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// kubeconfig `users[].user` fields that are credentials.
const KUBECONFIG_KEYS: [&str; 9] = [
    "client-key-data",
    "client-key",
    "token",
    "password",
    "id-token",
    "refresh-token",
    "access-token",
    "client-secret",
    "idp-certificate-authority-data",
];

/// Spans in `text` found from the structure of `objects`, the objects read from it.
/// `lines` is `text`'s line index, built on first use (most objects need none) and shared with the
/// rest of the scan.
pub fn find<'a>(
    text: &str,
    lines: &OnceCell<LineIndex>,
    objects: impl Iterator<Item = &'a Object>,
) -> Vec<Span> {
    let mut out = Vec::new();
    let lines = || lines.get_or_init(|| LineIndex::new(text));
    for object in objects {
        let node = &object.node;
        match object.id.kind.as_str() {
            "Secret" => {
                for field in ["data", "stringData"] {
                    for entry in entries(node.get(field)) {
                        let kind = if matches!(entry.key.as_str(), ".dockerconfigjson" | ".dockercfg") {
                            SecretKind::DockerConfig
                        } else {
                            SecretKind::SecretData
                        };
                        push_value(text, lines(), entry, kind, &mut out);
                    }
                }
            }
            "Config" => {
                for user in node.get("users").map(Node::items).unwrap_or_default() {
                    let Some(user) = user.get("user") else { continue };
                    kubeconfig_user(text, lines(), user, &mut out);
                }
            }
            _ => {}
        }
        let annotations = node.get("metadata").and_then(|m| m.get("annotations"));
        for entry in entries(annotations) {
            if entry.key == LAST_APPLIED {
                last_applied(text, lines(), entry, &mut out);
            }
        }
    }
    response_bodies(text, &mut out);
    out
}

/// The objects in `kubectl -v=8` output: each `Response Body: {...}` line holds an API response as
/// one line of JSON (a Secret, a List of them), which no reader of kubectl's own output reads. Its
/// secret values are marked where they are on that line.
fn response_bodies(text: &str, out: &mut Vec<Span>) {
    const MARKER: &[u8] = b"Response Body: ";
    for found in memchr::memmem::find_iter(text.as_bytes(), MARKER) {
        let start = found + MARKER.len();
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let body = text[start..end].trim_end();
        if !body.starts_with('{') {
            continue;
        }
        embedded_json(text, start, end, body, SecretKind::SecretData, out);
    }
}

/// The secret values of the JSON `json_text` (what [`secrets_in`] finds, a Secret's data of `kind`),
/// marked where they are in `text[start..end]`, the text that holds it.
fn embedded_json(
    text: &str,
    start: usize,
    end: usize,
    json_text: &str,
    kind: SecretKind,
    out: &mut Vec<Span>,
) {
    let mut values = Vec::new();
    for doc in json::parse_documents(json_text, 1) {
        if let Ok(node) = doc.result {
            secrets_in(&node, kind, &mut values);
        }
    }
    mark(text, start, end, values, out);
}

/// The spans of text that the structure says hold names, not secrets, though their keys are named
/// like secrets: every secret-named field of an External Secrets Operator object, and its
/// `last-applied-configuration` (`ExternalSecret`,
/// `ClusterExternalSecret`, `PushSecret`, `SecretStore`, ...): what they hold are references to
/// secrets kept elsewhere (`secretKey: password` names the key of the Secret the operator writes,
/// `remoteRef.property` the field it reads), never the secret.
pub fn names<'a>(
    text: &str,
    lines: &OnceCell<LineIndex>,
    objects: impl Iterator<Item = &'a Object>,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for object in objects {
        let group = object.api_version.split('/').next().unwrap_or_default();
        if !group.ends_with("external-secrets.io") {
            continue;
        }
        let lines = lines.get_or_init(|| LineIndex::new(text));
        if let Some(spec) = object.node.get("spec") {
            reference_names(text, lines, spec, &mut out);
        }
        // The same object as applied, in its annotation: all of it references.
        let annotations = object.node.get("metadata").and_then(|m| m.get("annotations"));
        for entry in entries(annotations) {
            if entry.key == LAST_APPLIED {
                out.extend(value_span(text, lines, entry));
            }
        }
    }
    out
}

fn reference_names(text: &str, lines: &LineIndex, node: &Node, out: &mut Vec<(usize, usize)>) {
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                if entry.value.as_str().is_some() {
                    if is_secret_key(&entry.key) {
                        out.extend(value_span(text, lines, entry));
                    }
                } else {
                    reference_names(text, lines, &entry.value, out);
                }
            }
        }
        NodeValue::Seq(items) => items.iter().for_each(|i| reference_names(text, lines, i, out)),
        _ => {}
    }
}

fn entries(node: Option<&Node>) -> &[MapEntry] {
    match node.map(|n| &n.value) {
        Some(NodeValue::Map(entries)) => entries,
        _ => &[],
    }
}

fn kubeconfig_user(text: &str, lines: &LineIndex, user: &Node, out: &mut Vec<Span>) {
    for entry in entries(Some(user)) {
        if KUBECONFIG_KEYS.contains(&entry.key.as_str()) {
            push_value(text, lines, entry, SecretKind::KubeconfigCredential, out);
        } else if matches!(entry.value.value, NodeValue::Map(_)) {
            // auth-provider.config.{id-token, refresh-token, client-secret}
            kubeconfig_user(text, lines, &entry.value, out);
        }
    }
}

/// The JSON inside the annotation is parsed; every secret value in it is then marked where it occurs
/// inside the annotation's text (escaped or not).
fn last_applied(text: &str, lines: &LineIndex, entry: &MapEntry, out: &mut Vec<Span>) {
    let Some(json_text) = entry.value.as_str() else {
        return;
    };
    let Some((start, end)) = value_span(text, lines, entry) else {
        return;
    };
    embedded_json(text, start, end, json_text, SecretKind::AnnotationSecret, out);
}

/// The credentials of a docker config's `auths` (`auth`, `password`, `identitytoken`,
/// `registrytoken` of each registry), marked where they are in `text[start..end]`.
fn docker_config(text: &str, start: usize, end: usize, json_text: &str, out: &mut Vec<Span>) {
    let mut values = Vec::new();
    for doc in json::parse_documents(json_text, 1) {
        let Ok(node) = doc.result else { continue };
        for registry in entries(node.get("auths")) {
            for field in entries(Some(&registry.value)) {
                let credential =
                    ["auth", "password", "identitytoken", "registrytoken"].contains(&field.key.as_str());
                if let Some(v) = field
                    .value
                    .as_str()
                    .filter(|v| credential && super::scan::is_plausible_value(v))
                {
                    values.push((v.to_string(), SecretKind::DockerConfig));
                }
            }
        }
    }
    mark(text, start, end, values, out);
}

/// Marks each of `values` where it occurs in `text[start..end]` as a whole word (as written, and
/// escaped once and twice as in JSON strings).
fn mark(text: &str, start: usize, end: usize, values: Vec<(String, SecretKind)>, out: &mut Vec<Span>) {
    // Each value (as written, and escaped once and twice) is looked for as a whole word of the
    // annotation's text: the text is cut into words once and each looked up, where a search of the
    // whole text for every value was quadratic (a Secret of many keys applied with kubectl). Only
    // the rare values that are not one word are searched for.
    let mut words: Map<String, SecretKind> = Map::default();
    let mut phrases: Vec<(String, SecretKind)> = Vec::new();
    for (value, kind) in values {
        if value.is_empty() {
            continue;
        }
        let once = super::json_escape(&value);
        let twice = once.as_deref().and_then(super::json_escape);
        for variant in [Some(value), once, twice].into_iter().flatten() {
            if variant.bytes().all(super::is_word_byte) {
                words.entry(variant).or_insert(kind);
            } else {
                phrases.push((variant, kind));
            }
        }
    }
    let region = &text[start..end];
    let bytes = region.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !super::is_word_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let word_start = i;
        while i < bytes.len() && super::is_word_byte(bytes[i]) {
            i += 1;
        }
        if let Some(&kind) = words.get(&region[word_start..i]) {
            out.push(Span {
                rule: None,
                kind,
                start: start + word_start,
                end: start + i,
            });
        }
    }
    for (variant, kind) in phrases {
        // One searcher for each phrase, not one set up for each place it is found.
        let finder = memchr::memmem::Finder::new(variant.as_bytes());
        let mut from = 0;
        while let Some(found) = finder.find(&bytes[from..]) {
            let s = start + from + found;
            out.push(Span {
                rule: None,
                kind,
                start: s,
                end: s + variant.len(),
            });
            from += found + variant.len();
        }
    }
}

/// Secret values in an object tree read from JSON: a Secret's data (`kind` is theirs), also of the
/// Secrets of a List, and values of secret-named keys (including env `name`/`value` pairs).
fn secrets_in(node: &Node, kind: SecretKind, out: &mut Vec<(String, SecretKind)>) {
    for item in node.get("items").map(Node::items).unwrap_or_default() {
        secrets_in(item, kind, out);
    }
    // An External Secrets Operator object holds references to secrets, never one ([`names`]).
    let group = node.get("apiVersion").and_then(Node::as_str).unwrap_or_default();
    if group
        .split('/')
        .next()
        .unwrap_or_default()
        .ends_with("external-secrets.io")
    {
        return;
    }
    let is_secret = node.get("kind").and_then(Node::as_str) == Some("Secret");
    if is_secret {
        for field in ["data", "stringData"] {
            for entry in entries(node.get(field)) {
                if let Some(v) = entry
                    .value
                    .as_str()
                    .filter(|v| super::scan::is_plausible_value(v))
                {
                    out.push((v.to_string(), kind));
                }
            }
        }
    }
    walk(node, out);
}

fn walk(node: &Node, out: &mut Vec<(String, SecretKind)>) {
    match &node.value {
        NodeValue::Map(entries) => {
            let env_name = node.get("name").and_then(Node::as_str);
            for entry in entries {
                match entry.value.value.as_str() {
                    Some(v) => {
                        let named = is_secret_key(&entry.key)
                            || (entry.key == "value" && env_name.is_some_and(is_secret_key));
                        if named && super::scan::is_plausible_value(v) {
                            out.push((v.to_string(), SecretKind::AnnotationSecret));
                        }
                    }
                    _ => walk(&entry.value, out),
                }
            }
        }
        NodeValue::Seq(items) => items.iter().for_each(|i| walk(i, out)),
        _ => {}
    }
}

fn push_value(text: &str, lines: &LineIndex, entry: &MapEntry, kind: SecretKind, out: &mut Vec<Span>) {
    if entry.value.value.as_str().is_none() {
        return;
    }
    if let Some((start, end)) = value_span(text, lines, entry) {
        let value = &text[start..end];
        // What a Secret holds may be a JSON document (`stringData`'s `.dockerconfigjson: |` block,
        // `config.json`): a value that only a placeholder would be elsewhere (`{...}`), but not `{}`.
        let document = kind != SecretKind::KubeconfigCredential
            && value.starts_with(['{', '['])
            && value.bytes().filter(|b| !b.is_ascii_whitespace()).count() > 2;
        if document && kind == SecretKind::DockerConfig {
            // A docker config written out (`stringData`): its credentials go, its registries stay
            // (the host an image pull failed against is evidence).
            docker_config(text, start, end, entry.value.as_str().unwrap_or_default(), out);
        } else if start < end && (document || super::scan::is_plausible_value(value)) {
            out.push(Span {
                rule: None,
                kind,
                start,
                end,
            });
        }
    }
}

/// The byte span of a scalar value's text, without quotes: a quoted value up to its closing quote, a
/// block scalar's lines, a plain value as far as its parsed text goes (so that in a flow map,
/// `{a: x, b: y}`, it stops before the comma: the redacted copy must parse as the original did).
pub fn value_span(text: &str, lines: &LineIndex, entry: &MapEntry) -> Option<(usize, usize)> {
    let key_line_start = lines.line_start(entry.key_pos.line)?;
    let key_line_end = lines.line_end(text, entry.key_pos.line)?;
    let key_line = &text[key_line_start..key_line_end];
    // A block scalar: `key: |` (or `|-`, `>+`, `|2`) with the lines below. Only the line's last few
    // bytes can say so: a long line (a flow map, one line of JSON) is not searched once per entry.
    let tail = key_line.trim_end();
    let mut from = tail.len().saturating_sub(6);
    while !tail.is_char_boundary(from) {
        from -= 1;
    }
    let tail = &tail[from..];
    let indicator = tail.rsplit(": ").next().unwrap_or_default();
    if tail.contains(": ") && indicator.starts_with(['|', '>']) && indicator.len() <= 3 {
        return block_span(text, key_line, key_line_end);
    }
    let start = lines.offset(text, entry.value.pos.line, entry.value.pos.column)?;
    let bytes = text.as_bytes();
    match bytes.get(start)? {
        b'"' => {
            let mut i = start + 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return Some((start + 1, i)),
                    _ => i += 1,
                }
            }
            None
        }
        b'\'' => {
            let mut i = start + 1;
            while i < bytes.len() {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return Some((start + 1, i));
                }
                i += 1;
            }
            None
        }
        b'|' | b'>' => {
            let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            block_span(text, key_line, line_end)
        }
        _ => {
            if let Some(end) = entry.value.value.as_str().and_then(|v| plain_end(text, start, v)) {
                return Some((start, end));
            }
            let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let mut value = &text[start..line_end];
            if let Some(comment) = value.find(" #") {
                value = &value[..comment];
            }
            let value = value.trim_end();
            Some((start, start + value.len()))
        }
    }
}

/// Where the plain scalar `value`, as parsed, ends in `text` when it starts at `start`: its own
/// length on one line; over several lines, each run of white space in the value (a folded line
/// break) matches a run of white space, line breaks and indentation included, in the text.
fn plain_end(text: &str, start: usize, value: &str) -> Option<usize> {
    let rest = text.get(start..)?;
    if rest.starts_with(value) {
        return Some(start + value.len());
    }
    let (text, value) = (rest.as_bytes(), value.as_bytes());
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let (mut i, mut j) = (0, 0);
    while j < value.len() {
        if space(value[j]) {
            if !text.get(i).is_some_and(|&b| space(b)) {
                return None;
            }
            while j < value.len() && space(value[j]) {
                j += 1;
            }
            while i < text.len() && space(text[i]) {
                i += 1;
            }
        } else if text.get(i) == Some(&value[j]) {
            i += 1;
            j += 1;
        } else {
            return None;
        }
    }
    Some(start + i)
}

/// The content of a block scalar whose indicator ends the line at `indicator_line_end`: the following
/// lines indented deeper than the key's line (and blank lines among them).
pub fn block_span(text: &str, key_line: &str, indicator_line_end: usize) -> Option<(usize, usize)> {
    let key_indent = key_line.len() - key_line.trim_start_matches([' ', '-']).len();
    let mut start = None;
    let mut end = indicator_line_end;
    let mut at = indicator_line_end + 1;
    while at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = &text[at..line_end];
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if trimmed.trim().is_empty() {
            at = line_end + 1;
            continue;
        }
        if indent <= key_indent {
            break;
        }
        if start.is_none() {
            start = Some(at + indent);
        }
        end = at + line.trim_end().len();
        at = line_end + 1;
    }
    start.map(|s| (s, end.max(s)))
}
