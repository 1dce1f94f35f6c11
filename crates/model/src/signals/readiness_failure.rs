//! The kubelet's failed readiness probes (pkg/kubelet/prober/prober.go), read through
//! [`super::probe`]: `Unhealthy` "Readiness probe failed: <output>" and "Readiness probe errored:
//! <error>". A failing readiness probe takes the Pod out of its Services' endpoints; the container is
//! not restarted.

use super::probe::{Probe, ProbeEvent};
use crate::EventRecord;

impl EventRecord {
    /// Whether this is the kubelet's `Unhealthy` event of a readiness probe that failed or errored.
    pub fn is_readiness_failure(&self) -> bool {
        matches!(
            self.probe(),
            Some(ProbeEvent::Failed {
                probe: Probe::Readiness,
                ..
            })
        )
    }

    /// The words to quote of a failed readiness probe: the probe's output (after "Readiness probe
    /// failed: "), or an errored probe's whole message (its error is the kubelet's, not the probe's);
    /// `None` for other events and for a failed probe that printed nothing.
    pub fn readiness_failure_words(&self) -> Option<&str> {
        match self.probe()? {
            ProbeEvent::Failed {
                probe: Probe::Readiness,
                errored: false,
                output,
            } => (!output.is_empty()).then_some(output),
            ProbeEvent::Failed {
                probe: Probe::Readiness,
                errored: true,
                ..
            } => Some(self.message.trim()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {

    use crate::events::test_event as event;

    #[test]
    fn quotes_the_probe_output_or_the_kubelets_error() {
        let failed = event(
            "Unhealthy",
            "Readiness probe failed: Get \"http://10.244.1.7:8080/ready\": dial tcp 10.244.1.7:8080: connect: connection refused",
        );
        assert!(failed.is_readiness_failure());
        assert_eq!(
            failed.readiness_failure_words(),
            Some(
                "Get \"http://10.244.1.7:8080/ready\": dial tcp 10.244.1.7:8080: connect: connection refused"
            )
        );
        let errored = event(
            "Unhealthy",
            "Readiness probe errored: rpc error: code = NotFound desc = container is not created or running",
        );
        assert_eq!(errored.readiness_failure_words(), Some(errored.message.as_str()));
        let empty = event("Unhealthy", "Readiness probe failed: ");
        assert!(empty.is_readiness_failure() && empty.readiness_failure_words().is_none());
    }

    #[test]
    fn other_probes_are_not_readiness_failures() {
        let liveness = event(
            "Unhealthy",
            "Liveness probe failed: HTTP probe failed with statuscode: 500",
        );
        assert!(!liveness.is_readiness_failure() && liveness.readiness_failure_words().is_none());
    }
}
