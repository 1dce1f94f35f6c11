use super::rejections::created_after_refusal;
use crate::history::{self, Supersedes};
use faultline_model::signals::webhook_call::{self, CallFailure, WebhookCallFailure, WebhookService};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// An admission webhook the API server cannot call, so a create fails: `Internal error occurred:
    /// failed calling webhook "x": failed to call webhook: Post "https://svc.ns.svc:443/…": …`, in
    /// kubectl's `Error from server (InternalError)` line, a controller's `FailedCreate` events or its
    /// `ReplicaFailure` condition. It names the webhook, its Service (from the URL's host
    /// `svc.ns.svc`, or the message) and what went wrong: the connection refused, a timeout (`context
    /// deadline exceeded`, `i/o timeout`), no endpoints (`no endpoints available for service`), or a
    /// certificate the API server does not trust (`x509: …`).
    ///
    /// ## Why it matters
    /// The API server answered: it is the webhook's backend that fails, and with `failurePolicy:
    /// Fail` every request the webhook matches is refused, cluster-wide, until its Service serves
    /// again (or the configuration of a webhook that was uninstalled is removed). Blaming the API
    /// server sends the investigation to the wrong place.
    ///
    /// ## Evidence
    /// The error's text (webhook name, URL, Go error), the controller's `FailedCreate` events with
    /// their counts and its `ReplicaFailure` condition. A `SuccessfulCreate` newer than the last
    /// refusal means it has passed (the rule `replica-creation-failed` reports that history).
    ///
    /// ## Fault boundary
    /// `quota-admission`: the admission chain of the API server, through the webhook it calls.
    ///
    /// ## What this evidence cannot establish
    /// Whether the webhook's Pods, its Service or the network from the API server to them is at fault
    /// (the message says which step failed, not why), and whether the webhook configuration is still
    /// wanted.
    ///
    /// ## Next evidence to collect
    /// The Service's endpoints (`kubectl get endpointslices -n NS -l kubernetes.io/service-name=SVC`),
    /// its Pods, and `kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations`.
    ///
    /// ## Example
    /// ```text
    /// Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed
    /// calling webhook "webhook.cert-manager.io": failed to call webhook: Post
    /// "https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s": dial tcp
    /// 10.96.218.186:443: connect: connection refused
    /// ```
    pub const RULE = { id: "admission-webhook-unreachable", boundary: Boundary::QuotaAdmission, components: [ApiServer, ControllerManager if ByController], check: check };
}

/// The webhook's Service a finding of this rule names (read from its evidence, Kubernetes' own
/// text): what `EXPLANATIONS` links to the Service's own finding.
pub fn service_of(finding: &Finding) -> Option<ObjectRef> {
    finding
        .evidence
        .iter()
        .find_map(|e| {
            webhook_call::read(&e.value)?
                .service
                .filter(|s| s.namespace.is_some())
        })
        .map(|s| s.object_ref())
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for g in model.webhook_call_failures() {
        if !g.from_client {
            // Passed: Pods created since, or the controller at the replicas it wants with no standing
            // condition (`replica-creation-failed` reports that history).
            let standing = g.evidence.iter().any(|e| e.path.starts_with("status."));
            let events = model.events_for(&g.subject);
            let last = events.iter().rfind(|e| e.reason == "FailedCreate").copied();
            if !standing
                && (created_after_refusal(model, &g.subject)
                    || history::superseded(model, &g.subject, last, &[Supersedes::ReplicasAsDesired])
                        .is_some())
            {
                continue;
            }
        }
        findings.push(finding(&g));
    }
}

