//! Every container status of a Pod with the paths rules cite: `status.initContainerStatuses[0]` and
//! the matching `spec.initContainers[j]` (matched by name, not position).

use faultline_ingest::api::{Container, ContainerStateTerminated, ContainerStatus, Pod};
use faultline_ingest::{Object, Typed};
use faultline_model::Model;

pub struct ContainerView<'a> {
    pub status_path: String,
    pub spec_path: Option<String>,
    pub status: &'a ContainerStatus,
    pub spec: Option<&'a Container>,
    pub init: bool,
}

impl<'a> ContainerView<'a> {
    /// `container web`, or `its container` for one read from a fragment that does not name it.
    pub fn label(&self) -> String {
        if self.status.name.is_empty() {
            "its container".to_string()
        } else {
            format!("container {}", self.status.name)
        }
    }

    pub fn waiting_reason(&self) -> Option<&'a str> {
        self.status.state.as_ref()?.waiting.as_ref()?.reason.as_deref()
    }

    pub fn waiting_message(&self) -> Option<&'a str> {
        self.status.state.as_ref()?.waiting.as_ref()?.message.as_deref()
    }

    /// The termination that explains the container's trouble: the current state if terminated,
    /// else the last state; with the path key (`state` or `lastState`).
    pub fn termination(&self) -> Option<(&'static str, &'a ContainerStateTerminated)> {
        if let Some(t) = self.status.state.as_ref().and_then(|s| s.terminated.as_ref()) {
            return Some(("state", t));
        }
        self.status
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .map(|t| ("lastState", t))
    }
}

pub fn containers(pod: &Pod) -> Vec<ContainerView<'_>> {
    let Some(status) = &pod.status else {
        return Vec::new();
    };
    let spec = pod.spec.as_ref();
    let groups = [
        (
            true,
            "initContainerStatuses",
            "initContainers",
            status.init_container_statuses.as_deref(),
            spec.and_then(|s| s.init_containers.as_deref()),
        ),
        (
            false,
            "containerStatuses",
            "containers",
            status.container_statuses.as_deref(),
            spec.map(|s| s.containers.as_slice()),
        ),
    ];
    let mut out = Vec::new();
    for (init, status_key, spec_key, statuses, specs) in groups {
        for (i, container) in statuses.unwrap_or_default().iter().enumerate() {
            let index = specs
                .unwrap_or_default()
                .iter()
                .position(|c| c.name == container.name);
            out.push(ContainerView {
                status_path: format!("status.{status_key}[{i}]"),
                spec_path: index.map(|j| format!("spec.{spec_key}[{j}]")),
                status: container,
                spec: index.and_then(|j| specs.unwrap_or_default().get(j)),
                init,
            });
        }
    }
    out
}

/// Every container of every pasted Pod, with the Pod it belongs to, in input order.
pub fn pod_containers<'m>(model: &Model<'m>) -> Vec<(&'m Object, ContainerView<'m>)> {
    let mut out = Vec::new();
    for object in model.objects {
        if let Typed::Pod(pod) = &object.typed {
            out.extend(containers(pod).into_iter().map(|c| (object, c)));
        }
    }
    out
}
