//! Faultline's Web Worker, as a library: what the page asks ([`protocol::Job`]), what the worker
//! answers ([`protocol::Reply`]), and the work in between ([`job::run`]). Pure like the engine — no
//! browser types here — so it is tested natively; `main.rs` is the thin wasm glue around it.
//!
//! Why a worker: the engine's call is synchronous and takes seconds on a big dump. In the worker the
//! page stays responsive, shows progress, and cancels by terminating the worker (a message could
//! not interrupt the call).

pub mod job;
pub mod protocol;

/// A file with NUL bytes, or mostly characters that are not valid UTF-8, is not text kubectl printed.
pub fn looks_binary(text: &str) -> bool {
    let sample: String = text.chars().take(64 * 1024).collect();
    let replaced = sample.chars().filter(|c| *c == '\u{FFFD}').count();
    sample.contains('\0') || replaced * 10 > sample.chars().count().max(1)
}

/// Why a file that [`looks_binary`] is not analysed (shown in the inputs list).
pub const BINARY_REASON: &str =
    "looks like a binary file (it has NUL bytes or is not UTF-8 text), not kubectl \
                                 output; it was not analysed";
