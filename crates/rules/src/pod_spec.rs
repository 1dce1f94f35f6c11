//! Pod specs as the input has them, read from the object trees: the rules that judge one field
//! against another (ports, memory settings, references, DNS) read them here.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_model::Model;

/// One Pod spec: the object it is in and the path of the spec in it.
pub struct PodSpec<'a> {
    pub object: &'a Object,
    pub path: &'static str,
    pub node: &'a Node,
}

/// One container of a Pod spec with its path (`spec.containers[1]`).
pub struct Container<'a> {
    pub path: String,
    pub node: &'a Node,
    pub name: &'a str,
}

impl<'a> PodSpec<'a> {
    /// Init containers, then containers.
    pub fn containers(&self) -> Vec<Container<'a>> {
        let mut out = Vec::new();
        for key in ["initContainers", "containers"] {
            for (i, node) in self
                .node
                .get(key)
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                out.push(Container {
                    path: format!("{}.{key}[{i}]", self.path),
                    node,
                    name: node.get("name").and_then(Node::as_str).unwrap_or_default(),
                });
            }
        }
        out
    }

    /// The Pod's namespace, `default` where the input states none (what the API server would
    /// give an object created without one): for finding the objects it refers to.
    pub fn namespace(&self) -> &'a str {
        self.object.id.namespace.as_deref().unwrap_or("default")
    }

    /// The namespace for a command: [`crate::UNKNOWN_NAMESPACE`] where the input states none (the
    /// paste may come from any namespace of the user's context).
    pub fn command_namespace(&self) -> &'a str {
        self.object
            .id
            .namespace
            .as_deref()
            .unwrap_or(crate::UNKNOWN_NAMESPACE)
    }
}

/// The namespaces the input has objects in, sorted, each once (a two-label host `name.ns` names a
/// Service only in one of them: `faultline_model::callers::service_of`).
pub fn namespaces<'m>(model: &'m Model<'_>) -> Vec<&'m str> {
    let mut namespaces: Vec<&str> = model
        .objects
        .iter()
        .filter_map(|o| o.id.namespace.as_deref())
        .collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    namespaces
}

impl<'a> Container<'a> {
    /// The container's `env` entries with a literal value: (index, name, value).
    pub fn env(&self) -> impl Iterator<Item = (usize, &'a str, &'a str)> + 'a {
        self.node
            .get("env")
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(i, env)| Some((i, env.get("name")?.as_str()?, env.get("value")?.as_str()?)))
    }
}

/// Every Pod's spec, in input order. (A workload's Pod template is dropped from its tree once
/// read, `ingest::PRUNED`: its Pods say the same, with their status.)
pub fn pod_specs<'a>(model: &Model<'a>) -> Vec<PodSpec<'a>> {
    model
        .objects_of_kind("Pod")
        .filter_map(|object| {
            Some(PodSpec {
                object,
                path: "spec",
                node: object.node.get("spec")?,
            })
        })
        .collect()
}

/// A port as a container declares it.
pub struct DeclaredPort<'a> {
    pub number: Option<&'a str>,
    pub name: Option<&'a str>,
    pub protocol: &'a str,
}

/// The ports a container declares (`ports[].containerPort`, `name`, `protocol`, TCP by default).
pub fn declared_ports<'a>(container: &'a Node) -> Vec<DeclaredPort<'a>> {
    container
        .get("ports")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .map(|p| DeclaredPort {
            number: p.get("containerPort").and_then(Node::as_str),
            name: p.get("name").and_then(Node::as_str),
            protocol: p.get("protocol").and_then(Node::as_str).unwrap_or("TCP"),
        })
        .collect()
}

/// The ports a container declares, as describe would print them (`8080/TCP (http)`), for messages.
pub fn ports_text(ports: &[DeclaredPort<'_>]) -> String {
    ports
        .iter()
        .map(|p| {
            let number = p.number.unwrap_or("?");
            match p.name {
                Some(name) => format!("{number}/{} ({name})", p.protocol),
                None => format!("{number}/{}", p.protocol),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the namespace's objects of a kind were pasted as a listing: two or more of them (a `get`
/// table, a List, a dump). One object alone is usually the one being asked about, not the whole
/// namespace, so a name missing beside it proves nothing.
pub fn listed(model: &Model<'_>, kind: &str, namespace: &str) -> usize {
    names_pasted(model, kind, namespace).len()
}

/// The distinct names of the namespace's objects of a kind, sorted: one Service pasted twice (its
/// YAML and its describe) is one Service.
pub fn names_pasted<'a>(model: &Model<'a>, kind: &str, namespace: &str) -> Vec<&'a str> {
    let mut names: Vec<&'a str> = model
        .objects_in(Some(namespace))
        .filter(|o| o.id.kind == kind)
        .map(|o| o.id.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether the container's port names are known: describe prints ports without their names (the
/// reader keeps what it printed under `kubectl.ports`).
pub fn port_names_known(container: &Node) -> bool {
    container.get("kubectl").and_then(|k| k.get("ports")).is_none()
}
