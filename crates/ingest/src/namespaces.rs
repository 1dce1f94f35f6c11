//! The namespace a paste states for objects and rows read without one.

use crate::{events_table, Ingested};

/// One paste's objects and event rows read without a namespace (a `kubectl get pods` table without
/// its command, an `Events:` section alone) take the namespace the paste states for the same kind
/// and name elsewhere (describe's `Namespace:` line, a `-n` command, an object's metadata), when it
/// states one namespace for them: they are the same object, and a finding about it should name
/// it once, with what each part of the paste says. Names seen in two namespaces stay apart. The
/// rows of one `kubectl get` table without a NAMESPACE column then share the namespace one of them
/// was found in: kubectl listed one namespace.
pub(crate) fn unify_namespaces(out: &mut Ingested, objects_before: usize, events_before: usize) {
    use faultline_report::hash::Map;
    let objects = &mut out.objects[objects_before..];
    let events = &mut out.table_events[events_before..];
    // (kind, name) -> the one namespace stated for it, or None when several are.
    let mut stated: Map<(String, String), Option<String>> = Map::default();
    let mut state = |kind: &str, name: &str, namespace: &str| {
        stated
            .entry((kind.to_string(), name.to_string()))
            .and_modify(|seen| {
                if seen.as_deref() != Some(namespace) {
                    *seen = None;
                }
            })
            .or_insert_with(|| Some(namespace.to_string()));
    };
    for object in objects.iter() {
        if let Some(namespace) = &object.id.namespace {
            state(&object.id.kind, &object.id.name, namespace);
        }
    }
    for (_, event) in events.iter() {
        if let Some(namespace) = event.namespace.as_deref().filter(|_| !event.name.is_empty()) {
            state(&event.kind, &event.name, namespace);
        }
    }
    if stated.is_empty() {
        return;
    }
    let of = |kind: &str, name: &str| -> Option<String> {
        if name.is_empty() || events_table::is_cluster_scoped(kind) {
            return None;
        }
        stated
            .get(&(kind.to_string(), name.to_string()))
            .cloned()
            .flatten()
    };
    for object in objects.iter_mut().filter(|o| o.id.namespace.is_none()) {
        if let Some(namespace) = of(&object.id.kind, &object.id.name) {
            object.id.namespace = Some(namespace.into());
        }
    }
    for (_, event) in events.iter_mut().filter(|(_, e)| e.namespace.is_none()) {
        event.namespace = of(&event.kind, &event.name);
    }
    for table in out
        .tables_without_namespace
        .iter()
        .filter(|t| t.start >= objects_before)
    {
        let rows = &mut out.objects[table.clone()];
        let mut namespaces = rows.iter().filter_map(|o| o.id.namespace.clone());
        let Some(namespace) = namespaces.next() else {
            continue;
        };
        if namespaces.all(|n| n == namespace) {
            for row in rows.iter_mut() {
                row.id.namespace = Some(namespace.clone());
            }
        }
    }
}
