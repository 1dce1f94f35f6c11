use crate::control_plane::components::{component, SCHEDULER};
use faultline_ingest::Object;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// Pods that no scheduler has looked at: `Pending`, no node (`Node: <none>`, no `spec.nodeName`,
    /// no `nominatedNodeName`), no `PodScheduled` condition at all, and no event about them — not a
    /// `FailedScheduling`, not a `Scheduled` — where the input shows it would have one: describe's
    /// `Events:  <none>`, or pasted events with none about the Pod (for a `get pods` row, which shows
    /// no conditions, events of its namespace with none about it). When the input also lists
    /// `kube-system`'s control-plane Pods without a `kube-scheduler` among them, or a `spec.schedulerName`
    /// other than `default-scheduler`, it says so.
    ///
    /// ## Why it matters
    /// A Pod the scheduler cannot place still gets a `PodScheduled=False` condition and a
    /// `FailedScheduling` event saying why. A Pod with neither was never tried: the scheduler is not
    /// running, cannot reach the API server, is not the leader anywhere, or the Pod names a scheduler
    /// that does not exist. Looking at node capacity, taints or quotas wastes time here.
    ///
    /// ## Evidence
    /// The Pods' `status.phase`, the absence of `spec.nodeName` and of a `PodScheduled` condition,
    /// describe's `Events:  <none>`, their `spec.schedulerName`, and the `kube-system` Pods pasted.
    ///
    /// ## Fault boundary
    /// `control-plane`: the scheduler is a control-plane component; the Pods' own constraints were
    /// never evaluated, so this is not the `scheduling` row's constraints.
    ///
    /// ## What this evidence cannot establish
    /// Why the scheduler is not scheduling: not running, crash-looping, unable to authenticate to the
    /// API server, or without the leader lease; only its log and its Pod say. A Pod created seconds
    /// before the capture may simply not have been reached yet.
    ///
    /// ## Next evidence to collect
    /// `kubectl -n kube-system get pods -l component=kube-scheduler -o wide`, the scheduler's log
    /// (`kubectl -n kube-system logs -l component=kube-scheduler`, or `crictl logs` on the control-plane
    /// node), its lease (`kubectl -n kube-system get lease kube-scheduler -o yaml`), and the Pods'
    /// `spec.schedulerName`.
    ///
    /// ## Example
    /// ```text
    /// Name:             web-7d9f5c6b8-x2kqp
    /// Node:             <none>
    /// Status:           Pending
    /// Events:           <none>
    /// ```
    pub const RULE = { id: "scheduler-not-running", boundary: Boundary::ControlPlane, components: [Scheduler], check: check };
}

faultline_report::messages! {
    /// The words of `scheduler-not-running`.
    pub enum Msg {
        /// `pods` Pods Pending that no scheduler has tried; `named` lists a few; `why` is what else
        /// the input says (a clause or none).
        Untried { subject: ObjectRef, pods: usize, named: Vec<Text>, why: Option<Box<Message>> } = "scheduler-not-running.untried" {
            en: {
                let which = if *pods.0 == 1 { format!("{subject} is") } else { format!("{subject} and {} more Pods ({named}) are", *pods.0 - 1) };
                let why = why.0.as_ref().map(|w| format!(" {}", w.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{which} Pending with no node, no PodScheduled condition and no event at all: no scheduler has tried to place them, which a scheduler that cannot place a Pod would still report (FailedScheduling). The scheduler is not running or not scheduling.{why}")
            },
            zh: {
                let which = if *pods.0 == 1 { format!("{subject} ") } else { format!("{subject} 等 {pods} 个 Pod（{named}）") };
                let why = why.0.as_ref().map(|w| w.render(faultline_report::lang::Lang::Zh)).unwrap_or_default();
                format!("{which}处于 Pending，没有节点，没有 PodScheduled 状况，也没有任何事件：没有调度器尝试过放置它们；即使调度器放不下某个 Pod，也会报告出来（FailedScheduling）。调度器没有运行，或者没有在调度。{why}")
            },
        },
        /// The `kube-system` Pods pasted include other control-plane components but no scheduler.
        NoSchedulerPod { seen: Vec<Text> } = "scheduler-not-running.no-scheduler-pod" {
            en: "The kube-system Pods pasted include {seen} but no kube-scheduler.",
            zh: "粘贴的 kube-system Pod 中有 {seen}，却没有 kube-scheduler。",
        },
        /// The Pod names a scheduler other than the default one.
        OtherScheduler { name: Text } = "scheduler-not-running.other-scheduler" {
            en: "It names schedulerName {name}: no scheduler of that name has picked it up.",
            zh: "它指定的 schedulerName 是 {name}：没有哪个同名的调度器接手它。",
        },
        WhyNot {} = "scheduler-not-running.why-not" {
            en: "Why the scheduler is not scheduling (not running, crash-looping, unable to authenticate to the API server, without the leader lease): its Pod and its log say, and neither was pasted.",
            zh: "调度器为什么不调度（没有运行、崩溃循环、无法向 API 服务器认证、没有拿到领导者租约）：要看它的 Pod 和日志，而这两样都没有粘贴。",
        },
        TooYoung {} = "scheduler-not-running.too-young" {
            en: "Whether the Pods were created only seconds before the capture, before a scheduler could reach them.",
            zh: "这些 Pod 是否在采集前几秒才创建，调度器还没来得及处理。",
        },
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let pods = model.untried_pods();
    let Some(first) = pods.first() else { return };
    // The control plane's Pods pasted: a scheduler among them, or the others without one.
    let control_plane: Vec<(&Object, &'static str)> = model
        .objects_in(Some("kube-system"))
        .filter_map(|o| Some((o, component(o)?)))
        .collect();
    let scheduler_pasted = control_plane.iter().any(|(_, c)| *c == SCHEDULER);
    let mut evidence: Vec<Evidence> = pods
        .iter()
        .take(5)
        .flat_map(|p| p.evidence.iter().cloned())
        .collect();
    let why: Option<Message> = if let Some(name) = pods.iter().find_map(|p| p.other_scheduler()) {
        Some(Msg::OtherScheduler { name: name.into() }.into())
    } else if !scheduler_pasted && !control_plane.is_empty() {
        let mut seen: Vec<Text> = Vec::new();
        for (o, _) in &control_plane {
            if !seen.contains(&o.id.name) {
                seen.push(o.id.name.clone());
                evidence.extend(model.evidence(o, "metadata.name"));
            }
        }
        Some(Msg::NoSchedulerPod { seen }.into())
    } else {
        None
    };
    let several = pods.len() > 1 || why.is_some();
    let subject = first.object.id.clone();
    let summary = Msg::Untried {
        subject: subject.clone(),
        pods: pods.len(),
        named: pods.iter().take(5).map(|p| p.object.id.name.clone()).collect(),
        why: why.map(Box::new),
    };
    let cannot_establish: Vec<Message> = vec![Msg::WhyNot {}.into(), Msg::TooYoung {}.into()];
    let ns = subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let next_steps = vec![
        "kubectl -n kube-system get pods -l component=kube-scheduler -o wide".to_string(),
        "kubectl -n kube-system logs -l component=kube-scheduler --tail=50".to_string(),
        "kubectl -n kube-system get lease kube-scheduler -o yaml".to_string(),
        command!(
            "kubectl get pod {} -n {} -o jsonpath='{{.spec.schedulerName}}'",
            subject.name,
            ns
        ),
    ];
    let severity = if several {
        Severity::Error
    } else {
        Severity::Warning
    };
    findings.push(RULE.finding(severity, subject, summary, evidence, cannot_establish, next_steps));
}
