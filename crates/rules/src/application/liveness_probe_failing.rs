use crate::history::{self, Supersedes};
use faultline_model::signals::probe::{Probe, ProbeEvent};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A container the kubelet restarts because its liveness probe fails: `Unhealthy` events
    /// "Liveness probe failed: …" (or errored), and the kubelet's `Killing` "Container x failed
    /// liveness probe, will be restarted". The probe's own output (`HTTP probe failed with statuscode:
    /// 500`, `connection refused`, a timeout) is cited.
    ///
    /// ## Why it matters
    /// The restarts look like crashes, but the process did not choose to exit: the kubelet killed it
    /// (exit 137) because it stopped answering its health check. Either the application hangs or is
    /// overloaded, or the probe is too strict for it.
    ///
    /// ## Evidence
    /// The `Unhealthy` and `Killing` events for the Pod (matched by kind, namespace and name) with
    /// their counts, and the container's restart count when the Pod is pasted.
    ///
    /// ## Fault boundary
    /// `application`: the process's answer to its own health check.
    ///
    /// ## What this evidence cannot establish
    /// Whether the application is really unhealthy or the probe is misconfigured (path, port,
    /// timeout shorter than a slow start or a garbage-collection pause).
    ///
    /// ## Next evidence to collect
    /// The probe's definition, the application's logs before the kill (`kubectl logs --previous`), and
    /// a manual request to the probe's endpoint.
    ///
    /// ## Example
    /// ```text
    /// Warning  Unhealthy  2m (x9 over 10m)  kubelet  Liveness probe failed: HTTP probe failed with statuscode: 500
    /// Normal   Killing    2m (x3 over 10m)  kubelet  Container api failed liveness probe, will be restarted
    /// ```
    pub const RULE = { id: "liveness-probe-failing", boundary: Boundary::Application, components: [Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pod in model.event_subjects("Pod", |e| e.is_probe(Probe::Liveness)) {
        let id = pod.subject;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let evidence = model.newest_events_evidence(&pod.events, 3);
        let failure = pod.events.iter().rev().find_map(|e| match e.probe() {
            Some(ProbeEvent::Failed { output, .. }) if !output.is_empty() => Some(output.to_string()),
            _ => None,
        });
        let kills: u32 = pod
            .events
            .iter()
            .filter(|e| matches!(e.probe(), Some(ProbeEvent::Killed { .. })))
            .map(|e| e.count)
            .sum();
        let summary = Msg::Restarts {
            subject: id.clone(),
            failure,
            kills: (kills > 0).then_some(kills),
        };
        let mut cannot_establish: Vec<Message> =
            vec![Msg::ProbeTooStrict {}.into(), Msg::WhatWasDoing {}.into()];
        if model.object(id).is_none() {
            cannot_establish.push(history::currentness_unknown(id));
        }
        let next_steps = vec![
            command!(
                "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].livenessProbe}}'",
                id.name,
                ns
            ),
            command!("kubectl logs {} -n {} --previous", id.name, ns),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        let mut finding = RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        // A Pod that is Ready now and never restarted: the probe passes since, the kills were not.
        let last = pod.last();
        if let Some(recovery) = history::superseded(model, id, last, &[Supersedes::PodReadyWithoutRestarts]) {
            history::record(&mut finding, last.and_then(history::last_seen), recovery);
        }
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `liveness-probe-failing`.
    pub enum Msg {
        /// A Pod whose container the kubelet kills for failed liveness probes: the probe's own output
        /// (after `Liveness probe failed: `) and the number of kills, when the events say.
        Restarts { subject: ObjectRef, failure: Option<String>, kills: Option<u32> } = "liveness-probe-failing.restarts" {
            en: {
                let failure = failure.0.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
                let kills = kills.0.map(|k| format!("; killed {k} time(s) so far")).unwrap_or_default();
                format!("{subject}: the kubelet restarts a container because its liveness probe fails{failure}{kills}. The restarts are kills (exit 137), not the application exiting on its own.")
            },
            zh: {
                let failure = failure.0.as_ref().map(|f| format!("（{f}）")).unwrap_or_default();
                let kills = kills.0.map(|k| format!("，到目前为止已被杀死 {k} 次")).unwrap_or_default();
                format!("{subject}：存活探针失败{failure}，kubelet 因此重启了其中一个容器{kills}。这些重启是 kubelet 强制终止容器造成的（退出码 137），不是应用自己退出。")
            },
        },
        ProbeTooStrict {} = "liveness-probe-failing.probe-too-strict" {
            en: "Whether the application is really unhealthy or the probe is too strict (path, port, or a timeout shorter than a slow start or a pause).",
            zh: "应用是真的不健康，还是探针过于严格（路径、端口不对，或者超时比一次缓慢的启动或停顿还短）。",
        },
        WhatWasDoing {} = "liveness-probe-failing.what-was-doing" {
            en: "What the application was doing when it stopped answering: that is in its logs.",
            zh: "应用停止响应时正在做什么：这要看它的日志。",
        },
    }
}
