//! A workload's rollout as its status says it (the Deployment, StatefulSet and DaemonSet
//! controllers write it): its `Progressing`, `Available` and `ReplicaFailure` conditions and its
//! replica counts, each with the field that states it.

use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::Object;
use faultline_report::Evidence;
use k8s_openapi::jiff::Timestamp;

use crate::owners::descends_from;
use crate::Model;

/// The kinds whose rollout is read.
const WORKLOADS: [&str; 3] = ["Deployment", "StatefulSet", "DaemonSet"];

/// One condition of the workload's `status.conditions`: its index there, status, reason and message
/// (empty when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutCondition<'a> {
    pub index: usize,
    pub status: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
}

/// What a workload's status says of its rollout.
#[derive(Debug)]
pub struct Rollout<'a> {
    pub object: &'a Object,
    pub progressing: Option<RolloutCondition<'a>>,
    pub available: Option<RolloutCondition<'a>>,
    /// `ReplicaFailure`, only when `True`.
    pub replica_failure: Option<RolloutCondition<'a>>,
    /// Desired replicas (`spec.replicas`, else `status.replicas`; a DaemonSet's
    /// `desiredNumberScheduled`) and the available ones (`availableReplicas`, else `readyReplicas`;
    /// a DaemonSet's `numberReady`): 0 when not stated.
    pub desired: u64,
    pub ready: u64,
    /// `status.updatedReplicas`.
    pub updated: Option<u64>,
}

impl<'a> Rollout<'a> {
    /// `Progressing=False` with `ProgressDeadlineExceeded`.
    pub fn deadline_exceeded(&self) -> Option<&RolloutCondition<'a>> {
        self.progressing
            .as_ref()
            .filter(|c| c.status == "False" && c.reason == "ProgressDeadlineExceeded")
    }

    /// `Available=False`.
    pub fn unavailable(&self) -> bool {
        self.available.as_ref().is_some_and(|c| c.status == "False")
    }

    /// `Available=True`.
    pub fn says_available(&self) -> bool {
        self.available.as_ref().is_some_and(|c| c.status == "True")
    }

    /// Past its deadline or failing to create replicas.
    pub fn stalled(&self) -> bool {
        self.deadline_exceeded().is_some() || self.replica_failure.is_some()
    }

    /// Fewer replicas available than desired.
    pub fn short(&self) -> bool {
        self.ready < self.desired
    }

    /// A rollout under way: some replicas are not of the current template yet, or not available.
    pub fn behind(&self) -> bool {
        self.short()
            || self.updated.is_some_and(|u| u < self.desired)
            || count(self.object, "status.unavailableReplicas").is_some_and(|n| n > 0)
    }

    /// The conditions that say something is wrong (deadline, replica failure, `Available=False`)
    /// then the replica counts, as evidence.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        let mut evidence = Vec::new();
        let unavailable = self.available.as_ref().filter(|_| self.unavailable());
        for c in [
            self.deadline_exceeded(),
            self.replica_failure.as_ref(),
            unavailable,
        ]
        .into_iter()
        .flatten()
        {
            for field in ["status", "reason", "message"] {
                evidence
                    .extend(model.evidence(self.object, &format!("status.conditions[{}].{field}", c.index)));
            }
        }
        for path in [
            "spec.replicas",
            "status.updatedReplicas",
            "status.unavailableReplicas",
            "status.readyReplicas",
            "status.availableReplicas",
            "status.desiredNumberScheduled",
            "status.numberReady",
        ] {
            evidence.extend(model.evidence(self.object, path));
        }
        evidence
    }
}

fn condition<'a>(object: &'a Object, type_: &str) -> Option<RolloutCondition<'a>> {
    let (_, list) = object.locate("status.conditions")?;
    list.items().iter().enumerate().find_map(|(index, c)| {
        let field = |k: &str| c.get(k).and_then(Node::as_str).unwrap_or_default();
        (field("type") == type_).then(|| RolloutCondition {
            index,
            status: field("status"),
            reason: field("reason"),
            message: field("message"),
        })
    })
}

fn count(object: &Object, path: &str) -> Option<u64> {
    object.locate(path)?.1.as_str()?.trim().parse().ok()
}

/// Desired and ready replicas as the workload reports them.
fn replicas(object: &Object) -> Option<(u64, u64)> {
    if object.id.kind == "DaemonSet" {
        return Some((
            count(object, "status.desiredNumberScheduled")?,
            count(object, "status.numberReady").unwrap_or(0),
        ));
    }
    let desired = count(object, "spec.replicas").or_else(|| count(object, "status.replicas"))?;
    let ready = count(object, "status.availableReplicas")
        .or_else(|| count(object, "status.readyReplicas"))
        .unwrap_or(0);
    Some((desired, ready))
}

/// When a condition of the workload last changed: its `lastUpdateTime`, else `lastTransitionTime`.
fn condition_time(object: &Object, index: usize) -> Option<Timestamp> {
    ["lastUpdateTime", "lastTransitionTime"].iter().find_map(|k| {
        object
            .locate(&format!("status.conditions[{index}].{k}"))?
            .1
            .as_str()?
            .parse()
            .ok()
    })
}

