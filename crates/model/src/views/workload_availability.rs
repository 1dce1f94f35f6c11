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

/// The replica counts a ReplicaSet or Deployment states, as numbers: `spec.replicas`,
/// `status.replicas` and `status.readyReplicas` (a `get rs` table gives DESIRED and READY, a
/// describe `current / desired`, YAML all three); each `None` when the input does not state it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplicaCounts {
    pub desired: Option<u32>,
    pub current: Option<u32>,
    pub ready: Option<u32>,
}

/// The [`ReplicaCounts`] `object` states.
pub fn replica_counts(object: &Object) -> ReplicaCounts {
    let number = |path: &str| {
        object
            .locate(path)
            .and_then(|(_, n)| n.as_str().and_then(|s| s.trim().parse::<u32>().ok()))
    };
    ReplicaCounts {
        desired: number("spec.replicas"),
        current: number("status.replicas"),
        ready: number("status.readyReplicas"),
    }
}

#[cfg(test)]
mod tests {
    use super::{replica_counts, ReplicaCounts};
    use crate::Model;
    use faultline_ingest::{ingest, Source};

    #[test]
    fn replica_counts_read_as_numbers() {
        let text = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-7d9f8c6b5\n  namespace: shop\nspec:\n  replicas: 3\nstatus:\n  replicas: 3\n";
        let sources = [Source::new("rs.yaml", text.to_string())];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let counts = model.objects_of_kind("ReplicaSet").next().map(replica_counts);
        let expected = ReplicaCounts {
            desired: Some(3),
            current: Some(3),
            ready: None,
        };
        assert_eq!(counts, Some(expected));
    }
}
