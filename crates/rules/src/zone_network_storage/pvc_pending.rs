use crate::history::{self, Supersedes};
use faultline_model::signals::volume_provisioning::ClaimProvisioning;
use faultline_model::views::persistent_volume_claim::{claim_phase, storage_class_name};
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A PersistentVolumeClaim that stays `Pending` because no volume is provided: the provisioner
    /// reports `ProvisioningFailed`, or the controller keeps waiting for an external provisioner
    /// (`ExternalProvisioning`: "Waiting for a volume to be created either by the external
    /// provisioner 'x' or manually…") that never answers, or no StorageClass is set and no
    /// PersistentVolume matches (`FailedBinding`). A claim waiting for its first consumer
    /// (`WaitForFirstConsumer`) is normal and not reported.
    ///
    /// ## Why it matters
    /// Every Pod using the claim waits with it, and the scheduler reports "pod has unbound immediate
    /// PersistentVolumeClaims": the scheduling symptom is explained by storage, and fixing
    /// placement will not help.
    ///
    /// ## Evidence
    /// The claim's phase and StorageClass, then the persistentvolume-controller's and provisioner's
    /// events with their counts; an event alone is a hint that the provisioner is not acting. With
    /// the claim not pasted, a later `ProvisioningSucceeded` means the failures were before. A
    /// claim `Pending` with no event at all (a `kubectl get pvc` row alone, a YAML without its
    /// events) is a warning from the weakest evidence, which says that its events would tell why and
    /// that a StorageClass binding at first consumer makes Pending normal; it is quiet when the
    /// pasted StorageClass has `volumeBindingMode: WaitForFirstConsumer` (its YAML or the get
    /// table's VOLUMEBINDINGMODE), and folded into the finding of another Pending claim of the same
    /// StorageClass whose events are pasted (its phase cited there). The newest copy of a claim
    /// counts: a watch or a later paste that shows it `Bound` makes the earlier `Pending` history.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the StorageClass's provisioner (a CSI controller) and the backend.
    ///
    /// ## What this evidence cannot establish
    /// Whether the provisioner's Pods are running and registered, whether the storage backend is
    /// healthy, and whether the StorageClass exists as named.
    ///
    /// ## Next evidence to collect
    /// The StorageClass (`kubectl get storageclass NAME -o yaml`), the CSI driver and its controller
    /// Pods, and the provisioner's logs.
    ///
    /// ## Example
    /// ```text
    /// Status:        Pending
    ///   Normal  ExternalProvisioning  4s (x142 over 35m)  persistentvolume-controller  Waiting for a
    ///   volume to be created either by the external provisioner 'rbd.csi.ceph.com' …
    /// ```
    pub const RULE = { id: "pvc-pending", boundary: Boundary::ZoneNetworkStorage, components: [Volumes, Kubelet if NodeNamed], check: check };
}

/// The provisioner records `ProvisioningSucceeded` ("Successfully provisioned volume pvc-…") once
/// it has created the volume.
const PROVISIONED_SINCE: Supersedes<'static> = Supersedes::Event {
    reasons: &["ProvisioningSucceeded"],
    same_part: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let signal = |e: &EventRecord| e.claim_provisioning().is_some();
    for id in model.pending_claims(signal) {
        // The newest copy of the claim in the input (a watch's last row, a later paste): a claim
        // Pending first and Bound since is history.
        let object = model.newest_claim(&id).or_else(|| model.object(&id));
        if object.and_then(claim_phase).is_some_and(|p| p != "Pending") {
            continue; // bound since
        }
        let events = model.events_for(&id);
        let signals: Vec<&EventRecord> = events.iter().copied().filter(|e| signal(e)).collect();
        let Some(latest) = signals.last() else {
            // Pending with no event at all (a `kubectl get pvc` row, a YAML without its events):
            // the weakest evidence, a warning; a claim waiting for its first consumer says so in
            // an event or its StorageClass, and is normal. Another Pending claim of its class with
            // events explains it (and lists it in its evidence).
            if let Some(object) = object.filter(|_| events.is_empty()) {
                let sibling_explains = model
                    .pending_claims_of_class(object)
                    .iter()
                    .any(|o| model.events_for(&o.id).iter().any(|e| signal(e)));
                if !model.binds_at_first_consumer(object) && !sibling_explains {
                    findings.push(phase_only(model, object));
                }
            }
            continue;
        };
        // A volume provisioned since (the provisioner's `ProvisioningSucceeded`), the claim not
        // pasted: the failures were before; binding follows.
        if object.is_none() && history::superseded(model, &id, Some(latest), &[PROVISIONED_SINCE]).is_some() {
            continue;
        }
        findings.push(finding(model, object, &id, &signals, latest));
    }
}

