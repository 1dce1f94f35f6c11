//! The report's object graph ([`Report::objects`](faultline_report::Report) and `relations`): the
//! model's graph made serialisable, with a short status per object, the endpoints of EndpointSlices
//! and the five facts of Services and Pods.
//!
//! Events are not objects of the graph (they are facts about objects, on the timeline). An object
//! pasted twice (a `get` table and its `-o yaml`) is one object: the first keeps its place and line,
//! the later ones add what it lacks.

use faultline_report::hash::{Map, Set};

use crate::facts::{self, condition};
use crate::graph::{EdgeKind, Target};
use crate::Model;
use faultline_ingest::node::Node;
use faultline_ingest::{Object, Typed};
use faultline_report::{MapEndpoint, MapObject, ObjectRef, Relation, RelationKind, Replicas, SourceLine};

fn is_event(object: &Object) -> bool {
    object.id.kind == "Event" || matches!(object.typed, Typed::Event(_) | Typed::EventV1(_))
}

fn text<'a>(node: &'a Node, path: &str) -> Option<&'a str> {
    node.locate(path)
        .and_then(|(_, n)| n.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn number(node: &Node, path: &str) -> Option<u32> {
    text(node, path).and_then(|s| s.parse().ok())
}

/// The identity the graph shows: kind, namespace and name (the uid is not the key).
fn identity(r: &ObjectRef) -> ObjectRef {
    ObjectRef {
        uid: None,
        ..r.clone()
    }
}

/// The condition of a type in `status.conditions`, as its status string.
fn condition_status<'a>(node: &'a Node, kind: &str) -> Option<&'a str> {
    node.locate("status.conditions")?
        .1
        .items()
        .iter()
        .find(|c| c.get("type").and_then(Node::as_str) == Some(kind))
        .and_then(|c| c.get("status").and_then(Node::as_str))
}

/// Fills the status fields of a kind from the object's tree.
fn status(object: &Object, out: &mut MapObject) {
    let node = &object.node;
    match object.id.kind.as_str() {
        "Pod" => {
            out.phase = text(node, "status.phase").map(str::to_string);
            let statuses = node
                .locate("status.containerStatuses")
                .map(|(_, s)| s.items())
                .unwrap_or_default();
            if !statuses.is_empty() {
                let ready = statuses
                    .iter()
                    .filter(|s| s.get("ready").and_then(Node::as_str) == Some("true"))
                    .count();
                out.containers = Some([
                    u32::try_from(ready).unwrap_or(u32::MAX),
                    u32::try_from(statuses.len()).unwrap_or(u32::MAX),
                ]);
                out.restarts = statuses
                    .iter()
                    .filter_map(|s| number(s, "restartCount"))
                    .fold(0u32, u32::saturating_add);
            }
            let container_reason = statuses
                .iter()
                .find_map(|s| text(s, "state.waiting.reason").or_else(|| text(s, "state.terminated.reason")));
            out.reason = text(node, "status.reason")
                .or(container_reason)
                .or_else(|| text(node, "metadata.deletionTimestamp").map(|_| "Terminating"))
                .map(str::to_string);
        }
        "Node" => {
            out.phase = condition_status(node, "Ready").map(|s| {
                match s {
                    "True" => "Ready",
                    "False" => "NotReady",
                    _ => "Unknown",
                }
                .to_string()
            });
        }
        "Deployment" | "ReplicaSet" | "StatefulSet" => {
            // The API leaves zero counts out of a status it writes.
            let has_status = node.locate("status").is_some_and(|(_, s)| s.entry_count() > 0);
            let counted = |path: &str| number(node, path).or(has_status.then_some(0));
            let replicas = Replicas {
                desired: number(node, "spec.replicas"),
                ready: counted("status.readyReplicas"),
                available: counted("status.availableReplicas"),
            };
            out.replicas = (replicas != Replicas::default()).then_some(replicas);
        }
        "DaemonSet" => {
            let has_status = node.locate("status").is_some_and(|(_, s)| s.entry_count() > 0);
            let counted = |path: &str| number(node, path).or(has_status.then_some(0));
            let replicas = Replicas {
                desired: number(node, "status.desiredNumberScheduled"),
                ready: counted("status.numberReady"),
                available: counted("status.numberAvailable"),
            };
            out.replicas = (replicas != Replicas::default()).then_some(replicas);
        }
        "Job" => {
            out.phase = if condition_status(node, "Complete") == Some("True") {
                Some("Complete".into())
            } else if condition_status(node, "Failed") == Some("True") {
                Some("Failed".into())
            } else {
                None
            };
        }
        "PersistentVolumeClaim" | "Namespace" => {
            out.phase = text(node, "status.phase").map(str::to_string);
        }
        "Service" => {
            out.service_type = text(node, "spec.type").map(str::to_string);
            out.ports = node
                .locate("spec.ports")
                .map(|(_, p)| p.items())
                .unwrap_or_default()
                .iter()
                .filter_map(|p| {
                    let port = text(p, "port")?;
                    let mut s = match text(p, "targetPort") {
                        Some(target) if target != port => format!("{port}→{target}"),
                        _ => port.to_string(),
                    };
                    if let Some(protocol) = text(p, "protocol") {
                        s.push('/');
                        s.push_str(protocol);
                    }
                    Some(s)
                })
                .collect();
        }
        _ => {}
    }
}

