//! What a Service's other objects say of its endpoints, beside its chain ([`crate::facts`]): its
//! selector, the legacy core/v1 Endpoints object of its name, and the workload scaled to 0 whose Pods
//! it would select.

use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::Object;
use faultline_report::{Evidence, ObjectRef};

use crate::facts::ServiceChain;
use crate::selectors::NearMiss;
use crate::{EventRecord, Model};

/// What a legacy Endpoints object says of its Service's addresses, when it lists no ready one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyAddresses {
    /// None at all (`subsets` empty or absent, `ENDPOINTS <none>`, `Addresses: <none>` without
    /// not-ready ones).
    None,
    /// Only `notReadyAddresses`: this many.
    OnlyNotReady(usize),
}

/// A legacy Endpoints object with no ready address, and the fields that say so.
#[derive(Debug)]
pub struct LegacyEndpoints<'a> {
    pub object: &'a Object,
    pub addresses: LegacyAddresses,
    pub evidence: Vec<Evidence>,
}

/// A selector's pairs (`spec.selector`, `spec.selector.matchLabels`) with a text value.
fn pairs(node: Option<&Node>) -> Vec<(String, String)> {
    match node.map(|n| &n.value) {
        Some(NodeValue::Map(entries)) => entries
            .iter()
            .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
            .collect(),
        _ => Vec::new(),
    }
}

/// A workload's `spec.replicas`, when it is a number.
fn replicas(object: &Object) -> Option<u32> {
    object
        .locate("spec.replicas")
        .and_then(|(_, n)| n.as_str())
        .and_then(|r| r.trim().parse::<u32>().ok())
}

/// Leader election's lock object (old kube-scheduler, controller-manager): an Endpoints object that
/// is not a Service's.
fn is_leader_lock(object: &Object) -> bool {
    let id = &object.id;
    (id.namespace.as_deref() == Some("kube-system")
        && matches!(id.name.as_str(), "kube-scheduler" | "kube-controller-manager"))
        || object
            .locate("metadata.annotations[\"control-plane.alpha.kubernetes.io/leader\"]")
            .is_some()
}

/// The endpoints `kubectl describe service` printed (`Endpoints: 10.244.1.7:8443`): `<none>` when it
/// printed none, or when the Service was not read from a describe.
pub fn printed_endpoints(service: &Object) -> &str {
    service
        .locate("kubectl.endpoints")
        .and_then(|(_, n)| n.as_str())
        .unwrap_or("<none>")
}

/// Whether `kubectl describe service` printed any endpoint for the Service (not `<none>`).
pub fn has_printed_endpoints(service: &Object) -> bool {
    !matches!(printed_endpoints(service), "<none>" | "")
}

/// The name of the Service's first port.
pub fn first_port_name(service: &Object) -> Option<&str> {
    service.locate("spec.ports[0].name").and_then(|(_, n)| n.as_str())
}

impl<'a> Model<'a> {
    /// The Service's first port (name, port, target port) and the endpoints describe printed, as
    /// evidence.
    pub fn first_port_evidence(&self, service: &Object) -> Vec<Evidence> {
        [
            "spec.ports[0].name",
            "spec.ports[0].port",
            "spec.ports[0].targetPort",
            "kubectl.endpoints",
        ]
        .into_iter()
        .filter_map(|path| self.evidence(service, path))
        .collect()
    }

    /// The evidence of each pair of a Service's `spec.selector`, in order.
    pub fn selector_evidence(&self, service: &Object) -> Vec<Evidence> {
        let Some(NodeValue::Map(entries)) = service.locate("spec.selector").map(|(_, n)| &n.value) else {
            return Vec::new();
        };
        entries
            .iter()
            .filter_map(|entry| self.evidence(service, &format!("spec.selector[\"{}\"]", entry.key)))
            .collect()
    }

    /// The label of each pasted Pod that misses the Service's selector by one, as evidence.
    pub fn near_miss_evidence(&self, near: &[NearMiss]) -> Vec<Evidence> {
        near.iter()
            .filter_map(|miss| {
                let pod = self.object(&miss.pod)?;
                self.evidence(pod, &format!("metadata.labels[\"{}\"]", miss.key))
            })
            .collect()
    }

    /// The kubelet's failed readiness probes of these Pods (indices in the model's objects), Pod by
    /// Pod, each Pod's oldest first.
    pub fn readiness_failures_of(&self, pods: &[usize]) -> Vec<&EventRecord> {
        pods.iter()
            .flat_map(|&p| self.events_for(&self.objects[p].id))
            .filter(|e| e.is_readiness_failure())
            .collect()
    }

    /// The evidence of each endpoint's `ready` and `serving` conditions, endpoint by endpoint.
    pub fn endpoint_condition_evidence(&self, chain: &ServiceChain) -> Vec<Evidence> {
        let mut evidence = Vec::new();
        for e in &chain.endpoints {
            let slice = &self.objects[e.slice];
            evidence.extend(self.evidence(slice, &format!("{}.conditions.ready", e.path)));
            evidence.extend(self.evidence(slice, &format!("{}.conditions.serving", e.path)));
        }
        evidence
    }

