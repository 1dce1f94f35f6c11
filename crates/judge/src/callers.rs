//! Who calls whom: a Pod whose container environment names a Service (`PRODUCT_CATALOG_ADDR=
//! productcatalogservice:3550`, `http://cart.shop.svc:7070`) calls it. A caller's probe failures and
//! restarts follow from a Service it calls that has nothing ready behind it (issue 39: the symptoms
//! of the fault, which must not head the report).

use faultline_ingest::node::Node;
use faultline_model::owners::selects;
use faultline_model::Model;
use faultline_report::{Finding, ObjectRef};
use faultline_rules::application::env_host_not_a_service::service_of;
use faultline_rules::pod_spec::pod_specs;

/// The Services the Pod `caller` names in its containers' environment, as pasted Services.
pub(crate) fn services_called(model: &Model<'_>, caller: &ObjectRef) -> Vec<ObjectRef> {
    if caller.kind != "Pod" {
        return Vec::new();
    }
    let mut namespaces: Vec<&str> = model
        .objects
        .iter()
        .filter_map(|o| o.id.namespace.as_deref())
        .collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    let mut out: Vec<ObjectRef> = Vec::new();
    for spec in pod_specs(model).into_iter().filter(|s| s.object.id == *caller) {
        let own = spec.namespace();
        for container in spec.containers() {
            for env in container.node.get("env").map(Node::items).unwrap_or_default() {
                let (Some(name), Some(value)) = (
                    env.get("name").and_then(Node::as_str),
                    env.get("value").and_then(Node::as_str),
                ) else {
                    continue;
                };
                let Some((service, namespace)) = service_of(name, value, own, &namespaces) else {
                    continue;
                };
                let found = model
                    .objects_in(Some(namespace))
                    .find(|o| o.id.kind == "Service" && o.id.name == service);
                if let Some(s) = found {
                    if !out.contains(&s.id) {
                        out.push(s.id.clone());
                    }
                }
            }
        }
    }
    out
}

/// Whether `cause` is about what the symptom's Pod calls: a Service it names, or a Pod (or the
/// workload of a Pod) such a Service selects. Never the symptom's own subject.
pub(crate) fn explains_caller(model: &Model<'_>, symptom: &Finding, cause: &Finding) -> bool {
    if cause.subject == symptom.subject {
        return false;
    }
    services_called(model, &symptom.subject).iter().any(|service| {
        *service == cause.subject
            || (cause.subject.kind == "Pod" && selects(model, service, &cause.subject))
            || cause.affects.iter().any(|w| {
                model
                    .objects_of_kind("Pod")
                    .any(|p| selects(model, service, &p.id) && top_is(model, &p.id, w))
            })
    })
}

/// Whether the Pod `pod` belongs to the workload `workload`.
fn top_is(model: &Model<'_>, pod: &ObjectRef, workload: &ObjectRef) -> bool {
    faultline_model::owners::top_workload(model, pod) == *workload
}
