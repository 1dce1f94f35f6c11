use crate::history::{self, Supersedes};
use faultline_ingest::Typed;
use faultline_model::views::node_status::NodeStatus;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A node whose `Ready` condition is `False` (the kubelet reports a problem, e.g. the container
    /// runtime's network is not ready) or `Unknown` (the kubelet stopped posting status:
    /// `NodeStatusUnknown`, "Kubelet stopped posting node status."), from the Node object or a
    /// `kubectl get nodes` STATUS of `NotReady`, with the Pods pasted that run on it. A Node pasted
    /// without its Ready condition (a describe cut before `Conditions:`) but with the taint the node
    /// lifecycle controller sets meanwhile (`node.kubernetes.io/unreachable` or `not-ready`) is read
    /// as not ready from that taint.
    ///
    /// ## Why it matters
    /// Every Pod on the node is affected: the node lifecycle controller marks them not ready, taints
    /// the node `not-ready`/`unreachable` and evicts them after the toleration (300 s by default).
    /// Application symptoms on those Pods follow from the node.
    ///
    /// ## Evidence
    /// The node's Ready condition (status, reason, message), its `NodeNotReady` events, and the Pods
    /// whose `spec.nodeName` is the node. With the Node not pasted, the node lifecycle controller's
    /// `NodeNotReady` event alone ("Node X status is now: NodeNotReady"): a warning that says it
    /// cannot tell whether the node is still not ready; a later `NodeReady` event (the kubelet's)
    /// makes it history.
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
    pub const RULE = { id: "node-not-ready", boundary: Boundary::NodeRuntime, components: [Kubelet], check: check };
}

/// The kubelet records `NodeReady` ("Node X status is now: NodeReady") when its node turns Ready
/// again; the node lifecycle controller recorded the `NodeNotReady` before it.
const READY_AGAIN: Supersedes<'static> = Supersedes::Event {
    reasons: &["NodeReady"],
    same_part: false,
};

