//! A container's environment variables written as literal values (`env[].name` and `env[].value`;
//! one from a Secret or ConfigMap, `valueFrom`, has no value here).

use faultline_ingest::node::Node;

/// Each `env` entry of the container's node with a name and a literal value: (index, name, value).
pub fn container_env_values(container: &Node) -> Vec<(usize, &str, &str)> {
    container
        .get("env")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(|(i, env)| {
            Some((
                i,
                env.get("name").and_then(Node::as_str)?,
                env.get("value").and_then(Node::as_str)?,
            ))
        })
        .collect()
}
