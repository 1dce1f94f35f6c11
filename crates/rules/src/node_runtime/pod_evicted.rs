use faultline_ingest::Object;
use faultline_model::signals::node_pressure::{pressure_of_resource, pressure_taint, Consumer, Eviction};
use faultline_model::views::pod_eviction::{node_name, runs_ready};
use faultline_model::{owners, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Detail, Evidence, Finding, ObjectRef, Severity, Text};

use crate::history;

crate::declare_rule! {
    /// ## What it finds
    /// Pods the kubelet evicted (`status.phase: Failed`, `status.reason: Evicted`, "The node was low
    /// on resource: memory." — or the `Evicted` events) when nothing pasted shows the node's pressure
    /// itself (then `node-under-pressure` reports the node and cites the evictions). One finding per
    /// node and resource, naming the container that used the most and its request.
    ///
    /// ## Why it matters
    /// An eviction is the node protecting itself: the Pods that use more than they requested go
    /// first (BestEffort, then Burstable), so the Pod evicted is often not the one at fault, and its
    /// controller recreates it elsewhere. The node's shortage is the boundary.
    ///
    /// ## Evidence
    /// The Pods' `status.reason` and `status.message` (with the kubelet's per-container usage and
    /// request), `spec.nodeName`, and the `Evicted` events. A `kubectl get pods` row whose STATUS is
    /// `Evicted` alone proves the eviction, but names neither the resource nor the node unless the
    /// table is `-o wide`. An evicted Pod whose workload (its controller, or the workload its
    /// generated name is made from) runs another Pod now, Running and ready and not itself evicted,
    /// was replaced: that eviction is history (an info line), grouped apart from the current ones.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the node's kubelet, its disks and its memory.
    ///
    /// ## What this evidence cannot establish
    /// Whether the node is still under pressure now (Evicted Pods stay until they are deleted), and
    /// what else on the node used the resource.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe node NODE` (its pressure conditions and allocated resources), and
    /// `kubectl get pods -A -o wide --field-selector spec.nodeName=NODE`.
    ///
    /// ## Example
    /// ```yaml
    /// status:
    ///   phase: Failed
    ///   reason: Evicted
    ///   message: 'The node was low on resource: memory. Container worker was using 3Gi, request is 512Mi, has larger consumption of memory. '
    /// ```
    pub const RULE = { id: "pod-evicted", boundary: Boundary::NodeRuntime, components: [Kubelet, Runtime if NotNodeSubject], check: check };
}

/// (node or "", resource (None: not named), evicted Pods, evidence, the largest consumer), in input
/// order.
type Group = (
    String,
    Option<String>,
    Vec<ObjectRef>,
    Vec<Evidence>,
    Option<Message>,
);

/// The kubelet's words about the largest consumer (`collector was using 14Gi, request is 0`).
fn consumer(consumer: Consumer<'_>) -> Message {
    match consumer {
        Consumer::Usage {
            container,
            usage,
            request,
        } => Msg::Consumer {
            container: container.into(),
            usage: usage.to_string(),
            request: request.to_string(),
        },
        Consumer::AsSaid(words) => Msg::ConsumerAsSaid {
            words: words.to_string(),
        },
    }
    .into()
}

/// A Pod of the same workload as `evicted` that runs now, ready where the input says, and is not
/// itself evicted: the controller's replacement. The workload is the Pod's controller as it states
/// it ([`owners::workload_of`]), else the one its generated name is made from
/// ([`owners::named_workload`]); a Pod with neither (a bare Pod, a StatefulSet's `db-0`) has none
/// to compare, and the StatefulSet's own recreated `db-0` is another object only by uid.
fn replacement<'a>(model: &Model<'a>, evicted: &ObjectRef) -> Option<&'a Object> {
    let workload = |id: &ObjectRef, object: Option<&Object>| -> Option<String> {
        if let Some(o) = object {
            let owner = owners::workload_of(o);
            if owner != o.id {
                return Some(owner.name.to_string());
            }
        }
        owners::named_workload("Pod", &id.name).map(str::to_string)
    };
    let wanted = workload(evicted, model.object(evicted))?;
    model
        .objects_in(evicted.namespace.as_deref())
        .filter(|o| o.id.kind == "Pod" && o.id.name != evicted.name)
        .find(|o| runs_ready(o) && workload(&o.id, Some(o)).as_deref() == Some(wanted.as_str()))
}