fn finding(g: &WebhookCallFailure) -> Finding {
    let call = &g.call;
    let service = call.service.as_ref().map(|s| s.object_ref());
    let detail = call.detail.clone();
    let failure = Box::new(
        match call.failure {
            CallFailure::Refused => Msg::Refused { detail },
            CallFailure::TimedOut => Msg::TimedOut { detail },
            CallFailure::NoEndpoints => Msg::NoEndpoints { detail },
            CallFailure::ServiceNotFound => Msg::ServiceNotFound { detail },
            CallFailure::Certificate => Msg::Certificate { detail },
            CallFailure::Unreachable => Msg::Unreachable { detail },
            CallFailure::Other => Msg::Other { detail },
        }
        .into(),
    );
    let summary = if g.from_client {
        Msg::CreateFailed {
            object: g.refused.clone(),
            webhook: call.webhook.clone(),
            service: service.clone(),
            failure,
            times: g.times,
        }
    } else {
        Msg::PodsFailed {
            subject: g.subject.clone(),
            webhook: call.webhook.clone(),
            service: service.clone(),
            failure,
            times: g.times,
        }
    };
    let mut cannot_establish: Vec<Message> = vec![match call.failure {
        CallFailure::Certificate => Msg::WhichCertificate {}.into(),
        CallFailure::NoEndpoints | CallFailure::ServiceNotFound => Msg::WhyNoEndpoints {}.into(),
        _ => Msg::WhereItFails {}.into(),
    }];
    cannot_establish.push(Msg::StillWanted {}.into());
    let mut next_steps = Vec::new();
    if let Some(WebhookService {
        namespace: Some(ns),
        name,
    }) = &call.service
    {
        next_steps.push(command!(
            "kubectl get endpointslices -n {} -l kubernetes.io/service-name={}",
            ns,
            name
        ));
        next_steps.push(command!("kubectl describe service {} -n {}", name, ns));
        next_steps.push(command!("kubectl get pods -n {} -o wide", ns));
    }
    next_steps.push("kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".to_string());
    if !g.from_client {
        let ns = g.subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        next_steps.push(command!(
            "kubectl get events -n {} --field-selector involvedObject.name={},reason=FailedCreate",
            ns,
            g.subject.name
        ));
    }
    // The object at fault is the webhook's backend when the call failed there (refused, timed out,
    // no endpoints, no such Service): its Service is the subject, and what it refused is affected. A
    // certificate or another failure is the webhook configuration's, which the message does not name
    // as an object: the refused object stays the subject.
    let subject = match &service {
        Some(s) if call.failure.at_backend() => s.clone(),
        _ => g.subject.clone(),
    };
    let mut finding = RULE.finding(
        Severity::Error,
        subject.clone(),
        summary,
        g.evidence.clone(),
        cannot_establish,
        next_steps,
    );
    if subject != g.subject {
        finding.affects.push(g.subject.clone());
    }
    finding
}

