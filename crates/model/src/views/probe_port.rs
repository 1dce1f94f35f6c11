//! The ports a container's probes call, read from its spec node (`livenessProbe.httpGet.port`,
//! `readinessProbe.tcpSocket.port`, `startupProbe.grpc.port`): a number or a port's name.

use faultline_ingest::node::Node;

use crate::signals::probe::Probe;

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
