use faultline_model::signals::volume_reclaim::volume_phase_and_message;
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A PersistentVolume the PV controller could not reclaim after its claim was released: phase
    /// `Failed`, with the controller's message (`Recycler failed: …`, `Delete of volume … failed`),
    /// or, with the PV not pasted, the controller's warnings about it (`VolumeFailedRecycle`,
    /// `VolumeFailedDelete`, and `RecyclerPod` relaying its recycler Pod's failure: `Recycler pod:
    /// Unable to mount volumes for pod …`).
    ///
    /// ## Why it matters
    /// A Failed volume is not offered to any claim again and, with `Delete`, the storage behind it
    /// is not freed: new claims of its class wait or provision more, and the storage leaks. The
    /// cause is the storage backend (the NFS server, the provisioner, the cloud disk API), not the
    /// workload that used it.
    ///
    /// ## Evidence
    /// The PV's `status.phase` and `status.message`, its reclaim policy and claim, and the PV
    /// controller's warning events about it.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the volume and the storage backend behind it.
    ///
    /// ## What this evidence cannot establish
    /// Whether the backend is still failing (the phase stays Failed until someone acts), and, for
    /// a recycler Pod that could not mount the volume, why the node could not reach the storage.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe pv NAME` (message and events), the provisioner's or the storage backend's
    /// log, and for NFS whether the server answers from the nodes (`showmount -e SERVER`).
    ///
    /// ## Example
    /// ```text
    /// Name:       nfs
    /// Status:     Failed
    /// Reclaim Policy: Recycle
    /// Message:    Recycler failed: Pod was active on the node longer than specified deadline
    /// ```
    pub const RULE = { id: "volume-reclaim-failed", boundary: Boundary::ZoneNetworkStorage, components: [Volumes], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pv in model.objects_of_kind("PersistentVolume") {
        let (phase, message) = volume_phase_and_message(pv);
        if phase != Some("Failed") {
            continue;
        }
        let mut evidence: Vec<Evidence> = [
            "status.phase",
            "status.message",
            "spec.persistentVolumeReclaimPolicy",
        ]
        .iter()
        .filter_map(|path| model.evidence(pv, path))
        .collect();
        evidence.extend(
            model
                .events_for(&pv.id)
                .iter()
                .filter(|e| e.is_reclaim_failure())
                .take(2)
                .filter_map(|e| model.event_evidence(e)),
        );
        findings.push(RULE.finding(
            Severity::Error,
            pv.id.clone(),
            Msg::Failed {
                subject: pv.id.clone(),
                message: message.map(str::to_string),
            },
            evidence,
            [Msg::StillFailing {}],
            next_steps(&pv.id.name),
        ));
    }
    for event in model.reclaim_failures_of_unpasted_volumes() {
        findings.push(RULE.finding(
            Severity::Warning,
            event.subject.clone(),
            Msg::FromEvents {
                subject: event.subject.clone(),
                message: event.message.clone(),
            },
            model.event_evidence(event).into_iter().collect(),
            [Msg::StillFailing {}, Msg::EventsOnly {}],
            next_steps(&event.subject.name),
        ));
    }
}

fn next_steps(name: &str) -> Vec<String> {
    let name = if name.is_empty() { "PV" } else { name };
    vec![
        command!("kubectl describe pv {}", name),
        command!("kubectl get pv {} -o yaml", name),
    ]
}

faultline_report::messages! {
    /// The words of `volume-reclaim-failed`.
    pub enum Msg {
        /// A PV in phase Failed, with the PV controller's message when it has one.
        Failed { subject: ObjectRef, message: Option<String> } = "volume-reclaim-failed.failed" {
            en: {
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                format!("{subject} is Failed: the PV controller could not reclaim it after its claim was released{message}. It is offered to no claim until someone acts.")
            },
            zh: {
                let message = message.0.as_ref().map(|m| format!("：“{m}”")).unwrap_or_default();
                format!("{subject} 处于 Failed：申领释放后，PV 控制器无法回收它{message}。在有人处理之前，它不会再提供给任何申领。")
            },
        },
        /// A volume known from the PV controller's warnings only.
        FromEvents { subject: ObjectRef, message: String } = "volume-reclaim-failed.from-events" {
            en: "The PV controller could not reclaim {subject}: \"{message}\". From the events only; the PV was not pasted.",
            zh: "PV 控制器无法回收 {subject}：“{message}”。这仅来自事件，输入中没有这个 PV。",
        },
        StillFailing {} = "volume-reclaim-failed.still-failing" {
            en: "Whether the storage backend still fails: the phase stays Failed until someone acts, and why the backend failed is in its own log.",
            zh: "存储后端现在是否仍然故障：在有人处理之前阶段一直是 Failed，而后端为什么失败要看它自己的日志。",
        },
        EventsOnly {} = "volume-reclaim-failed.events-only" {
            en: "The PV itself was not pasted: its phase, reclaim policy and message are not known.",
            zh: "输入中没有 PV 本身：它的阶段、回收策略和消息都不清楚。",
        },
    }
}
