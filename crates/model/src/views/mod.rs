//! Typed readings of objects, walked once here so that no rule walks a raw tree: a rule asks the
//! model what an object says (a workload's rollout conditions, a Service's legacy Endpoints) and gets
//! a value, with the fields that say it for evidence. Each module reads one kind or one question.

pub mod component_status;
pub mod container_readiness;
pub mod gateway_acceptance;
pub mod ingress_admission;
pub mod service_endpoints;
pub mod service_ports;
pub mod unscheduled_pods;
pub mod workload_rollout;
