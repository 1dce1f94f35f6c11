use crate::history::{self, Supersedes};
use faultline_model::signals::volume_attach_mount::{VolumeFailure, VolumeFailureCause};
use faultline_model::views::pod_running::any_container_running;
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

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
    pub const RULE = { id: "volume-mount-failed", boundary: Boundary::ZoneNetworkStorage, components: [Volumes, Kubelet if NodeNamed], check: check };
}

/// The words of what the volume failure says went wrong.
fn cause(failure: &VolumeFailure<'_>, message: &str) -> Msg {
    match failure.cause {
        VolumeFailureCause::MultiAttach => Msg::MultiAttach {},
        VolumeFailureCause::AttacherTimedOut { driver } => Msg::AttacherTimedOut {
            driver: driver.to_string(),
        },
        VolumeFailureCause::DriverNotRegistered { driver } => Msg::DriverNotRegistered {
            driver: driver.to_string(),
        },
        VolumeFailureCause::HostPath { detail } => Msg::HostPath {
            detail: detail.to_string(),
        },
        VolumeFailureCause::SourceMissing { detail } => Msg::SourceMissing {
            detail: detail.to_string(),
        },
        VolumeFailureCause::Other => Msg::KubeletReports {
            message: message.to_string(),
        },
    }
}

/// What shows a mount or attach failure passed.
const MOUNTED_SINCE: Supersedes<'static> = Supersedes::Event {
    reasons: &["SuccessfulAttachVolume", "SuccessfulMountVolume", "Started"],
    same_part: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let signal = |e: &EventRecord| e.volume_failure().is_some();
    for pod in model.event_subjects("Pod", signal) {
        let id = pod.subject;
        let object = model.objects_of_kind("Pod").find(|o| o.id == *id);
        // A pasted Pod whose containers run has its volumes: the failures were before.
        if object.is_some_and(any_container_running) {
            continue;
        }
        let signals: Vec<&EventRecord> = model.events_for(id).into_iter().filter(|e| signal(e)).collect();
        let specificity = |e: &&EventRecord| e.volume_failure().map_or(0, |f| f.specificity);
        let Some(best) = signals.iter().copied().max_by_key(specificity) else {
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
    object: Option<&faultline_ingest::Object>,
    id: &ObjectRef,
    signals: &[&EventRecord],
    best: &EventRecord,
) -> Finding {
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some(object) = object {
        evidence.extend(model.evidence(object, "status.containerStatuses[0].state.waiting.reason"));
        evidence.extend(model.evidence(object, "spec.nodeName"));
    }
    evidence.extend(model.event_evidence(best));
    for e in signals.iter().filter(|e| !std::ptr::eq(**e, best)).take(2) {
        evidence.extend(model.event_evidence(e));
    }
    let failure = best.volume_failure();
    let summary = Msg::CannotMount {
        subject: id.clone(),
        volume: failure.and_then(|f| f.volume).map(str::to_string),
        times: best.count,
        cause: Box::new(
            failure
                .map_or(
                    Msg::KubeletReports {
                        message: best.message.clone(),
                    },
                    |f| cause(&f, &best.message),
                )
                .into(),
        ),
    };
    let mut cannot_establish: Vec<Message> = vec![Msg::BackendHealthy {}.into(), Msg::OtherNode {}.into()];
    if object.is_none() {
        cannot_establish.push(Msg::NotPasted { subject: id.clone() }.into());
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

faultline_report::messages! {
    /// The words of `volume-mount-failed`.
    pub enum Msg {
        /// The Pod's containers cannot start because a volume (named when the kubelet's message
        /// names it) cannot be attached or mounted; `times` is the event's count.
        CannotMount { subject: ObjectRef, volume: Option<String>, times: u32, cause: Box<Message> } = "volume-mount-failed.cannot-mount" {
            en: {
                let volume = volume.0.as_ref().map_or_else(|| "a volume".to_string(), |v| format!("volume \"{v}\""));
                let times = if *times.0 > 1 { format!(" ({times} times)") } else { String::new() };
                format!("{subject} cannot start its containers because {volume} cannot be attached or mounted{times}: {cause}.")
            },
            zh: {
                let volume = volume.0.as_ref().map_or_else(|| "有一个卷".to_string(), |v| format!("卷 “{v}” "));
                let times = if *times.0 > 1 { format!("（{times} 次）") } else { String::new() };
                format!("{subject} 的容器无法启动，因为{volume}无法挂接或挂载{times}：{cause}。")
            },
        },
        MultiAttach {} = "volume-mount-failed.multi-attach" {
            en: "it is already attached to another node and can be attached to only one (Multi-Attach)",
            zh: "它已经挂接在另一个节点上，而它同时只能挂接到一个节点（Multi-Attach）",
        },
        /// The CSI driver's external-attacher timed out.
        AttacherTimedOut { driver: String } = "volume-mount-failed.attacher-timed-out" {
            en: "the CSI driver {driver}'s external-attacher never completed the attachment",
            zh: "CSI 驱动 {driver} 的 external-attacher 一直没有完成挂接",
        },
        /// The kubelet has no CSI driver of that name registered: its node plugin is not running there.
        DriverNotRegistered { driver: String } = "volume-mount-failed.driver-not-registered" {
            en: "the kubelet has no CSI driver {driver} registered (driver name {driver} not found in the list of registered CSI drivers): the driver's node plugin is not running there or has not registered",
            zh: "kubelet 上没有注册名为 {driver} 的 CSI 驱动（driver name {driver} not found in the list of registered CSI drivers）：该驱动的节点插件没有在那个节点上运行，或者还没有完成注册",
        },
        /// The hostPath type check failed; `detail` is the kubelet's words after it.
        HostPath { detail: String } = "volume-mount-failed.host-path" {
            en: "the hostPath on the node is not what the Pod expects ({detail})",
            zh: "节点上的 hostPath 与 Pod 所期望的不符（{detail}）",
        },
        /// The ConfigMap or Secret the volume is made from is missing; `detail` is the kubelet's words.
        SourceMissing { detail: String } = "volume-mount-failed.source-missing" {
            en: "an object the volume is made from does not exist ({detail})",
            zh: "构成这个卷的对象不存在（{detail}）",
        },
        /// No known cause: the kubelet's message verbatim.
        KubeletReports { message: String } = "volume-mount-failed.kubelet-reports" {
            en: "the kubelet reports: {message}",
            zh: "kubelet 报告：{message}",
        },
        BackendHealthy {} = "volume-mount-failed.backend-healthy" {
            en: "Whether the storage backend or the cloud's attach API is healthy, and the node's attach limits.",
            zh: "存储后端或云平台的挂接 API 是否健康，以及节点可挂接卷的数量上限。",
        },
        OtherNode {} = "volume-mount-failed.other-node" {
            en: "Whether the volume would attach on another node.",
            zh: "这个卷在另一个节点上能否挂接成功。",
        },
        NotPasted { subject: ObjectRef } = "volume-mount-failed.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its events alone, which are a hint.",
            zh: "输入中没有 {subject} 本身：这只基于它的事件，而事件只是线索。",
        },
    }
}

#[cfg(test)]
mod tests {
    use faultline_model::signals::volume_attach_mount::{VolumeFailure, VolumeFailureCause as C};

    #[test]
    fn causes_in_words() {
        let words = |cause: C<'_>| {
            let failure = VolumeFailure {
                volume: None,
                cause,
                specificity: 3,
            };
            faultline_report::message::Message::from(super::cause(&failure, "")).to_string()
        };
        assert!(words(C::MultiAttach).contains("Multi-Attach"));
        assert!(words(C::AttacherTimedOut {
            driver: "csi.vsphere.vmware.com"
        })
        .contains("csi.vsphere.vmware.com"));
        assert!(words(C::DriverNotRegistered {
            driver: "efs.csi.aws.com"
        })
        .contains("no CSI driver efs.csi.aws.com registered"));
        assert!(words(C::HostPath {
            detail: "/var/lib/collectd is not a directory"
        })
        .contains("not a directory"));
    }
}
