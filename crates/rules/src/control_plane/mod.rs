//! Rules at the API server / control plane boundary: the client's requests fail before any object
//! is involved.

pub mod apiserver_request_failed;
pub mod component_status_unhealthy;
pub mod components;
pub mod control_plane_component_failing;
pub mod metrics_api_unavailable;
pub mod scheduler_not_running;
