//! The scheduler's `FailedScheduling` message (and the `PodScheduled` condition's, which is the same
//! text): `0/N nodes are available: …`, parsed into its reasons, and what they say of where the
//! fault lies.
//!
//! The format (`pkg/scheduler/framework/types.go`, FitError) is stable in shape but its reason
//! wording drifts across releases (`had taints that the pod didn't tolerate` became `had untolerated
//! taint {k: v}`); the categories accept the wordings of 1.6 through 1.34.

use faultline_report::{Detail, ObjectRef};

use crate::{EventRecord, Model};

/// Why a group of nodes was filtered out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The Pod's nodeSelector or required node affinity does not match the node's labels.
    NodeAffinity,
    /// The node has a taint the Pod does not tolerate; the taint as printed (`{dedicated: ci}`).
    Taint(Option<String>),
    /// `Insufficient cpu`, `Insufficient nvidia.com/gpu`.
    Insufficient(String),
    /// The Pod uses a PersistentVolumeClaim that is not bound yet.
    UnboundClaim,
    /// A bound volume can only be used from nodes the Pod cannot go to (zone mismatch).
    VolumeNodeAffinity,
    TopologySpread,
    /// Inter-pod affinity or anti-affinity.
    PodAffinity,
    TooManyPods,
    /// The node is cordoned (`spec.unschedulable`).
    NodeUnschedulable,
    /// A reason this parser does not classify; the text as printed.
    Other(String),
}

/// One entry of the histogram: how many nodes, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `None` when the message gives no count (`pod has unbound immediate PersistentVolumeClaims`).
    pub nodes: Option<u32>,
    pub cause: Cause,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    pub available: u32,
    pub total: u32,
    pub entries: Vec<Entry>,
}

/// The taints the node lifecycle controller and the kubelet put on a Node for its condition: a
/// scheduler refusing nodes for them is a Node fault, not a constraint of the Pod.
const CONDITION_TAINTS: [&str; 6] = [
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/network-unavailable",
];

/// The taints that keep workloads off control-plane nodes: a refusal for them is the cluster's
/// design, not a fault, so it does not count against the other refusals.
const CONTROL_PLANE_TAINTS: [&str; 2] = [
    "node-role.kubernetes.io/control-plane",
    "node-role.kubernetes.io/master",
];

/// The taint a cloud provider's nodes carry until the cloud controller manager initialises them.
const UNINITIALIZED_TAINT: &str = "node.cloudprovider.kubernetes.io/uninitialized";

/// The pressure taints (the kubelet's eviction manager's conditions), which an unparsed message is
/// searched for.
const PRESSURE_TAINTS: [&str; 3] = [
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
];

impl Cause {
    /// A refusal for the node's condition (a condition taint: NotReady, unreachable, under
    /// pressure, no network; or conditions the scheduler does not know).
    pub fn is_node_condition(&self) -> bool {
        match self {
            Cause::Taint(Some(t)) => CONDITION_TAINTS.iter().any(|k| t.contains(k)),
            Cause::Other(t) => t.contains("had unknown conditions"),
            _ => false,
        }
    }

    /// A refusal for a control-plane node's taint: the cluster's design, not a fault.
    pub fn is_control_plane_taint(&self) -> bool {
        matches!(self, Cause::Taint(Some(t)) if CONTROL_PLANE_TAINTS.iter().any(|k| t.contains(k)))
    }

    /// A refusal for a node the cloud controller manager has not initialised yet.
    pub fn is_uninitialized_taint(&self) -> bool {
        matches!(self, Cause::Taint(Some(t)) if t.contains(UNINITIALIZED_TAINT))
    }

    /// A `ReadWriteOncePod` claim in use by another Pod: no node can take the Pod until that Pod
    /// lets the claim go, whatever the other nodes were refused for.
    pub fn is_claim_in_use(&self) -> bool {
        matches!(self, Cause::Other(text) if text.contains("ReadWriteOncePod"))
    }

    /// A claim or volume the Pod cannot have (unbound, bound to a volume out of reach, no volume to
    /// bind, a claim missing): a storage fault, though the scheduler reports it.
    pub fn is_storage(&self) -> bool {
        match self {
            Cause::UnboundClaim | Cause::VolumeNodeAffinity => true,
            Cause::Other(text) => {
                let lower = text.to_lowercase();
                [
                    "persistentvolume",
                    "persistent volumes",
                    "volume",
                    "pvc",
                    "available disk",
                    "free storage",
                ]
                .iter()
                .any(|w| lower.contains(w))
            }
            _ => false,
        }
    }

