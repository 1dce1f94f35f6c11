//! A container of a pasted Pod killed by the kernel's OOM killer, as the kubelet reports it in the
//! Pod's status (`containerStatuses[].state` or `lastState`, `terminated.reason: OOMKilled`), with
//! the memory its spec allows it and the fields that show both.

use faultline_ingest::api::{Container, ContainerStatus};
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::signals::runtime_memory::ContainerMemory;
use crate::views::container_exit::{container_evidence, ContainerExit};
use crate::Model;

/// One OOM kill: the termination, the container's memory limit and runtime settings, and their
/// evidence (the termination's reason, exit code and finish, the restart count, then the memory
/// fields).
pub struct OomKill<'a> {
    pub exit: ContainerExit<'a>,
    pub memory: ContainerMemory,
    pub evidence: Vec<Evidence>,
}

impl<'a> OomKill<'a> {
    /// The kill of the container whose status is `status` at `status_path` of `object` (its typed
    /// spec, if pasted, at `spec_path`): none unless its current or last termination is `OOMKilled`.
    pub fn of(
        model: &Model<'_>,
        object: &Object,
        (status_path, status): (&str, &'a ContainerStatus),
        (spec_path, spec): (Option<&str>, Option<&Container>),
    ) -> Option<Self> {
        let exit = ContainerExit::of(status).filter(ContainerExit::oom_killed)?;
        let terminated = ["reason", "exitCode", "finishedAt"].map(|f| format!("{}.terminated.{f}", exit.key));
        let fields = [terminated.as_slice(), &["restartCount".to_string()]].concat();
        let mut evidence = container_evidence(model, object, status_path, &fields);
        let memory = ContainerMemory::of(model, object, spec_path, spec);
        evidence.extend(memory.evidence.iter().cloned());
        Some(OomKill {
            exit,
            memory,
            evidence,
        })
    }
}