/// The fields that show a replacement runs: its phase or STATUS, and READY.
fn replacement_evidence(model: &Model<'_>, pod: &Object) -> Vec<Evidence> {
    ["kubectl.status", "kubectl.ready", "status.phase"]
        .iter()
        .filter_map(|p| model.evidence(pod, p))
        .take(2)
        .collect()
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Each eviction as read: (node or "", the kubelet's message, the Pod, the fields that say it).
    let mut evictions: Vec<(String, String, ObjectRef, Vec<Evidence>)> = Vec::new();
    for pod in model.evicted_pods() {
        let evidence = ["status.reason", "status.message", "spec.nodeName"]
            .iter()
            .filter_map(|p| model.evidence(pod.object, p))
            .collect();
        let node = pod.node.unwrap_or_default().to_string();
        evictions.push((node, pod.message.to_string(), pod.object.id.clone(), evidence));
    }
    // A `kubectl get pods` row whose STATUS is `Evicted` (the Pod's `status.reason`, as kubectl
    // prints it): the weakest evidence, which names neither the resource nor the consumer.
    for (pod, _) in crate::table_status::pods_with_status(model, &["Evicted"]) {
        evictions.push((
            node_name(pod).to_string(),
            String::new(),
            pod.id.clone(),
            model.evidence(pod, "kubectl.status").into_iter().collect(),
        ));
    }
    for event in model.pod_eviction_events() {
        // The Pod object, when pasted, already said it (and knows its node).
        let pasted = model.object(&event.subject);
        let node = pasted.map(node_name).unwrap_or_default().to_string();
        evictions.push((
            node,
            event.message.clone(),
            event.subject.clone(),
            model.event_evidence(event).into_iter().collect(),
        ));
    }
    // Evictions whose controller runs a replacement now are history, grouped apart from the
    // current ones: the lost Pod was replaced, whatever the node's state.
    let mut groups: Vec<Group> = Vec::new();
    let mut replaced: Vec<Group> = Vec::new();
    let mut replaced_shown: Vec<Vec<Evidence>> = Vec::new();
    for (node, message, pod, evidence) in evictions {
        let said = Eviction::read(&message);
        let resource = said.resource.map(str::to_string);
        let heaviest = said.consumer.map(consumer);
        let by = replacement(model, &pod);
        let into = if by.is_some() { &mut replaced } else { &mut groups };
        let i = match into.iter().position(|g| g.0 == node && g.1 == resource) {
            Some(i) => {
                let g = &mut into[i];
                if !g.2.contains(&pod) {
                    g.2.push(pod);
                    g.3.extend(evidence);
                }
                if g.4.is_none() {
                    g.4 = heaviest;
                }
                i
            }
            None => {
                into.push((node, resource, vec![pod], evidence, heaviest));
                into.len() - 1
            }
        };
        if let Some(runs) = by {
            if replaced_shown.len() <= i {
                replaced_shown.push(Vec::new());
            }
            for e in replacement_evidence(model, runs) {
                if !replaced_shown[i].contains(&e) {
                    replaced_shown[i].push(e);
                }
            }
        }
    }
    let current = groups.into_iter().map(|g| (g, None));
    let history = replaced
        .into_iter()
        .zip(replaced_shown)
        .map(|(g, shown)| (g, Some(shown)));
    for ((node, resource, pods, mut evidence, heaviest), replaced_by) in current.chain(history) {
        // The node's own pressure finding already cites these evictions.
        let pressure = resource.as_deref().and_then(pressure_of_resource);
        let explained = findings.iter().any(|f| {
            f.rule == "node-under-pressure"
                && (node.is_empty() || f.subject.name == node)
                && pressure.is_some_and(|p| {
                    f.details
                        .iter()
                        .any(|d| matches!(d, Detail::NodePressure { taint } if *taint == pressure_taint(p)))
                })
        });
        if explained || evidence.is_empty() {
            continue;
        }
        evidence.truncate(9);
        let summary = Msg::Evicted {
            count: pods.len(),
            node: (!node.is_empty()).then(|| node.as_str().into()),
            resource,
            pods: pods.iter().take(5).cloned().collect(),
            heaviest: heaviest.map(Box::new),
        };
        let subject = if node.is_empty() {
            pods[0].clone()
        } else {
            ObjectRef {
                kind: "Node".into(),
                namespace: None,
                name: node.as_str().into(),
                uid: None,
            }
        };
        let node_arg = if node.is_empty() {
            "NODE".to_string()
        } else {
            node.clone()
        };
        let cannot_establish: Vec<Message> = vec![Msg::StillUnderPressure {}.into(), Msg::WhatElse {}.into()];
        let next_steps = vec![
            command!("kubectl describe node {}", node_arg),
            command!(
                "kubectl get pods -A -o wide --field-selector spec.nodeName={}",
                node_arg
            ),
            "kubectl get events -A --field-selector reason=Evicted --sort-by=.lastTimestamp".to_string(),
        ];
        let mut finding = RULE.finding(
            Severity::Warning,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        if let Some(shown) = replaced_by {
            let recovery = history::Recovery {
                by: Msg::Replaced {}.into(),
                evidence: shown,
            };
            history::record(&mut finding, None, recovery);
        }
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `pod-evicted`.
    pub enum Msg {
        /// `count` Pods evicted from a node (None: the input does not name it) low on a resource
        /// (None: the kubelet's message names none); `pods` are the first five, `heaviest` the
        /// largest consumer the kubelet names.
        Evicted { count: usize, node: Option<Text>, resource: Option<String>, pods: Vec<ObjectRef>, heaviest: Option<Box<Message>> } = "pod-evicted.evicted" {
            en: {
                let pods_were = if *count.0 == 1 { "1 Pod was".to_string() } else { format!("{count} Pods were") };
                let node = node.0.as_ref().map_or_else(|| "its node (not named in the input)".to_string(), |n| format!("node {n}"));
                let resource = resource.0.as_deref().unwrap_or("an unnamed resource");
                let more = if *count.0 > pods.0.len() { ", …" } else { "" };
                let heaviest = heaviest.0.as_ref().map(|h| format!(" The kubelet names the largest consumer: {}.", h.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{pods_were} evicted by the kubelet because {node} was low on {resource}: {pods}{more}.{heaviest}")
            },
            zh: {
                let node = node.0.as_ref().map_or_else(|| "它所在的节点（输入中没有节点名称）".to_string(), |n| format!("节点 {n} "));
                let resource = resource.0.as_ref().map_or_else(|| "某种未指明的资源".to_string(), |r| format!(" {r} "));
                let more = if *count.0 > pods.0.len() { " 等" } else { "" };
                let heaviest = heaviest.0.as_ref().map(|h| format!("kubelet 指出用量最大的是{}。", h.render(faultline_report::lang::Lang::Zh))).unwrap_or_default();
                format!("{count} 个 Pod 被 kubelet 驱逐，因为{node}的{resource}不足：{pods}{more}。{heaviest}")
            },
        },
        /// The largest consumer as the kubelet names it: a container, its usage and its request.
        Consumer { container: Text, usage: String, request: String } = "pod-evicted.consumer" {
            en: "container {container} was using {usage}, request is {request}",
            zh: "容器 {container}（用量 {usage}，请求量 {request}）",
        },
        /// The largest consumer in the kubelet's words, when they are not `NAME was using X, request is Y`.
        ConsumerAsSaid { words: String } = "pod-evicted.consumer-as-said" {
            en: "container {words}",
            zh: "容器 {words}",
        },
        /// What shows the evictions passed: each evicted Pod's controller runs a replacement.
        Replaced {} = "pod-evicted.replaced" {
            en: "a Pod of the same workload runs and is ready now in each evicted Pod's place",
            zh: "每个被驱逐的 Pod 所属的工作负载现在都有另一个 Pod 在运行并且已就绪，取代了它",
        },
        StillUnderPressure {} = "pod-evicted.still-under-pressure" {
            en: "Whether the node is still under pressure now: Evicted Pods stay until they are deleted.",
            zh: "节点现在是否仍处于压力之下：被驱逐的 Pod 会一直保留，直到被删除。",
        },
        WhatElse {} = "pod-evicted.what-else" {
            en: "What else on the node used the resource: only the evicted Pods' usage is reported.",
            zh: "节点上还有什么在使用这种资源：只报告了被驱逐的 Pod 的用量。",
        },
    }
}
