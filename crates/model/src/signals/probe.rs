//! The kubelet's probe events (pkg/kubelet/prober/prober.go and kuberuntime_container.go):
//! `Unhealthy` "Liveness probe failed: <output>" / "Readiness probe errored: <error>", and `Killing`
//! "Container <name> failed liveness probe, will be restarted".

use crate::EventRecord;

/// Which probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Liveness,
    Readiness,
    Startup,
}

impl Probe {
    /// The word the kubelet starts its message with (`probeType` in prober.go).
    pub const fn printed(self) -> &'static str {
        match self {
            Probe::Liveness => "Liveness",
            Probe::Readiness => "Readiness",
            Probe::Startup => "Startup",
        }
    }

    const ALL: [Probe; 3] = [Probe::Liveness, Probe::Readiness, Probe::Startup];
}

/// What a probe event says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeEvent<'e> {
    /// `Unhealthy` "<Probe> probe failed: <output>" (`errored` is "<Probe> probe errored: <error>":
    /// the kubelet could not run the probe at all). `output` is trimmed, possibly empty.
    Failed {
        probe: Probe,
        errored: bool,
        output: &'e str,
    },
    /// `Killing` "Container <name> failed <probe> probe, will be restarted" (liveness and startup).
    Killed { probe: Probe },
}

impl ProbeEvent<'_> {
    pub fn probe(&self) -> Probe {
        match *self {
            ProbeEvent::Failed { probe, .. } | ProbeEvent::Killed { probe } => probe,
        }
    }
}

impl EventRecord {
    /// What this event says of a probe, if it is one of the kubelet's probe events.
    pub fn probe(&self) -> Option<ProbeEvent<'_>> {
        let message = self.message.as_str();
        match &*self.reason {
            "Unhealthy" => Probe::ALL.into_iter().find_map(|probe| {
                let rest = message.strip_prefix(probe.printed())?.strip_prefix(" probe ")?;
                let (errored, output) = match rest.strip_prefix("failed") {
                    Some(output) => (false, output),
                    None => (true, rest.strip_prefix("errored")?),
                };
                let output = output.strip_prefix(':').unwrap_or(output).trim();
                Some(ProbeEvent::Failed {
                    probe,
                    errored,
                    output,
                })
            }),
            "Killing" => Probe::ALL.into_iter().find_map(|probe| {
                let lower = probe.printed().to_ascii_lowercase();
                message
                    .contains(&format!("failed {lower} probe"))
                    .then_some(ProbeEvent::Killed { probe })
            }),
            _ => None,
        }
    }

    /// Whether this is a probe event of `probe`.
    pub fn is_probe(&self, probe: Probe) -> bool {
        self.probe().is_some_and(|p| p.probe() == probe)
    }
}

#[cfg(test)]
mod tests {
    use super::{Probe, ProbeEvent};

    use crate::events::test_event as event;

    #[test]
    fn reads_the_kubelets_probe_messages() {
        let e = event(
            "Unhealthy",
            "Liveness probe failed: HTTP probe failed with statuscode: 500",
        );
        assert_eq!(
            e.probe(),
            Some(ProbeEvent::Failed {
                probe: Probe::Liveness,
                errored: false,
                output: "HTTP probe failed with statuscode: 500"
            })
        );
        let e = event(
            "Unhealthy",
            "Readiness probe errored: rpc error: code = Unknown desc = container not running",
        );
        assert!(matches!(
            e.probe(),
            Some(ProbeEvent::Failed {
                probe: Probe::Readiness,
                errored: true,
                ..
            })
        ));
        let e = event("Unhealthy", "Startup probe failed: ");
        assert!(matches!(
            e.probe(),
            Some(ProbeEvent::Failed {
                probe: Probe::Startup,
                output: "",
                ..
            })
        ));
        let e = event(
            "Killing",
            "Container api failed liveness probe, will be restarted",
        );
        assert_eq!(
            e.probe(),
            Some(ProbeEvent::Killed {
                probe: Probe::Liveness
            })
        );
        assert!(e.is_probe(Probe::Liveness) && !e.is_probe(Probe::Startup));
    }

    #[test]
    fn other_events_are_not_probes() {
        assert_eq!(event("Unhealthy", "Liveness check is slow").probe(), None);
        assert_eq!(event("Killing", "Stopping container api").probe(), None);
        assert_eq!(event("BackOff", "Liveness probe failed: x").probe(), None);
    }
}
