//! Typed readings of the text components print, parsed once here so that no rule parses a message:
//! a rule asks an [`crate::EventRecord`] (or a line) what it says and gets a value. Each module is one
//! family of messages, with the source that prints it.

pub mod admission_refusal;
pub mod apiserver_request;
pub mod authorization_denial;
pub mod cluster_dns;
pub mod cni_plugin;
pub mod container_config;
pub mod container_start;
pub mod create_refusal;
pub mod csi_driver;
pub mod dependency_calls;
pub mod etcd_request;
pub mod http_request;
pub mod image_pull;
pub mod init_oom;
pub mod metrics_api;
pub mod node_pressure;
pub mod probe;
pub mod probe_container;
pub mod proxy_no_endpoints;
pub mod quota_refusal;
pub mod readiness_failure;
pub mod request_failure;
pub mod restart_backoff;
pub mod runtime_memory;
pub mod scheduler_fit;
pub mod service_vip;
pub mod volume_attach_mount;
pub mod volume_provisioning;
pub mod volume_reclaim;
pub mod webhook_call;
