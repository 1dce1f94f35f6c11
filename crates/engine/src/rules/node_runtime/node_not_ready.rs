use crate::ingest::Typed;
use crate::model::graph::{EdgeKind, Target};
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A node whose `Ready` condition is `False` (the kubelet reports a problem, e.g. the container
    /// runtime's network is not ready) or `Unknown` (the kubelet stopped posting status:
    /// `NodeStatusUnknown`, "Kubelet stopped posting node status."), from the Node object or a
    /// `kubectl get nodes` STATUS of `NotReady`, with the Pods pasted that run on it.
    ///
    /// ## Why it matters
    /// Every Pod on the node is affected: the node lifecycle controller marks them not ready, taints
    /// the node `not-ready`/`unreachable` and evicts them after the toleration (300 s by default).
    /// Application symptoms on those Pods follow from the node.
    ///
    /// ## Evidence
    /// The node's Ready condition (status, reason, message), its `NodeNotReady` events, and the Pods
    /// whose `spec.nodeName` is the node.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the kubelet and the container runtime on that node.
    ///
    /// ## What this evidence cannot establish
    /// With `Unknown`, whether the kubelet is down, the node is off, or the network between it and
    /// the control plane is cut: all three look the same from the API.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe node` (conditions, events), the kubelet's and the runtime's logs on the node,
    /// and whether the node answers on the network at all.
    ///
    /// ## Example
    /// ```yaml
    /// conditions:
    /// - type: Ready
    ///   status: "Unknown"
    ///   reason: NodeStatusUnknown
    ///   message: Kubelet stopped posting node status.
    /// ```
    pub const RULE = { id: "node-not-ready", boundary: Boundary::NodeRuntime, check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (index, node) in model
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id.kind == "Node")
    {
        let Some((_, conditions)) = node.locate("status.conditions") else {
            continue;
        };
        let Some((i, ready)) = conditions
            .items()
            .iter()
            .enumerate()
            .find(|(_, c)| c.get("type").and_then(|n| n.as_str()) == Some("Ready"))
        else {
            continue;
        };
        let status = ready.get("status").and_then(|n| n.as_str()).unwrap_or_default();
        if status == "True" {
            continue;
        }
        let reason = ready.get("reason").and_then(|n| n.as_str()).unwrap_or_default();
        let message = ready.get("message").and_then(|n| n.as_str()).unwrap_or_default();
        let mut evidence: Vec<Evidence> = Vec::new();
        for field in ["status", "reason", "message"] {
            evidence.extend(model.evidence(node, &format!("status.conditions[{i}].{field}")));
        }
        for event in model
            .events_for(&node.id)
            .iter()
            .filter(|e| e.reason == "NodeNotReady")
            .take(2)
        {
            evidence.extend(model.event_evidence(event));
        }
        // The Pods pasted that run on it.
        let pods: Vec<String> = model
            .graph
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::RunsOn && matches!(e.to, Target::Object(i) if i == index))
            .map(|e| model.objects[e.from].id.to_string())
            .collect();
        let name = &node.id.name;
        let state = if status == "Unknown" {
            "its kubelet has stopped reporting (Ready=Unknown)".to_string()
        } else {
            format!(
                "its kubelet reports it not ready (Ready=False{})",
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(", {reason}")
                }
            )
        };
        let mut summary = format!("Node {name} is not ready: {state}");
        if !message.is_empty() {
            summary.push_str(&format!(": {message:?}"));
        }
        summary.push('.');
        if !pods.is_empty() {
            summary.push_str(&format!(" Pods pasted on it: {}.", pods.join(", ")));
        }
        let mut cannot_establish = vec![
            "Whether the Pods on it still serve: the API only knows what the kubelet last reported."
                .to_string(),
        ];
        if status == "Unknown" {
            cannot_establish.insert(0, "Whether the kubelet is down, the node is off, or the network between it and the control plane is cut: all three look the same from the API.".to_string());
        }
        if !model.objects.iter().any(|o| matches!(o.typed, Typed::Pod(_))) {
            cannot_establish
                .push("No Pods were pasted, so which workloads this node affects is unknown.".to_string());
        }
        let subject = node.id.clone();
        let next_steps = vec![
                format!("kubectl describe node {name}"),
                format!("kubectl get pods -A -o wide --field-selector spec.nodeName={name}"),
                format!("kubectl debug node/{name} -it --image=busybox -- chroot /host journalctl -u kubelet --since -30m"),
            ];
        findings.push(RULE.finding(
            Severity::Error,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}
