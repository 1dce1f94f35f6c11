//! Whether a pasted Pod runs: any of its `status.containerStatuses` in state `running`.

use faultline_ingest::{Object, Typed};

/// Whether any container of the Pod is running (false for an object that is not a typed Pod).
pub fn any_container_running(object: &Object) -> bool {
    let Typed::Pod(pod) = &object.typed else {
        return false;
    };
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
        })
}
