//! The fields of Pods and Events that the engine reads, under the names the Kubernetes API gives
//! them, decoded from an object's node tree with serde.
//!
//! Decoding the whole of k8s-openapi's `Pod` kept every volume source, environment variable and
//! resource list of every Pod in memory, though no rule reads them from the typed object: on a
//! 1,000-Pod dump the typed objects took 23 MB, more than the input text. These types hold only what
//! the rules, the model and the timeline read; the rest of each object stays in its node tree, where
//! rules locate evidence. The field names and shapes follow k8s-openapi's, so code reads the same
//! (`pod.status.as_ref()?.container_statuses`), and leaf types (`Time`, `ObjectReference`) are
//! k8s-openapi's own.

mod container;
mod event;
mod pod;

pub use container::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting,
    ContainerStatus, EnvVar,
};
pub use event::{CoreEvent, EventSeries, EventsV1Event, EventsV1Series};
pub use pod::{Pod, PodCondition, PodSpec, PodStatus};
