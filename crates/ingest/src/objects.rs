//! Parsed documents become objects: a `List` its items, each tree decoded into the types rules read,
//! with what could not be decoded reported as a problem of its field.

use super::node::{Node, NodeValue, Pos, Text};
use super::{decode, Ingested, Object, Scope, Source, Typed, PRUNED};
use crate::reading::Msg;
use faultline_report::{InputError, ObjectRef};

/// Adds the objects of one parsed document; returns whether it was a `kind: List`.
pub(super) fn add_document(index: usize, source: &Source, node: Node, out: &mut Ingested) -> bool {
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

/// The kind of a document pasted without `kind` (`kubectl get … -o yaml` cut to its `status:`), told
/// by fields only that kind's status has: a Pod's `containerStatuses`, a Job's `Failed` or `Complete`
/// condition or its `startTime` with a count of `active`, `succeeded` or `failed` Pods.
fn kind_by_fields(node: &Node) -> Option<&'static str> {
    let status = node.get("status")?;
    if status.get("containerStatuses").is_some() || status.get("initContainerStatuses").is_some() {
        return Some("Pod");
    }
    let job_condition = status.get("conditions").is_some_and(|c| {
        c.items().iter().any(|c| {
            matches!(c.get("type").and_then(Node::as_str), Some("Failed" | "Complete"))
                && c.get("reason").and_then(Node::as_str).is_some_and(|r| {
                    matches!(
                        r,
                        "BackoffLimitExceeded"
                            | "DeadlineExceeded"
                            | "PodFailurePolicy"
                            | "CompletionsReached"
                    )
                })
        })
    });
    let job_counts = status.get("startTime").is_some()
        && ["active", "succeeded", "failed"]
            .iter()
            .any(|k| status.get(k).is_some());
    (job_condition || job_counts).then_some("Job")
}

pub(super) fn add_object(
    index: usize,
    source: &Source,
    mut node: Node,
    implied_kind: Option<&str>,
    out: &mut Ingested,
) {
    let error = |pos: Pos, message: Msg| InputError::new(&source.name, pos, message);
    if !matches!(node.value, NodeValue::Map(_)) {
        out.errors.push(error(node.pos, Msg::NotAnObject {}));
        return;
    }
    let text = |key: &str| node.get(key).and_then(Node::as_str);
    let meta = node.get("metadata");
    let meta_text = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Node::as_str)
            .map(Text::from)
    };
    let Some(kind) = text("kind")
        .or(implied_kind)
        .or_else(|| kind_by_fields(&node))
        .map(Text::from)
    else {
        out.errors.push(error(node.pos, Msg::NoKind {}));
        return;
    };
    let id = ObjectRef {
        kind: kind.clone(),
        namespace: meta_text("namespace"),
        name: meta_text("name").unwrap_or_default(),
        uid: meta_text("uid"),
    };
    let api_version = text("apiVersion").unwrap_or_default().to_string();
    // A reading of trees only ([`super::ingest_trees`]) decodes no types: nothing reads them there.
    let (typed, problems) = match out.scope {
        Scope::Analysis => decode_tolerant(&kind, &api_version, &node),
        Scope::Trees => (Typed::Untyped, Vec::new()),
    };
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
        out.errors.push(error(
            pos,
            Msg::FieldProblem {
                kind: kind.clone(),
                name: id.name.clone(),
                problem: e.to_string(),
                kept_object: gave_up && i + 1 == problems.len(),
            },
        ));
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
pub(super) fn decode_tolerant(
    kind: &str,
    api_version: &str,
    node: &Node,
) -> (Typed, Vec<decode::DecodeError>) {
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

pub(super) fn decode_typed(kind: &str, api_version: &str, node: &Node) -> Result<Typed, decode::DecodeError> {
    Ok(match (kind, api_version) {
        ("Pod", _) => Typed::Pod(Box::new(decode::decode(node)?)),
        ("Event", "events.k8s.io/v1") => Typed::EventV1(Box::new(decode::decode(node)?)),
        ("Event", _) => Typed::Event(Box::new(decode::decode(node)?)),
        _ => Typed::Untyped,
    })
}
