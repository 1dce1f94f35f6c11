//! Rules at the application boundary: the container ran, and the application's own behaviour failed.

pub mod container_crash_looping;
pub mod container_init_oom_killed;
pub mod container_oom_killed;
pub mod dependency_failing;
pub mod dependency_ties;
pub mod env_host_not_a_service;
pub mod env_port_not_a_service_port;
pub mod http_server_errors;
pub mod job_failed;
pub mod liveness_probe_failing;
pub mod probe_port_not_declared;
pub mod readiness_probe_missing;
pub mod runtime_memory;
pub mod runtime_memory_over_limit;
pub mod startup_probe_failing;
