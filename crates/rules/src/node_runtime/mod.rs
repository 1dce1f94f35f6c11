//! Rules at the node / container runtime boundary: the node was chosen, running the Pod there failed.

pub mod container_config_invalid;
pub mod container_start_failed;
pub mod image_pull_failed;
pub mod node_not_ready;
pub mod node_under_pressure;
pub mod pod_evicted;
pub mod referenced_object_missing;
