//! A Service's virtual address as pasted: its `spec.clusterIP` (`IP:` in `kubectl describe
//! service`), its ports and the endpoints `kubectl describe service` printed.

use faultline_ingest::Object;
use faultline_report::ObjectRef;

use crate::Model;

/// A Service's virtual IP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceClusterIp {
    pub ip: String,
    /// Its `spec.ports[].port`.
    pub ports: Vec<String>,
    pub service: ObjectRef,
    /// The endpoints `kubectl describe service` printed for it, when it was described.
    pub endpoints: Option<String>,
}

/// A Service's `spec.clusterIP`, when it has one.
pub fn cluster_ip(service: &Object) -> Option<&str> {
    service.locate("spec.clusterIP").and_then(|(_, n)| n.as_str())
}

impl Model<'_> {
    /// The cluster IPs (IPv4) of the Services pasted, each once, but of those described with no
    /// endpoints (`Endpoints: <none>`: nothing is behind the address). A headless Service has none.
    pub fn service_cluster_ips(&self) -> Vec<ServiceClusterIp> {
        let mut out: Vec<ServiceClusterIp> = Vec::new();
        for service in self.objects_of_kind("Service") {
            let Some(ip) = cluster_ip(service)
                .map(str::trim)
                .filter(|ip| !ip.is_empty() && *ip != "None" && ip.contains('.'))
            else {
                continue;
            };
            let ports = service
                .locate("spec.ports")
                .map(|(_, ports)| {
                    ports
                        .items()
                        .iter()
                        .filter_map(|p| {
                            p.get("port")
                                .and_then(|n| n.as_str())
                                .map(|s| s.trim().to_string())
                        })
                        .collect()
                })
                .unwrap_or_default();
            let endpoints = service
                .locate("kubectl.endpoints")
                .and_then(|(_, n)| n.as_str())
                .map(str::trim)
                .map(str::to_string);
            if endpoints
                .as_deref()
                .is_some_and(|e| e.is_empty() || e == "<none>")
            {
                continue;
            }
            if !out.iter().any(|c| c.ip == ip) {
                out.push(ServiceClusterIp {
                    ip: ip.to_string(),
                    ports,
                    service: service.id.clone(),
                    endpoints,
                });
            }
        }
        out
    }

    /// The cluster DNS's address: the `kube-system/kube-dns` Service's cluster IP, when pasted.
    pub fn cluster_dns_ip(&self) -> Option<&str> {
        let id = ObjectRef {
            kind: "Service".into(),
            namespace: Some("kube-system".into()),
            name: "kube-dns".into(),
            uid: None,
        };
        self.object(&id).and_then(cluster_ip)
    }
}

impl ServiceClusterIp {
    /// Whether a dialled `host:port` is this address (on one of its ports, when they are known).
    pub fn is(&self, host: &str, port: &str) -> bool {
        self.ip == host && (self.ports.is_empty() || self.ports.iter().any(|p| p == port))
    }
}