faultline_report::messages! {
    /// The words of `admission-webhook-unreachable`.
    pub enum Msg {
        /// kubectl's create failed because the API server could not call a webhook (the object, when
        /// known, does not exist).
        CreateFailed { object: Option<ObjectRef>, webhook: String, service: Option<ObjectRef>, failure: Box<Message>, times: u32 } = "admission-webhook-unreachable.create-failed" {
            en: {
                let what = object.0.as_ref().map_or_else(|| "A request".to_string(), |o| format!("Creating {o}"));
                let times = if *times.0 > 1 { format!(" ({times} times)") } else { String::new() };
                let service = service.0.as_ref().map(|s| format!(" behind {s}")).unwrap_or_default();
                let gone = object.0.as_ref().map(|o| format!(" The {} does not exist.", o.kind)).unwrap_or_default();
                format!("{what} failed{times}: the API server could not call the admission webhook \"{}\"{service}: {failure}. The API server answered and is not at fault; the webhook fails closed (failurePolicy Fail), so the request was refused.{gone}", webhook.0)
            },
            zh: {
                let what = object.0.as_ref().map_or_else(|| "一个请求".to_string(), |o| format!("创建 {o} "));
                let times = if *times.0 > 1 { format!("（共 {times} 次）") } else { String::new() };
                let service = service.0.as_ref().map(|s| format!("（后端为 {s}）")).unwrap_or_default();
                let gone = object.0.as_ref().map(|o| format!("这个 {} 并不存在。", o.kind)).unwrap_or_default();
                format!("{what}失败{times}：API 服务器无法调用准入 Webhook “{}”{service}：{failure}。API 服务器做出了应答，问题不在它；这个 Webhook 的 failurePolicy 是 Fail（调用失败就拒绝请求），所以请求被拒绝。{gone}", webhook.0)
            },
        },
        /// A controller's Pods refused because the API server could not call a webhook.
        PodsFailed { subject: ObjectRef, webhook: String, service: Option<ObjectRef>, failure: Box<Message>, times: u32 } = "admission-webhook-unreachable.pods-failed" {
            en: {
                let times = if *times.0 > 1 { format!(", {times} times") } else { String::new() };
                let service = service.0.as_ref().map(|s| format!(" behind {s}")).unwrap_or_default();
                format!("{subject} cannot create its Pods (FailedCreate{times}): the API server could not call the admission webhook \"{}\"{service}: {failure}. The API server answered and is not at fault; the webhook fails closed (failurePolicy Fail), so every create is refused.", webhook.0)
            },
            zh: {
                let times = if *times.0 > 1 { format!("，共 {times} 次") } else { String::new() };
                let service = service.0.as_ref().map(|s| format!("（后端为 {s}）")).unwrap_or_default();
                format!("{subject} 无法创建它的 Pod（FailedCreate{times}）：API 服务器无法调用准入 Webhook “{}”{service}：{failure}。API 服务器做出了应答，问题不在它；这个 Webhook 的 failurePolicy 是 Fail（调用失败就拒绝请求），所以每一次创建都被拒绝。", webhook.0)
            },
        },
        Refused { detail: String } = "admission-webhook-unreachable.refused" {
            en: { format!("the connection was refused (\"{}\")", detail.0) },
            zh: { format!("连接被拒绝（“{}”）", detail.0) },
        },
        TimedOut { detail: String } = "admission-webhook-unreachable.timed-out" {
            en: { format!("the call timed out (\"{}\")", detail.0) },
            zh: { format!("调用超时（“{}”）", detail.0) },
        },
        NoEndpoints { detail: String } = "admission-webhook-unreachable.no-endpoints" {
            en: { format!("its Service has no ready endpoints (\"{}\")", detail.0) },
            zh: { format!("它的 Service 没有就绪的端点（“{}”）", detail.0) },
        },
        ServiceNotFound { detail: String } = "admission-webhook-unreachable.service-not-found" {
            en: { format!("its Service does not exist (\"{}\")", detail.0) },
            zh: { format!("它的 Service 不存在（“{}”）", detail.0) },
        },
        Certificate { detail: String } = "admission-webhook-unreachable.certificate" {
            en: { format!("the API server does not trust the webhook's serving certificate (\"{}\")", detail.0) },
            zh: { format!("API 服务器不信任这个 Webhook 的服务证书（“{}”）", detail.0) },
        },
        Unreachable { detail: String } = "admission-webhook-unreachable.unreachable" {
            en: { format!("its address cannot be reached (\"{}\")", detail.0) },
            zh: { format!("无法访问它的地址（“{}”）", detail.0) },
        },
        Other { detail: String } = "admission-webhook-unreachable.other" {
            en: { format!("the call failed (\"{}\")", detail.0) },
            zh: { format!("调用失败（“{}”）", detail.0) },
        },
        WhereItFails {} = "admission-webhook-unreachable.where-it-fails" {
            en: "Whether the webhook's Pods, its Service or the network from the API server to them is at fault (a firewall or NetworkPolicy in front of the webhook's port is common on managed clusters).",
            zh: "出问题的是 Webhook 的 Pod、它的 Service，还是从 API 服务器到它们的网络（在托管集群上，Webhook 端口前的防火墙或 NetworkPolicy 很常见）。",
        },
        WhyNoEndpoints {} = "admission-webhook-unreachable.why-no-endpoints" {
            en: "Why the Service has no endpoints: whether its Pods are missing, not ready, or not selected by it.",
            zh: "这个 Service 为什么没有端点：是它的 Pod 不存在、没有就绪，还是没有被它选中。",
        },
        WhichCertificate {} = "admission-webhook-unreachable.which-certificate" {
            en: "Whether the caBundle of the webhook configuration or the webhook's serving certificate is the stale one.",
            zh: "过时的是 Webhook 配置中的 caBundle，还是 Webhook 自己的服务证书。",
        },
        StillWanted {} = "admission-webhook-unreachable.still-wanted" {
            en: "Whether the webhook configuration is still wanted: an operator uninstalled without it leaves the configuration behind.",
            zh: "这个 Webhook 配置是否仍然需要：卸载 operator 时如果没有删除它，配置会遗留下来。",
        },
    }
}
