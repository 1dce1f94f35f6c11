use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// The resource metrics API (`metrics.k8s.io`, served by metrics-server through the API
    /// server's aggregation layer) not answering, as its clients show it: an HPA whose
    /// `ScalingActive` condition is `False` with a `FailedGet…Metric` reason whose message says the
    /// metrics API failed (`unable to fetch metrics from resource metrics API`, `no metrics returned
    /// from resource metrics API`, `the server could not find the requested resource (get
    /// pods.metrics.k8s.io)`); such `FailedGetResourceMetric` events when the HPA itself is not
    /// pasted; and kubectl's discovery getting `503` or `the server is currently unable to handle
    /// the request` for `metrics.k8s.io` (a `-v=6` trace, a klog line).
    ///
    /// ## Why it matters
    /// An HPA that cannot read its metrics does not scale at all, in either direction, and
    /// `kubectl top` fails; a registered but unserved APIService also slows every kubectl command,
    /// which waits on discovery. Looking at the workload's CPU or the HPA's targets wastes time: the
    /// metrics never arrive.
    ///
    /// ## Evidence
    /// The HPA's `ScalingActive` condition (status, reason, message), its `FailedGetResourceMetric`
    /// events, and kubectl's lines for `metrics.k8s.io`. A metrics message about the Pods
    /// themselves (`did not receive metrics for targeted pods (pods might be unready)`, `missing
    /// request for cpu`) is the workload's, not the API's, and is not read as this.
    ///
    /// ## Fault boundary
    /// `control-plane`: the API server's aggregated metrics API and its backend. When metrics-server's
    /// own Pods are pasted failing, `cluster-component-failing` names them too.
    ///
    /// ## What this evidence cannot establish
    /// Why the metrics API does not answer: metrics-server not installed, not running or not ready,
    /// unable to scrape the kubelets (certificates, `--kubelet-insecure-tls`), or its APIService not
    /// available; its Pod, its log and the APIService's status say.
    ///
    /// ## Next evidence to collect
    /// `kubectl get apiservice v1beta1.metrics.k8s.io` (its `Available` condition), `kubectl -n
    /// kube-system get pods -l k8s-app=metrics-server`, their log, and `kubectl top pods`.
    ///
    /// ## Example
    /// ```text
    /// Conditions:
    ///   Type           Status  Reason                   Message
    ///   ----           ------  ------                   -------
    ///   ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: unable to get metrics for resource cpu: no metrics returned from resource metrics API
    /// ```
    pub const RULE = { id: "metrics-api-unavailable", boundary: Boundary::ControlPlane, components: [ApiServer], check: check };
}

const NEXT_STEPS: [&str; 3] = [
    "kubectl get apiservice v1beta1.metrics.k8s.io",
    "kubectl -n kube-system get pods -l k8s-app=metrics-server -o wide",
    "kubectl -n kube-system logs -l k8s-app=metrics-server --tail=50",
];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let next_steps = || NEXT_STEPS.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let hpas = model.hpas_without_metrics();
    let events_only = model.metrics_failures_of_unpasted_hpas();
    for hpa in &hpas {
        let id = &hpa.object.id;
        let evidence = hpa.evidence(model);
        let summary = Msg::HpaCannotScale {
            subject: id.clone(),
            reason: hpa.reason.into(),
            message: hpa.message.to_string(),
        };
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            [Msg::WhyNotServed {}],
            next_steps(),
        ));
    }
    // HPAs known from their events only.
    for event in &events_only {
        let summary = Msg::FromEvents {
            subject: event.subject.clone(),
            reason: event.reason.as_str().into(),
        };
        let evidence = model.event_evidence(event).into_iter().collect();
        let cannot = [Msg::WhyNotServed {}, Msg::EventsOnly {}];
        findings.push(RULE.finding(
            Severity::Warning,
            event.subject.clone(),
            summary,
            evidence,
            cannot,
            next_steps(),
        ));
    }
    if !hpas.is_empty() || !events_only.is_empty() {
        return;
    }
    // kubectl's discovery of the metrics API.
    let evidence = model.metrics_discovery_failures();
    if evidence.is_empty() {
        return;
    }
    let subject = ObjectRef {
        kind: "APIService".into(),
        namespace: None,
        name: "v1beta1.metrics.k8s.io".into(),
        uid: None,
    };
    let summary = Msg::DiscoveryFails {};
    findings.push(RULE.finding(
        Severity::Error,
        subject,
        summary,
        evidence,
        [Msg::WhyNotServed {}],
        next_steps(),
    ));
}

faultline_report::messages! {
    /// The words of `metrics-api-unavailable`.
    pub enum Msg {
        /// An HPA whose ScalingActive condition says the metrics API failed, with its words.
        HpaCannotScale { subject: ObjectRef, reason: Text, message: String } = "metrics-api-unavailable.hpa-cannot-scale" {
            en: "{subject} cannot get the metrics it scales on (ScalingActive=False, {reason}: \"{message}\"): the resource metrics API (metrics.k8s.io), which metrics-server serves through the API server, does not answer, so the HPA does not scale.",
            zh: "{subject} 拿不到它用来扩缩容的指标（ScalingActive=False，{reason}：“{message}”）：资源指标 API（metrics.k8s.io，由 metrics-server 通过 API 服务器提供）没有应答，所以该 HPA 不会扩缩容。",
        },
        /// An HPA known from its events only.
        FromEvents { subject: ObjectRef, reason: Text } = "metrics-api-unavailable.from-events" {
            en: "{subject} could not get its metrics from the metrics API ({reason} events): the API (metrics.k8s.io) did not answer it. From the events only; the HPA was not pasted.",
            zh: "{subject} 无法从指标 API 获取指标（{reason} 事件）：该 API（metrics.k8s.io）没有应答它。这仅来自事件，输入中没有这个 HPA。",
        },
        DiscoveryFails {} = "metrics-api-unavailable.discovery-fails" {
            en: "kubectl's discovery gets no answer from the metrics API (metrics.k8s.io): its APIService is registered but its backend (metrics-server) does not serve it. Every kubectl command waits on that discovery, and HPAs and kubectl top get no metrics.",
            zh: "kubectl 的发现请求从指标 API（metrics.k8s.io）得不到应答：它的 APIService 已注册，但其后端（metrics-server）没有提供服务。每条 kubectl 命令都要等待这次发现请求，HPA 和 kubectl top 也拿不到指标。",
        },
        WhyNotServed {} = "metrics-api-unavailable.why-not-served" {
            en: "Why the metrics API does not answer (metrics-server not installed, not running or not ready, unable to scrape the kubelets, or its APIService not available): its Pod, its log and the APIService's status say.",
            zh: "指标 API 为什么没有应答（metrics-server 没有安装、没有运行或未就绪、无法抓取各 kubelet 的指标，或它的 APIService 不可用）：要看它的 Pod、日志和 APIService 的状态。",
        },
        EventsOnly {} = "metrics-api-unavailable.events-only" {
            en: "Whether the HPA still cannot get its metrics: the events may be old, and the HPA's own conditions were not pasted.",
            zh: "该 HPA 现在是否仍然拿不到指标：这些事件可能已经过时，而输入中没有该 HPA 自己的状况。",
        },
    }
}
