//! Restarts whose status shows no termination (kubectl 1.0 printed no `Last State`): a warning
//! that the container keeps restarting, with how it ended unknown.

use super::{last_states, Msg, LOOPING_RESTARTS, RULE};
use crate::history;
use faultline_model::views::container_exit::container_evidence;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Finding, Severity};

/// Containers that restart again and again while their status shows no termination (describe of
/// kubectl 1.0 printed no `Last State`, kubernetes/kubernetes#10861): running and not ready after
/// [`LOOPING_RESTARTS`] or more restarts, started within the kubelet's back-off reset of the newest
/// time of the Pod's events. Without those times the restarts may be history: quiet.
pub(super) fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for c in model.restarts_without_termination(LOOPING_RESTARTS, history::BACKOFF_RESET) {
        let (id, name) = (&c.pod.id, &c.status.name);
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let fields = ["restartCount", "state.running.startedAt", "ready"];
        let evidence = container_evidence(model, c.pod, &c.status_path, &fields);
        let summary = Msg::RestartsUnexplained {
            subject: id.clone(),
            container: (!name.is_empty()).then(|| name.as_str().into()),
            restarts: u32::try_from(c.status.restart_count).unwrap_or(0),
        };
        let cannot: Vec<Message> = vec![Msg::HowItEnded {}.into(), Msg::WhyExited {}.into()];
        let steps = vec![
            last_states(id, ns),
            crate::next_steps::previous_logs(id, name),
            command!("kubectl describe pod {} -n {}", id.name, ns),
        ];
        findings.push(RULE.finding(Severity::Warning, id.clone(), summary, evidence, cannot, steps));
    }
}
