use crate::history::{self, Supersedes};
use faultline_model::signals::cni_plugin;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod whose sandbox (its network namespace) cannot be created: the kubelet's
    /// `FailedCreatePodSandBox` ("Failed to create pod sandbox: … plugin type=… failed (add): …") or
    /// `NetworkNotReady` ("network is not ready: container runtime network not ready: …cni plugin not
    /// initialized") events, read for the CNI plugin and its error.
    ///
    /// ## Why it matters
    /// The Pod is scheduled, its image may be pulled, yet no container can start because it cannot
    /// get a network: the CNI plugin on that node (or its IP address management) is the boundary, not
    /// the application.
    ///
    /// ## Evidence
    /// The sandbox and network events for the Pod with their counts; the plugin named in the message.
    /// A later `Created` or `Started` event (containers run only in a sandbox that exists), or the
    /// pasted Pod running and Ready, means the failures were before.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the CNI plugin and its agent on the node.
    ///
    /// ## What this evidence cannot establish
    /// Whether the CNI agent Pod on that node is running, whether the IP pool is exhausted, and
    /// whether other nodes are affected.
    ///
    /// ## Next evidence to collect
    /// The CNI agent's Pods (`kubectl get pods -n kube-system -o wide`), their logs on the Pod's node,
    /// and the node's Ready condition.
    ///
    /// ## Example
    /// ```text
    /// Warning  FailedCreatePodSandBox  kubelet  Failed to create pod sandbox: rpc error: ... plugin
    /// type="calico" failed (add): error getting ClusterInformation: connection is unauthorized
    /// ```
    pub const RULE = { id: "pod-sandbox-failed", boundary: Boundary::ZoneNetworkStorage, components: [ProxyCni, Kubelet if NodeNamed], check: check };
}

const SIGNALS: [&str; 2] = ["FailedCreatePodSandBox", "NetworkNotReady"];

/// A sandbox or network event of this rule: not one whose runtime says its init process was
/// OOM-killed, which is the Pod's memory limit (`container-init-oom-killed`), not its network.
fn is_signal(event: &faultline_model::EventRecord) -> bool {
    SIGNALS.contains(&event.reason.as_str())
        && !crate::application::container_init_oom_killed::says_init_oom(&event.message)
}

/// What the kubelet records once a sandbox exists: it creates and starts the containers in it.
const SANDBOX_SINCE: Supersedes<'static> = Supersedes::Event {
    reasons: &["Created", "Started"],
    same_part: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pod in model.event_subjects("Pod", is_signal) {
        let id = pod.subject;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let Some(latest) = pod.last() else {
            continue;
        };
        // Only the events `events_for` matches to the Pod (none for an ambiguous table row).
        let events = model.events_for(id);
        let signals: Vec<_> = events.iter().filter(|e| is_signal(e)).collect();
        // A container created or started since (the kubelet creates containers only in a sandbox
        // that exists), or the pasted Pod running and Ready: the sandbox failures were before.
        if history::superseded(
            model,
            id,
            Some(latest),
            &[SANDBOX_SINCE, Supersedes::PodRunningAndReady],
        )
        .is_some()
        {
            continue;
        }
        let mut evidence: Vec<Evidence> = Vec::new();
        evidence.extend(model.event_evidence(latest));
        let plugin = signals.iter().find_map(|e| cni_plugin::plugin_type(&e.message));
        let not_initialized = signals
            .iter()
            .any(|e| cni_plugin::sandbox_network_not_ready(&e.message));
        let count: u32 = signals.iter().map(|e| e.count).sum();
        let cause = match (plugin, not_initialized) {
            (_, true) => Msg::NetworkNotReady {},
            (Some(p), _) => Msg::PluginFails {
                plugin: p.to_string(),
            },
            (None, _) => Msg::NamespaceFails {},
        };
        let summary = Msg::CannotStart {
            subject: id.clone(),
            cause: Box::new(cause.into()),
            attempts: count,
        };
        let subject = id.clone();
        let cannot_establish: Vec<Message> = vec![Msg::CniAgent {}.into(), Msg::OtherNodes {}.into()];
        let next_steps = vec![
                command!("kubectl describe pod {} -n {}", id.name, ns),
                "kubectl get pods -n kube-system -o wide".to_string(),
                "kubectl get nodes -o 'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type==\"Ready\")].status'".to_string(),
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

faultline_report::messages! {
    /// The words of `pod-sandbox-failed`.
    pub enum Msg {
        /// The Pod's sandbox cannot be created: why, and how many attempts its events count.
        CannotStart { subject: ObjectRef, cause: Box<Message>, attempts: u32 } = "pod-sandbox-failed.cannot-start" {
            en: {
                let attempts = if *attempts.0 == 1 { "1 attempt".to_string() } else { format!("{attempts} attempts") };
                format!("{subject} cannot start: {cause} ({attempts}). No container can run until the sandbox exists.")
            },
            zh: "{subject} 无法启动：{cause}，已尝试 {attempts} 次。Pod 的沙箱建立之前，任何容器都无法运行。",
        },
        NetworkNotReady {} = "pod-sandbox-failed.network-not-ready" {
            en: "the node's container network is not ready (the CNI plugin is not initialized there)",
            zh: "节点的容器网络没有就绪（CNI 插件在该节点上尚未初始化）",
        },
        /// The CNI plugin the runtime names fails.
        PluginFails { plugin: String } = "pod-sandbox-failed.plugin-fails" {
            en: { format!("the CNI plugin \"{}\" fails to set up its network", plugin.0) },
            zh: { format!("CNI 插件 “{}” 无法为它配置网络", plugin.0) },
        },
        NamespaceFails {} = "pod-sandbox-failed.namespace-fails" {
            en: "its network namespace cannot be set up",
            zh: "它的网络命名空间无法建立",
        },
        CniAgent {} = "pod-sandbox-failed.cni-agent" {
            en: "Whether the CNI agent on that node is running, and whether its IP pool is exhausted.",
            zh: "该节点上的 CNI 代理是否在运行，以及它的 IP 地址池是否已经耗尽。",
        },
        OtherNodes {} = "pod-sandbox-failed.other-nodes" {
            en: "Whether other nodes are affected: these events are about one Pod on one node.",
            zh: "其他节点是否也受影响：这些事件只涉及一个节点上的一个 Pod。",
        },
    }
}
