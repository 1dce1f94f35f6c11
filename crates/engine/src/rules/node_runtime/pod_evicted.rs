use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity};
use crate::rules::node_runtime::node_under_pressure::pressure_of_eviction;

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
    /// request), `spec.nodeName`, and the `Evicted` events.
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
    pub const RULE = { id: "pod-evicted", boundary: Boundary::NodeRuntime, components: [Kubelet, Runtime if NotNodeSubject], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 被 kubelet 驱逐的 Pod（`status.phase: Failed`、`status.reason: Evicted`、`The node was low on resource: memory.`，或 `Evicted` 事件），且粘贴的内容中没有显示节点本身的压力（否则由 `node-under-pressure` 报告该节点并引用这些驱逐）。每个节点和资源一条发现，指出用量最大的容器及其请求量。

 ## 为什么重要
 驱逐是节点在保护自己：用量超出请求的 Pod 最先被驱逐（先 BestEffort，再 Burstable），所以被驱逐的 Pod 往往并不是肇事者，而且它的控制器会在别处重新创建它。故障边界是节点的资源短缺。

 ## 证据
 Pod 的 `status.reason` 和 `status.message`（其中有 kubelet 给出的每个容器的用量和请求量），`spec.nodeName`，以及 `Evicted` 事件。

 ## 故障边界
 `node-runtime`：节点的 kubelet、磁盘和内存。

 ## 这些证据无法确定的内容
 节点现在是否仍处于压力之下（被驱逐的 Pod 会一直保留，直到被删除），以及节点上还有什么在使用这种资源。

 ## 下一步应收集的证据
 `kubectl describe node NODE`（它的压力状况和已分配的资源），以及 `kubectl get pods -A -o wide --field-selector spec.nodeName=NODE`。

 ## 示例
 ```yaml
 status:
   phase: Failed
   reason: Evicted
   message: 'The node was low on resource: memory. Container worker was using 3Gi, request is 512Mi, has larger consumption of memory. '
 ```
"#;

/// (node or "", resource, evicted Pods, evidence), in input order.
type Group = (String, String, Vec<ObjectRef>, Vec<Evidence>, Option<String>);

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut add = |node: String, message: &str, pod: ObjectRef, evidence: Vec<Evidence>| {
        let resource = message
            .split("low on resource: ")
            .nth(1)
            .and_then(|r| r.split(['.', ',', ' ']).next())
            .unwrap_or("an unnamed resource")
            .to_string();
        let heaviest = message
            .split("Container ")
            .nth(1)
            .and_then(|r| r.split(", has larger").next())
            .map(|s| format!("container {}", s.trim_end_matches(['.', ' '])));
        match groups.iter_mut().find(|g| g.0 == node && g.1 == resource) {
            Some(g) => {
                if !g.2.contains(&pod) {
                    g.2.push(pod);
                    g.3.extend(evidence);
                }
                if g.4.is_none() {
                    g.4 = heaviest;
                }
            }
            None => groups.push((node, resource, vec![pod], evidence, heaviest)),
        }
    };
    for pod in model.objects.iter().filter(|o| o.id.kind == "Pod") {
        let field = |p: &str| pod.locate(p).and_then(|(_, n)| n.as_str()).unwrap_or_default();
        if field("status.reason") != "Evicted" {
            continue;
        }
        let mut evidence = Vec::new();
        for p in ["status.reason", "status.message", "spec.nodeName"] {
            evidence.extend(model.evidence(pod, p));
        }
        add(
            field("spec.nodeName").to_string(),
            field("status.message"),
            pod.id.clone(),
            evidence,
        );
    }
    for event in model
        .events
        .iter()
        .filter(|e| e.reason == "Evicted" && e.subject.kind == "Pod")
    {
        // The Pod object, when pasted, already said it (and knows its node).
        let pasted = model.object(&event.subject);
        let node = pasted
            .and_then(|p| p.locate("spec.nodeName"))
            .and_then(|(_, n)| n.as_str())
            .unwrap_or_default()
            .to_string();
        add(
            node,
            &event.message,
            event.subject.clone(),
            model.event_evidence(event).into_iter().collect(),
        );
    }
    for (node, resource, pods, mut evidence, heaviest) in groups {
        // The node's own pressure finding already cites these evictions.
        let pressure = pressure_of_eviction(&format!("low on resource: {resource}"));
        let explained = findings.iter().any(|f| {
            f.rule == "node-under-pressure"
                && (node.is_empty() || f.subject.name == node)
                && pressure.is_some_and(|p| f.summary.contains(&format!("({p})")))
        });
        if explained || evidence.is_empty() {
            continue;
        }
        evidence.truncate(9);
        let where_ = if node.is_empty() {
            "its node (not named in the input)".to_string()
        } else {
            format!("node {node}")
        };
        let names: Vec<String> = pods.iter().take(5).map(|p| p.to_string()).collect();
        let mut summary = format!(
            "{} Pod{} evicted by the kubelet because {where_} was low on {resource}: {}{}.",
            pods.len(),
            if pods.len() == 1 { " was" } else { "s were" },
            names.join(", "),
            if pods.len() > 5 { ", …" } else { "" }
        );
        if let Some(h) = heaviest {
            summary.push_str(&format!(" The kubelet names the largest consumer: {h}."));
        }
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
        let cannot_establish = vec![
            "Whether the node is still under pressure now: Evicted Pods stay until they are deleted."
                .to_string(),
            "What else on the node used the resource: only the evicted Pods' usage is reported.".to_string(),
        ];
        let next_steps = vec![
            command!("kubectl describe node {}", node_arg),
            command!(
                "kubectl get pods -A -o wide --field-selector spec.nodeName={}",
                node_arg
            ),
            "kubectl get events -A --field-selector reason=Evicted --sort-by=.lastTimestamp".to_string(),
        ];
        findings.push(RULE.finding(
            Severity::Warning,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

crate::messages! {
    /// The words of `pod-evicted`.
    pub enum Msg {}
}
