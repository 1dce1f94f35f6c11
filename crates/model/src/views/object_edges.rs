//! What the object graph says of one pasted object, for rules that cite it: the references it
//! makes to an object of a kind and name (`Uses` edges: env, envFrom, volumes, pull secrets), and
//! the Pods pasted that run on a Node (`RunsOn`).

use faultline_report::ObjectRef;

use crate::graph::{EdgeKind, Target};
use crate::Model;

/// A reference one object makes to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use<'m> {
    /// The field of the referring object that names it.
    pub path: &'m str,
    /// Whether the object it names is pasted.
    pub pasted: bool,
}

impl Model<'_> {
    /// The references object `from` (its index) makes to the object of kind `kind` named `name`, in
    /// the graph's order.
    pub fn uses_of(&self, from: usize, kind: &str, name: &str) -> Vec<Use<'_>> {
        self.graph
            .edges
            .iter()
            .filter(|e| e.from == from && e.kind == EdgeKind::Uses)
            .filter_map(|edge| {
                let (target, pasted) = match &edge.to {
                    Target::Object(i) => (&self.objects[*i].id, true),
                    Target::Missing(r) => (&**r, false),
                };
                (target.kind == kind && target.name == name).then_some(Use {
                    path: &edge.path,
                    pasted,
                })
            })
            .collect()
    }

    /// The pasted Pods that run on the Node at index `node` (`spec.nodeName`), in the graph's order.
    pub fn pods_on(&self, node: usize) -> Vec<ObjectRef> {
        self.graph
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::RunsOn && matches!(e.to, Target::Object(i) if i == node))
            .map(|e| self.objects[e.from].id.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    #[test]
    fn a_pods_references_and_the_node_it_runs_on() {
        let text = "\
apiVersion: v1
kind: Node
metadata: {name: w1}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  nodeName: w1
  containers:
  - name: web
    image: web:1
    envFrom:
    - secretRef: {name: smtp}
";
        let sources = [Source::new("p.yaml", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let uses = model.uses_of(1, "Secret", "smtp");
        assert_eq!(uses.len(), 1);
        assert!(!uses[0].pasted);
        assert!(model.uses_of(1, "ConfigMap", "smtp").is_empty());
        let on: Vec<String> = model.pods_on(0).iter().map(|p| p.name.to_string()).collect();
        assert_eq!(on, ["web"]);
    }
}
