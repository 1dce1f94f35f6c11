//! The kubelet's words about pulling a container's image (pkg/kubelet/images/image_manager.go and
//! types.go): the container's waiting reasons (`ErrImagePull`, `ImagePullBackOff`, …), its events
//! (`Failed` "Failed to pull image \"x\": …", "Error: ErrImagePull", `BackOff` "Back-off pulling
//! image \"x\""), the registry's answer the runtime relays in them, and the kubelet's
//! `FailedToRetrieveImagePullSecret` (pkg/kubelet/kuberuntime/kuberuntime_image.go).

use faultline_report::ObjectRef;

use crate::{EventRecord, Model};

/// The waiting reasons of a container whose image cannot be pulled or resolved: the kubelet's
/// (`ErrImagePull`, `ImagePullBackOff`, `InvalidImageName`, `ErrImageNeverPull`,
/// `ImageInspectError`, `RegistryUnavailable`) and `SignatureValidationFailed` (a runtime's policy).
pub const PULL_WAITING_REASONS: [&str; 7] = [
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
    "ImageInspectError",
    "RegistryUnavailable",
    "SignatureValidationFailed",
];

/// What the registry's answer, as the runtime relays it in a message, says about the cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegistryHint {
    NotFound,
    Unauthorized,
    Certificate,
    Network,
    RateLimited,
}

impl RegistryHint {
    /// The cause a pull failure's message names, if it names one.
    pub fn from_message(message: &str) -> Option<Self> {
        let m = message.to_ascii_lowercase();
        let has = |needles: &[&str]| needles.iter().any(|n| m.contains(n));
        if has(&["toomanyrequests", "rate limit", "429 too many"]) {
            Some(Self::RateLimited)
        } else if has(&[
            "x509",
            "certificate signed by unknown authority",
            "tls: failed to verify",
        ]) {
            Some(Self::Certificate)
        } else if has(&[
            "unauthorized",
            "authentication required",
            "access denied",
            "denied:",
            "403 forbidden",
        ]) || says_status_401(&m)
        {
            Some(Self::Unauthorized)
        } else if has(&["not found", "notfound", "manifest unknown", "name unknown"]) {
            Some(Self::NotFound)
        } else if has(&[
            "i/o timeout",
            "dial tcp",
            "no such host",
            "connection refused",
            "deadline exceeded",
            "network is unreachable",
            "tls handshake timeout",
        ]) {
            Some(Self::Network)
        } else {
            None
        }
    }
}

/// Whether a (lowercased) pull message states the HTTP status 401 on its own, as registries and
/// runtimes print it (`status: 401`, `: 401 `), not as part of a tag, a digest or a port
/// (`app:v401`, `sha256:…401…`, `:4010`).
fn says_status_401(message: &str) -> bool {
    message.match_indices("401").any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let after = message[at + 3..].chars().next();
        before.is_some_and(char::is_whitespace)
            && after.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '.')
    })
}

impl EventRecord {
    /// Whether this is the kubelet saying a pull failed, in every release's words: `Failed` "Failed
    /// to pull image \"x\": …", "Error: ErrImagePull", "Error: ImagePullBackOff"; `BackOff`
    /// "Back-off pulling image \"x\""; or an event whose reason is `ErrImagePull` or
    /// `ImagePullBackOff`.
    pub fn is_image_pull_failure(&self) -> bool {
        let m = self.message.as_str();
        (self.reason == "Failed"
            && (m.starts_with("Failed to pull image")
                || m.starts_with("Error: ErrImagePull")
                || m.starts_with("Error: ImagePullBackOff")))
            || (self.reason == "BackOff" && m.starts_with("Back-off pulling image"))
            || self.reason == "ErrImagePull"
            || self.reason == "ImagePullBackOff"
    }

    /// Whether the event's reason is one the kubelet gives its image failures (pkg/kubelet/events/
    /// event.go: `Failed`, `BackOff`, `ErrImageNeverPull`, `InspectFailed`); `Failed` and `BackOff`
    /// are also its reasons for other failures of a container.
    pub fn has_image_failure_reason(&self) -> bool {
        matches!(
            self.reason.as_str(),
            "Failed" | "BackOff" | "ErrImageNeverPull" | "InspectFailed"
        )
    }

    /// The first quoted word of the message (`Failed to pull image "x": …`): the image a pull event
    /// names, when it quotes one.
    pub fn quoted_image(&self) -> Option<&str> {
        self.message.split('"').nth(1).filter(|i| !i.is_empty())
    }

