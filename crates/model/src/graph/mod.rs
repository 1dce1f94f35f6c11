//! The relations between pasted objects, each with the field path that states it (for evidence).
//!
//! Identity is kind + namespace + name, uid checked when both sides carry one; never a name alone.
//! Where the object a relation points to was not pasted, the edge still exists and names it
//! ([`Target::Missing`]), so a rule can say "the ReplicaSet was not pasted" instead of guessing.

use std::collections::{BTreeMap, BTreeSet};

mod edges;
mod pod_edges;
mod selector;

use faultline_report::hash::Map;

use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::Object;
use faultline_report::ObjectRef;

/// The kinds of relation, as the report names them (`report::RelationKind`, documented there): the
/// graph and the report's object map share one list.
pub use faultline_report::RelationKind as EdgeKind;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Index of the object in the model's objects.
    Object(usize),
    /// An object the input refers to but does not contain (boxed: rare, and an edge is small without it).
    Missing(Box<ObjectRef>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: Target,
    pub kind: EdgeKind,
    /// The field of `from` that states the relation (`metadata.ownerReferences[0]`, `spec.selector`).
    pub path: String,
    /// True when the relation was guessed rather than stated (an endpoint matched to a Pod by IP).
    pub inferred: bool,
}

/// What was pasted: kinds with counts and namespaces, so rules can say what is unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inventory {
    pub kinds: BTreeMap<String, usize>,
    pub namespaces: BTreeSet<String>,
}

impl Inventory {
    pub fn has(&self, kind: &str) -> bool {
        self.kinds.contains_key(kind)
    }
}

pub struct Graph {
    pub edges: Vec<Edge>,
    pub inventory: Inventory,
    /// Objects by kind, namespace and name (the first of duplicates).
    index: Map<Key, usize>,
    /// For each object, the indices in `edges` of the edges from it.
    from: Vec<Vec<usize>>,
    /// For each object, the indices in `edges` of the edges to it.
    to: Vec<Vec<usize>>,
}

impl Graph {
    /// The pasted object a reference names (kind, namespace, name), if any.
    pub fn find(&self, r: &ObjectRef) -> Option<usize> {
        self.index
            .get(&key(&r.kind, r.namespace.as_deref(), &r.name))
            .copied()
    }

    /// The edges from one object, in the order they were found.
    pub fn edges_from(&self, object: usize) -> impl Iterator<Item = &Edge> {
        self.from
            .get(object)
            .into_iter()
            .flatten()
            .map(|&e| &self.edges[e])
    }

    /// The edges to one pasted object, in the order they were found.
    pub fn edges_to(&self, object: usize) -> impl Iterator<Item = &Edge> {
        self.to.get(object).into_iter().flatten().map(|&e| &self.edges[e])
    }
}

type Key = (String, Option<String>, String);

pub(super) fn key(kind: &str, namespace: Option<&str>, name: &str) -> Key {
    (kind.to_string(), namespace.map(str::to_string), name.to_string())
}

pub(super) fn text<'a>(node: &'a Node, path: &str) -> Option<&'a str> {
    node.locate(path)
        .and_then(|(_, n)| n.as_str())
        .filter(|s| !s.is_empty())
}

