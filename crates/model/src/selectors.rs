//! Near misses of a Service's selector: Pods of its namespace whose labels match every key of the
//! selector but one (`version: v2` where the selector says `v1`, a renamed `app`), the wiring fault
//! behind a Service that selects nothing while its Pods run.

use faultline_ingest::Object;
use faultline_report::ObjectRef;

use crate::graph::pairs;
use crate::Model;

/// A Pod that misses a Service's selector by one label: the key, the selector's value, the Pod's
/// (`None` when the Pod has no such label).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearMiss {
    pub pod: ObjectRef,
    pub key: String,
    pub wanted: String,
    pub has: Option<String>,
}

/// The pasted Pods of the Service's namespace that match all of its `spec.selector` but one label,
/// at most `most`, in input order. None for a selector of one label (any other Pod would miss it
/// by one).
pub fn near_misses(model: &Model<'_>, service: &Object, most: usize) -> Vec<NearMiss> {
    let selector = pairs(service.locate("spec.selector").map(|(_, n)| n));
    if selector.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for pod in model
        .objects_in(service.id.namespace.as_deref())
        .filter(|o| o.id.kind == "Pod")
    {
        let labels = pairs(pod.locate("metadata.labels").map(|(_, n)| n));
        let mut missed = selector
            .iter()
            .filter(|(k, v)| !labels.iter().any(|(lk, lv)| lk == k && lv == v));
        let (Some((key, wanted)), None) = (missed.next(), missed.next()) else {
            continue;
        };
        let has = labels.iter().find(|(k, _)| k == key).map(|(_, v)| v.to_string());
        out.push(NearMiss {
            pod: pod.id.clone(),
            key: key.to_string(),
            wanted: wanted.to_string(),
            has,
        });
        if out.len() >= most {
            break;
        }
    }
    out
}
