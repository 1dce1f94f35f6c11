//! Questions about the object graph that rules ask: which workload a Pod belongs to, whether an
//! object descends from a workload, whether a Service selects a Pod, a Pod runs on a Node, a Pod
//! uses a claim. They are the model's answers (what the input says about ownership), not diagnoses.
//! The report's workloads (the app's timeline lanes) come from here too, so that the rules and the
//! app read generated names by one heuristic ([`named_workload`]).

use std::collections::BTreeMap;

use crate::graph::{Edge, EdgeKind, Target};
use crate::Model;
use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::{MapObject, ObjectRef, Relation, RelationKind, Text, TimelineEntry, WorkloadOf};

/// The Pod's top controller as far as the Pod itself says: its controller owner reference, with a
/// ReplicaSet named `<deployment>-<pod-template-hash>` (the hash also in the Pod's labels) taken up to
/// its Deployment; the Pod itself when it has no owner.
pub fn workload_of(pod: &Object) -> ObjectRef {
    let owner = pod.locate("metadata.ownerReferences").and_then(|(_, refs)| {
        let items = refs.items();
        items
            .iter()
            .find(|r| r.get("controller").and_then(Node::as_str) == Some("true"))
            .or_else(|| items.first())
            .and_then(|r| Some((r.get("kind")?.as_str()?, r.get("name")?.as_str()?)))
    });
    let Some((kind, name)) = owner else {
        return pod.id.clone();
    };
    let hash = pod
        .locate("metadata.labels.pod-template-hash")
        .and_then(|(_, n)| n.as_str());
    let (kind, name) = match (kind, hash) {
        ("ReplicaSet", Some(hash)) => match name.strip_suffix(hash).and_then(|n| n.strip_suffix('-')) {
            Some(deployment) if !deployment.is_empty() => ("Deployment", deployment),
            _ => (kind, name),
        },
        _ => (kind, name),
    };
    ObjectRef {
        kind: kind.into(),
        namespace: pod.id.namespace.clone(),
        name: name.into(),
        uid: None,
    }
}

/// Whether `subject` is `workload` itself or below it: owned through `metadata.ownerReferences` (a
/// Pod of a ReplicaSet of the Deployment), or, for objects not pasted (a `FailedCreate` event's
/// ReplicaSet), named the way the controllers name them: `<deployment>-<pod-template-hash>` and
/// `<replicaset>-<suffix>`, `<statefulset>-<ordinal>`, in the same namespace.
pub fn descends_from(model: &Model<'_>, subject: &ObjectRef, workload: &ObjectRef) -> bool {
    if subject.namespace != workload.namespace {
        return false;
    }
    if subject.kind == workload.kind && subject.name == workload.name {
        return true;
    }
    // Stated ownership, up to two levels (Pod → ReplicaSet → Deployment).
    if let Some(start) = model.graph.find(subject) {
        let mut current = vec![start];
        for _ in 0..2 {
            let mut parents = Vec::new();
            let mut stated = false;
            for &from in &current {
                for edge in model
                    .graph
                    .edges_from(from)
                    .filter(|e| e.kind == EdgeKind::OwnedBy)
                {
                    stated = true;
                    let owner = match &edge.to {
                        Target::Object(i) => &model.objects[*i].id,
                        Target::Missing(r) => r,
                    };
                    if owner.kind == workload.kind && owner.name == workload.name {
                        return true;
                    }
                    if owner.kind == "ReplicaSet" && workload.kind == "Deployment" {
                        if named_after(&owner.name, &workload.name, 1) {
                            return true;
                        }
                        if let Target::Object(i) = edge.to {
                            parents.push(i);
                        }
                    }
                }
            }
            if parents.is_empty() {
                if stated {
                    return false;
                }
                break;
            }
            current = parents;
        }
    }
    // Not pasted, or pasted without owner references (tables, events): the controllers' names.
    match (workload.kind.as_str(), subject.kind.as_str()) {
        ("Deployment", "ReplicaSet") => named_after(&subject.name, &workload.name, 1),
        ("Deployment", "Pod") => named_after(&subject.name, &workload.name, 2),
        ("StatefulSet", "Pod") => subject
            .name
            .strip_prefix(workload.name.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|ordinal| !ordinal.is_empty() && ordinal.bytes().all(|b| b.is_ascii_digit())),
        ("DaemonSet", "Pod") => named_after(&subject.name, &workload.name, 1),
        _ => false,
    }
}

