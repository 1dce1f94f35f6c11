//! The Secrets and ConfigMaps a Pod spec names, read from its tree as the input has it (a
//! manifest, or a Pod template in a workload): `imagePullSecrets`, `env[].valueFrom.secretKeyRef` /
//! `configMapKeyRef`, `envFrom[].secretRef` / `configMapRef`, and `volumes[]` of type `secret`,
//! `configMap` or `projected`, each unless `optional: true`; with the field that names it.

use faultline_ingest::node::Node;
use faultline_ingest::Object;

/// What the kubelet needs the named object for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceUse {
    PullSecret,
    Env,
    Volume,
}

/// A reference: the kind it names, the name, and the field it is at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference<'a> {
    pub kind: &'static str,
    pub name: &'a str,
    /// The field holding the name (`spec.imagePullSecrets[0].name`).
    pub path: String,
    pub use_: ReferenceUse,
}

fn optional(node: &Node) -> bool {
    node.get("optional").and_then(Node::as_str) == Some("true")
}

/// The references of the Pod spec `spec` (at `base` in its object), its pull secrets, then each
/// container's (`containers`: path and tree, in the order given) env and envFrom, then its volumes.
pub fn references<'a>(spec: &'a Node, base: &str, containers: &[(String, &'a Node)]) -> Vec<Reference<'a>> {
    let mut out = Vec::new();
    let mut push = |kind, node: Option<&'a Node>, key: &str, path: String, use_| {
        if let Some(node) = node.filter(|n| !optional(n)) {
            if let Some(name) = node.get(key).and_then(Node::as_str) {
                out.push(Reference {
                    kind,
                    name,
                    path: format!("{path}.{key}"),
                    use_,
                });
            }
        }
    };
    let items = |node: &'a Node, key: &str| node.get(key).map(Node::items).unwrap_or_default();
    for (i, s) in items(spec, "imagePullSecrets").iter().enumerate() {
        let path = format!("{base}.imagePullSecrets[{i}]");
        push("Secret", Some(s), "name", path, ReferenceUse::PullSecret);
    }
    for (path, c) in containers {
        for (i, e) in items(c, "env").iter().enumerate() {
            let from = e.get("valueFrom");
            for (key, kind) in [("secretKeyRef", "Secret"), ("configMapKeyRef", "ConfigMap")] {
                let at = format!("{path}.env[{i}].valueFrom.{key}");
                push(kind, from.and_then(|f| f.get(key)), "name", at, ReferenceUse::Env);
            }
        }
        for (i, e) in items(c, "envFrom").iter().enumerate() {
            for (key, kind) in [("secretRef", "Secret"), ("configMapRef", "ConfigMap")] {
                let at = format!("{path}.envFrom[{i}].{key}");
                push(kind, e.get(key), "name", at, ReferenceUse::Env);
            }
        }
    }
    for (i, v) in items(spec, "volumes").iter().enumerate() {
        let at = format!("{base}.volumes[{i}]");
        push(
            "Secret",
            v.get("secret"),
            "secretName",
            format!("{at}.secret"),
            ReferenceUse::Volume,
        );
        push(
            "ConfigMap",
            v.get("configMap"),
            "name",
            format!("{at}.configMap"),
            ReferenceUse::Volume,
        );
        let sources = v.get("projected").map_or(&[][..], |p| items(p, "sources"));
        for (j, s) in sources.iter().enumerate() {
            let at = format!("{at}.projected.sources[{j}]");
            push(
                "Secret",
                s.get("secret"),
                "name",
                format!("{at}.secret"),
                ReferenceUse::Volume,
            );
            push(
                "ConfigMap",
                s.get("configMap"),
                "name",
                format!("{at}.configMap"),
                ReferenceUse::Volume,
            );
        }
    }
    out
}

/// The fields of a pasted Pod's `spec.imagePullSecrets` that name the Secret `name`
/// (`spec.imagePullSecrets[i].name`).
pub fn pull_secret_paths(pod: &Object, name: &str) -> Vec<String> {
    let Some((_, secrets)) = pod.locate("spec.imagePullSecrets") else {
        return Vec::new();
    };
    secrets
        .items()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.get("name").and_then(Node::as_str) == Some(name))
        .map(|(i, _)| format!("spec.imagePullSecrets[{i}].name"))
        .collect()
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::{pull_secret_paths, references, ReferenceUse};

    #[test]
    fn every_required_reference_with_its_field() {
        let text = "\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  imagePullSecrets: [{name: regcred}]
  containers:
  - name: web
    image: web:1
    env:
    - {name: A, valueFrom: {secretKeyRef: {name: db, key: password}}}
    - {name: B, valueFrom: {configMapKeyRef: {name: opt, key: x, optional: true}}}
    envFrom: [{configMapRef: {name: settings}}]
  volumes:
  - {name: certs, secret: {secretName: tls}}
  - name: all
    projected: {sources: [{configMap: {name: bundle}}]}
";
        let sources = [Source::new("p.yaml", text)];
        let ingested = ingest(&sources);
        let pod = &ingested.objects[0];
        let Some((_, spec)) = pod.locate("spec") else {
            panic!("a spec")
        };
        let Some((_, container)) = pod.locate("spec.containers[0]") else {
            panic!("a container")
        };
        let found = references(spec, "spec", &[("spec.containers[0]".to_string(), container)]);
        let read: Vec<(&str, &str, &str, ReferenceUse)> = found
            .iter()
            .map(|r| (r.kind, r.name, r.path.as_str(), r.use_))
            .collect();
        assert_eq!(
            read,
            [
                (
                    "Secret",
                    "regcred",
                    "spec.imagePullSecrets[0].name",
                    ReferenceUse::PullSecret
                ),
                (
                    "Secret",
                    "db",
                    "spec.containers[0].env[0].valueFrom.secretKeyRef.name",
                    ReferenceUse::Env
                ),
                (
                    "ConfigMap",
                    "settings",
                    "spec.containers[0].envFrom[0].configMapRef.name",
                    ReferenceUse::Env
                ),
                (
                    "Secret",
                    "tls",
                    "spec.volumes[0].secret.secretName",
                    ReferenceUse::Volume
                ),
                (
                    "ConfigMap",
                    "bundle",
                    "spec.volumes[1].projected.sources[0].configMap.name",
                    ReferenceUse::Volume
                ),
            ]
        );
        assert_eq!(
            pull_secret_paths(pod, "regcred"),
            ["spec.imagePullSecrets[0].name"]
        );
        assert!(pull_secret_paths(pod, "other").is_empty());
    }
}