/// The taints the node lifecycle controller puts on a node while its Ready condition is `Unknown`
/// (`node.kubernetes.io/unreachable`) or `False` (`node.kubernetes.io/not-ready`), and removes when
/// it is `True` again.
const READY_TAINTS: [&str; 2] = ["node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_events(model, findings);
    let no_pods = !model.objects.iter().any(|o| matches!(o.typed, Typed::Pod(_)));
    for (index, node) in model
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id.kind == "Node")
    {
        let status = NodeStatus::of(node);
        // What says it is not ready: its Ready condition, or without one (`kubectl describe node`
        // cut before its Conditions: rancher/rancher#29997) the node lifecycle controller's taint.
        // `down`: it stopped reporting (Unknown, unreachable).
        let (state, message, fields, down, conditions_pasted) = match status.condition("Ready") {
            Some(ready) if ready.status == "True" => continue,
            Some(ready) => {
                let state = if ready.status == "Unknown" {
                    Msg::StoppedReporting {}
                } else {
                    Msg::ReportsNotReady {
                        reason: (!ready.reason.is_empty()).then(|| ready.reason.into()),
                    }
                };
                let fields = ["status", "reason", "message"]
                    .map(|f| format!("status.conditions[{}].{f}", ready.index));
                let message = (!ready.message.is_empty()).then(|| ready.message.to_string());
                (state, message, fields.to_vec(), ready.status == "Unknown", true)
            }
            None => {
                let ready_taint = status.taints().into_iter().find_map(|t| {
                    let key = t.key.filter(|k| READY_TAINTS.contains(k))?;
                    Some((t.index, key))
                });
                let Some((t, key)) = ready_taint else { continue };
                let state = Msg::Tainted {
                    taint: key.to_string(),
                };
                let fields = vec![format!("spec.taints[{t}].key")];
                (state, None, fields, key == READY_TAINTS[0], false)
            }
        };
        let mut evidence: Vec<Evidence> = fields.iter().filter_map(|f| model.evidence(node, f)).collect();
        for event in model
            .events_for(&node.id)
            .iter()
            .filter(|e| e.reason == "NodeNotReady")
            .take(2)
        {
            evidence.extend(model.event_evidence(event));
        }
        let summary = Msg::NotReady {
            subject: node.id.clone(),
            state: Box::new(state.into()),
            message,
            pods: model.pods_on(index),
        };
        let mut cannot_establish: Vec<Message> = Vec::new();
        if !conditions_pasted {
            cannot_establish.push(Msg::ConditionsNotPasted {}.into());
        }
        if down {
            cannot_establish.push(Msg::DownOffOrCut {}.into());
        }
        cannot_establish.push(Msg::PodsStillServe {}.into());
        if no_pods {
            cannot_establish.push(Msg::NoPods {}.into());
        }
        let name = &node.id.name;
        let mut next_steps = vec![
            command!("kubectl describe node {}", name),
            command!(
                "kubectl get pods -A -o wide --field-selector spec.nodeName={}",
                name
            ),
        ];
        if conditions_pasted {
            next_steps.push(command!("kubectl debug node/{} -it --image=busybox -- chroot /host journalctl -u kubelet --since -30m", name));
        }
        findings.push(RULE.finding(
            Severity::Error,
            node.id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

/// Nodes known only from their events: the node lifecycle controller's `NodeNotReady` ("Node X
/// status is now: NodeNotReady") with the Node itself not pasted (a pasted Node's condition is the
/// newer word, judged above). A later `NodeReady` makes it history.
fn check_events(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for node in model.event_subjects("Node", |e| e.reason == "NodeNotReady") {
        let id = node.subject;
        let Some(latest) = node.last().filter(|_| model.object(id).is_none()) else {
            continue;
        };
        let mut evidence: Vec<Evidence> = Vec::new();
        evidence.extend(model.event_evidence(latest));
        let summary = Msg::FromEvents {
            subject: id.clone(),
            last: history::last_seen(latest).map(Box::new),
        };
        let mut cannot_establish: Vec<Message> =
            vec![history::currentness_unknown(id), Msg::DownOffOrCut {}.into()];
        if !model.objects.iter().any(|o| matches!(o.typed, Typed::Pod(_))) {
            cannot_establish.push(Msg::NoPods {}.into());
        }
        let next_steps = vec![
            command!("kubectl describe node {}", id.name),
            command!(
                "kubectl get pods -A -o wide --field-selector spec.nodeName={}",
                id.name
            ),
        ];
        let mut finding = RULE.finding(
            Severity::Warning,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        if let Some(recovery) = history::superseded(model, id, Some(latest), &[READY_AGAIN]) {
            history::record(&mut finding, history::last_seen(latest), recovery);
        }
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `node-not-ready`.
    pub enum Msg {
        /// A node whose Ready condition is not `True`: the kubelet's state (`StoppedReporting`,
        /// `ReportsNotReady`), the condition's message verbatim, and the Pods pasted that run on it.
        NotReady { subject: ObjectRef, state: Box<Message>, message: Option<String>, pods: Vec<ObjectRef> } = "node-not-ready.not-ready" {
            en: {
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                let pods = if pods.0.is_empty() { String::new() } else { format!(" Pods pasted on it: {pods}.") };
                format!("{subject} is not ready: {state}{message}.{pods}")
            },
            zh: {
                let message = message.0.as_ref().map(|m| format!("：“{m}”")).unwrap_or_default();
                let pods = if pods.0.is_empty() { String::new() } else { format!("粘贴的 Pod 中运行在它上面的有：{pods}。") };
                format!("{subject} 未就绪：{state}{message}。{pods}")
            },
        },
        /// A node known from the node lifecycle controller's `NodeNotReady` event only, the Node not
        /// pasted; when the input says, when that event was last seen.
        FromEvents { subject: ObjectRef, last: Option<Box<Message>> } = "node-not-ready.from-events" {
            en: {
                let last = last.0.as_ref().map(|l| format!(" (last seen {})", l.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("The node lifecycle controller marked {subject} NotReady{last}: its kubelet stopped reporting, or reported the node not ready. From the events only; the Node was not pasted.")
            },
            zh: {
                let last = last.0.as_ref().map(|l| format!("（最近一次：{}）", l.render(faultline_report::lang::Lang::Zh))).unwrap_or_default();
                format!("节点生命周期控制器已将 {subject} 标记为 NotReady{last}：它的 kubelet 不再上报状态，或报告节点未就绪。这仅来自事件，输入中没有 Node 对象。")
            },
        },
        /// `Ready=Unknown`.
        StoppedReporting {} = "node-not-ready.stopped-reporting" {
            en: "its kubelet has stopped reporting (Ready=Unknown)",
            zh: "它的 kubelet 已经不再上报状态（Ready=Unknown）",
        },
        /// `Ready=False`, with the condition's reason if it has one.
        ReportsNotReady { reason: Option<Text> } = "node-not-ready.reports-not-ready" {
            en: {
                let reason = reason.0.as_ref().map(|r| format!(", {r}")).unwrap_or_default();
                format!("its kubelet reports it not ready (Ready=False{reason})")
            },
            zh: {
                let reason = reason.0.as_ref().map(|r| format!("，{r}")).unwrap_or_default();
                format!("它的 kubelet 报告它未就绪（Ready=False{reason}）")
            },
        },
        /// The node lifecycle controller's taint, with no Ready condition pasted.
        Tainted { taint: String } = "node-not-ready.tainted" {
            en: "the node lifecycle controller has tainted it {taint}, which it does while the node's Ready condition is Unknown (unreachable) or False (not-ready)",
            zh: "节点生命周期控制器给它打上了 {taint} 污点，只有在节点的 Ready 状况为 Unknown（unreachable）或 False（not-ready）时它才会这样做",
        },
        ConditionsNotPasted {} = "node-not-ready.conditions-not-pasted" {
            en: "The node's conditions were not pasted: since when it is not ready, and the kubelet's own reason, are in them.",
            zh: "输入中没有节点的状况（Conditions）：它从何时起未就绪、kubelet 自己给出的原因，都在其中。",
        },
        DownOffOrCut {} = "node-not-ready.down-off-or-cut" {
            en: "Whether the kubelet is down, the node is off, or the network between it and the control plane is cut: all three look the same from the API.",
            zh: "是 kubelet 挂了、节点关机了，还是它与控制平面之间的网络断了：从 API 看，这三种情况一模一样。",
        },
        PodsStillServe {} = "node-not-ready.pods-still-serve" {
            en: "Whether the Pods on it still serve: the API only knows what the kubelet last reported.",
            zh: "它上面的 Pod 是否仍在提供服务：API 只知道 kubelet 最后一次上报的内容。",
        },
        NoPods {} = "node-not-ready.no-pods" {
            en: "No Pods were pasted, so which workloads this node affects is unknown.",
            zh: "输入中没有 Pod，因此不清楚这个节点影响了哪些工作负载。",
        },
    }
}