    /// The Service a legacy Endpoints object belongs to: the pasted Service of its name (in its
    /// namespace, or in any when the Endpoints were read without one), else the one its name implies.
    pub fn service_of_endpoints(&self, endpoints: &ObjectRef) -> ObjectRef {
        self.objects_of_kind("Service")
            .find(|s| {
                s.id.name == endpoints.name
                    && (s.id.namespace == endpoints.namespace || endpoints.namespace.is_none())
            })
            .map_or_else(
                || ObjectRef {
                    kind: "Service".into(),
                    namespace: endpoints.namespace.clone(),
                    name: endpoints.name.clone(),
                    uid: None,
                },
                |s| s.id.clone(),
            )
    }

    /// A Deployment or StatefulSet of the Service's namespace scaled to 0 (`spec.replicas: 0`, `READY
    /// 0/0`, describe's `0 desired`) whose Pods the Service selects: its `matchLabels` hold every pair
    /// of the Service's selector (its Pods carry them all, whatever else the template adds), and no
    /// other paste of it (a later `get deploy`) is scaled up again.
    pub fn workload_scaled_to_zero(&self, service: &Object) -> Option<&'a Object> {
        let selector = pairs(service.locate("spec.selector").map(|(_, n)| n));
        if selector.is_empty() {
            return None;
        }
        let workloads = || {
            self.objects_in(service.id.namespace.as_deref())
                .filter(|o| matches!(o.id.kind.as_str(), "Deployment" | "StatefulSet"))
        };
        workloads().find(|o| {
            let labels = pairs(o.locate("spec.selector.matchLabels").map(|(_, n)| n));
            replicas(o) == Some(0)
                && selector.iter().all(|pair| labels.contains(pair))
                && !workloads().any(|other| other.id == o.id && replicas(other).is_some_and(|r| r > 0))
        })
    }

    /// The legacy Endpoints objects that list no ready address, each identity once (its first paste
    /// decides), leader-election locks left out. The evidence is the weakest that proves it: a `get
    /// endpoints` row's `<none>`, else the object's `subsets` (its name when it has none: the API
    /// omits the empty list).
    pub fn endpoints_without_ready_address(&self) -> Vec<LegacyEndpoints<'a>> {
        let mut done = Vec::new();
        let mut found = Vec::new();
        for object in self.objects_of_kind("Endpoints") {
            if done.contains(&&object.id) || is_leader_lock(object) {
                continue;
            }
            done.push(&object.id);
            let mut evidence = Vec::new();
            let addresses = if let Some((_, printed)) = object.locate("kubectl.endpoints") {
                if printed.as_str().map(str::trim) != Some("<none>") {
                    continue;
                }
                evidence.extend(self.evidence(object, "kubectl.endpoints"));
                LegacyAddresses::None
            } else {
                let subsets = object.locate("subsets").map_or(&[][..], |(_, s)| s.items());
                if subsets.is_empty() {
                    evidence.extend(self.evidence(object, "metadata.name"));
                }
                let count = |key: &str| -> usize {
                    subsets
                        .iter()
                        .map(|s| s.get(key).map_or(0, |a| a.items().len()))
                        .sum()
                };
                if count("addresses") > 0 {
                    continue;
                }
                for i in 0..subsets.len() {
                    evidence.extend(self.evidence(object, &format!("subsets[{i}].notReadyAddresses")));
                }
                evidence.extend(self.evidence(object, "subsets"));
                match count("notReadyAddresses") {
                    0 => LegacyAddresses::None,
                    n => LegacyAddresses::OnlyNotReady(n),
                }
            };
            found.push(LegacyEndpoints {
                object,
                addresses,
                evidence,
            });
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::LegacyAddresses;
    use crate::Model;

    const OBJECTS: &str = "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec:
    selector: {app: web}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    replicas: 0
    selector:
      matchLabels: {app: web, tier: front}
- apiVersion: v1
  kind: Endpoints
  metadata: {name: web, namespace: shop}
  subsets:
  - notReadyAddresses:
    - ip: 10.0.0.7
- apiVersion: v1
  kind: Endpoints
  metadata: {name: api, namespace: shop}
- apiVersion: v1
  kind: Endpoints
  metadata: {name: db, namespace: shop}
  subsets:
  - addresses:
    - ip: 10.0.0.8
- apiVersion: v1
  kind: Endpoints
  metadata: {name: kube-scheduler, namespace: kube-system}
";

    #[test]
    fn reads_legacy_endpoints_and_a_workload_scaled_to_zero() {
        let sources = vec![Source::new("objects.yaml", OBJECTS)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let found: Vec<(&str, LegacyAddresses)> = model
            .endpoints_without_ready_address()
            .iter()
            .map(|e| (e.object.id.name.as_str(), e.addresses))
            .collect();
        assert_eq!(
            found,
            [
                ("web", LegacyAddresses::OnlyNotReady(1)),
                ("api", LegacyAddresses::None)
            ]
        );
        let service = model.objects_of_kind("Service").next();
        let workload = service.and_then(|s| model.workload_scaled_to_zero(s));
        assert_eq!(workload.map(|w| w.id.kind.as_str()), Some("Deployment"));
        assert_eq!(service.map(|s| model.selector_evidence(s).len()), Some(1));
    }
}
