//! Faultline's Web Worker, as a library: what the page asks ([`protocol::Job`]), what the worker
//! answers ([`protocol::Reply`]), and the work in between ([`job::run`]). Pure like the engine — no
//! browser types here — so it is tested natively; `main.rs` is the thin wasm glue around it.
//!
//! Why a worker: the engine's call is synchronous and takes seconds on a big dump. In the worker the
//! page stays responsive, shows progress, and cancels by terminating the worker (a message could
//! not interrupt the call).

pub mod job;
pub mod parts;
/// What the page and the worker say to each other: in `faultline-render`, which the page links
/// without the engine.
pub use faultline_render::{protocol, texts};

/// The engine's binary check and its words, for the app and the worker (the CLI uses the same).
pub use faultline_report::input::looks_binary;
