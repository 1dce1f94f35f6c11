//! Why the kubelet cannot assemble a container's configuration (`CreateContainerConfigError`), in its
//! words, in the container's waiting message and its `Failed` event "Error: …": the API's
//! `secret "x" not found` / `configmap "x" not found` from its Secret and ConfigMap managers,
//! `couldn't find key k in Secret ns/x` (pkg/kubelet/kubelet_pods.go, makeEnvironmentVariables) and
//! `container has runAsNonRoot and image will run as root` (pkg/kubelet/kuberuntime,
//! verifyRunAsNonRoot).

use faultline_report::ObjectRef;

use crate::{EventRecord, Model};

/// What the kubelet's message says is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// `secret "x" not found` / `configmap "x" not found`.
    Missing {
        kind: &'static str,
        name: String,
    },
    /// `couldn't find key k in Secret ns/x`: the key, and the object as the kubelet names it.
    MissingKey {
        key: String,
        what: String,
    },
    RunAsNonRoot,
    Unknown,
}

impl ConfigError {
    pub fn read(message: &str) -> Self {
        for (needle, kind) in [
            ("secret \"", "Secret"),
            ("configmap \"", "ConfigMap"),
            ("configmaps \"", "ConfigMap"),
            ("secrets \"", "Secret"),
        ] {
            if let Some(at) = message.find(needle) {
                let rest = &message[at + needle.len()..];
                if let Some(end) = rest.find('"') {
                    if rest[end..].starts_with("\" not found") {
                        return ConfigError::Missing {
                            kind,
                            name: rest[..end].to_string(),
                        };
                    }
                }
            }
        }
        if let Some(at) = message.find("couldn't find key ") {
            let rest = &message[at + "couldn't find key ".len()..];
            if let Some((key, what)) = rest.split_once(" in ") {
                return ConfigError::MissingKey {
                    key: key.to_string(),
                    what: what.trim().to_string(),
                };
            }
        }
        if message.contains("runAsNonRoot") {
            return ConfigError::RunAsNonRoot;
        }
        ConfigError::Unknown
    }
}

impl EventRecord {
    /// Whether this is the kubelet's `Failed` event with its error (`Error: …`).
    pub fn is_kubelet_error(&self) -> bool {
        self.reason == "Failed" && self.message.starts_with("Error:")
    }

    /// What the kubelet's `Failed` "Error: …" says is wrong with a container's configuration, when
    /// it says one of the causes [`ConfigError`] reads.
    pub fn config_error(&self) -> Option<ConfigError> {
        if self.reason != "Failed" || !self.message.starts_with("Error: ") {
            return None;
        }
        Some(ConfigError::read(&self.message)).filter(|c| *c != ConfigError::Unknown)
    }
}

impl Model<'_> {
    /// Each Pod known only from its events (not pasted) whose kubelet `Failed` "Error: …" says what
    /// is wrong with its configuration, once, in input order: the first such event, and what it says.
    pub fn config_error_pods(&self) -> Vec<(&EventRecord, ConfigError)> {
        let mut seen: Vec<&ObjectRef> = Vec::new();
        let mut pods = Vec::new();
        for event in self.events.iter().filter(|e| e.subject.kind == "Pod") {
            let Some(error) = event.config_error() else {
                continue;
            };
            if seen.contains(&&event.subject) || self.graph.find(&event.subject).is_some() {
                continue;
            }
            seen.push(&event.subject);
            pods.push((event, error));
        }
        pods
    }
}

#[cfg(test)]
mod tests {
    use super::ConfigError;

    #[test]
    fn causes_from_kubelet_messages() {
        let cause = ConfigError::read;
        assert_eq!(
            cause("Error: secret \"smtp-credentials\" not found"),
            ConfigError::Missing {
                kind: "Secret",
                name: "smtp-credentials".into()
            }
        );
        assert_eq!(
            cause("configmap \"app-config\" not found"),
            ConfigError::Missing {
                kind: "ConfigMap",
                name: "app-config".into()
            }
        );
        assert_eq!(
            cause("Error: couldn't find key password in Secret shop/db"),
            ConfigError::MissingKey {
                key: "password".into(),
                what: "Secret shop/db".into()
            }
        );
        assert_eq!(
            cause("Error: container has runAsNonRoot and image will run as root (pod: \"x\")"),
            ConfigError::RunAsNonRoot
        );
        assert_eq!(cause("Error: something else"), ConfigError::Unknown);
    }
}
