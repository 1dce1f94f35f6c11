//! Typed readings of the text components print, parsed once here so that no rule parses a message:
//! a rule asks an [`crate::EventRecord`] (or a line) what it says and gets a value. Each module is one
//! family of messages, with the source that prints it.

pub mod container_config;
pub mod container_start;
pub mod dependency_calls;
pub mod http_request;
pub mod image_pull;
pub mod init_oom;
pub mod node_pressure;
pub mod probe;
pub mod probe_container;
pub mod restart_backoff;
pub mod runtime_memory;
pub mod scheduler_fit;