    /// The Secrets the kubelet says it could not retrieve for a Pod's image pull
    /// (`FailedToRetrieveImagePullSecret`, "Unable to retrieve some image pull secrets (regcred,
    /// other); attempting to pull the image may not succeed.", as in
    /// confluentinc/confluent-kubernetes-examples#276), in the order it names them.
    pub fn pull_secrets_not_retrieved(&self) -> Vec<&str> {
        let Some((_, rest)) = self
            .message
            .split_once("Unable to retrieve some image pull secrets (")
        else {
            return Vec::new();
        };
        let Some((names, _)) = rest.split_once(')') else {
            return Vec::new();
        };
        names
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect()
    }
}

impl Model<'_> {
    /// Each (Pod, Secret) the kubelet said it could not retrieve for the Pod's image pull
    /// ([`EventRecord::pull_secrets_not_retrieved`]), once, in input order, with the first event
    /// that says it.
    pub fn pull_secrets_not_retrieved(&self) -> Vec<(&EventRecord, &str)> {
        let mut said: Vec<(&ObjectRef, &str)> = Vec::new();
        let mut found = Vec::new();
        for event in self.events.iter().filter(|e| e.subject.kind == "Pod") {
            for name in event.pull_secrets_not_retrieved() {
                if !said.contains(&(&event.subject, name)) {
                    said.push((&event.subject, name));
                    found.push((event, name));
                }
            }
        }
        found
    }
}

/// The registry host of an image reference (`docker.io` when the reference names none).
pub fn registry_host(image: &str) -> &str {
    match image.split_once('/') {
        Some((host, _)) if host.contains(['.', ':']) || host == "localhost" => host,
        _ => "docker.io",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::events::test_event as event;

    #[test]
    fn registry_hints_follow_the_runtime_message() {
        let cases = [
            (
                "failed to resolve reference \"r/x:1\": r/x:1: not found",
                Some(RegistryHint::NotFound),
            ),
            (
                "pull access denied ... insufficient_scope: authorization failed: 401 Unauthorized",
                Some(RegistryHint::Unauthorized),
            ),
            (
                "x509: certificate signed by unknown authority",
                Some(RegistryHint::Certificate),
            ),
            ("dial tcp 10.0.0.1:443: i/o timeout", Some(RegistryHint::Network)),
            (
                "429 Too Many Requests - Server message: toomanyrequests",
                Some(RegistryHint::RateLimited),
            ),
            ("Back-off pulling image \"nginx:1\"", None),
            // The status on its own is a refusal; 401 inside a tag or a digest is not.
            (
                "failed to fetch anonymous token: unexpected status: 401",
                Some(RegistryHint::Unauthorized),
            ),
            (
                "failed to resolve reference \"r/shop:v401\": r/shop:v401: not found",
                Some(RegistryHint::NotFound),
            ),
            (
                "failed to resolve reference \"r/shop@sha256:4401a7\": not found",
                Some(RegistryHint::NotFound),
            ),
        ];
        for (message, expected) in cases {
            assert_eq!(RegistryHint::from_message(message), expected, "{message}");
        }
    }

    #[test]
    fn registry_host_of_references() {
        assert_eq!(
            registry_host("registry.lab.example/demo/hello-http:1.4.7"),
            "registry.lab.example"
        );
        assert_eq!(registry_host("nginx:1.27"), "docker.io");
        assert_eq!(registry_host("library/nginx"), "docker.io");
        assert_eq!(registry_host("localhost:5000/app"), "localhost:5000");
    }

    #[test]
    fn the_kubelets_pull_events() {
        let e = event(
            "Failed",
            "Failed to pull image \"registry.lab.example/demo/hello-http:1.4.7\": rpc error: code = NotFound",
        );
        assert!(e.is_image_pull_failure());
        assert_eq!(
            e.quoted_image(),
            Some("registry.lab.example/demo/hello-http:1.4.7")
        );
        assert!(event("BackOff", "Back-off pulling image \"nginx:1\"").is_image_pull_failure());
        assert!(!event("BackOff", "Back-off restarting failed container").is_image_pull_failure());
        let e = event(
            "FailedToRetrieveImagePullSecret",
            "Unable to retrieve some image pull secrets (regcred, other); attempting to pull the image may not succeed.",
        );
        assert_eq!(e.pull_secrets_not_retrieved(), ["regcred", "other"]);
        assert!(event("Failed", "Error: ErrImagePull")
            .pull_secrets_not_retrieved()
            .is_empty());
    }
}
