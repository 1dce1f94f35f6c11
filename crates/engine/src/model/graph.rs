//! The relations between pasted objects, each with the field path that states it (for evidence).
//!
//! Identity is kind + namespace + name, uid checked when both sides carry one; never a name alone.
//! Where the object a relation points to was not pasted, the edge still exists and names it
//! ([`Target::Missing`]), so a rule can say "the ReplicaSet was not pasted" instead of guessing.

use std::collections::{BTreeMap, BTreeSet};

use crate::hash::Map;

use crate::ingest::node::{Node, NodeValue};
use crate::ingest::Object;
use crate::report::ObjectRef;

/// The kinds of relation, as the report names them (`report::RelationKind`, documented there): the
/// graph and the report's object map share one list.
pub use crate::report::RelationKind as EdgeKind;

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

/// Finds the object a reference names, or describes the missing one.
type Resolve<'a> = dyn Fn(&str, Option<&str>, &str, Option<&str>) -> Target + 'a;

/// A Pod's index, namespace and labels, for selector matching.
struct PodLabels<'a> {
    index: usize,
    namespace: Option<&'a str>,
    labels: Vec<(&'a str, &'a str)>,
    ip: Option<&'a str>,
}

/// The pasted Pods with indexes for the questions the graph asks of each Service, workload and
/// endpoint: "which Pods carry this label", "which Pod has this IP". Asking every Pod each time was
/// quadratic on a large cluster. Every list keeps the Pods' input order.
struct Pods<'a> {
    all: Vec<PodLabels<'a>>,
    by_label: Map<(Option<&'a str>, &'a str, &'a str), Vec<usize>>,
    by_namespace: Map<Option<&'a str>, Vec<usize>>,
    by_ip: Map<&'a str, Vec<usize>>,
}

impl<'a> Pods<'a> {
    fn new(all: Vec<PodLabels<'a>>) -> Self {
        let mut pods = Pods {
            by_label: Map::default(),
            by_namespace: Map::default(),
            by_ip: Map::default(),
            all: Vec::new(),
        };
        for (i, pod) in all.iter().enumerate() {
            for &(k, v) in &pod.labels {
                pods.by_label.entry((pod.namespace, k, v)).or_default().push(i);
            }
            pods.by_namespace.entry(pod.namespace).or_default().push(i);
            if let Some(ip) = pod.ip {
                pods.by_ip.entry(ip).or_default().push(i);
            }
        }
        pods.all = all;
        pods
    }

    /// The Pods of namespace `ns` the selector matches, in input order.
    fn selected<'s>(
        &'s self,
        ns: Option<&'a str>,
        selector: &'s Selector<'_>,
    ) -> impl Iterator<Item = &'s PodLabels<'a>> {
        // The rarest of the selector's labels narrows the Pods to look at; expressions alone do not.
        let candidates = match selector
            .labels
            .iter()
            .map(|&(k, v)| self.by_label.get(&(ns, k, v)).map_or(0, Vec::len))
            .zip(&selector.labels)
            .min_by_key(|(n, _)| *n)
        {
            Some((_, &(k, v))) => self.by_label.get(&(ns, k, v)),
            None => self.by_namespace.get(&ns),
        };
        candidates
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&i| &self.all[i])
            .filter(move |pod| pod.namespace == ns && selector.matches(&pod.labels))
    }
}

fn key(kind: &str, namespace: Option<&str>, name: &str) -> Key {
    (kind.to_string(), namespace.map(str::to_string), name.to_string())
}

fn text<'a>(node: &'a Node, path: &str) -> Option<&'a str> {
    node.locate(path)
        .and_then(|(_, n)| n.as_str())
        .filter(|s| !s.is_empty())
}

fn pairs(node: Option<&Node>) -> Vec<(&str, &str)> {
    match node.map(|n| &n.value) {
        Some(NodeValue::Map(entries)) => entries
            .iter()
            .filter_map(|e| Some((e.key.as_str(), e.value.as_str()?)))
            .collect(),
        _ => Vec::new(),
    }
}

/// A label selector: `matchLabels` and `matchExpressions`, or a Service's plain map.
#[derive(Debug, Default)]
struct Selector<'a> {
    labels: Vec<(&'a str, &'a str)>,
    expressions: Vec<(&'a str, &'a str, Vec<&'a str>)>,
}

