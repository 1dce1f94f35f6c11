//! Typed readings of the text components print, parsed once here so that no rule parses a message:
//! a rule asks an [`crate::EventRecord`] (or a line) what it says and gets a value. Each module is one
//! family of messages, with the source that prints it.

pub mod apiserver_request;
pub mod etcd_request;
pub mod metrics_api;
pub mod probe;
pub mod proxy_no_endpoints;
pub mod readiness_failure;
pub mod request_failure;
