//! The kubelet's `BackOff` event for a container it holds back from restarting
//! (pkg/kubelet/kuberuntime/kuberuntime_manager.go, `doBackOff`): "Back-off restarting failed
//! container <name> in pod <pod>" (older kubelets print no name), and `oc status`'s summary of them,
//! "pod/<name> is crash-looping". A `BackOff` for an image pull ("Back-off pulling image") is not one.

use crate::dispatch::EventSubject;
use crate::EventRecord;

/// What a restart back-off event says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RestartBackOff<'e> {
    /// The container the kubelet names, when it names one.
    pub container: Option<&'e str>,
}

const PRINTED: &str = "Back-off restarting failed container";

impl EventRecord {
    /// What this event says of a container's restarts backed off, if it is the kubelet's `BackOff`
    /// for one.
    pub fn restart_backoff(&self) -> Option<RestartBackOff<'_>> {
        let message = self.message.as_str();
        if self.reason != "BackOff"
            || !(message.starts_with(PRINTED) || message.contains(" is crash-looping"))
        {
            return None;
        }
        let container = message
            .strip_prefix("Back-off restarting failed container ")
            .and_then(|r| r.split_whitespace().next())
            .filter(|c| *c != "in");
        Some(RestartBackOff { container })
    }
}

impl EventSubject<'_> {
    /// The container named by the restart back-off the input holds first
    /// ([`EventSubject::first_read`]), when it names one.
    pub fn backoff_container(&self) -> Option<&str> {
        self.first_read()?.restart_backoff()?.container
    }
}

#[cfg(test)]
mod tests {
    use super::RestartBackOff;

    use crate::events::test_event as event;

    #[test]
    fn reads_the_kubelets_restart_backoff() {
        let e = event(
            "BackOff",
            "Back-off restarting failed container init-fail in pod init-container-fail_default(eb3eca99-7dde-46e7-8ce0-5fc983d965ab)",
        );
        assert_eq!(
            e.restart_backoff(),
            Some(RestartBackOff {
                container: Some("init-fail")
            })
        );
        let e = event("BackOff", "Back-off restarting failed container");
        assert_eq!(e.restart_backoff(), Some(RestartBackOff { container: None }));
        let e = event("BackOff", "pod/api-1 is crash-looping");
        assert_eq!(e.restart_backoff(), Some(RestartBackOff { container: None }));
    }

    #[test]
    fn other_backoffs_are_not_restarts() {
        assert_eq!(
            event("BackOff", "Back-off pulling image \"api:1\"").restart_backoff(),
            None
        );
        assert_eq!(
            event("Warning", "Back-off restarting failed container api").restart_backoff(),
            None
        );
    }
}
