//! How many replicas a DaemonSet or Deployment wants and has ready, as its status (or spec) states:
//! `status.desiredNumberScheduled` / `spec.replicas`, `status.numberReady` / `readyReplicas` /
//! `availableReplicas`, `status.numberUnavailable` / `unavailableReplicas`.

use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// A count and the field that states it.
pub type Count = (u32, Evidence);

/// The counts a workload states, each the first of its fields that is a number with evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkloadAvailability {
    pub desired: Option<Count>,
    pub ready: Option<Count>,
    pub unavailable: Option<Count>,
    /// Whether the object shows a `status` at all (a manifest does not).
    pub status_shown: bool,
}

impl Model<'_> {
    /// The replica counts the workload `object` states.
    pub fn workload_availability(&self, object: &Object) -> WorkloadAvailability {
        let number = |path: &str| -> Option<Count> {
            let (_, node) = object.locate(path)?;
            let n = node.as_str()?.trim().parse::<u32>().ok()?;
            Some((n, self.evidence(object, path)?))
        };
        let first = |paths: &[&str]| paths.iter().find_map(|p| number(p));
        WorkloadAvailability {
            desired: first(&["status.desiredNumberScheduled", "spec.replicas"]),
            ready: first(&[
                "status.numberReady",
                "status.readyReplicas",
                "status.availableReplicas",
            ]),
            unavailable: first(&["status.numberUnavailable", "status.unavailableReplicas"]),
            status_shown: object.locate("status").is_some(),
        }
    }
}