    /// The key of the untolerated taint the scheduler printed (`{node.kubernetes.io/disk-pressure: }`
    /// → `node.kubernetes.io/disk-pressure`).
    pub fn taint_key(&self) -> Option<&str> {
        match self {
            Cause::Taint(Some(printed)) => Some(taint_key(printed)),
            _ => None,
        }
    }
}

/// The key of a taint as the scheduler prints it: `{node.kubernetes.io/disk-pressure: }`.
fn taint_key(printed: &str) -> &str {
    printed
        .trim_matches(['{', '}'])
        .split(':')
        .next()
        .unwrap_or_default()
        .trim()
}

/// Where the scheduler's refusals put the fault (issue 39), control-plane nodes aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Every node refused was refused for its condition (or no node is registered at all).
    NodeConditions,
    /// Every node refused waits for the cloud controller manager to initialise it.
    Uninitialized,
    /// The Pod waits for its claims, its `ReadWriteOncePod` claim is in use by another Pod, or most
    /// nodes were refused for their volumes.
    Storage,
    /// The Pod's own constraints (or a message that says no more).
    Constraints,
}

/// A scheduler's message about a Pod it could not place, read once: the text, and its histogram
/// when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitFailure<'m> {
    pub message: &'m str,
    pub histogram: Option<Histogram>,
}

impl<'m> FitFailure<'m> {
    pub fn read(message: &'m str) -> Self {
        FitFailure {
            message,
            histogram: parse(message),
        }
    }

    /// The causes of its histogram, in order (none without one).
    pub fn causes(&self) -> impl Iterator<Item = &Cause> {
        self.histogram
            .iter()
            .flat_map(|h| h.entries.iter().map(|e| &e.cause))
    }

    /// Whether the Pod waits for its PersistentVolumeClaims to be bound ([`waits_for_claims`]).
    pub fn waits_for_claims(&self) -> bool {
        waits_for_claims(self.message)
    }

    /// Where its refusals put the fault: at the Nodes when every node it refused (control-plane
    /// nodes aside) was refused for its condition; at the control plane when they all wait for the
    /// cloud controller manager; at storage when it waits for claims, its `ReadWriteOncePod` claim
    /// is in use by another Pod, or most nodes were refused for their volumes; else the constraints.
    pub fn refusal(&self) -> Refusal {
        let Some(h) = &self.histogram else {
            if self.waits_for_claims() {
                return Refusal::Storage;
            }
            // No node registered at all (1.2–1.6's words): the Nodes, not a constraint.
            if self.message.contains("no nodes available to schedule pods") {
                return Refusal::NodeConditions;
            }
            return Refusal::Constraints;
        };
        if h.entries.is_empty() {
            return Refusal::Constraints;
        }
        let nodes = |pick: &dyn Fn(&Cause) -> bool| -> u32 {
            h.entries
                .iter()
                .filter(|e| pick(&e.cause))
                .map(|e| e.nodes.unwrap_or(1))
                .sum()
        };
        let all: u32 = nodes(&|_| true);
        let faults: Vec<&Cause> = self.causes().filter(|c| !c.is_control_plane_taint()).collect();
        if !faults.is_empty() && faults.iter().all(|c| c.is_node_condition()) {
            return Refusal::NodeConditions;
        }
        if !faults.is_empty() && faults.iter().all(|c| c.is_uninitialized_taint()) {
            return Refusal::Uninitialized;
        }
        if faults.iter().any(|c| c.is_claim_in_use()) {
            return Refusal::Storage;
        }
        let volumes = nodes(&Cause::is_storage);
        if volumes > 0 && volumes * 2 >= all {
            return Refusal::Storage;
        }
        Refusal::Constraints
    }

    /// What the message establishes, for the findings that explain a Pod's: the taints it refused
    /// nodes for, and whether it waits for claims to be bound. From the histogram; an unparsed
    /// message is searched for the pressure taints only (the ones another rule explains).
    pub fn details(&self) -> Vec<Detail> {
        let Some(h) = &self.histogram else {
            // The message of its own for unbound claims (before 1.16) has no histogram.
            let claims = self.waits_for_claims().then_some(Detail::UnboundClaim);
            return PRESSURE_TAINTS
                .into_iter()
                .filter(|taint| self.message.contains(taint))
                .map(|taint| Detail::UntoleratedTaint(taint.into()))
                .chain(claims)
                .collect();
        };
        h.entries
            .iter()
            .filter_map(|e| match &e.cause {
                Cause::Taint(Some(printed)) => Some(Detail::UntoleratedTaint(taint_key(printed).into())),
                Cause::UnboundClaim => Some(Detail::UnboundClaim),
                _ => None,
            })
            .collect()
    }
}

