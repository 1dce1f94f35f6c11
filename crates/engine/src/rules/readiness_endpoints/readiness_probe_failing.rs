use std::collections::BTreeSet;

use crate::ingest::Typed;
use crate::model::{EventRecord, Model};
use crate::report::{Boundary, Evidence, Finding, Severity};

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
    /// Whether the application is unhealthy or the probe is wrong (path, port, a timeout shorter than
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
    pub const RULE = { id: "readiness-probe-failing", boundary: Boundary::ReadinessEndpoints, check: check };
}

fn is_readiness(event: &EventRecord) -> bool {
    event.reason == "Unhealthy" && event.message.starts_with("Readiness probe")
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen = BTreeSet::new();
    for event in model
        .events
        .iter()
        .filter(|e| e.subject.kind == "Pod" && is_readiness(e))
    {
        if !seen.insert(event.subject.to_string()) {
            continue;
        }
        let id = &event.subject;
        let pod = model.objects.iter().find(|o| o.id.same_object(id));
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut not_ready: Vec<String> = Vec::new();
        if let Some(object) = pod {
            if let Typed::Pod(p) = &object.typed {
                for c in crate::rules::containers::containers(p).iter().filter(|c| !c.init) {
                    if c.status.ready {
                        continue;
                    }
                    not_ready.push(c.status.name.clone());
                    evidence.extend(model.evidence(object, &format!("{}.ready", c.status_path)));
                    if let Some(spec) = &c.spec_path {
                        // What the probe asks: its path and port (a map itself has no one value to cite).
                        for field in [
                            "httpGet.path",
                            "httpGet.port",
                            "tcpSocket.port",
                            "grpc.port",
                            "exec.command[0]",
                        ] {
                            evidence
                                .extend(model.evidence(object, &format!("{spec}.readinessProbe.{field}")));
                        }
                    }
                }
                let statuses = p.status.as_ref().and_then(|s| s.container_statuses.as_ref());
                // Pasted, with container statuses, all ready: the probe passes now.
                if statuses.is_some_and(|s| !s.is_empty()) && not_ready.is_empty() {
                    continue;
                }
            }
        }
        let events: Vec<&EventRecord> = model
            .events_for(id)
            .into_iter()
            .filter(|e| is_readiness(e))
            .collect();
        for e in events.iter().rev().take(3) {
            evidence.extend(model.event_evidence(e));
        }
        let times: u32 = events.iter().map(|e| e.count.max(1)).sum();
        let failure = events
            .last()
            .map(|e| {
                e.message
                    .trim_start_matches("Readiness probe failed:")
                    .trim()
                    .to_string()
            })
            .filter(|f| !f.is_empty());
        let containers = if not_ready.is_empty() {
            "a container".to_string()
        } else {
            format!("container {}", not_ready.join(", "))
        };
        let mut summary = format!("{id}: {containers} runs but is not ready: its readiness probe fails");
        if let Some(f) = &failure {
            summary.push_str(&format!(" ({f})"));
        }
        if times > 1 {
            summary.push_str(&format!(", {times} times"));
        }
        summary
            .push_str(". The Pod is taken out of every Service's endpoints; the container is not restarted.");
        let ns = id.namespace.as_deref().unwrap_or("default");
        let mut cannot_establish = vec![
            "Whether the application is unhealthy or the probe is wrong (path, port, a timeout shorter than a slow answer)."
                .to_string(),
            "Whether real requests to the application fail too: the probe is one request.".to_string(),
        ];
        if pod.is_none() {
            cannot_establish.push(format!(
                "{id} itself was not pasted: this rests on its events alone, which are a hint; whether it is ready now is unknown."
            ));
        }
        let next_steps = vec![
            format!(
                "kubectl get pod {} -n {ns} -o jsonpath='{{.spec.containers[*].readinessProbe}}'",
                id.name
            ),
            format!("kubectl logs {} -n {ns} --since=10m", id.name),
            format!("kubectl get endpointslices -n {ns} -o wide"),
        ];
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}