/// `name` is `prefix` followed by exactly `parts` [`generated`] tokens (`-7d9f8c6b5`, `-x2k4q`).
fn named_after(name: &str, prefix: &str, parts: usize) -> bool {
    let Some(rest) = name.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let tokens: Vec<&str> = rest.split('-').collect();
    tokens.len() == parts && tokens.iter().all(|t| generated(t))
}

/// A token a controller generates: a ReplicaSet's pod-template-hash or a Pod's suffix. The
/// controllers' alphabet has no vowels (so `web-canary1` is not a Pod of `web`); hashes of old
/// releases were decimal. The one test of a generated name, for the rules and for the app's lanes
/// ([`named_workload`]).
fn generated(token: &str) -> bool {
    const GENERATED: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    (5..=10).contains(&token.len())
        && (token.bytes().all(|b| GENERATED.contains(&b)) || token.bytes().all(|b| b.is_ascii_digit()))
}

/// The workload a Pod or ReplicaSet is named after, for objects whose owners the input does not
/// state (a `get` table, events alone): `web-7d9f8c6b5-x2k4q` (a Deployment's Pod), `web-7d9f8c6b5`
/// (its ReplicaSet) and `web-x2k4q` (a DaemonSet's Pod) are `web`'s. `None` when the name is not
/// generated; a StatefulSet's `db-0` is left alone (an ordinal is also what people name by hand).
pub fn named_workload<'n>(kind: &str, name: &'n str) -> Option<&'n str> {
    let strip = |n: &'n str| {
        n.rsplit_once('-')
            .filter(|(head, tail)| !head.is_empty() && generated(tail))
            .map(|(head, _)| head)
    };
    match kind {
        "Pod" => {
            let once = strip(name)?;
            Some(strip(once).unwrap_or(once))
        }
        "ReplicaSet" => strip(name),
        _ => None,
    }
}

/// Owner chains longer than this are cut (ownerReferences can be pasted in a loop).
const MAX_CHAIN: usize = 16;

/// The report's [`faultline_report::Report::workloads`]: for each object in a stated owner chain (owned, or owning),
/// the name of the top of its chain, following each object's first `owned-by` relation (the
/// controller that manages an object is listed first); for the other objects and the timeline's
/// subjects, the workload their generated name is made from ([`named_workload`]), marked guessed.
pub fn workloads(
    objects: &[MapObject],
    relations: &[Relation],
    timeline: &[TimelineEntry],
) -> Vec<WorkloadOf> {
    let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
    for r in relations.iter().filter(|r| r.kind == RelationKind::OwnedBy) {
        owner.entry(r.from).or_insert(r.to);
    }
    // Looked up once per object and per timeline entry: a hash map, sorted once at the end (a
    // `BTreeMap` compared each lookup's reference about log2(n) times).
    let mut top: faultline_report::hash::Map<ObjectRef, (Text, bool)> =
        faultline_report::hash::Map::default();
    for (&from, &to) in &owner {
        let mut at = to;
        for _ in 0..MAX_CHAIN {
            match owner.get(&at) {
                Some(&next) if next != from => at = next,
                _ => break,
            }
        }
        let (Some(object), Some(root)) = (objects.get(from), objects.get(at)) else {
            continue;
        };
        top.insert(object.object.clone(), (root.object.name.clone(), false));
        top.insert(root.object.clone(), (root.object.name.clone(), false));
    }
    let subjects = objects
        .iter()
        .map(|o| &o.object)
        .chain(timeline.iter().map(|e| &e.subject));
    for subject in subjects {
        if top.contains_key(subject) {
            continue;
        }
        if let Some(workload) = named_workload(&subject.kind, &subject.name) {
            top.insert(subject.clone(), (workload.into(), true));
        }
    }
    let mut top: Vec<(ObjectRef, (Text, bool))> = top.into_iter().collect();
    top.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    top.into_iter()
        .map(|(object, (workload, guessed))| WorkloadOf {
            object: ObjectRef { uid: None, ..object },
            workload,
            guessed,
        })
        .collect()
}

