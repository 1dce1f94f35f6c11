//! Typed readings of the text components print, parsed once here so that no rule parses a message:
//! a rule asks an [`crate::EventRecord`] (or a line) what it says and gets a value. Each module is one
//! family of messages, with the source that prints it.

pub mod admission_refusal;
pub mod authorization_denial;
pub mod cluster_dns;
pub mod cni_plugin;
pub mod create_refusal;
pub mod csi_driver;
pub mod metrics_api;
pub mod probe;
pub mod quota_refusal;
pub mod service_vip;
pub mod volume_attach_mount;
pub mod volume_provisioning;
pub mod volume_reclaim;
pub mod webhook_call;
