//! Faultline's Web Worker, as a library: what the page asks ([`protocol::Job`]), what the worker
//! answers ([`protocol::Reply`]), and the work in between ([`job::run`]). Pure like the engine — no
//! browser types here — so it is tested natively; `main.rs` is the thin wasm glue around it.
//!
//! Why a worker: the engine's call is synchronous and takes seconds on a big dump. In the worker the
//! page stays responsive, shows progress, and cancels by terminating the worker (a message could
//! not interrupt the call).

pub mod job;
pub mod protocol;
pub mod texts;

/// The engine's binary check and its words, for the app and the worker (the CLI uses the same).
pub use faultline_engine::ingest::{looks_binary, BINARY_REASON};

/// Why the worker could not read a file it was given, as it says it (the page writes it in its
/// language: the app's `i18n`, `unreadable_reason`).
pub mod reasons {
    /// The file does not fit in the tab's memory.
    pub const TOO_LARGE: &str = "is too large to hold in this tab's memory";
    /// The page sent something that is not a file.
    pub const NOT_A_FILE: &str = "not a file";

    /// The browser could not read it, and says why.
    pub fn read_failed(why: &str) -> String {
        format!("could not be read ({why})")
    }

    /// The browser's why of a [`read_failed`] reason.
    pub fn read_failed_why(reason: &str) -> Option<&str> {
        reason.strip_prefix("could not be read (")?.strip_suffix(')')
    }
}
