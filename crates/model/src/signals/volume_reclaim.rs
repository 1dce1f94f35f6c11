//! The PersistentVolume controller's warnings about a volume it could not reclaim after its claim
//! was released (pkg/controller/volume/persistentvolume/pv_controller.go): `VolumeFailedRecycle`,
//! `VolumeFailedDelete`, and the recycler Pod's `RecyclerPod`; and the volume's own `Failed` phase
//! with its `status.message`.

use faultline_ingest::Object;

use crate::{EventRecord, Model};

/// The controller's reasons for a volume it could not reclaim.
const FAILED_REASONS: [&str; 3] = ["VolumeFailedRecycle", "VolumeFailedDelete", "RecyclerPod"];

impl EventRecord {
    /// Whether this is one of the controller's events about a volume it could not reclaim (any
    /// type: a `RecyclerPod` may be `Normal`).
    pub fn is_reclaim_failure(&self) -> bool {
        FAILED_REASONS.contains(&&*self.reason)
    }
}

/// The PersistentVolume's `status.phase` and `status.message`, when shown.
pub fn volume_phase_and_message(pv: &Object) -> (Option<&str>, Option<&str>) {
    let field = |path: &str| pv.locate(path).and_then(|(_, n)| n.as_str());
    (field("status.phase"), field("status.message"))
}

impl Model<'_> {
    /// The first `Warning` reclaim-failure event of each volume (a PersistentVolume, or an event
    /// whose subject's kind is not printed) that is not pasted as a PersistentVolume, in input order.
    pub fn reclaim_failures_of_unpasted_volumes(&self) -> Vec<&EventRecord> {
        let mut seen: Vec<_> = self
            .objects_of_kind("PersistentVolume")
            .map(|pv| &pv.id)
            .collect();
        let mut out = Vec::new();
        for event in self.events.iter().filter(|e| {
            e.type_ == "Warning"
                && e.is_reclaim_failure()
                && matches!(e.subject.kind.as_str(), "PersistentVolume" | "")
        }) {
            if seen.contains(&&event.subject) {
                continue;
            }
            seen.push(&event.subject);
            out.push(event);
        }
        out
    }
}