impl<'a> Selector<'a> {
    fn from_label_selector(node: &'a Node) -> Self {
        let expressions = node
            .get("matchExpressions")
            .map(|list| {
                list.items()
                    .iter()
                    .filter_map(|e| {
                        let values = e
                            .get("values")
                            .map(|v| v.items().iter().filter_map(Node::as_str).collect())
                            .unwrap_or_default();
                        Some((e.get("key")?.as_str()?, e.get("operator")?.as_str()?, values))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            labels: pairs(node.get("matchLabels")),
            expressions,
        }
    }

    fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.expressions.is_empty()
    }

    fn matches(&self, labels: &[(&str, &str)]) -> bool {
        let get = |k: &str| labels.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
        self.labels.iter().all(|(k, v)| get(k) == Some(*v))
            && self.expressions.iter().all(|(k, op, values)| match *op {
                "In" => get(k).is_some_and(|v| values.contains(&v)),
                "NotIn" => get(k).is_none_or(|v| !values.contains(&v)),
                "Exists" => get(k).is_some(),
                "DoesNotExist" => get(k).is_none(),
                _ => false,
            })
    }
}

pub fn build(objects: &[Object]) -> Graph {
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
    let resolve = |kind: &str, namespace: Option<&str>, name: &str, uid: Option<&str>| -> Target {
        let found = index.get(&key(kind, namespace, name)).copied().filter(|&i| {
            match (objects[i].id.uid.as_deref(), uid.filter(|u| !u.is_empty())) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
        });
        match found {
            Some(i) => Target::Object(i),
            None => Target::Missing(Box::new(ObjectRef {
                kind: kind.into(),
                namespace: namespace.map(Into::into),
                name: name.into(),
                uid: uid.filter(|u| !u.is_empty()).map(Into::into),
            })),
        }
    };
    let pods: Vec<PodLabels<'_>> = objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id.kind == "Pod")
        .map(|(index, o)| PodLabels {
            index,
            namespace: o.id.namespace.as_deref(),
            labels: pairs(o.node.locate("metadata.labels").map(|(_, n)| n)),
            ip: o.node.locate("status.podIP").and_then(|(_, n)| n.as_str()),
        })
        .collect();
    let pods = Pods::new(pods);
    let mut edges = Vec::new();
    let mut edge = |from: usize, to: Target, kind: EdgeKind, path: String, inferred: bool| {
        edges.push(Edge {
            from,
            to,
            kind,
            path,
            inferred,
        });
    };

    for (from, object) in objects.iter().enumerate() {
        let node = &object.node;
        let ns = object.id.namespace.as_deref();
        // Owners.
        if let Some((_, owners)) = node.locate("metadata.ownerReferences") {
            for (i, owner) in owners.items().iter().enumerate() {
                if let (Some(kind), Some(name)) = (text(owner, "kind"), text(owner, "name")) {
                    let to = resolve(kind, ns, name, text(owner, "uid"));
                    edge(
                        from,
                        to,
                        EdgeKind::OwnedBy,
                        format!("metadata.ownerReferences[{i}]"),
                        false,
                    );
                }
            }
        }
        // A Service selects by its labels alone; workloads by a label selector, expressions included.
        let selector = match object.id.kind.as_str() {
            "Service" => Some(Selector {
                labels: pairs(node.locate("spec.selector").map(|(_, n)| n)),
                expressions: Vec::new(),
            }),
            "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => node
                .locate("spec.selector")
                .map(|(_, selector)| Selector::from_label_selector(selector)),
            _ => None,
        };
        for pod in selector
            .iter()
            .filter(|s| !s.is_empty())
            .flat_map(|s| pods.selected(ns, s))
        {
            edge(
                from,
                Target::Object(pod.index),
                EdgeKind::Selects,
                "spec.selector".into(),
                false,
            );
        }
        match object.id.kind.as_str() {
            "EndpointSlice" => {
                if let Some(service) = text(node, r#"metadata.labels["kubernetes.io/service-name"]"#) {
                    let to = resolve("Service", ns, service, None);
                    edge(
                        from,
                        to,
                        EdgeKind::EndpointsOf,
                        r#"metadata.labels["kubernetes.io/service-name"]"#.into(),
                        false,
                    );
                }
                if let Some((_, endpoints)) = node.locate("endpoints") {
                    for (i, endpoint) in endpoints.items().iter().enumerate() {
                        let addresses: Vec<&str> = endpoint
                            .get("addresses")
                            .map(|a| a.items().iter().filter_map(Node::as_str).collect())
                            .unwrap_or_default();
                        endpoint_edge(
                            &pods,
                            &resolve,
                            &mut edge,
                            from,
                            endpoint,
                            &addresses,
                            ns,
                            format!("endpoints[{i}]"),
                        );
                    }
                }
            }
            "Endpoints" => {
                let to = resolve("Service", ns, &object.id.name, None);
                edge(from, to, EdgeKind::EndpointsOf, "metadata.name".into(), false);
                if let Some((_, subsets)) = node.locate("subsets") {
                    for (s, subset) in subsets.items().iter().enumerate() {
                        for list in ["addresses", "notReadyAddresses"] {
                            for (i, address) in subset
                                .get(list)
                                .map(Node::items)
                                .unwrap_or_default()
                                .iter()
                                .enumerate()
                            {
                                let ip: Vec<&str> =
                                    address.get("ip").and_then(Node::as_str).into_iter().collect();
                                endpoint_edge(
                                    &pods,
                                    &resolve,
                                    &mut edge,
                                    from,
                                    address,
                                    &ip,
                                    ns,
                                    format!("subsets[{s}].{list}[{i}]"),
                                );
                            }
                        }
                    }
                }
            }
            "Pod" => pod_edges(node, ns, from, &resolve, &mut edge),
            "ResourceQuota" | "LimitRange" => {
                if let Some(ns) = ns {
                    edge(
                        from,
                        resolve("Namespace", None, ns, None),
                        EdgeKind::AppliesTo,
                        "metadata.namespace".into(),
                        false,
                    );
                }
            }
            _ => {}
        }
    }
    edges.shrink_to_fit();
    let mut from = vec![Vec::new(); objects.len()];
    let mut to = vec![Vec::new(); objects.len()];
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
    Graph {
        edges,
        inventory,
        index,
        from,
        to,
    }
}

/// An endpoint to its Pod: by `targetRef` when it has one, else by IP (marked inferred).
#[allow(clippy::too_many_arguments)]
fn endpoint_edge(
    pods: &Pods<'_>,
    resolve: &Resolve<'_>,
    edge: &mut dyn FnMut(usize, Target, EdgeKind, String, bool),
    from: usize,
    endpoint: &Node,
    addresses: &[&str],
    ns: Option<&str>,
    path: String,
) {
    if let Some(target) = endpoint.get("targetRef") {
        if let (Some(kind), Some(name)) = (text(target, "kind"), text(target, "name")) {
            let target_ns = text(target, "namespace").or(ns);
            edge(
                from,
                resolve(kind, target_ns, name, text(target, "uid")),
                EdgeKind::EndpointIs,
                format!("{path}.targetRef"),
                false,
            );
            return;
        }
    }
    let mut matched: Vec<usize> = addresses
        .iter()
        .filter_map(|ip| pods.by_ip.get(ip))
        .flatten()
        .copied()
        .collect();
    matched.sort_unstable();
    matched.dedup();
    for pod in matched.into_iter().map(|i| &pods.all[i]) {
        if pod.namespace == ns {
            edge(
                from,
                Target::Object(pod.index),
                EdgeKind::EndpointIs,
                path.clone(),
                true,
            );
        }
    }
}

fn pod_edges(
    node: &Node,
    ns: Option<&str>,
    from: usize,
    resolve: &Resolve<'_>,
    edge: &mut dyn FnMut(usize, Target, EdgeKind, String, bool),
) {
    if let Some(name) = text(node, "spec.nodeName") {
        edge(
            from,
            resolve("Node", None, name, None),
            EdgeKind::RunsOn,
            "spec.nodeName".into(),
            false,
        );
    }
    let mut seen: BTreeSet<(&str, String)> = BTreeSet::new();
    let mut uses = |kind: &'static str, name: Option<&str>, path: String| {
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            if seen.insert((kind, name.to_string())) {
                edge(from, resolve(kind, ns, name, None), EdgeKind::Uses, path, false);
            }
        }
    };
    for (i, volume) in node
        .locate("spec.volumes")
        .map(|(_, v)| v.items())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let at = format!("spec.volumes[{i}]");
        uses(
            "PersistentVolumeClaim",
            text(volume, "persistentVolumeClaim.claimName"),
            format!("{at}.persistentVolumeClaim.claimName"),
        );
        uses(
            "ConfigMap",
            text(volume, "configMap.name"),
            format!("{at}.configMap.name"),
        );
        uses(
            "Secret",
            text(volume, "secret.secretName"),
            format!("{at}.secret.secretName"),
        );
        for (j, source) in volume
            .locate("projected.sources")
            .map(|(_, s)| s.items())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            uses(
                "ConfigMap",
                text(source, "configMap.name"),
                format!("{at}.projected.sources[{j}].configMap.name"),
            );
            uses(
                "Secret",
                text(source, "secret.name"),
                format!("{at}.projected.sources[{j}].secret.name"),
            );
        }
    }
    for group in ["initContainers", "containers"] {
        for (c, container) in node
            .locate(&format!("spec.{group}"))
            .map(|(_, v)| v.items())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let at = format!("spec.{group}[{c}]");
            for (e, env) in container
                .get("env")
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                uses(
                    "ConfigMap",
                    text(env, "valueFrom.configMapKeyRef.name"),
                    format!("{at}.env[{e}].valueFrom.configMapKeyRef.name"),
                );
                uses(
                    "Secret",
                    text(env, "valueFrom.secretKeyRef.name"),
                    format!("{at}.env[{e}].valueFrom.secretKeyRef.name"),
                );
            }
            for (e, from_source) in container
                .get("envFrom")
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                uses(
                    "ConfigMap",
                    text(from_source, "configMapRef.name"),
                    format!("{at}.envFrom[{e}].configMapRef.name"),
                );
                uses(
                    "Secret",
                    text(from_source, "secretRef.name"),
                    format!("{at}.envFrom[{e}].secretRef.name"),
                );
            }
        }
    }
    for (i, secret) in node
        .locate("spec.imagePullSecrets")
        .map(|(_, v)| v.items())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        uses(
            "Secret",
            text(secret, "name"),
            format!("spec.imagePullSecrets[{i}].name"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{ingest, Source};

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
