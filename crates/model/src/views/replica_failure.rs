//! A controller's `ReplicaFailure=True` condition (a Deployment's, ReplicaSet's or
//! ReplicationController's, set by pkg/controller/replicaset when creating or deleting its Pods
//! fails), read once from the object's tree.

use faultline_ingest::Object;

use crate::Model;

/// One standing `ReplicaFailure=True` condition.
#[derive(Clone, Copy, Debug)]
pub struct ReplicaFailure<'a> {
    pub object: &'a Object,
    /// The condition's index in `status.conditions`, for its evidence path.
    pub index: usize,
    /// Its message; empty when it has none (`kubectl describe rs` prints none).
    pub message: &'a str,
}

impl ReplicaFailure<'_> {
    /// The path of the condition's field `field` (`message`, `reason`, `status`).
    pub fn path(&self, field: &str) -> String {
        format!("status.conditions[{}].{field}", self.index)
    }
}

/// The index of the object's `ReplicaFailure=True` condition, if it has one.
pub fn replica_failure_index(object: &Object) -> Option<usize> {
    let (_, conditions) = object.locate("status.conditions")?;
    conditions.items().iter().position(|c| {
        let is = |k: &str, v: &str| c.get(k).and_then(|n| n.as_str()) == Some(v);
        is("type", "ReplicaFailure") && is("status", "True")
    })
}

/// The object's `ReplicaFailure=True` condition, if it has one.
pub fn replica_failure(object: &Object) -> Option<ReplicaFailure<'_>> {
    let index = replica_failure_index(object)?;
    let message = object
        .locate(&format!("status.conditions[{index}].message"))
        .and_then(|(_, m)| m.as_str())
        .unwrap_or_default();
    Some(ReplicaFailure {
        object,
        index,
        message,
    })
}

impl<'a> Model<'a> {
    /// Every controller's `ReplicaFailure=True` condition, in input order.
    pub fn replica_failures(&self) -> Vec<ReplicaFailure<'a>> {
        let mut out = Vec::new();
        // `ReplicaFailure` is a controller's condition, never a Pod's: the Pods, most of a dump, are
        // not read. The conditions are found by key (what `locate("status.conditions")` finds,
        // without parsing a path for every object).
        for object in self.objects.iter().filter(|o| o.id.kind != "Pod") {
            let Some(conditions) = object.node.get("status").and_then(|s| s.get("conditions")) else {
                continue;
            };
            for (index, condition) in conditions.items().iter().enumerate() {
                let is = |k: &str, v: &str| condition.get(k).and_then(|n| n.as_str()) == Some(v);
                if is("type", "ReplicaFailure") && is("status", "True") {
                    let message = condition
                        .get("message")
                        .and_then(|n| n.as_str())
                        .unwrap_or_default();
                    out.push(ReplicaFailure {
                        object,
                        index,
                        message,
                    });
                }
            }
        }
        out
    }
}