/// Whether the pasted Service selects the Pod (or its EndpointSlice names it).
pub fn selects(model: &Model<'_>, service: &ObjectRef, pod: &ObjectRef) -> bool {
    let Some(s) = model.graph.find(service) else {
        return false;
    };
    let names_pod = |t: &Target| match t {
        Target::Object(i) => {
            let o = &model.objects[*i].id;
            o.kind == pod.kind && o.namespace == pod.namespace && o.name == pod.name
        }
        Target::Missing(r) => r.kind == pod.kind && r.namespace == pod.namespace && r.name == pod.name,
    };
    let endpoint_of_service = |e: &Edge| {
        e.kind == EdgeKind::EndpointIs
            && model
                .graph
                .edges_from(e.from)
                .any(|o| o.kind == EdgeKind::EndpointsOf && o.to == Target::Object(s))
    };
    // Endpoints naming the Pod: through the edges into it when it was pasted (every pair of findings
    // asks, so scanning all edges here was quadratic on a large cluster), else by name.
    let as_endpoint = || match model.graph.find(pod) {
        Some(p) => model.graph.edges_to(p).any(endpoint_of_service),
        None => model
            .graph
            .edges
            .iter()
            .any(|e| names_pod(&e.to) && endpoint_of_service(e)),
    };
    model
        .graph
        .edges_from(s)
        .any(|e| e.kind == EdgeKind::Selects && names_pod(&e.to))
        || as_endpoint()
}

/// Whether the pasted Pod `pod` runs on the Node `node` (`spec.nodeName`).
pub fn runs_on(model: &Model<'_>, pod: &ObjectRef, node: &ObjectRef) -> bool {
    node.kind == "Node"
        && model.graph.find(pod).is_some_and(|i| {
            model.objects[i]
                .locate("spec.nodeName")
                .and_then(|(_, n)| n.as_str())
                == Some(node.name.as_str())
        })
}

/// Whether the pasted Pod references the claim; `None` when the Pod was not pasted.
pub fn uses(model: &Model<'_>, pod: &ObjectRef, claim: &ObjectRef) -> Option<bool> {
    let from = model.graph.find(pod)?;
    let spec_known = model.objects[from].locate("spec.volumes").is_some();
    if !spec_known {
        return None;
    }
    Some(model.graph.edges_from(from).any(|e| {
        e.kind == EdgeKind::Uses
            && match &e.to {
                Target::Object(i) => {
                    model.objects[*i].id.name == claim.name && model.objects[*i].id.kind == claim.kind
                }
                Target::Missing(r) => r.name == claim.name && r.kind == claim.kind,
            }
    }))
}

/// The workload `object` belongs to: the top of its owner chain as the input states it (a Pod's
/// controller reference, with a ReplicaSet named `<deployment>-<pod-template-hash>` taken up to its
/// Deployment as in [`workload_of`]), else, for a ReplicaSet or a Pod of a Deployment whose owners the
/// input does not state, the Deployment its generated name is made from ([`named_workload`]; a Pod
/// only with both the hash and its own suffix, `web-7d9f8c6b5-x2k4q`). The object itself otherwise.
pub fn top_workload(model: &Model<'_>, object: &ObjectRef) -> ObjectRef {
    workload_as_read(model, object).0
}

/// [`top_workload`], and whether the input states it: by an owner reference (the object's own or,
/// for a Pod named by its controller, a sibling's), not only by a generated name.
pub fn stated_workload(model: &Model<'_>, object: &ObjectRef) -> Option<ObjectRef> {
    let (workload, stated) = workload_as_read(model, object);
    stated.then_some(workload)
}