impl EventRecord {
    /// Whether this is the scheduler's `FailedScheduling` saying it found no node for the Pod
    /// ([`says_unschedulable`]).
    pub fn says_unschedulable(&self) -> bool {
        self.reason == "FailedScheduling" && says_unschedulable(&self.message)
    }

    /// Whether this is the scheduler's `FailedScheduling` for a Pod being deleted (`skip schedule
    /// deleting pod: ns/name`): nothing waits to be placed any more.
    pub fn skips_deleting_pod(&self) -> bool {
        self.reason == "FailedScheduling" && self.message.contains("skip schedule deleting pod")
    }
}

/// The scheduler's words for a node at its Pod limit (the NodeResourcesFit plugin's reason).
const TOO_MANY_PODS: &str = "Too many pods";

impl Model<'_> {
    /// Whether the scheduler refused the Pod `pod` for the nodes' Pod count (`Too many pods`): in
    /// its `FailedScheduling` events, or, when the Pod is pasted, in a condition's message.
    pub fn refused_for_pod_count(&self, pod: &ObjectRef) -> bool {
        if self
            .events_for(pod)
            .iter()
            .any(|e| e.reason == "FailedScheduling" && e.message.contains(TOO_MANY_PODS))
        {
            return true;
        }
        let Some(object) = self.object(pod) else {
            return false;
        };
        // The conditions located once, not one path per condition: this runs for every Pod.
        object.locate("status.conditions").is_some_and(|(_, conditions)| {
            conditions.items().iter().any(|c| {
                c.get("message")
                    .and_then(|n| n.as_str())
                    .is_some_and(|m| m.contains(TOO_MANY_PODS))
            })
        })
    }

    /// Whether any Pod, pasted or the subject of an event, was refused for the Pod count
    /// ([`Model::refused_for_pod_count`]).
    pub fn any_refused_for_pod_count(&self) -> bool {
        self.objects_of_kind("Pod")
            .map(|o| &o.id)
            .chain(
                self.events
                    .iter()
                    .filter(|e| e.subject.kind == "Pod")
                    .map(|e| &e.subject),
            )
            .any(|p| self.refused_for_pod_count(p))
    }
}

/// Whether a `FailedScheduling` message is the scheduler saying it found no node for the Pod, in
/// any release's words: `0/N nodes are available: …` (1.8+), `No nodes are available that match
/// all of the following predicates` (1.6–1.7), `pod (x) failed to fit in any node` (1.2–1.5) and
/// `no nodes available to schedule pods` (no node registered at all, 1.2–1.6). The scheduler also
/// writes FailedScheduling for other things (`skip schedule deleting pod`), which are not. Before
/// 1.16 a Pod whose claims were not bound got a message of its own, without the histogram: `pod has
/// unbound immediate PersistentVolumeClaims` (also relayed in the scheduler's log: `Error
/// scheduling default/mysql-0: pod has unbound …; retrying`).
pub fn says_unschedulable(message: &str) -> bool {
    [
        "nodes are available",
        "failed to fit in any node",
        "no nodes available to schedule pods",
    ]
    .iter()
    .any(|words| message.contains(words))
        || waits_for_claims(message)
}

/// Whether the scheduler's message says the Pod waits for its PersistentVolumeClaims to be bound, in
/// the words of any release (`pod has unbound immediate PersistentVolumeClaims`, 1.9+; `pod has
/// unbound PersistentVolumeClaims`, 1.8).
pub fn waits_for_claims(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    lower.contains("unbound immediate persistentvolumeclaims")
        || lower.contains("pod has unbound persistentvolumeclaims")
}

/// Parses `0/6 nodes are available: 3 node(s) had untolerated taint {a: b}, 3 Insufficient cpu.
/// preemption: …`. `None` when the text has no such message.
pub fn parse(message: &str) -> Option<Histogram> {
    if let Some(old) = parse_predicates(message) {
        return Some(old);
    }
    let at = message.find(" nodes are available")?;
    let head = &message[..at];
    let ratio = head.rsplit(|c: char| c.is_whitespace()).next()?;
    let (available, total) = ratio.split_once('/')?;
    let available = available.parse().ok()?;
    let total = total.parse().ok()?;
    let rest = message[at..].split_once(':').map_or("", |(_, r)| r);
    let rest = rest.split(" preemption:").next().unwrap_or(rest);
    let rest = rest.trim().trim_end_matches('.').trim();
    let entries = split_entries(rest).into_iter().map(entry).collect();
    Some(Histogram {
        available,
        total,
        entries,
    })
}

