use crate::history::{self, Supersedes};
use faultline_model::{EventRecord, Model};
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A running container whose readiness probe fails: the kubelet's `Unhealthy` events ("Readiness
    /// probe failed: HTTP probe failed with statuscode: 503", "… connect: connection refused") for a
    /// Pod whose container is not ready (`containerStatuses[].ready: false`, `ContainersReady=False`)
    /// or not pasted. A Pod that is ready again now gives no finding.
    ///
    /// ## Why it matters
    /// A Pod that is not ready is taken out of every Service's endpoints (the EndpointSlice marks it
    /// `ready: false`), so traffic stops reaching it while the container keeps running: no restart,
    /// no crash, just silence. When a pasted Service selects it, the Service's finding comes first
    /// and this one is listed under it.
    ///
    /// ## Evidence
    /// The container's `ready` field and its `readinessProbe`, then the `Unhealthy` events with their
    /// counts; events alone are a hint.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: the kubelet's probes decide which Pods receive traffic.
    ///
    /// ## What this evidence cannot establish
    /// Whether the application cannot answer or the probe is wrong (path, port, a timeout shorter than
    /// a slow answer); whether the answer to real requests is also failing.
    ///
    /// ## Next evidence to collect
    /// The probe's own request from inside the Pod (`kubectl exec POD -- wget -qO- localhost:PORT/PATH`),
    /// the container's logs, and the Pod's probe settings.
    ///
    /// ## Example
    /// ```text
    /// Warning  Unhealthy  2m (x40 over 9m)  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503
    /// ```
    pub const RULE = { id: "readiness-probe-failing", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Kubelet], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for subject in model.event_subjects("Pod", EventRecord::is_readiness_failure) {
        let (id, events) = (subject.subject, &subject.events);
        // Pasted and Ready now: the probe passes since, the failures are history (at most a line of
        // the timeline, not a finding: being Ready proves the probe passes).
        if history::superseded(model, id, subject.last(), &[Supersedes::PodRunningAndReady]).is_some() {
            continue;
        }
        let pod = model.object(id);
        let unready = pod.map(|o| model.unready_containers(o)).unwrap_or_default();
        let mut evidence = unready.evidence;
        evidence.extend(model.newest_events_evidence(events, 3));
        let summary = Msg::NotReady {
            subject: id.clone(),
            containers: unready.names,
            failure: subject
                .last()
                .and_then(EventRecord::readiness_failure_words)
                .map(str::to_string),
            times: subject.times(),
        };
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut cannot_establish: Vec<Message> = vec![Msg::AppOrProbe {}.into(), Msg::RealRequests {}.into()];
        if pod.is_none() {
            cannot_establish.push(Msg::NotPasted { subject: id.clone() }.into());
        }
        let next_steps = vec![
            command!(
                "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].readinessProbe}}'",
                id.name,
                ns
            ),
            command!("kubectl logs {} -n {} --since=10m", id.name, ns),
            command!("kubectl get endpointslices -n {} -o wide", ns),
        ];
        // From its events alone the failure may be history (a burst at start-up): a warning until
        // the Pod's READY says it is current.
        let severity = if pod.is_none() {
            Severity::Warning
        } else {
            Severity::Error
        };
        findings.push(RULE.finding(
            severity,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `readiness-probe-failing`.
    pub enum Msg {
        /// A Pod whose containers run but fail their readiness probe: `containers` are the ones not
        /// ready (none known without the Pod), `failure` the kubelet's last words, `times` how often.
        NotReady { subject: ObjectRef, containers: Vec<String>, failure: Option<String>, times: u32 } = "readiness-probe-failing.not-ready" {
            en: {
                let containers = if containers.0.is_empty() { "a container".to_string() } else { format!("container {containers}") };
                let failure = failure.0.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
                let times = if *times.0 > 1 { format!(", {times} times") } else { String::new() };
                format!("{subject}: {containers} runs but is not ready: its readiness probe fails{failure}{times}. The Pod is taken out of every Service's endpoints; the container is not restarted.")
            },
            zh: {
                let containers = if containers.0.is_empty() { "有一个容器".to_string() } else { format!("容器 {containers} ") };
                let failure = failure.0.as_ref().map(|f| format!("（{f}）")).unwrap_or_default();
                let times = if *times.0 > 1 { format!("，共 {times} 次") } else { String::new() };
                format!("{subject}：{containers}在运行但没有就绪：它的就绪探针失败{failure}{times}。该 Pod 会被移出所有 Service 的端点；容器不会被重启。")
            },
        },
        AppOrProbe {} = "readiness-probe-failing.app-or-probe" {
            en: "Whether the application cannot answer or the probe is wrong (path, port, a timeout shorter than a slow answer).",
            zh: "是应用无法响应，还是探针本身配错了（路径、端口，或者超时比应用较慢的响应还短）。",
        },
        RealRequests {} = "readiness-probe-failing.real-requests" {
            en: "Whether real requests to the application fail too: the probe is one request.",
            zh: "发往应用的真实请求是否也失败：探针只是一个请求。",
        },
        NotPasted { subject: ObjectRef } = "readiness-probe-failing.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its events alone, which are a hint; whether it is ready now is unknown.",
            zh: "输入中没有 {subject} 本身：这只基于它的事件，而事件只是线索；它现在是否就绪并不清楚。",
        },
    }
}
