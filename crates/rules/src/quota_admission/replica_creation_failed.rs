use crate::history::{self, Supersedes};
use crate::quota_admission::rejections::created_after_refusal;
use faultline_model::signals::create_refusal::CreateFailure;
use faultline_model::views::replica_failure::replica_failure;
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A controller that cannot create its Pods (`FailedCreate`: the `ReplicaFailure=True` condition of
    /// a ReplicaSet or Deployment, or the controller's `FailedCreate` events, "Error creating: …") when
    /// the refusal is not a quota, a named admission policy or an admission webhook that cannot be
    /// called (the rules `quota-exceeded-on-create`, `admission-denied-on-create` and
    /// `admission-webhook-unreachable` cover those): a missing ServiceAccount, a Pod template the API
    /// server rejects as invalid, a refusal that has passed, or a condition pasted without its message.
    ///
    /// ## Why it matters
    /// No Pod exists, so there is no Pod status, no Pod event and nothing for `kubectl get pods` to
    /// show: the only trace is on the controller. Everything above it (a Deployment that does not
    /// progress) follows from it.
    ///
    /// ## Evidence
    /// The `ReplicaFailure` condition (reason and message) and the `FailedCreate` events with their
    /// counts. A later `SuccessfulCreate` for the same controller means the refusal has passed: no
    /// finding.
    ///
    /// ## Fault boundary
    /// `quota-admission`: the API server's admission chain refused the create.
    ///
    /// ## What this evidence cannot establish
    /// With no message pasted, which admission step refused; for an unreachable webhook, whether the
    /// webhook's Pods, its Service or the network to it is at fault.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe rs NAME` (the `FailedCreate` events' full text), `kubectl get
    /// validatingwebhookconfigurations,mutatingwebhookconfigurations`, and the ServiceAccount the
    /// template names.
    ///
    /// ## Example
    /// ```text
    /// Warning  FailedCreate  2m (x14 over 20m)  replicaset-controller  Error creating: Internal error
    /// occurred: failed calling webhook "validate.kyverno.svc": context deadline exceeded
    /// ```
    pub const RULE = { id: "replica-creation-failed", boundary: Boundary::QuotaAdmission, components: [ApiServer, ControllerManager if ByController], check: check };
}

const COVERED_BY: [&str; 3] = [
    "quota-exceeded-on-create",
    "admission-denied-on-create",
    "admission-webhook-unreachable",
];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Subjects in input order: objects with the condition, then event subjects not pasted.
    let mut subjects: Vec<ObjectRef> = Vec::new();
    for object in model.objects {
        if replica_failure(object).is_some() {
            subjects.push(object.id.clone());
        }
    }
    for created in model.event_subjects("", |e| e.reason == "FailedCreate") {
        if !subjects.contains(created.subject) {
            subjects.push(created.subject.clone());
        }
    }
    for subject in subjects {
        if findings.iter().any(|f| {
            COVERED_BY.contains(&f.rule.as_str()) && (f.subject == subject || f.affects.contains(&subject))
        }) {
            continue;
        }
        let events = model.events_for(&subject);
        let failed: Vec<&&EventRecord> = events.iter().filter(|e| e.reason == "FailedCreate").collect();
        // Resolved: the controller created Pods after its last refusal.
        let resolved = created_after_refusal(model, &subject);
        let object = model.object(&subject);
        let condition = object.and_then(replica_failure);
        if resolved && condition.is_none() {
            continue;
        }
        // No standing condition and the controller has the replicas it wants now: the refusals in
        // its events are from before (deploy time), history rather than the fault.
        let last_failed = failed.last().map(|e| **e);
        let recovery = condition
            .is_none()
            .then(|| history::superseded(model, &subject, last_failed, &[Supersedes::ReplicasAsDesired]))
            .flatten();
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut message = String::new();
        if let Some(c) = &condition {
            for field in ["status", "reason", "message"] {
                evidence.extend(model.evidence(c.object, &c.path(field)));
            }
            message = c.message.to_string();
        }
        for event in failed.iter().rev().take(3) {
            evidence.extend(model.event_evidence(event));
        }
        if message.is_empty() {
            message = failed.last().map(|e| e.message.clone()).unwrap_or_default();
        }
        if evidence.is_empty() {
            continue;
        }
        let times: u32 = failed.iter().map(|e| e.count.max(1)).sum();
        let cause = (!message.is_empty()).then(|| CreateFailure::of(&message));
        let said = (!message.is_empty()).then(|| {
            let text = message.split_whitespace().collect::<Vec<_>>().join(" ");
            text.chars().take(300).collect()
        });
        let summary = Msg::CannotCreatePods {
            subject: subject.clone(),
            times,
            why: Box::new(explain(cause).into()),
            said,
        };
        let ns = subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let resource = subject.kind.to_ascii_lowercase();
        let mut cannot_establish: Vec<Message> = Vec::new();
        if message.is_empty() {
            cannot_establish.push(Msg::WhichStep {}.into());
        }
        if cause == Some(CreateFailure::WebhookUnreachable) {
            cannot_establish.push(Msg::WebhookFault {}.into());
        }
        if object.is_none() {
            cannot_establish.push(history::currentness_unknown(&subject));
        } else if recovery.is_none() {
            cannot_establish.push(Msg::StillNow {}.into());
        }
        let next_steps = vec![
            command!("kubectl describe {} {} -n {}", resource, subject.name, ns),
            command!(
                "kubectl get events -n {} --field-selector involvedObject.name={},reason=FailedCreate",
                ns,
                subject.name
            ),
            "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".to_string(),
        ];
        let mut finding = RULE.finding(
            if resolved {
                Severity::Warning
            } else {
                Severity::Error
            },
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        if let Some(recovery) = recovery {
            history::record(&mut finding, last_failed.and_then(history::last_seen), recovery);
        }
        findings.push(finding);
    }
}