/// Kubernetes 1.6–1.7: `No nodes are available that match all of the following predicates::
/// Insufficient cpu (3), MatchNodeSelector (2).` The counts follow the reasons; the total is their sum
/// (each node was reported with the predicates it failed).
fn parse_predicates(message: &str) -> Option<Histogram> {
    let (_, rest) = message.split_once("match all of the following predicates:")?;
    let rest = rest.trim_start_matches(':').trim().trim_end_matches('.');
    let mut entries = Vec::new();
    for part in split_entries(rest) {
        let (reason, count) = match part.rsplit_once(" (") {
            Some((reason, n)) => (reason, n.trim_end_matches(')').parse::<u32>().ok()),
            None => (part, None),
        };
        entries.push(Entry {
            nodes: count,
            cause: entry(reason).cause,
        });
    }
    let total = entries.iter().filter_map(|e| e.nodes).sum();
    Some(Histogram {
        available: 0,
        total,
        entries,
    })
}

/// Splits at `, ` but not inside `{…}` (taints print as `{key: value}`).
fn split_entries(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                parts.push(text[start..i].trim());
                start = i + 2;
            }
            _ => {}
        }
    }
    if start < text.len() {
        parts.push(text[start..].trim());
    }
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

fn entry(text: &str) -> Entry {
    let (nodes, reason) = match text.split_once(' ') {
        Some((n, rest)) if n.parse::<u32>().is_ok() => (n.parse().ok(), rest),
        _ => (None, text),
    };
    let reason = reason.strip_prefix("node(s) ").unwrap_or(reason);
    // The predicate names of 1.6–1.10 (`MatchNodeSelector`), before reasons were sentences.
    let predicate = match reason {
        "MatchNodeSelector" | "NodeAffinity" => Some(Cause::NodeAffinity),
        "PodToleratesNodeTaints" | "PodToleratesNodeNoExecuteTaints" => Some(Cause::Taint(None)),
        "NoVolumeZoneConflict" | "NoVolumeNodeConflict" | "CheckVolumeBinding" => {
            Some(Cause::VolumeNodeAffinity)
        }
        "MatchInterPodAffinity" => Some(Cause::PodAffinity),
        "NodeUnschedulable" => Some(Cause::NodeUnschedulable),
        _ => None,
    };
    if let Some(cause) = predicate {
        return Entry { nodes, cause };
    }
    let lower = reason.to_ascii_lowercase();
    let cause = if lower.contains("node affinity")
        || lower.contains("node selector")
        || lower.contains("didn't match pod's node")
    {
        if lower.contains("volume node affinity") {
            Cause::VolumeNodeAffinity
        } else {
            Cause::NodeAffinity
        }
    } else if lower.contains("taint") {
        Cause::Taint(reason.find('{').map(|i| reason[i..].to_string()))
    } else if let Some(resource) = reason.strip_prefix("Insufficient ") {
        Cause::Insufficient(resource.trim().to_string())
    } else if lower.contains("unbound immediate persistentvolumeclaims")
        || lower.contains("unbound persistentvolumeclaim")
    {
        Cause::UnboundClaim
    } else if lower.contains("topology spread") {
        Cause::TopologySpread
    } else if lower.contains("affinity") {
        Cause::PodAffinity
    } else if lower.contains("too many pods") {
        Cause::TooManyPods
    } else if lower.contains("unschedulable") {
        Cause::NodeUnschedulable
    } else {
        Cause::Other(reason.to_string())
    };
    Entry { nodes, cause }
}
#[cfg(test)]
mod tests {
    /// bitpoke/mysql-operator#310, kubernetes/minikube#6246: before 1.16 unbound claims had a
    /// message of their own, without the histogram.
    #[test]
    fn unbound_claims_alone_are_a_scheduling_failure() {
        assert!(super::says_unschedulable(
            "pod has unbound immediate PersistentVolumeClaims"
        ));
        assert!(super::says_unschedulable(
            "Error scheduling default/mini-kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying"
        ));
        assert!(super::waits_for_claims(
            "pod has unbound PersistentVolumeClaims (repeated 3 times)"
        ));
        assert!(!super::says_unschedulable(
            "skip schedule deleting pod: default/web-1"
        ));
    }

    use super::*;

