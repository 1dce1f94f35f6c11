//! The crash read from the kubelet's `Back-off restarting failed container` events alone, for a Pod
//! not pasted: a hint, which says so and cannot give the exit code.

use super::{last_states, Msg, RULE};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Finding, Severity};

/// Pods known only from their events: `Back-off restarting failed container` (a hint, not proof: the
/// exit code, and so whether the application or the runtime failed, is in the Pod's status).
pub(super) fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for pod in model.event_only_subjects("Pod", |e| e.restart_backoff().is_some()) {
        let id = pod.subject;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let container = pod.backoff_container().map(Into::into);
        let summary = Msg::FromEvents {
            subject: id.clone(),
            container,
            times: pod.times(),
        };
        let cannot: Vec<Message> = vec![
            Msg::NotPasted { subject: id.clone() }.into(),
            Msg::HowItExited {}.into(),
        ];
        let steps = vec![
            last_states(id, ns),
            command!("kubectl logs {} -n {} --previous", id.name, ns),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        let evidence = model.newest_events_evidence(&pod.events, 3);
        findings.push(RULE.finding(Severity::Error, id.clone(), summary, evidence, cannot, steps));
    }
}
