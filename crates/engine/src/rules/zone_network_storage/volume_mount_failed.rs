use std::collections::BTreeSet;

use crate::ingest::Typed;
use crate::model::{EventRecord, Model};
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity};
use crate::rules::history::{self, Supersedes};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod whose volumes cannot be attached or mounted, so its containers never start: the
    /// kubelet's `FailedMount` and the attach/detach controller's `FailedAttachVolume` /
    /// `FailedMapVolume` events, with the Pod's containers still `ContainerCreating` when the Pod was
    /// pasted. The most specific message is chosen over the generic "Unable to attach or mount
    /// volumes … timed out waiting for the condition", and read for the volume and the cause:
    /// Multi-Attach (the volume is attached to another node), a CSI attacher that never answers, a
    /// hostPath of the wrong type, a missing ConfigMap or Secret.
    ///
    /// ## Why it matters
    /// The Pod is scheduled and may look healthy from the scheduler's side, yet nothing runs: the
    /// storage or its driver is the boundary, not the application or the image.
    ///
    /// ## Evidence
    /// The Pod's waiting containers and the volume events with their counts, the volume named in the
    /// message; events alone are a hint.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the CSI driver, the attach/detach controller, the node's mounts.
    ///
    /// ## What this evidence cannot establish
    /// Whether the storage backend or the cloud's attach API is healthy, attach limits per node, and
    /// whether the volume would attach on another node.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe pod`, the VolumeAttachment objects, the CSI driver's controller and node
    /// Pods and their logs.
    ///
    /// ## Example
    /// ```text
    /// 118s (x6 over 14m)  Warning  FailedAttachVolume  Pod/gitaly-0  AttachVolume.Attach failed for
    /// volume "pvc-a61f…" : timed out waiting for external-attacher of csi.vsphere.vmware.com
    /// ```
    pub const RULE = { id: "volume-mount-failed", boundary: Boundary::ZoneNetworkStorage, components: [Volumes, Kubelet if NodeNamed], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 卷无法挂接（attach）或挂载（mount）、因而容器始终无法启动的 Pod：kubelet 的 `FailedMount` 事件，以及挂接/解挂控制器的 `FailedAttachVolume` / `FailedMapVolume` 事件；粘贴了 Pod 时，它的容器仍处于 `ContainerCreating`。规则会优先选择最具体的消息，而不是笼统的 `Unable to attach or mount volumes … timed out waiting for the condition`，并从中读出卷和原因：Multi-Attach（卷已挂接到另一个节点）、从不响应的 CSI attacher、类型不对的 hostPath、缺失的 ConfigMap 或 Secret。

 ## 为什么重要
 Pod 已被调度，从调度器的角度看可能一切正常，但什么都没有运行：故障边界是存储或它的驱动，而不是应用或镜像。

 ## 证据
 Pod 中处于等待的容器，卷相关事件及其次数，以及消息中指名的卷；单凭事件只是线索。

 ## 故障边界
 `zone-network-storage`：CSI 驱动、挂接/解挂控制器、节点上的挂载。

 ## 这些证据无法确定的内容
 存储后端或云的挂接 API 是否健康，每个节点的挂接数量上限，以及该卷在另一个节点上能否挂接。

 ## 下一步应收集的证据
 `kubectl describe pod`，VolumeAttachment 对象，CSI 驱动的控制器 Pod 和节点 Pod 及其日志。

 ## 示例
 ```text
 118s (x6 over 14m)  Warning  FailedAttachVolume  Pod/gitaly-0  AttachVolume.Attach failed for
 volume "pvc-a61f…" : timed out waiting for external-attacher of csi.vsphere.vmware.com
 ```
"#;

const SIGNALS: [&str; 3] = ["FailedAttachVolume", "FailedMount", "FailedMapVolume"];

/// How specific a volume message is: the generic kubelet timeout is the least.
fn specificity(event: &EventRecord) -> u8 {
    let m = &event.message;
    if m.contains("Multi-Attach")
        || m.contains("external-attacher")
        || m.contains("type check failed")
        || m.contains("not found")
    {
        3
    } else if event.reason == "FailedAttachVolume" || m.contains("MountVolume.") {
        2
    } else {
        1
    }
}

fn cause(message: &str) -> String {
    if message.contains("Multi-Attach") {
        "it is already attached to another node and can be attached to only one (Multi-Attach)".into()
    } else if let Some((_, rest)) = message.split_once("timed out waiting for external-attacher of ") {
        let driver = rest.split_whitespace().next().unwrap_or(rest);
        format!("the CSI driver {driver}'s external-attacher never completed the attachment")
    } else if let Some((_, rest)) = message.split_once("hostPath type check failed: ") {
        format!("the hostPath on the node is not what the Pod expects ({rest})")
    } else if message.contains("not found") && (message.contains("configmap") || message.contains("secret")) {
        format!(
            "an object the volume is made from does not exist ({})",
            message.rsplit(" : ").next().unwrap_or(message)
        )
    } else {
        format!("the kubelet reports: {message}")
    }
}

fn volume(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once("volume \"")?;
    rest.split('"').next()
}

/// What shows a mount or attach failure passed.
const MOUNTED_SINCE: Supersedes<'static> = Supersedes::Event {
    reasons: &["SuccessfulAttachVolume", "SuccessfulMountVolume", "Started"],
    same_part: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen = BTreeSet::new();
    for event in model
        .events
        .iter()
        .filter(|e| e.subject.kind == "Pod" && SIGNALS.contains(&e.reason.as_str()))
    {
        if !seen.insert((event.subject.namespace.clone(), event.subject.name.clone())) {
            continue;
        }
        let id = &event.subject;
        let object = model
            .objects
            .iter()
            .find(|o| o.id.kind == "Pod" && o.id.namespace == id.namespace && o.id.name == id.name);
        // A pasted Pod whose containers run has its volumes: the failures were before.
        if let Some(Typed::Pod(pod)) = object.map(|o| &o.typed) {
            let running = pod
                .status
                .as_ref()
                .and_then(|s| s.container_statuses.as_ref())
                .is_some_and(|cs| {
                    cs.iter()
                        .any(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
                });
            if running {
                continue;
            }
        }
        let events = model.events_for(id);
        let signals: Vec<&EventRecord> = events
            .iter()
            .copied()
            .filter(|e| SIGNALS.contains(&e.reason.as_str()))
            .collect();
        let Some(best) = signals.iter().copied().max_by_key(|e| specificity(e)) else {
            continue;
        };
        // A later successful attach or mount, or a container started since (the kubelet starts
        // containers only once their volumes are mounted): the failures were before.
        if history::superseded(model, id, signals.last().copied(), &[MOUNTED_SINCE]).is_some() {
            continue;
        }
        findings.push(finding(model, object, id, &signals, best));
    }
}

fn finding(
    model: &Model<'_>,
    object: Option<&crate::ingest::Object>,
    id: &ObjectRef,
    signals: &[&EventRecord],
    best: &EventRecord,
) -> Finding {
    let ns = id.namespace.as_deref().unwrap_or("default");
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some(object) = object {
        evidence.extend(model.evidence(object, "status.containerStatuses[0].state.waiting.reason"));
        evidence.extend(model.evidence(object, "spec.nodeName"));
    }
    evidence.extend(model.event_evidence(best));
    for e in signals.iter().filter(|e| !std::ptr::eq(**e, best)).take(2) {
        evidence.extend(model.event_evidence(e));
    }
    let times = if best.count > 1 {
        format!(" ({} times)", best.count)
    } else {
        String::new()
    };
    let volume = volume(&best.message).map_or("a volume".to_string(), |v| format!("volume {v:?}"));
    let summary = format!(
        "{id} cannot start its containers because {volume} cannot be attached or mounted{times}: {}.",
        cause(&best.message)
    );
    let mut cannot_establish = vec![
        "Whether the storage backend or the cloud's attach API is healthy, and the node's attach limits."
            .to_string(),
        "Whether the volume would attach on another node.".to_string(),
    ];
    if object.is_none() {
        cannot_establish.push(format!(
            "{id} itself was not pasted: this rests on its events alone, which are a hint."
        ));
    }
    let next_steps = vec![
        command!("kubectl describe pod {} -n {}", id.name, ns),
        "kubectl get volumeattachments".to_string(),
        "kubectl get pods -A -o wide | grep -i csi".to_string(),
    ];
    RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    )
}

crate::messages! {
    /// The words of `volume-mount-failed`.
    pub enum Msg {}
}

#[cfg(test)]
mod tests {
    #[test]
    fn causes() {
        assert!(super::cause(
            "Multi-Attach error for volume \"pvc-1\" Volume is already exclusively attached to one node"
        )
        .contains("Multi-Attach"));
        assert!(super::cause("AttachVolume.Attach failed for volume \"pvc-a\" : timed out waiting for external-attacher of csi.vsphere.vmware.com CSI driver").contains("csi.vsphere.vmware.com"));
        assert!(super::cause("MountVolume.SetUp failed for volume \"host\" : hostPath type check failed: /var/lib/collectd is not a directory").contains("not a directory"));
        assert_eq!(
            super::volume("MountVolume.SetUp failed for volume \"host\" : x"),
            Some("host")
        );
    }
}