/// A claim Pending with no event in the input: what the table (or the YAML) shows, and what its
/// events would have said.
fn phase_only(model: &Model<'_>, object: &faultline_ingest::Object) -> Finding {
    let id = &object.id;
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence: Vec<Evidence> = Vec::new();
    evidence.extend(model.evidence(object, "status.phase"));
    evidence.extend(model.evidence(object, "spec.storageClassName"));
    let class = storage_class_name(object).map(str::to_string);
    let summary = Msg::Pending {
        subject: id.clone(),
        cause: Box::new(Msg::NoEventShown {}.into()),
    };
    let mut cannot_establish: Vec<Message> = vec![Msg::WhyPending {}.into()];
    if class.is_some() {
        cannot_establish.push(Msg::FirstConsumer {}.into());
        if !model.graph.inventory.has("StorageClass") {
            cannot_establish.push(Msg::NoStorageClass {}.into());
        }
    } else {
        cannot_establish.push(Msg::NoClassNamed {}.into());
    }
    let mut next_steps = vec![command!("kubectl describe pvc {} -n {}", id.name, ns)];
    if let Some(class) = &class {
        next_steps.push(command!("kubectl get storageclass {} -o yaml", class));
    }
    RULE.finding(
        Severity::Warning,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    )
}

/// Whether a CSI controller plugin of the components' table (its Pod, Deployment or StatefulSet)
/// is in the input, by the names the table knows (a Pod's name without its generated suffixes).
fn csi_controller_pasted(model: &Model<'_>) -> bool {
    use crate::cluster_components::{entry_named, Family};
    model.objects.iter().any(|o| {
        let Some(ns) = o.id.namespace.as_deref() else {
            return false;
        };
        if !matches!(o.id.kind.as_str(), "Pod" | "Deployment" | "StatefulSet") {
            return false;
        }
        let name = o.id.name.as_str();
        let once = name.rsplit_once('-').map(|(head, _)| head);
        let twice = once.and_then(|h| h.rsplit_once('-')).map(|(head, _)| head);
        [Some(name), once, twice]
            .into_iter()
            .flatten()
            .any(|n| entry_named(ns, n).is_some_and(|e| e.family == Family::CsiController))
    })
}

