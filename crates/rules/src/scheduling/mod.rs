//! Rules at the scheduling boundary: the Pod exists, no node has been chosen for it.

pub mod histogram;
pub mod node_pod_capacity_reached;
pub mod pod_unschedulable;
