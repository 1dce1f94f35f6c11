//! What a Service's ports target and what its Pods' containers are, read from the object trees:
//! each `spec.ports[i]`'s `targetPort` (its `port` when it has none: the API defaults one to the
//! other) and `protocol` (TCP by default), and each Pod's `spec.containers[j]` with its path.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// One port of a Service and what it targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServicePortTarget<'a> {
    /// Its index in `spec.ports`.
    pub index: usize,
    /// The field the target is read from: `spec.ports[i].targetPort`, else `spec.ports[i].port`.
    pub path: String,
    /// A number or a port name.
    pub target: &'a str,
    pub protocol: &'a str,
}

impl ServicePortTarget<'_> {
    /// Whether the target is a number (else a container port's name).
    pub fn numeric(&self) -> bool {
        self.target.bytes().all(|b| b.is_ascii_digit())
    }
}

/// The ports of a Service that say what they target, in order.
pub fn service_port_targets(service: &Object) -> Vec<ServicePortTarget<'_>> {
    let ports = service
        .node
        .locate("spec.ports")
        .map(|(_, n)| n.items())
        .unwrap_or_default();
    ports
        .iter()
        .enumerate()
        .filter_map(|(i, port)| {
            let (path, target) = match port.get("targetPort").and_then(Node::as_str) {
                Some(t) => (format!("spec.ports[{i}].targetPort"), t),
                None => (
                    format!("spec.ports[{i}].port"),
                    port.get("port").and_then(Node::as_str)?,
                ),
            };
            Some(ServicePortTarget {
                index: i,
                path,
                target,
                protocol: port.get("protocol").and_then(Node::as_str).unwrap_or("TCP"),
            })
        })
        .collect()
}

impl Model<'_> {
    /// A Service port's target and protocol, as evidence.
    pub fn port_target_evidence(&self, service: &Object, port: &ServicePortTarget<'_>) -> Vec<Evidence> {
        let protocol = format!("spec.ports[{}].protocol", port.index);
        [port.path.as_str(), &protocol]
            .into_iter()
            .filter_map(|path| self.evidence(service, path))
            .collect()
    }

    /// Each port a container declares (`ports[k].containerPort`, then its `name`), as evidence.
    pub fn container_ports_evidence(
        &self,
        pod: &Object,
        container_path: &str,
        container: &Node,
    ) -> Vec<Evidence> {
        let ports = container.get("ports").map(Node::items).unwrap_or_default();
        let mut evidence = Vec::new();
        for k in 0..ports.len() {
            let at = format!("{container_path}.ports[{k}]");
            evidence.extend(self.evidence(pod, &format!("{at}.containerPort")));
            evidence.extend(self.evidence(pod, &format!("{at}.name")));
        }
        evidence
    }
}

/// A Pod's containers (not its init containers) with their paths (`spec.containers[1]`), in order.
pub fn pod_containers(pod: &Object) -> Vec<(String, &Node)> {
    pod.node
        .locate("spec.containers")
        .map(|(_, n)| n.items())
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(j, c)| (format!("spec.containers[{j}]"), c))
        .collect()
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::{pod_containers, service_port_targets};

    const OBJECTS: &str = "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec:
    selector: {app: web}
    ports:
    - {port: 80, targetPort: http}
    - {port: 9090, protocol: UDP}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop, labels: {app: web}}
  spec:
    containers:
    - name: web
      image: web:1
      ports: [{containerPort: 8080, name: http}]
";

    #[test]
    fn reads_the_targets_and_the_containers() {
        let sources = vec![Source::new("objects.yaml", OBJECTS)];
        let ingested = ingest(&sources);
        let service = ingested.objects.iter().find(|o| o.id.kind == "Service");
        let targets = service.map(service_port_targets).unwrap_or_default();
        let read: Vec<(&str, &str, &str, bool)> = targets
            .iter()
            .map(|t| (t.path.as_str(), t.target, t.protocol, t.numeric()))
            .collect();
        assert_eq!(
            read,
            [
                ("spec.ports[0].targetPort", "http", "TCP", false),
                ("spec.ports[1].port", "9090", "UDP", true)
            ]
        );
        let pod = ingested.objects.iter().find(|o| o.id.kind == "Pod");
        let containers = pod.map(pod_containers).unwrap_or_default();
        assert_eq!(containers.len(), 1);
        assert_eq!(containers[0].0, "spec.containers[0]");
    }
}