fn finding(
    model: &Model<'_>,
    object: Option<&faultline_ingest::Object>,
    id: &ObjectRef,
    signals: &[&EventRecord],
    latest: &EventRecord,
) -> Finding {
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some(object) = object {
        evidence.extend(model.evidence(object, "status.phase"));
        evidence.extend(model.evidence(object, "spec.storageClassName"));
    }
    evidence.extend(model.event_evidence(latest));
    // The other Pending claims of its class with no event: they wait on the same provisioner.
    for sibling in object
        .map(|o| model.pending_claims_of_class(o))
        .unwrap_or_default()
    {
        if model.events_for(&sibling.id).is_empty() {
            evidence.extend(model.evidence(sibling, "status.phase"));
        }
    }
    let class = object.and_then(storage_class_name).map(str::to_string);
    let provisioner = match latest.claim_provisioning() {
        Some(ClaimProvisioning::WaitingForProvisioner { provisioner }) => provisioner.map(str::to_string),
        _ => None,
    };
    let times = latest.count;
    let cause = match latest.claim_provisioning() {
        Some(ClaimProvisioning::WaitingForProvisioner { .. }) => Msg::WaitingForProvisioner {
            provisioner: provisioner.clone(),
            times,
        },
        Some(ClaimProvisioning::Failed) => Msg::ProvisioningFailed {
            times,
            message: latest.message.clone(),
        },
        _ => Msg::CannotBind {
            times,
            message: latest.message.clone(),
        },
    };
    let summary = Msg::Pending {
        subject: id.clone(),
        cause: Box::new(cause.into()),
    };
    let mut cannot_establish: Vec<Message> = Vec::new();
    // Computed, not assumed: a CSI controller's Pods or workload in the input are
    // `cluster-component-failing`'s to judge, and then they were in this evidence.
    if !csi_controller_pasted(model) {
        cannot_establish.push(Msg::ProvisionerPods {}.into());
    }
    cannot_establish.push(Msg::BackendHealthy {}.into());
    if !model.graph.inventory.has("StorageClass") {
        cannot_establish.push(Msg::NoStorageClass {}.into());
    }
    if signals.iter().all(|e| e.type_ != "Warning") {
        cannot_establish.push(Msg::NormalEvent {}.into());
    }
    let mut next_steps = vec![command!("kubectl describe pvc {} -n {}", id.name, ns)];
    if let Some(class) = &class {
        next_steps.push(command!("kubectl get storageclass {} -o yaml", class));
    }
    if let Some(p) = &provisioner {
        next_steps.push(command!("kubectl get csidriver {}", p));
    }
    next_steps.push("kubectl get pods -A -o wide | grep -i -E 'csi|provisioner'".to_string());
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
    /// The words of `pvc-pending`.
    pub enum Msg {
        /// The claim is `Pending`, and why (one of the causes below).
        Pending { subject: ObjectRef, cause: Box<Message> } = "pvc-pending.pending" {
            en: "{subject} is Pending: {cause}. Every Pod that uses it waits with it.",
            zh: "{subject} 处于 Pending：{cause}。所有使用它的 Pod 都会跟着等待。",
        },
        /// `ExternalProvisioning` repeated: the named provisioner (or its StorageClass's) never
        /// answers; `times` is the event's count.
        WaitingForProvisioner { provisioner: Option<String>, times: u32 } = "pvc-pending.waiting-for-provisioner" {
            en: {
                let provisioner = provisioner.0.as_ref().map_or_else(|| "of its StorageClass".to_string(), |p| format!("'{p}'"));
                let repeated = if *times.0 > 1 { format!(" ({times} times)") } else { String::new() };
                format!("it is still waiting for the external provisioner {provisioner}{repeated} to create a volume, and nothing has answered: the provisioner looks absent, not running or not registered")
            },
            zh: {
                let provisioner = provisioner.0.as_ref().map_or_else(|| "它的 StorageClass 所指定的外部制备器".to_string(), |p| format!("外部制备器 '{p}' "));
                let repeated = if *times.0 > 1 { format!("（事件已重复 {times} 次）") } else { String::new() };
                format!("它仍在等待{provisioner}创建卷{repeated}，却一直没有回应：这个制备器看起来不存在、没有运行或没有注册")
            },
        },
        /// `ProvisioningFailed`, with the event's message verbatim.
        ProvisioningFailed { times: u32, message: String } = "pvc-pending.provisioning-failed" {
            en: {
                let repeated = if *times.0 > 1 { format!(" ({times} times)") } else { String::new() };
                format!("the provisioner failed to create a volume{repeated}: {message}")
            },
            zh: {
                let repeated = if *times.0 > 1 { format!("（{times} 次）") } else { String::new() };
                format!("制备器创建卷失败{repeated}：{message}")
            },
        },
        /// Any other binding failure, with the event's message verbatim.
        CannotBind { times: u32, message: String } = "pvc-pending.cannot-bind" {
            en: {
                let repeated = if *times.0 > 1 { format!(" ({times} times)") } else { String::new() };
                format!("no volume can be bound{repeated}: {message}")
            },
            zh: {
                let repeated = if *times.0 > 1 { format!("（{times} 次）") } else { String::new() };
                format!("没有可以绑定的卷{repeated}：{message}")
            },
        },
        /// The claim is Pending and no event in the input says why (a `get pvc` row alone).
        NoEventShown {} = "pvc-pending.no-event-shown" {
            en: "no event in the input says why: the persistentvolume-controller's or the provisioner's events (kubectl describe pvc) would",
            zh: "输入中没有任何事件说明原因：persistentvolume-controller 或制备器的事件（kubectl describe pvc）会说明",
        },
        WhyPending {} = "pvc-pending.why-pending" {
            en: "Why the claim is Pending: no provisioning or binding event was in this evidence, so whether the provisioner failed, never answered or no PersistentVolume matches is unknown.",
            zh: "卷申领为什么处于 Pending：这些证据中没有制备或绑定的事件，因此不知道是制备器失败了、一直没有回应，还是没有匹配的 PersistentVolume。",
        },
        NoClassNamed {} = "pvc-pending.no-class-named" {
            en: "The claim names no StorageClass in this evidence: it binds to a matching PersistentVolume, or is provisioned by the cluster's default StorageClass if one exists; whether either does is not shown.",
            zh: "这些证据中该卷申领没有指定 StorageClass：它会绑定到一个匹配的 PersistentVolume，或者在存在默认 StorageClass 时由它来制备；两者是否存在，这里看不到。",
        },
        FirstConsumer {} = "pvc-pending.first-consumer" {
            en: "Whether its StorageClass binds only when a Pod uses the claim (volumeBindingMode: WaitForFirstConsumer): then Pending is normal until such a Pod is scheduled.",
            zh: "它的 StorageClass 是否只在有 Pod 使用该卷申领时才绑定（volumeBindingMode: WaitForFirstConsumer）：若是，在这样的 Pod 被调度之前处于 Pending 是正常的。",
        },
        ProvisionerPods {} = "pvc-pending.provisioner-pods" {
            en: "Whether the provisioner's Pods (the CSI controller) are running and registered: they were not in this evidence.",
            zh: "制备器的 Pod（CSI 控制器）是否在运行并已注册：这些证据中没有它们。",
        },
        BackendHealthy {} = "pvc-pending.backend-healthy" {
            en: "Whether the storage backend itself is healthy.",
            zh: "存储后端本身是否健康。",
        },
        NoStorageClass {} = "pvc-pending.no-storage-class" {
            en: "No StorageClass was pasted, so whether it exists as named and which provisioner it names is unknown.",
            zh: "输入中没有 StorageClass，因此不知道是否存在这个名字的 StorageClass，也不知道它指定的是哪个制备器。",
        },
        NormalEvent {} = "pvc-pending.normal-event" {
            en: "The evidence is a Normal event repeated, not an error: it shows the controller waiting, not why nothing answers.",
            zh: "证据是一个重复出现的 Normal 事件，而不是错误：它只说明控制器在等待，没有说明为什么没有任何回应。",
        },
    }
}
