//! The objects a Pod refers to: its node, and the claims, ConfigMaps and Secrets its volumes,
//! environment and image pull secrets name.

use std::collections::BTreeSet;

use faultline_ingest::node::Node;

use super::edges::Builder;
use super::{text, EdgeKind};

impl Builder<'_> {
    /// A Pod's node, and every ConfigMap, Secret and claim it uses (each once, at its first mention).
    pub(super) fn pod(&mut self, from: usize, node: &Node, ns: Option<&str>) {
        if let Some(name) = text(node, "spec.nodeName") {
            let to = self.resolve("Node", None, name, None);
            self.edge(from, to, EdgeKind::RunsOn, "spec.nodeName".into(), false);
        }
        let mut seen: BTreeSet<(&str, String)> = BTreeSet::new();
        let mut uses = |kind: &'static str, name: Option<&str>, path: String| {
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                if seen.insert((kind, name.to_string())) {
                    let to = self.resolve(kind, ns, name, None);
                    self.edge(from, to, EdgeKind::Uses, path, false);
                }
            }
        };
        volumes(node, &mut uses);
        containers(node, &mut uses);
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
}

/// Called with each object a Pod refers to: its kind, its name (if the field holds one) and the field.
type Uses<'u> = dyn FnMut(&'static str, Option<&str>, String) + 'u;

/// The claims, ConfigMaps and Secrets of `spec.volumes`, projected ones included.
fn volumes(node: &Node, uses: &mut Uses<'_>) {
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
}

/// The ConfigMaps and Secrets of every container's `env` and `envFrom`, init containers first.
fn containers(node: &Node, uses: &mut Uses<'_>) {
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
}
