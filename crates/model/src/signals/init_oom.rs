//! The container runtime's words for a container whose init process the kernel killed for memory
//! before the application ran: runc's "container init was OOM-killed (memory limit too low?)"
//! (libcontainer's `process_linux.go`) and crun's "OOM: the memory limit could be too low". The
//! kubelet repeats them in a container's waiting or termination message and in its `Failed` and
//! `FailedCreatePodSandBox` events.

use faultline_ingest::api::ContainerStatus;

use crate::views::container_exit::ContainerExit;
use crate::EventRecord;

/// Whether a message carries the runtime's words for an init process OOM-killed.
pub fn says_init_oom(message: &str) -> bool {
    message.contains("container init was OOM-killed")
        || message.contains("OOM: the memory limit could be too low")
}

impl EventRecord {
    /// Whether this event carries the runtime's words for an init process OOM-killed.
    pub fn says_init_oom(&self) -> bool {
        says_init_oom(&self.message)
    }
}

/// The container's own status says its start was OOM-killed: its waiting or termination message
/// says so (and its termination is not an `OOMKilled`, which ends a container that ran).
pub fn start_oom_killed(status: &ContainerStatus) -> bool {
    let exit = ContainerExit::of(status);
    let waiting = status
        .state
        .as_ref()
        .and_then(|s| s.waiting.as_ref()?.message.as_deref());
    let terminated = exit.and_then(|e| e.terminated.message.as_deref());
    !exit.is_some_and(|e| e.oom_killed())
        && (waiting.is_some_and(says_init_oom) || terminated.is_some_and(says_init_oom))
}

#[cfg(test)]
mod tests {
    use super::says_init_oom;

    #[test]
    fn the_runtimes_words() {
        assert!(says_init_oom(
            "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)"
        ));
        assert!(says_init_oom(
            "2021-03-23T08:47:08.000722463Z: OOM: the memory limit could be too low: read from the init process"
        ));
        assert!(!says_init_oom("OOMKilled"));
    }
}