    #[test]
    fn current_wording_with_taints_and_preemption() {
        let h = parse("0/6 nodes are available: 3 node(s) had untolerated taint {dedicated: ci-runners}, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!((h.available, h.total), (0, 6));
        assert_eq!(
            h.entries,
            [
                Entry {
                    nodes: Some(3),
                    cause: Cause::Taint(Some("{dedicated: ci-runners}".into()))
                },
                Entry {
                    nodes: Some(3),
                    cause: Cause::Taint(Some("{node-role.kubernetes.io/control-plane: }".into()))
                },
            ]
        );
    }

    #[test]
    fn older_wordings_resources_and_claims() {
        let h = parse("0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 node(s) didn't match node selector.").unwrap();
        assert_eq!(h.entries[0].cause, Cause::Taint(None));
        assert_eq!(h.entries[1].cause, Cause::NodeAffinity);
        let h = parse("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.").unwrap();
        assert_eq!(
            h.entries[0],
            Entry {
                nodes: Some(1),
                cause: Cause::Insufficient("nvidia.com/gpu".into())
            }
        );
        let h = parse("0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(
            h.entries,
            [Entry {
                nodes: None,
                cause: Cause::UnboundClaim
            }]
        );
        let h = parse("0/5 nodes are available: 2 node(s) had volume node affinity conflict, 3 node(s) didn't match pod topology spread constraints.").unwrap();
        assert_eq!(h.entries[0].cause, Cause::VolumeNodeAffinity);
        assert_eq!(h.entries[1].cause, Cause::TopologySpread);
        assert!(parse("Successfully assigned shop/web to node-a").is_none());
    }

    #[test]
    fn predicate_names_of_kubernetes_1_6_to_1_10() {
        let h = parse("No nodes are available that match all of the following predicates:: Insufficient cpu (3), MatchNodeSelector (2), PodToleratesNodeTaints (1).").unwrap();
        assert_eq!((h.available, h.total), (0, 6));
        assert_eq!(
            h.entries,
            [
                Entry {
                    nodes: Some(3),
                    cause: Cause::Insufficient("cpu".into())
                },
                Entry {
                    nodes: Some(2),
                    cause: Cause::NodeAffinity
                },
                Entry {
                    nodes: Some(1),
                    cause: Cause::Taint(None)
                },
            ]
        );
        let h = parse("0/5 nodes are available: 3 Insufficient memory, 2 MatchNodeSelector.").unwrap();
        assert_eq!(
            h.entries[1],
            Entry {
                nodes: Some(2),
                cause: Cause::NodeAffinity
            }
        );
    }

    #[test]
    fn every_release_says_unschedulable_in_its_own_words() {
        // kubernetes/kubernetes#9207 (1.4, tab-aligned), rancher/rancher#6926 (a relayed event).
        for message in [
            "0/3 nodes are available: 3 Insufficient cpu.",
            "No nodes are available that match all of the following predicates:: Insufficient cpu (9).",
            "pod (loudmail-deployment-1671311517-s1nb9) failed to fit in any node",
            "no nodes available to schedule pods",
        ] {
            assert!(says_unschedulable(message), "{message}");
        }
        assert!(!says_unschedulable("skip schedule deleting pod: default/web-0"));
        assert!(parse("pod (x) failed to fit in any node").is_none());
    }
    #[test]
    fn where_the_refusals_put_the_fault() {
        let read = |m: &'static str| FitFailure::read(m).refusal();
        assert_eq!(
            read("0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) had untolerated taint {node.kubernetes.io/not-ready: }."),
            Refusal::NodeConditions
        );
        assert_eq!(
            read("0/2 nodes are available: 2 node(s) had untolerated taint {node.cloudprovider.kubernetes.io/uninitialized: true}."),
            Refusal::Uninitialized
        );
        assert_eq!(
            read("0/3 nodes are available: 2 node(s) had volume node affinity conflict, 1 Insufficient cpu."),
            Refusal::Storage
        );
        assert_eq!(
            read("pod has unbound immediate PersistentVolumeClaims"),
            Refusal::Storage
        );
        assert_eq!(
            read("no nodes available to schedule pods"),
            Refusal::NodeConditions
        );
        assert_eq!(
            read("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector."),
            Refusal::Constraints
        );
        let failure = FitFailure::read(
            "0/2 nodes are available: 2 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }.",
        );
        assert_eq!(
            failure.details(),
            [Detail::UntoleratedTaint(
                "node.kubernetes.io/disk-pressure".into()
            )]
        );
    }
}
