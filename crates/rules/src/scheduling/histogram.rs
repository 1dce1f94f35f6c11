//! The words of the scheduler's `0/N nodes are available: …` histogram, which
//! [`faultline_model::signals::scheduler_fit`] parses into its reasons.

use faultline_model::signals::scheduler_fit::{Cause, Entry};
use faultline_report::message::Message;

/// A phrase that reads after "1 node" and "3 nodes" alike (and, in Chinese, after "N 个节点").
pub fn describe_cause(cause: &Cause) -> Message {
    match cause {
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

/// An entry as a clause: `1 node with a taint the Pod does not tolerate`, `every node …` when the
/// message gives no count.
pub fn describe_entry(entry: &Entry) -> Message {
    let cause = Box::new(describe_cause(&entry.cause));
    match entry.nodes {
        Some(nodes) => Msg::Nodes { nodes, cause },
        None => Msg::EveryNode { cause },
    }
    .into()
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