fn workload_as_read(model: &Model<'_>, object: &ObjectRef) -> (ObjectRef, bool) {
    let mut current = ObjectRef {
        uid: None,
        ..object.clone()
    };
    let mut stated = false;
    for _ in 0..MAX_CHAIN {
        let Some(i) = model.graph.find(&current) else {
            break;
        };
        let next = if current.kind == "Pod" {
            // The first of its readings that states an owner (a `get` row states none; the Pod's
            // `describe` further on says `Controlled By:`).
            std::iter::once(&model.objects[i])
                .chain(model.objects_with_id(&current))
                .map(workload_of)
                .find(|w| *w != current)
        } else {
            model
                .graph
                .edges_from(i)
                .find(|e| e.kind == EdgeKind::OwnedBy)
                .map(|e| match &e.to {
                    Target::Object(j) => model.objects[*j].id.clone(),
                    Target::Missing(r) => (**r).clone(),
                })
        };
        match next {
            Some(owner) if owner != current && owner != *object => {
                stated = true;
                current = ObjectRef { uid: None, ..owner };
            }
            _ => break,
        }
    }
    if current.kind == "Pod" && !stated {
        if let Some(sibling) = sibling_workload(model, &current) {
            return (sibling, true);
        }
    }
    let guessed = match current.kind.as_str() {
        "ReplicaSet" => named_workload("ReplicaSet", &current.name),
        // A Pod named with two generated tokens (hash and suffix) is a Deployment's; with one it may
        // be a DaemonSet's, a Job's or a bare ReplicaSet's, so its kind is not known.
        // A decimal middle token is a CronJob's schedule time (`report-28867800-kq2xw`), not a hash.
        "Pod" if !stated => named_workload("Pod", &current.name).filter(|w| {
            named_after(&current.name, w, 2)
                && !current.name[w.len() + 1..]
                    .split('-')
                    .next()
                    .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_digit()))
        }),
        _ => None,
    };
    match guessed {
        Some(name) => (
            ObjectRef {
                kind: "Deployment".into(),
                namespace: current.namespace.clone(),
                name: name.into(),
                uid: None,
            },
            stated,
        ),
        None => (current, stated),
    }
}

/// The workload of a Pod whose readings state no owner (a `get pods` row), from another Pod of its
/// namespace whose owner the input states: a DaemonSet, ReplicaSet or Job names its Pods
/// `<owner>-<generated suffix>`, a StatefulSet `<owner>-<ordinal>`. `granulate-gprofiler-t855m` is
/// the DaemonSet's when the describe of `granulate-gprofiler-t7dwh` says `Controlled By:
/// DaemonSet/granulate-gprofiler`.
/// Each namespace's controllers are looked up once ([`Model::pod_controllers`]): a `get pods` table
/// of thousands of rows asks this of every row.
fn sibling_workload(model: &Model<'_>, pod: &ObjectRef) -> Option<ObjectRef> {
    let namespace = pod.namespace.as_deref()?;
    let controllers = model.pod_controllers.get_or_init(|| {
        let mut by_namespace: crate::PodControllers<'_> = Default::default();
        for (i, object) in model.objects.iter().enumerate() {
            let (Some(namespace), "Pod") = (object.id.namespace.as_deref(), object.id.kind.as_str()) else {
                continue;
            };
            if let Some((kind, owner)) = controller_of(object) {
                let known = by_namespace.entry(namespace).or_default();
                if !known.iter().any(|(k, o, _)| *k == kind && *o == owner) {
                    known.push((kind, owner, i));
                }
            }
        }
        by_namespace
    });
    controllers
        .get(namespace)?
        .iter()
        .filter(|(_, _, i)| model.objects[*i].id.name != pod.name)
        .find_map(|&(kind, owner, i)| {
            let suffix = pod.name.strip_prefix(owner)?.strip_prefix('-')?;
            let named = match kind {
                "StatefulSet" => !suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()),
                "DaemonSet" | "ReplicaSet" | "Job" | "ReplicationController" => generated(suffix),
                _ => false,
            };
            named.then(|| top_workload(model, &model.objects[i].id))
        })
        .filter(|w| w.kind != "Pod")
}

/// The kind and name of a Pod's controller owner reference, as its input states it.
fn controller_of(pod: &Object) -> Option<(&str, &str)> {
    let (_, refs) = pod.locate("metadata.ownerReferences")?;
    let items = refs.items();
    let owner = items
        .iter()
        .find(|r| r.get("controller").and_then(Node::as_str) == Some("true"))
        .or_else(|| items.first())?;
    Some((owner.get("kind")?.as_str()?, owner.get("name")?.as_str()?))
}

