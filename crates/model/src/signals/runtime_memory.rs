//! A runtime's own memory settings in a container's spec: the JVM's `-Xmx` and
//! `-XX:MaxRAMPercentage`, Node.js's `--max-old-space-size` (also in `NODE_OPTIONS`), Go's
//! `GOMEMLIMIT`; in `command`, `args` or `env`, each with the path it was read at and what it allows
//! against the container's memory limit (a Kubernetes quantity, read here too).

use faultline_ingest::api::Container;
use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// The runtime a setting belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// `-Xmx`: the JVM heap's maximum.
    JvmHeap,
    /// `-XX:MaxRAMPercentage`: the JVM heap as a share of the container's memory.
    JvmPercentage,
    /// `--max-old-space-size` (MiB): V8's old generation.
    NodeOldSpace,
    /// `GOMEMLIMIT`: the Go runtime's soft memory limit.
    GoLimit,
}

/// One setting: as written, where, and what it allows in bytes against a limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub runtime: Runtime,
    /// The setting as written (`-Xmx1536m`, `--max-old-space-size=1024`, `GOMEMLIMIT=900MiB`).
    pub text: String,
    /// The field it was read at (`spec.containers[0].args[2]`, `spec.containers[0].env[1].value`).
    pub path: String,
    size: Size,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Size {
    Bytes(u64),
    /// A percentage of the container's memory.
    Percent(f64),
}

impl Setting {
    /// What it lets the runtime use, in bytes, under a limit of `limit` bytes.
    pub fn bytes(&self, limit: u64) -> u64 {
        match self.size {
            Size::Bytes(b) => b,
            Size::Percent(p) => (limit as f64 * p / 100.0) as u64,
        }
    }

    /// How it stands against a limit: over it, near it (a heap over three quarters of it leaves
    /// little for the rest of the process; a Go soft limit is meant to sit just under it, so only
    /// over counts), or fine.
    pub fn against(&self, limit: u64) -> Standing {
        let allowed = self.bytes(limit);
        if allowed >= limit {
            Standing::Over
        } else if self.runtime != Runtime::GoLimit && allowed.saturating_mul(4) > limit.saturating_mul(3) {
            Standing::Near
        } else {
            Standing::Within
        }
    }

    /// A size of its own (not a percentage of the container's memory): it counts on top of the rest
    /// of the process even without a limit to compare it with.
    pub fn is_absolute(&self) -> bool {
        matches!(self.size, Size::Bytes(_))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Over,
    Near,
    Within,
}

/// The settings in one container's spec node, at `path` (`spec.containers[0]`).
pub fn settings(container: &Node, path: &str) -> Vec<Setting> {
    let mut out = Vec::new();
    for key in ["command", "args"] {
        for (i, item) in container
            .get(key)
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if let Some(text) = item.as_str() {
                out.extend(in_words(text, &format!("{path}.{key}[{i}]")));
            }
        }
    }
    for (i, env) in container
        .get("env")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let (Some(name), Some(value)) = (
            env.get("name").and_then(Node::as_str),
            env.get("value").and_then(Node::as_str),
        ) else {
            continue;
        };
        let at = format!("{path}.env[{i}].value");
        if name == "GOMEMLIMIT" {
            if let Some(bytes) = go_bytes(value.trim()) {
                out.push(Setting {
                    runtime: Runtime::GoLimit,
                    text: format!("GOMEMLIMIT={}", value.trim()),
                    path: at,
                    size: Size::Bytes(bytes),
                });
            }
        } else {
            out.extend(in_words(value, &at));
        }
    }
    out
}

