//! A caller's probe failures and restarts follow from a Service it calls that has nothing ready
//! behind it (issue 39: the symptoms of the fault, which must not head the report). Who calls whom
//! is the model's ([`Model::services_called`]).

use faultline_model::owners::selects;
use faultline_model::Model;
use faultline_report::{Finding, ObjectRef};

/// Whether `cause` is about what the symptom's Pod calls: a Service it names, or a Pod (or the
/// workload of a Pod) such a Service selects. Never the symptom's own subject.
pub(crate) fn explains_caller(model: &Model<'_>, symptom: &Finding, cause: &Finding) -> bool {
    if cause.subject == symptom.subject || symptom.subject.kind != "Pod" {
        return false;
    }
    let called = model.services_called(&symptom.subject);
    if called.is_empty() {
        return false;
    }
    called.iter().any(|service| {
        *service == cause.subject
            || (cause.subject.kind == "Pod" && selects(model, service, &cause.subject))
            || (!cause.affects.is_empty()
                && model
                    .pods_selected_by(service)
                    .iter()
                    .any(|p| cause.affects.iter().any(|w| top_is(model, p, w))))
    })
}

/// Whether the Pod `pod` belongs to the workload `workload`.
fn top_is(model: &Model<'_>, pod: &ObjectRef, workload: &ObjectRef) -> bool {
    faultline_model::owners::top_workload(model, pod) == *workload
}