/// Fills what `first` lacks from a later copy of the same object.
fn merge(first: &mut MapObject, later: MapObject) {
    first.phase = first.phase.take().or(later.phase);
    first.reason = first.reason.take().or(later.reason);
    first.containers = first.containers.or(later.containers);
    first.restarts = first.restarts.max(later.restarts);
    first.replicas = first.replicas.or(later.replicas);
    first.service_type = first.service_type.take().or(later.service_type);
    if first.ports.is_empty() {
        first.ports = later.ports;
    }
}

/// The endpoints of an EndpointSlice or an Endpoints object, each with the object it is (by the
/// model's graph, as an index into the model's objects).
fn endpoints(model: &Model<'_>, index: usize) -> Vec<(MapEndpoint, Option<Target>)> {
    let object = &model.objects[index];
    let target = |path: &str| -> (Option<Target>, bool) {
        let named = format!("{path}.targetRef");
        model
            .graph
            .edges_from(index)
            .filter(|e| e.kind == EdgeKind::EndpointIs)
            .find(|e| e.path == named || e.path == path)
            .map_or((None, false), |e| (Some(e.to.clone()), e.inferred))
    };
    let mut out = Vec::new();
    match object.id.kind.as_str() {
        "EndpointSlice" => {
            for (i, endpoint) in object
                .locate("endpoints")
                .map(|(_, e)| e.items())
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let path = format!("endpoints[{i}]");
                let conditions = endpoint.get("conditions");
                let (pod, inferred) = target(&path);
                out.push((
                    MapEndpoint {
                        line: endpoint.pos.line,
                        addresses: endpoint
                            .get("addresses")
                            .map(|a| {
                                a.items()
                                    .iter()
                                    .filter_map(Node::as_str)
                                    .map(str::to_string)
                                    .collect()
                            })
                            .unwrap_or_default(),
                        ready: condition(conditions.and_then(|c| c.get("ready"))),
                        serving: condition(conditions.and_then(|c| c.get("serving"))),
                        terminating: condition(conditions.and_then(|c| c.get("terminating"))),
                        target: None,
                        inferred,
                    },
                    pod,
                ));
            }
        }
        "Endpoints" => {
            for (s, subset) in object
                .locate("subsets")
                .map(|(_, s)| s.items())
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                for (list, ready) in [("addresses", true), ("notReadyAddresses", false)] {
                    for (i, address) in subset
                        .get(list)
                        .map(Node::items)
                        .unwrap_or_default()
                        .iter()
                        .enumerate()
                    {
                        let (pod, inferred) = target(&format!("subsets[{s}].{list}[{i}]"));
                        out.push((
                            MapEndpoint {
                                line: address.pos.line,
                                addresses: address
                                    .get("ip")
                                    .and_then(Node::as_str)
                                    .map(str::to_string)
                                    .into_iter()
                                    .collect(),
                                ready: Some(ready),
                                serving: None,
                                terminating: None,
                                target: None,
                                inferred,
                            },
                            pod,
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The object graph of the report, from the model.
pub fn build(model: &Model<'_>) -> (Vec<MapObject>, Vec<Relation>) {
    let mut objects: Vec<MapObject> = Vec::new();
    let mut by_key: Map<ObjectRef, usize> = Map::default();
    // For each of the model's objects, its place in the graph (events have none).
    let mut place: Vec<Option<usize>> = vec![None; model.objects.len()];
    for (i, object) in model.objects.iter().enumerate() {
        if is_event(object) {
            continue;
        }
        let mut entry = MapObject {
            object: identity(&object.id),
            at: Some(SourceLine {
                source: model.source_name(object.source),
                line: object.node.pos.line,
            }),
            ..MapObject::default()
        };
        status(object, &mut entry);
        match by_key.get(&object.id) {
            Some(&m) => {
                place[i] = Some(m);
                merge(&mut objects[m], entry);
            }
            None => {
                by_key.insert(object.id.clone(), objects.len());
                place[i] = Some(objects.len());
                objects.push(entry);
            }
        }
    }
    // Missing objects by identity, apart from pasted ones: an owner whose uid differs from the pasted
    // object of the same name is another object (it keeps its uid, to tell them apart).
    let mut missing_by_key: Map<ObjectRef, usize> = Map::default();
    let mut missing = |r: &ObjectRef, objects: &mut Vec<MapObject>| -> usize {
        *missing_by_key.entry(r.clone()).or_insert_with(|| {
            let object = if by_key.contains_key(r) {
                r.clone()
            } else {
                identity(r)
            };
            objects.push(MapObject {
                object,
                missing: true,
                ..MapObject::default()
            });
            objects.len() - 1
        })
    };
    let mut relations = Vec::new();
    let mut seen: Set<(usize, usize, RelationKind)> = Set::default();
    for edge in &model.graph.edges {
        let Some(from) = place[edge.from] else {
            continue;
        };
        let to = match &edge.to {
            Target::Object(i) => match place[*i] {
                Some(to) => to,
                None => continue,
            },
            Target::Missing(r) => missing(r, &mut objects),
        };
        let kind = edge.kind;
        if seen.insert((from, to, kind)) {
            relations.push(Relation {
                from,
                to,
                kind,
                path: edge.path.clone(),
                inferred: edge.inferred,
            });
        }
    }
    // Endpoints, and the five facts of Services and Pods.
    let to_place = |indices: Vec<usize>| -> Vec<usize> {
        let mut out: Vec<usize> = indices.into_iter().filter_map(|i| place[i]).collect();
        out.dedup();
        out
    };
    for (i, object) in model.objects.iter().enumerate() {
        let Some(m) = place[i] else { continue };
        if !objects[m].endpoints.is_empty() {
            continue; // a later copy of an object already read
        }
        if matches!(object.id.kind.as_str(), "EndpointSlice" | "Endpoints") {
            objects[m].endpoints = endpoints(model, i)
                .into_iter()
                .map(|(mut e, target)| {
                    e.target = match target {
                        Some(Target::Object(p)) => place[p],
                        // A targetRef to a Pod that was not pasted: the missing object.
                        Some(Target::Missing(r)) => missing_by_key.get(&r).copied(),
                        None => None,
                    };
                    e
                })
                .collect();
        }
    }
    let business = facts::business_response(model);
    for chain in &model.services {
        let Some(m) = place[chain.service] else { continue };
        if objects[m].facts.is_empty() {
            objects[m].facts = chain
                .facts(model, &business)
                .into_iter()
                .map(|mut f| {
                    f.objects = to_place(std::mem::take(&mut f.objects));
                    f
                })
                .collect();
        }
    }
    let side = facts::PodSide::new(model, &model.services);
    for (i, object) in model.objects.iter().enumerate() {
        let Some(m) = place[i] else { continue };
        if object.id.kind == "Pod" && objects[m].facts.is_empty() {
            objects[m].facts = facts::pod_facts(model, &side, i)
                .into_iter()
                .map(|mut f| {
                    f.objects = to_place(std::mem::take(&mut f.objects));
                    f
                })
                .collect();
        }
    }
    for object in &mut objects {
        object.state = crate::state::of(object);
    }
    // The report keeps these: up to half of each would be growth room otherwise.
    objects.shrink_to_fit();
    relations.shrink_to_fit();
    (objects, relations)
}
