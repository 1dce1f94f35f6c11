//! What the kubelet's probe events say beyond [`super::probe`]: the container they are about, from
//! the event's `involvedObject.fieldPath` (`spec.containers{api}`, set by the kubelet's recorder) or
//! the `Killing` message "Container <name> failed <probe> probe, will be restarted"
//! (pkg/kubelet/kuberuntime/kuberuntime_container.go), the probe's output on one line, and the port a
//! refused probe names (`dial tcp 10.244.1.9:9090: connect: connection refused`).

use super::probe::{Probe, ProbeEvent};
use crate::EventRecord;

impl EventRecord {
    /// The container this probe event names: its `fieldPath`, or a `Killing` message's
    /// "Container <name> failed <probe> probe".
    pub fn probe_container(&self, probe: Probe) -> Option<&str> {
        if let Some(name) = self
            .field_path
            .as_deref()
            .and_then(|p| p.strip_prefix("spec.containers{"))
            .and_then(|p| p.strip_suffix('}'))
        {
            return Some(name);
        }
        let failed = format!(" failed {} probe", probe.printed().to_ascii_lowercase());
        self.message
            .strip_prefix("Container ")
            .and_then(|m| m.split_once(failed.as_str()))
            .map(|(name, _)| name)
            .filter(|n| !n.is_empty() && !n.contains(' '))
    }

    /// The probe's own words after "<Probe> probe failed:" (or "errored:"), on one line: a command
    /// probe's output can span several. The whole message, when it does not start so.
    pub fn probe_output_line(&self, probe: Probe) -> String {
        let message = self.message.as_str();
        let rest = message
            .strip_prefix(probe.printed())
            .and_then(|m| m.strip_prefix(" probe "))
            .and_then(|m| m.strip_prefix("failed:").or_else(|| m.strip_prefix("errored:")))
            .unwrap_or(message);
        rest.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl EventRecord {
    /// Whether this is a `probe` failure refused on `port`: the kubelet's own word that nothing
    /// listens there.
    pub fn probe_refused_on(&self, probe: Probe, port: &str) -> bool {
        matches!(self.probe(), Some(ProbeEvent::Failed { probe: p, errored: false, .. }) if p == probe)
            && self.message.contains("connection refused")
            && self.message.contains(&format!(":{port}"))
    }
}

#[cfg(test)]
mod tests {
    use crate::events::EventRecord;
    use crate::signals::probe::Probe;

    fn event(reason: &str, field_path: Option<&str>, message: &str) -> EventRecord {
        EventRecord {
            field_path: field_path.map(Into::into),
            ..crate::events::test_event(reason, message)
        }
    }

    #[test]
    fn reads_the_container_and_the_probe_output() {
        let e = event(
            "Unhealthy",
            None,
            "Startup probe failed: Warning: a\nmysqladmin: connect failed\n",
        );
        assert_eq!(
            e.probe_output_line(Probe::Startup),
            "Warning: a mysqladmin: connect failed"
        );
        assert_eq!(e.probe_container(Probe::Startup), None);
        let e = event(
            "Unhealthy",
            Some("spec.containers{db}"),
            "Startup probe failed: x",
        );
        assert_eq!(e.probe_container(Probe::Startup), Some("db"));
        let e = event(
            "Killing",
            None,
            "Container db failed startup probe, will be restarted",
        );
        assert_eq!(e.probe_container(Probe::Startup), Some("db"));
        assert_eq!(e.probe_container(Probe::Liveness), None);
    }
}
