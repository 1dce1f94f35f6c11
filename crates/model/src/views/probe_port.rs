//! The ports a container's probes call, read from its spec node (`livenessProbe.httpGet.port`,
//! `readinessProbe.tcpSocket.port`, `startupProbe.grpc.port`): a number or a port's name.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::signals::probe::Probe;
use crate::views::container_exit::container_evidence;
use crate::Model;

/// One probe's port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbePort<'n> {
    pub probe: Probe,
    /// The spec's field: `livenessProbe`, `readinessProbe` or `startupProbe`.
    pub field: &'static str,
    /// `httpGet`, `tcpSocket` or `grpc`.
    pub handler: &'static str,
    /// As written: a number or a name.
    pub port: &'n str,
}

impl ProbePort<'_> {
    pub fn numeric(&self) -> bool {
        self.port.bytes().all(|b| b.is_ascii_digit())
    }

    /// The probe's `port` field in the container at `container_path` of `object`, then the
    /// `containerPort` and `name` of each of the container's first `declared` ports.
    pub fn evidence(
        &self,
        model: &Model<'_>,
        object: &Object,
        container_path: &str,
        declared: usize,
    ) -> Vec<Evidence> {
        let at = format!("{container_path}.{}.{}.port", self.field, self.handler);
        let mut evidence: Vec<Evidence> = model.evidence(object, &at).into_iter().collect();
        let ports: Vec<String> = (0..declared)
            .flat_map(|k| ["containerPort", "name"].map(|f| format!("ports[{k}].{f}")))
            .collect();
        evidence.extend(container_evidence(model, object, container_path, &ports));
        evidence
    }
}

/// The ports of a container's liveness, readiness and startup probes (each probe's first handler
/// with a port), in that order.
pub fn probe_ports(container: &Node) -> Vec<ProbePort<'_>> {
    let probes = [
        (Probe::Liveness, "livenessProbe"),
        (Probe::Readiness, "readinessProbe"),
        (Probe::Startup, "startupProbe"),
    ];
    probes
        .into_iter()
        .filter_map(|(probe, field)| {
            ["httpGet", "tcpSocket", "grpc"].into_iter().find_map(|handler| {
                let port = container.get(field)?.get(handler)?.get("port")?.as_str()?;
                Some(ProbePort {
                    probe,
                    field,
                    handler,
                    port,
                })
            })
        })
        .collect()
}
