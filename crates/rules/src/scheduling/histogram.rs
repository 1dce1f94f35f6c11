//! The scheduler's `0/N nodes are available: …` message, parsed into its reasons.
//!
//! The format (`pkg/scheduler/framework/types.go`, FitError) is stable in shape but its reason
//! wording drifts across releases (`had taints that the pod didn't tolerate` became `had untolerated
//! taint {k: v}`); the categories accept the wordings of 1.6 through 1.34.

use faultline_report::message::Message;

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

impl Cause {
    /// A phrase that reads after "1 node" and "3 nodes" alike (and, in Chinese, after "N 个节点").
    pub fn describe(&self) -> Message {
        match self {
            Cause::NodeAffinity => Msg::NodeAffinity {},
            Cause::Taint(Some(t)) => Msg::Taint { taint: t.clone() },
            Cause::Taint(None) => Msg::AnyTaint {},
            Cause::Insufficient(r) => Msg::Insufficient { resource: r.clone() },
            Cause::UnboundClaim => Msg::UnboundClaim {},
            Cause::VolumeNodeAffinity => Msg::VolumeNodeAffinity {},
            Cause::TopologySpread => Msg::TopologySpread {},
            Cause::PodAffinity => Msg::PodAffinity {},
            Cause::TooManyPods => Msg::TooManyPods {},
            Cause::NodeUnschedulable => Msg::NodeUnschedulable {},
            Cause::Other(text) => Msg::Other { text: text.clone() },
        }
        .into()
    }
}

impl Entry {
    /// The entry as a clause: `1 node with a taint the Pod does not tolerate`, `every node …` when
    /// the message gives no count.
    pub fn describe(&self) -> Message {
        let cause = Box::new(self.cause.describe());
        match self.nodes {
            Some(nodes) => Msg::Nodes { nodes, cause },
            None => Msg::EveryNode { cause },
        }
        .into()
    }
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

faultline_report::messages! {
    /// The words of the scheduler's histogram: its entries, and why a group of nodes was filtered out
    /// (a phrase that follows a count of nodes).
    pub enum Msg {
        /// An entry with a count: `3 nodes <cause>`.
        Nodes { nodes: u32, cause: Box<Message> } = "scheduling-histogram.nodes" {
            en: {
                if *nodes.0 == 1 {
                    format!("1 node {cause}")
                } else {
                    format!("{nodes} nodes {cause}")
                }
            },
            zh: "{nodes} 个节点{cause}",
        },
        /// An entry the scheduler gives without a count (it applies to every node).
        EveryNode { cause: Box<Message> } = "scheduling-histogram.every-node" {
            en: "every node {cause}",
            zh: "所有节点都{cause}",
        },
        NodeAffinity {} = "scheduling-histogram.node-affinity" {
            en: "not matching the Pod's node selector or required node affinity",
            zh: "不满足 Pod 的节点选择器或必需的节点亲和性",
        },
        /// An untolerated taint, as the scheduler prints it (`{dedicated: gpu}`).
        Taint { taint: String } = "scheduling-histogram.taint" {
            en: "with a taint the Pod does not tolerate, {taint}",
            zh: "带有 Pod 不容忍的污点 {taint}",
        },
        /// An untolerated taint the scheduler's message does not print.
        AnyTaint {} = "scheduling-histogram.any-taint" {
            en: "with a taint the Pod does not tolerate",
            zh: "带有 Pod 不容忍的污点",
        },
        /// `Insufficient <resource>`.
        Insufficient { resource: String } = "scheduling-histogram.insufficient" {
            en: "without enough free {resource} for the Pod's request",
            zh: "没有足够的空闲 {resource} 来满足 Pod 的请求",
        },
        UnboundClaim {} = "scheduling-histogram.unbound-claim" {
            en: "not considered, because the Pod's PersistentVolumeClaim is not bound",
            zh: "未被考虑，因为 Pod 的 PersistentVolumeClaim 还没有绑定",
        },
        VolumeNodeAffinity {} = "scheduling-histogram.volume-node-affinity" {
            en: "unable to reach the Pod's bound volume (volume node affinity)",
            zh: "无法使用 Pod 已绑定的卷（卷的节点亲和性）",
        },
        TopologySpread {} = "scheduling-histogram.topology-spread" {
            en: "ruled out by the Pod's topology spread constraints",
            zh: "被 Pod 的拓扑分布约束排除",
        },
        PodAffinity {} = "scheduling-histogram.pod-affinity" {
            en: "ruled out by the Pod's affinity or anti-affinity to other Pods",
            zh: "被 Pod 对其他 Pod 的亲和性或反亲和性排除",
        },
        TooManyPods {} = "scheduling-histogram.too-many-pods" {
            en: "already running as many Pods as they allow",
            zh: "运行的 Pod 数量已达上限",
        },
        NodeUnschedulable {} = "scheduling-histogram.node-unschedulable" {
            en: "cordoned (unschedulable)",
            zh: "已被封锁（unschedulable）",
        },
        /// A reason this parser does not classify, as the scheduler prints it.
        Other { text: String } = "scheduling-histogram.other" {
            en: "rejected: {text}",
            zh: "被拒绝：{text}",
        },
    }
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
}