/// Settings among the words of one argument or env value (`-Xms1g -Xmx1536m`, `sh -c "node
/// --max-old-space-size=1024 server.js"`).
fn in_words(text: &str, path: &str) -> Vec<Setting> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c| c == '"' || c == '\'');
        let found = if let Some(size) = word.strip_prefix("-Xmx") {
            jvm_bytes(size).map(|b| (Runtime::JvmHeap, Size::Bytes(b)))
        } else if let Some(p) = word.strip_prefix("-XX:MaxRAMPercentage=") {
            p.parse::<f64>()
                .ok()
                .filter(|p| *p > 0.0)
                .map(|p| (Runtime::JvmPercentage, Size::Percent(p)))
        } else if let Some(mib) = word
            .strip_prefix("--max-old-space-size=")
            .or_else(|| word.strip_prefix("--max_old_space_size="))
        {
            mib.parse::<u64>()
                .ok()
                .map(|m| (Runtime::NodeOldSpace, Size::Bytes(m << 20)))
        } else {
            None
        };
        if let Some((runtime, size)) = found {
            out.push(Setting {
                runtime,
                text: word.to_string(),
                path: path.to_string(),
                size,
            });
        }
    }
    out
}

/// A JVM size (`1536m`, `2g`, `512k`, bytes) in bytes; JVM units are binary.
pub fn jvm_bytes(size: &str) -> Option<u64> {
    let (number, unit) = size.split_at(size.find(|c: char| !c.is_ascii_digit()).unwrap_or(size.len()));
    let n: u64 = number.parse().ok()?;
    let factor = match unit.to_ascii_lowercase().as_str() {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// A `GOMEMLIMIT` (`900MiB`, `1GiB`, `536870912`, `off`) in bytes: Go's units are `B`, `KiB`, `MiB`,
/// `GiB`, `TiB`.
fn go_bytes(value: &str) -> Option<u64> {
    let (number, unit) = value.split_at(value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len()));
    let n: u64 = number.parse().ok()?;
    let factor: u64 = match unit {
        "" | "B" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "TiB" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// A Kubernetes memory quantity (`1Gi`, `512Mi`, `1G`, `100M`, bytes) in bytes.
pub fn quantity_bytes(quantity: &str) -> Option<u64> {
    let (number, unit) = quantity.split_at(
        quantity
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(quantity.len()),
    );
    let n: f64 = number.parse().ok()?;
    let factor: f64 = match unit {
        "" => 1.0,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0_f64.powi(4),
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return None,
    };
    Some((n * factor) as u64)
}

/// A size in bytes as a person writes it (`1024Mi`, `1.5Gi`), for the messages.
pub fn human(bytes: u64) -> String {
    const GI: u64 = 1 << 30;
    const MI: u64 = 1 << 20;
    if bytes >= GI && bytes % (GI / 2) == 0 {
        let text = format!("{:.1}", bytes as f64 / GI as f64);
        format!("{}Gi", text.trim_end_matches(".0"))
    } else {
        format!("{}Mi", (bytes + MI / 2) / MI)
    }
}

/// A container spec node's `resources.limits.memory`, as written.
pub fn memory_limit(container: &Node) -> Option<&str> {
    container
        .get("resources")
        .and_then(|r| r.get("limits"))
        .and_then(|l| l.get("memory"))
        .and_then(Node::as_str)
}

/// The settings of the container spec at `spec_path` of a pasted object, wherever the spec puts
/// them.
pub fn settings_at(object: &Object, spec_path: &str) -> Vec<Setting> {
    object
        .locate(spec_path)
        .map(|(_, node)| settings(node, spec_path))
        .unwrap_or_default()
}

/// The evidence of the fields the settings were read at, each field cited once.
pub fn settings_evidence(model: &Model<'_>, object: &Object, settings: &[Setting]) -> Vec<Evidence> {
    let mut cited: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for s in settings {
        if !cited.contains(&s.path.as_str()) {
            cited.push(&s.path);
            out.extend(model.evidence(object, &s.path));
        }
    }
    out
}

/// A container's memory as its pasted spec states it: its limit and its runtime's own settings, with
/// the fields that show them (the limit and request, then each setting's field once).
pub struct ContainerMemory {
    /// `resources.limits.memory`, as written.
    pub limit: Option<String>,
    pub settings: Vec<Setting>,
    pub evidence: Vec<Evidence>,
}

impl ContainerMemory {
    /// The memory of the container whose typed spec is `spec`, at `spec_path` of `object`.
    pub fn of(model: &Model<'_>, object: &Object, spec_path: Option<&str>, spec: Option<&Container>) -> Self {
        let mut memory = ContainerMemory {
            limit: spec.and_then(limit_of).map(str::to_string),
            settings: Vec::new(),
            evidence: Vec::new(),
        };
        if let Some(path) = spec_path {
            for field in ["resources.limits.memory", "resources.requests.memory"] {
                memory
                    .evidence
                    .extend(model.evidence(object, &format!("{path}.{field}")));
            }
            memory.settings = settings_at(object, path);
            memory
                .evidence
                .extend(settings_evidence(model, object, &memory.settings));
        }
        memory
    }

    /// The limit as written and in bytes, when it is a quantity.
    pub fn limit_bytes(&self) -> Option<(&str, u64)> {
        let limit = self.limit.as_deref()?;
        Some((limit, quantity_bytes(limit)?))
    }
}

/// A typed container spec's `resources.limits.memory`, as written.
pub fn limit_of(container: &Container) -> Option<&str> {
    let limit = container.resources.as_ref()?.limits.as_ref()?.get("memory")?;
    Some(limit.0.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_ingest::{ingest, Source};

    #[test]
    fn sizes() {
        assert_eq!(jvm_bytes("1536m"), Some(1536 << 20));
        assert_eq!(quantity_bytes("1Gi"), Some(1 << 30));
        assert_eq!(quantity_bytes("100M"), Some(100_000_000));
        assert_eq!(quantity_bytes("1.5Gi"), Some(3 << 29));
        assert_eq!(jvm_bytes("1x"), None);
        assert_eq!(go_bytes("900MiB"), Some(900 << 20));
        assert_eq!(go_bytes("off"), None);
        assert_eq!(human(1 << 30), "1Gi");
        assert_eq!(human(384 << 20), "384Mi");
        assert_eq!(human(3 << 29), "1.5Gi");
        assert_eq!(human(1536 << 20), "1.5Gi");
        assert_eq!(human(1000 << 20), "1000Mi");
    }

    fn read(container: &str) -> Vec<Setting> {
        let text =
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers:\n{container}");
        let sources = [Source::new("p.yaml", text)];
        let ingested = ingest(&sources);
        let node = ingested.objects[0].locate("spec.containers[0]").unwrap().1;
        settings(node, "spec.containers[0]")
    }

    #[test]
    fn every_form_is_read_where_it_is_written() {
        let found = read("  - name: app\n    command: [sh, -c, \"java -Xms256m -Xmx1536m -jar app.jar\"]\n    args: [--max-old-space-size=1024]\n    env:\n    - {name: JAVA_TOOL_OPTIONS, value: \"-XX:MaxRAMPercentage=90.0\"}\n    - {name: NODE_OPTIONS, value: \"--max-old-space-size=2048\"}\n    - {name: GOMEMLIMIT, value: 900MiB}\n    - {name: OTHER, value: \"-Xms1g\"}\n");
        let seen: Vec<(&str, &str)> = found.iter().map(|s| (s.text.as_str(), s.path.as_str())).collect();
        assert_eq!(
            seen,
            [
                ("-Xmx1536m", "spec.containers[0].command[2]"),
                ("--max-old-space-size=1024", "spec.containers[0].args[0]"),
                ("-XX:MaxRAMPercentage=90.0", "spec.containers[0].env[0].value"),
                ("--max-old-space-size=2048", "spec.containers[0].env[1].value"),
                ("GOMEMLIMIT=900MiB", "spec.containers[0].env[2].value"),
            ]
        );
        let limit = 1u64 << 30;
        let standings: Vec<Standing> = found.iter().map(|s| s.against(limit)).collect();
        assert_eq!(
            standings,
            [
                Standing::Over,
                Standing::Over,
                Standing::Near,
                Standing::Over,
                Standing::Within
            ]
        );
        assert_eq!(found[0].against(4 << 30), Standing::Within);
    }
}
