//! Rules at the readiness / Service endpoints boundary: Pods run, but traffic does not reach them
//! (or reaches them when it should not).

pub mod gateway_route_not_accepted;
pub mod ingress_not_admitted;
pub mod proxy_found_no_endpoints;
pub mod readiness_probe_failing;
pub mod rollout_not_progressing;
pub mod service_endpoints_not_serving;
pub mod service_proxy_refused;
pub mod service_target_port_mismatch;