pub(crate) fn pairs(node: Option<&Node>) -> Vec<(&str, &str)> {
    match node.map(|n| &n.value) {
        Some(NodeValue::Map(entries)) => entries
            .iter()
            .filter_map(|e| Some((e.key.as_str(), e.value.as_str()?)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The graph of the pasted objects: each object's edges in the order of its fields (owners, the Pods
/// it selects, then what its kind refers to), objects in input order.
pub fn build(objects: &[Object]) -> Graph {
    let (index, inventory) = index_and_inventory(objects);
    let edges = edges::Builder::new(objects, &index).build();
    let (from, to) = adjacency(objects.len(), &edges);
    Graph {
        edges,
        inventory,
        index,
        from,
        to,
    }
}

/// Objects by their key (the first of duplicates), and what kinds and namespaces were pasted.
fn index_and_inventory(objects: &[Object]) -> (Map<Key, usize>, Inventory) {
    let mut index: Map<Key, usize> = Map::default();
    let mut inventory = Inventory::default();
    for (i, o) in objects.iter().enumerate() {
        index
            .entry(key(&o.id.kind, o.id.namespace.as_deref(), &o.id.name))
            .or_insert(i);
        *inventory.kinds.entry(o.id.kind.to_string()).or_insert(0) += 1;
        if let Some(ns) = &o.id.namespace {
            inventory.namespaces.insert(ns.to_string());
        }
    }
    (index, inventory)
}

/// For each object, the indices of the edges from it and of those to it.
fn adjacency(objects: usize, edges: &[Edge]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut from = vec![Vec::new(); objects];
    let mut to = vec![Vec::new(); objects];
    for (i, e) in edges.iter().enumerate() {
        if let Some(list) = from.get_mut(e.from) {
            list.push(i);
        }
        if let Target::Object(target) = e.to {
            if let Some(list) = to.get_mut(target) {
                list.push(i);
            }
        }
    }
    (from, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_ingest::{ingest, Source};

    fn graph_of(text: &str) -> (Vec<Object>, Graph) {
        let ingested = ingest(&[Source::new("t.yaml", text)]);
        assert_eq!(ingested.errors, vec![]);
        let graph = build(&ingested.objects);
        (ingested.objects, graph)
    }

    fn names(objects: &[Object], graph: &Graph, kind: EdgeKind) -> Vec<(String, String, bool)> {
        graph
            .edges
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| {
                let to = match &e.to {
                    Target::Object(i) => objects[*i].id.to_string(),
                    Target::Missing(r) => format!("missing {r}"),
                };
                (objects[e.from].id.to_string(), to, e.inferred)
            })
            .collect()
    }

    const OBJECTS: &str = "apiVersion: v1
kind: List
items:
- kind: Service
  metadata: {name: web, namespace: shop}
  spec: {selector: {app: web}}
- kind: EndpointSlice
  metadata:
    name: web-abc
    namespace: shop
    labels: {kubernetes.io/service-name: web}
  endpoints:
  - addresses: [10.0.0.5]
    conditions: {ready: false}
    targetRef: {kind: Pod, name: web-1, namespace: shop}
  - addresses: [10.0.0.6]
- kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    selector:
      matchLabels: {app: web}
      matchExpressions:
      - {key: tier, operator: NotIn, values: [batch]}
- kind: Pod
  metadata:
    name: web-1
    namespace: shop
    uid: u-1
    labels: {app: web}
    ownerReferences: [{kind: ReplicaSet, name: web-7d9f, uid: rs-1}]
  spec:
    nodeName: n1
    imagePullSecrets: [{name: regcred}]
    volumes:
    - name: data
      persistentVolumeClaim: {claimName: data-web-1}
    containers:
    - name: app
      envFrom: [{secretRef: {name: app-secrets}}]
  status: {podIP: 10.0.0.5}
- kind: Pod
  metadata: {name: web-2, namespace: shop, labels: {app: web, tier: batch}}
  spec: {containers: []}
  status: {podIP: 10.0.0.6}
- kind: Pod
  metadata: {name: web-3, namespace: other, labels: {app: web}}
  spec: {containers: []}
- kind: ResourceQuota
  metadata: {name: q, namespace: shop}
";

    #[test]
    fn selectors_follow_labels_expressions_and_namespaces() {
        let (objects, graph) = graph_of(OBJECTS);
        let selects = names(&objects, &graph, EdgeKind::Selects);
        assert_eq!(
            selects,
            [
                ("Service shop/web".into(), "Pod shop/web-1".into(), false),
                ("Service shop/web".into(), "Pod shop/web-2".into(), false),
                ("Deployment shop/web".into(), "Pod shop/web-1".into(), false),
            ],
            "web-3 is in another namespace; web-2 is excluded by the Deployment's NotIn"
        );
    }

    #[test]
    fn endpoints_by_target_ref_and_by_ip_marked_inferred() {
        let (objects, graph) = graph_of(OBJECTS);
        assert_eq!(
            names(&objects, &graph, EdgeKind::EndpointsOf),
            [(
                "EndpointSlice shop/web-abc".into(),
                "Service shop/web".into(),
                false
            )]
        );
        assert_eq!(
            names(&objects, &graph, EdgeKind::EndpointIs),
            [
                (
                    "EndpointSlice shop/web-abc".into(),
                    "Pod shop/web-1".into(),
                    false
                ),
                ("EndpointSlice shop/web-abc".into(), "Pod shop/web-2".into(), true),
            ]
        );
    }

    #[test]
    fn owners_nodes_references_and_quota_name_what_was_not_pasted() {
        let (objects, graph) = graph_of(OBJECTS);
        assert_eq!(
            names(&objects, &graph, EdgeKind::OwnedBy),
            [(
                "Pod shop/web-1".into(),
                "missing ReplicaSet shop/web-7d9f".into(),
                false
            )]
        );
        assert_eq!(
            names(&objects, &graph, EdgeKind::RunsOn),
            [("Pod shop/web-1".into(), "missing Node n1".into(), false)]
        );
        let uses: Vec<String> = names(&objects, &graph, EdgeKind::Uses)
            .into_iter()
            .map(|(_, to, _)| to)
            .collect();
        assert_eq!(
            uses,
            [
                "missing PersistentVolumeClaim shop/data-web-1",
                "missing Secret shop/app-secrets",
                "missing Secret shop/regcred"
            ]
        );
        assert_eq!(
            names(&objects, &graph, EdgeKind::AppliesTo),
            [(
                "ResourceQuota shop/q".into(),
                "missing Namespace shop".into(),
                false
            )]
        );
        let owner = graph.edges.iter().find(|e| e.kind == EdgeKind::OwnedBy).unwrap();
        assert_eq!(owner.path, "metadata.ownerReferences[0]");
        assert_eq!(graph.inventory.kinds["Pod"], 3);
        assert!(graph.inventory.namespaces.contains("other"));
        assert!(!graph.inventory.has("Node"));
    }

    #[test]
    fn an_owner_with_another_uid_is_not_the_same_object() {
        let text = "kind: List\nitems:\n- kind: ReplicaSet\n  metadata: {name: rs, namespace: ns, uid: new}\n- kind: Pod\n  metadata:\n    name: p\n    namespace: ns\n    ownerReferences: [{kind: ReplicaSet, name: rs, uid: old}]\n  spec: {containers: []}\n";
        let (objects, graph) = graph_of(text);
        assert_eq!(
            names(&objects, &graph, EdgeKind::OwnedBy)[0].1,
            "missing ReplicaSet ns/rs"
        );
    }
}
