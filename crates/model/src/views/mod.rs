//! Typed readings of pasted objects, walked once here so that no rule walks a raw tree: a rule asks
//! a view of an object what it holds (with the field paths it cites) and gets values.

pub mod node_status;
pub mod object_edges;
pub mod pod_eviction;
pub mod pod_placement;
pub mod pod_references;