/// The Pods the input shows `subject` hurting, by what its kind is to them: a Node's Pods that are not
/// running and ready (`spec.nodeName`), a claim's Pods (`spec.volumes`), a Service's selected Pods.
/// Empty for other kinds (their victims are named by the rule: a quota's refused objects).
pub fn pods_hurt_by(model: &Model<'_>, subject: &ObjectRef) -> Vec<ObjectRef> {
    let pods = || model.objects.iter().filter(|o| o.id.kind == "Pod");
    match subject.kind.as_str() {
        "Node" => pods()
            .filter(|o| runs_on(model, &o.id, subject) && !running_and_ready(o))
            .map(|o| o.id.clone())
            .collect(),
        "PersistentVolumeClaim" => pods()
            .filter(|o| o.id.namespace == subject.namespace && uses(model, &o.id, subject) == Some(true))
            .map(|o| o.id.clone())
            .collect(),
        "Service" => model
            .graph
            .find(subject)
            .map(|s| {
                model
                    .graph
                    .edges_from(s)
                    .filter(|e| e.kind == EdgeKind::Selects)
                    .map(|e| match &e.to {
                        Target::Object(i) => model.objects[*i].id.clone(),
                        Target::Missing(r) => (**r).clone(),
                    })
                    .filter(|p| p.kind == "Pod")
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A Pod that finished (`Succeeded`) or whose `Ready` condition is `True`: nothing of it is hurt now.
/// A Pod whose input states neither is not counted as hurt either: only what the input shows.
fn running_and_ready(pod: &Object) -> bool {
    let text = |path: &str| pod.locate(path).and_then(|(_, n)| n.as_str());
    if text("status.phase") == Some("Succeeded") {
        return true;
    }
    let Some((_, conditions)) = pod.locate("status.conditions") else {
        return !matches!(text("status.phase"), Some("Pending" | "Failed" | "Unknown"));
    };
    conditions.items().iter().any(|c| {
        c.get("type").and_then(Node::as_str) == Some("Ready")
            && c.get("status").and_then(Node::as_str) == Some("True")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_are_recognised_and_longer_names_are_not() {
        assert!(named_after("web-7d9f8c6b5", "web", 1));
        assert!(named_after("web-7d9f8c6b5-x2k4q", "web", 2));
        assert!(!named_after("web-api-7d9f8c6b5-x2k4q", "web", 2));
        assert!(!named_after("web-api", "web", 2));
        assert!(!named_after("webx-7d9f8c6b5", "web", 1));
        assert!(!named_after("web-canary", "web", 1));
        assert!(named_after("web-1234567890", "web", 1));
    }

    /// The lanes of the app once filed `web-canary1` under `web` (a digit made it look generated);
    /// the rules did not. One heuristic now: the controllers' alphabet has no vowels.
    #[test]
    fn a_name_with_vowels_is_not_a_generated_one() {
        assert_eq!(named_workload("Pod", "web-canary1"), None);
        assert!(!named_after("web-canary1", "web", 1));
        assert_eq!(named_workload("Pod", "web-6d8f7b9c4-q2w8x"), Some("web"));
        assert_eq!(named_workload("Pod", "web-q2w8x"), Some("web"));
        assert_eq!(named_workload("ReplicaSet", "web-6d8f7b9c4"), Some("web"));
        assert_eq!(named_workload("Deployment", "web-6d8f7b9c4"), None);
        assert_eq!(named_workload("Pod", "tag-probe"), None);
        assert_eq!(named_workload("Pod", "db-0"), None);
        assert_eq!(named_workload("Pod", "-q2w8x"), None);
        for (name, prefix, parts) in [("web-7d9f8c6b5-x2k4q", "web", 2), ("web-7d9f8c6b5", "web", 1)] {
            assert_eq!(
                named_after(name, prefix, parts),
                named_workload("Pod", name) == Some(prefix)
            );
        }
    }
}