/// The rollout of a Deployment, StatefulSet or DaemonSet.
pub fn rollout(object: &Object) -> Rollout<'_> {
    let (desired, ready) = replicas(object).unwrap_or((0, 0));
    Rollout {
        object,
        progressing: condition(object, "Progressing"),
        available: condition(object, "Available"),
        replica_failure: condition(object, "ReplicaFailure").filter(|c| c.status == "True"),
        desired,
        ready,
        updated: count(object, "status.updatedReplicas"),
    }
}

/// The newest time of the conditions that say this copy's rollout failed.
pub fn failed_at(object: &Object) -> Option<Timestamp> {
    let failed = [
        condition(object, "Progressing").filter(|c| c.status == "False"),
        condition(object, "ReplicaFailure").filter(|c| c.status == "True"),
        condition(object, "Available").filter(|c| c.status == "False"),
    ];
    failed
        .iter()
        .flatten()
        .filter_map(|c| condition_time(object, c.index))
        .max()
}

/// The `key=value,…` of a workload's `spec.selector.matchLabels`, when it has any.
pub fn match_labels(object: &Object) -> Option<String> {
    object
        .locate("spec.selector.matchLabels")
        .map(|(_, n)| match &n.value {
            NodeValue::Map(entries) => entries
                .iter()
                .filter_map(|e| Some(format!("{}={}", e.key, e.value.as_str()?)))
                .collect::<Vec<_>>()
                .join(","),
            _ => String::new(),
        })
        .filter(|s| !s.is_empty())
}

impl<'a> Model<'a> {
    /// The rollout of every Deployment, StatefulSet and DaemonSet, in input order.
    pub fn rollouts(&self) -> impl Iterator<Item = Rollout<'a>> + '_ {
        self.objects
            .iter()
            .filter(|o| WORKLOADS.contains(&o.id.kind.as_str()))
            .map(rollout)
    }

    /// Another copy of `object` (same kind, namespace and name) whose rollout completed —
    /// `Progressing=True` with `NewReplicaSetAvailable` and every replica available — with the time
    /// its condition says that happened, when that is later than this copy's failure (`None` when
    /// the input gives no times to order the two). `None` without such a copy, or when the completed
    /// copy is the older one.
    pub fn completed_copy(&self, object: &Object) -> Option<(&'a Object, Option<Timestamp>)> {
        let failed = failed_at(object);
        self.objects_of_kind(&object.id.kind)
            .filter(|o| {
                !std::ptr::eq(*o, object)
                    && o.id.name == object.id.name
                    && o.id.namespace == object.id.namespace
            })
            .find_map(|copy| {
                let done = condition(copy, "Progressing")
                    .filter(|c| c.status == "True" && c.reason == "NewReplicaSetAvailable")?;
                let (desired, ready) = replicas(copy)?;
                if ready < desired || count(copy, "status.unavailableReplicas").is_some_and(|n| n > 0) {
                    return None;
                }
                match (condition_time(copy, done.index), failed) {
                    (Some(at), Some(failed)) if at > failed => Some((copy, Some(at))),
                    (Some(_), Some(_)) => None,
                    _ => Some((copy, None)),
                }
            })
    }

    /// A completed copy's `Progressing` condition and replica counts, as evidence.
    pub fn completed_evidence(&self, copy: &Object) -> Vec<Evidence> {
        let mut evidence = Vec::new();
        if let Some(c) = condition(copy, "Progressing") {
            for field in ["status", "reason", "lastUpdateTime"] {
                evidence.extend(self.evidence(copy, &format!("status.conditions[{}].{field}", c.index)));
            }
        }
        for path in ["spec.replicas", "status.availableReplicas"] {
            evidence.extend(self.evidence(copy, path));
        }
        evidence
    }

    /// Whether any pasted object is owned by `workload`, directly or through a ReplicaSet (only
    /// objects of its namespace can be: [`descends_from`]).
    pub fn owns_any(&self, workload: &Object) -> bool {
        self.objects_in(workload.id.namespace.as_deref())
            .any(|o| o.id != workload.id && descends_from(self, &o.id, &workload.id))
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const STALLED: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
status:
  replicas: 4
  updatedReplicas: 1
  readyReplicas: 3
  availableReplicas: 3
  unavailableReplicas: 1
  conditions:
  - type: Available
    status: \"True\"
    reason: MinimumReplicasAvailable
  - type: Progressing
    status: \"False\"
    reason: ProgressDeadlineExceeded
    message: ReplicaSet \"web-7d9f8c6b5\" has timed out progressing.
    lastUpdateTime: \"2026-12-01T10:00:00Z\"
";

    #[test]
    fn reads_a_stalled_rollout() {
        let sources = vec![Source::new("deploy.yaml", STALLED)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let rollouts: Vec<_> = model.rollouts().collect();
        assert_eq!(rollouts.len(), 1);
        let rollout = &rollouts[0];
        assert_eq!(
            rollout.deadline_exceeded().map(|c| c.message),
            Some("ReplicaSet \"web-7d9f8c6b5\" has timed out progressing.")
        );
        assert!(rollout.stalled() && rollout.says_available() && !rollout.unavailable());
        assert_eq!((rollout.desired, rollout.ready, rollout.updated), (3, 3, Some(1)));
        assert!(!rollout.short() && rollout.behind());
        assert_eq!(super::match_labels(rollout.object).as_deref(), Some("app=web"));
        assert!(super::failed_at(rollout.object).is_some());
        assert!(model.completed_copy(rollout.object).is_none());
    }
}