/// Why the API server refused, as far as its message says (`None`: the message is not pasted).
fn explain(cause: Option<CreateFailure>) -> Msg {
    match cause {
        None => Msg::TextNotPasted {},
        Some(CreateFailure::WebhookUnreachable) => Msg::WebhookUnreachable {},
        Some(CreateFailure::NoServiceAccount) => Msg::NoServiceAccount {},
        Some(CreateFailure::InvalidTemplate) => Msg::InvalidTemplate {},
        Some(CreateFailure::Refused) => Msg::Refused {},
    }
}

faultline_report::messages! {
    /// The words of `replica-creation-failed`.
    pub enum Msg {
        /// A controller's Pods refused (`FailedCreate`, how many times), why, and the API server's words.
        CannotCreatePods { subject: ObjectRef, times: u32, why: Box<Message>, said: Option<String> } = "replica-creation-failed.cannot-create-pods" {
            en: {
                let times = if *times.0 > 1 { format!(", {times} times") } else { String::new() };
                let said = said.0.as_ref().map(|s| format!(" The API server said: \"{s}\".")).unwrap_or_default();
                format!("{subject} cannot create its Pods (FailedCreate{times}): {why}{said}")
            },
            zh: {
                let times = if *times.0 > 1 { format!("，共 {times} 次") } else { String::new() };
                let said = said.0.as_ref().map(|s| format!("API 服务器的原话：“{s}”。")).unwrap_or_default();
                format!("{subject} 无法创建它的 Pod（FailedCreate{times}）：{why}{said}")
            },
        },
        TextNotPasted {} = "replica-creation-failed.text-not-pasted" {
            en: "the API server refused to create them; the refusal's text was not pasted.",
            zh: "API 服务器拒绝创建它们；输入中没有拒绝消息的原文。",
        },
        /// A webhook called with `failurePolicy: Fail` that cannot be reached.
        WebhookUnreachable {} = "replica-creation-failed.webhook-unreachable" {
            en: "an admission webhook could not be reached, and it fails closed, so every create is refused.",
            zh: "连不上某个准入 Webhook，而它的 failurePolicy 是 Fail（调用失败就拒绝请求），所以每一次创建都被拒绝。",
        },
        NoServiceAccount {} = "replica-creation-failed.no-service-account" {
            en: "the ServiceAccount the Pod template names does not exist.",
            zh: "Pod 模板中指定的 ServiceAccount 不存在。",
        },
        InvalidTemplate {} = "replica-creation-failed.invalid-template" {
            en: "the API server rejects the Pod template as invalid.",
            zh: "API 服务器认为 Pod 模板无效，拒绝了它。",
        },
        Refused {} = "replica-creation-failed.refused" {
            en: "the API server refused to create them.",
            zh: "API 服务器拒绝创建它们。",
        },
        WhichStep {} = "replica-creation-failed.which-step" {
            en: "Which admission step refused the Pods: the refusal's message was not pasted.",
            zh: "是哪个准入环节拒绝了这些 Pod：输入中没有拒绝消息。",
        },
        WebhookFault {} = "replica-creation-failed.webhook-fault" {
            en: "Whether the webhook's own Pods, its Service or the network to it is at fault.",
            zh: "问题出在 Webhook 自己的 Pod、它的 Service，还是通往它的网络。",
        },
        StillNow {} = "replica-creation-failed.still-now" {
            en: "Whether the refusal still happens now, unless recent events are pasted.",
            zh: "现在是否仍在拒绝：除非粘贴了最近的事件，否则无法确定。",
        },
    }
}
