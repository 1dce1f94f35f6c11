//! The crash read from a `kubectl get pods` row: STATUS `CrashLoopBackOff` or `Error` (read by
//! [`crate::table_status`]), or Running with restarts kubectl dates minutes ago.

use super::{Msg, LOOPING_RESTARTS, RULE};
use crate::{history, table_status};
use faultline_model::views::pod_row_restarts::{restarted_recently, restarts};
use faultline_model::Model;
use faultline_report::message::{common, Message};
use faultline_report::{Finding, Severity};

/// kubectl's STATUS for a container that keeps exiting.
pub(super) const TABLE: table_status::TableFault = table_status::TableFault {
    statuses: &["CrashLoopBackOff", "Error"],
    meaning: || Msg::TableMeaning {}.into(),
    cannot: || Msg::TableCannot {}.into(),
    with_log: true,
};

/// Pods known from a `kubectl get pods` row whose STATUS is Running and whose RESTARTS cell says
/// the container restarted again and again, the last time minutes ago (`5 (2m ago)`): the weakest
/// evidence of a crash loop, caught while the container runs between exits. A count without its age
/// (older kubectl) or a last restart long ago (`10 (43d ago)`) proves nothing current: quiet.
pub(super) fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (pod, _) in table_status::pods_with_status(model, &["Running"]) {
        let id = &pod.id;
        let Some((count, ago)) = restarted_recently(pod, LOOPING_RESTARTS, history::BACKOFF_RESET) else {
            continue;
        };
        if findings.iter().any(|f| f.rule == RULE.id && f.subject == *id) {
            continue;
        }
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let restarts = restarts(pod).unwrap_or_default().into();
        let summary = Msg::RestartingRow {
            subject: id.clone(),
            restarts,
            count,
            minutes: ago / 60,
        };
        let cannot: Vec<Message> = vec![Msg::RowCannot {}.into(), common::Msg::TableCannot {}.into()];
        let steps = vec![
            command!("kubectl describe pod {} -n {}", id.name, ns),
            command!("kubectl logs {} -n {} --previous --all-containers", id.name, ns),
            command!("kubectl get pod {} -n {} -w", id.name, ns),
        ];
        let evidence = table_status::evidence_with_warnings(model, pod, id);
        findings.push(RULE.finding(Severity::Warning, id.clone(), summary, evidence, cannot, steps));
    }
}
