//! The edges each kind of object states: owners, the Pods a selector picks, an EndpointSlice's or an
//! Endpoints' Service and addresses, what a quota applies to. A Pod's own references are in
//! `pod_edges.rs`.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::hash::Map;
use faultline_report::ObjectRef;

use super::selector::{PodLabels, Pods, Selector};
use super::{key, pairs, text, Edge, EdgeKind, Key, Target};

/// Builds the edges of the objects, in their order; each object's in the order of its fields.
pub(super) struct Builder<'o> {
    objects: &'o [Object],
    index: &'o Map<Key, usize>,
    pods: Pods<'o>,
    edges: Vec<Edge>,
}

impl<'o> Builder<'o> {
    pub(super) fn new(objects: &'o [Object], index: &'o Map<Key, usize>) -> Self {
        let pods = objects
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
        Builder {
            objects,
            index,
            pods: Pods::new(pods),
            edges: Vec::new(),
        }
    }

    pub(super) fn build(mut self) -> Vec<Edge> {
        for (from, object) in self.objects.iter().enumerate() {
            let node = &object.node;
            let ns = object.id.namespace.as_deref();
            self.owners(from, node, ns);
            self.selected(from, object, ns);
            match object.id.kind.as_str() {
                "EndpointSlice" => self.endpoint_slice(from, node, ns),
                "Endpoints" => self.endpoints(from, object, ns),
                "Pod" => self.pod(from, node, ns),
                "ResourceQuota" | "LimitRange" => {
                    if let Some(ns) = ns {
                        let to = self.resolve("Namespace", None, ns, None);
                        self.edge(from, to, EdgeKind::AppliesTo, "metadata.namespace".into(), false);
                    }
                }
                _ => {}
            }
        }
        self.edges.shrink_to_fit();
        self.edges
    }

    /// The pasted object a reference names, uid checked when both carry one; else the missing one.
    pub(super) fn resolve(
        &self,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        uid: Option<&str>,
    ) -> Target {
        let uid = uid.filter(|u| !u.is_empty());
        let found = self.index.get(&key(kind, namespace, name)).copied().filter(|&i| {
            match (self.objects[i].id.uid.as_deref(), uid) {
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
                uid: uid.map(Into::into),
            })),
        }
    }

    pub(super) fn edge(&mut self, from: usize, to: Target, kind: EdgeKind, path: String, inferred: bool) {
        self.edges.push(Edge {
            from,
            to,
            kind,
            path,
            inferred,
        });
    }

    /// `metadata.ownerReferences`, each to its owner in the object's namespace.
    fn owners(&mut self, from: usize, node: &Node, ns: Option<&str>) {
        let Some((_, owners)) = node.locate("metadata.ownerReferences") else {
            return;
        };
        for (i, owner) in owners.items().iter().enumerate() {
            if let (Some(kind), Some(name)) = (text(owner, "kind"), text(owner, "name")) {
                let to = self.resolve(kind, ns, name, text(owner, "uid"));
                self.edge(
                    from,
                    to,
                    EdgeKind::OwnedBy,
                    format!("metadata.ownerReferences[{i}]"),
                    false,
                );
            }
        }
    }

    /// The Pods a Service or a workload selects. A Service selects by its labels alone; workloads by
    /// a label selector, expressions included.
    fn selected(&mut self, from: usize, object: &Object, ns: Option<&str>) {
        let node = &object.node;
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
        let Some(selector) = selector.filter(|s| !s.is_empty()) else {
            return;
        };
        let selected: Vec<usize> = self.pods.selected(ns, &selector).map(|p| p.index).collect();
        for pod in selected {
            self.edge(
                from,
                Target::Object(pod),
                EdgeKind::Selects,
                "spec.selector".into(),
                false,
            );
        }
    }

    /// An EndpointSlice's Service (by its `kubernetes.io/service-name` label) and its endpoints.
    fn endpoint_slice(&mut self, from: usize, node: &Node, ns: Option<&str>) {
        const SERVICE_NAME: &str = r#"metadata.labels["kubernetes.io/service-name"]"#;
        if let Some(service) = text(node, SERVICE_NAME) {
            let to = self.resolve("Service", ns, service, None);
            self.edge(from, to, EdgeKind::EndpointsOf, SERVICE_NAME.into(), false);
        }
        if let Some((_, endpoints)) = node.locate("endpoints") {
            for (i, endpoint) in endpoints.items().iter().enumerate() {
                let addresses: Vec<&str> = endpoint
                    .get("addresses")
                    .map(|a| a.items().iter().filter_map(Node::as_str).collect())
                    .unwrap_or_default();
                self.endpoint(from, endpoint, &addresses, ns, format!("endpoints[{i}]"));
            }
        }
    }

    /// An Endpoints object's Service (its own name) and its ready and not-ready addresses.
    fn endpoints(&mut self, from: usize, object: &Object, ns: Option<&str>) {
        let to = self.resolve("Service", ns, &object.id.name, None);
        self.edge(from, to, EdgeKind::EndpointsOf, "metadata.name".into(), false);
        let Some((_, subsets)) = object.node.locate("subsets") else {
            return;
        };
        for (s, subset) in subsets.items().iter().enumerate() {
            for list in ["addresses", "notReadyAddresses"] {
                let addresses = subset.get(list).map(Node::items).unwrap_or_default();
                for (i, address) in addresses.iter().enumerate() {
                    let ip: Vec<&str> = address.get("ip").and_then(Node::as_str).into_iter().collect();
                    self.endpoint(from, address, &ip, ns, format!("subsets[{s}].{list}[{i}]"));
                }
            }
        }
    }

    /// An endpoint to its Pod: by `targetRef` when it has one, else by IP (marked inferred).
    fn endpoint(&mut self, from: usize, endpoint: &Node, addresses: &[&str], ns: Option<&str>, path: String) {
        if let Some(target) = endpoint.get("targetRef") {
            if let (Some(kind), Some(name)) = (text(target, "kind"), text(target, "name")) {
                let target_ns = text(target, "namespace").or(ns);
                let to = self.resolve(kind, target_ns, name, text(target, "uid"));
                self.edge(from, to, EdgeKind::EndpointIs, format!("{path}.targetRef"), false);
                return;
            }
        }
        let mut matched: Vec<usize> = addresses
            .iter()
            .filter_map(|ip| self.pods.by_ip.get(ip))
            .flatten()
            .copied()
            .collect();
        matched.sort_unstable();
        matched.dedup();
        let pods: Vec<usize> = matched
            .into_iter()
            .map(|i| &self.pods.all[i])
            .filter(|pod| pod.namespace == ns)
            .map(|pod| pod.index)
            .collect();
        for pod in pods {
            self.edge(
                from,
                Target::Object(pod),
                EdgeKind::EndpointIs,
                path.clone(),
                true,
            );
        }
    }
}
