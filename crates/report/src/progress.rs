//! How far an analysis has got.

use serde::{Deserialize, Serialize};

/// The stage an analysis is in, for progress shown to someone waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Reading the inputs into objects; `bytes_done` moves.
    Reading,
    /// Relating objects: owners, selectors, endpoints, events.
    Relating,
    /// Running the rules.
    Diagnosing,
    /// Judging what the rules found: merging, linking causes, ranking.
    Judging,
    /// Placing dated facts on the timeline.
    Timeline,
    /// Looking for secrets in what was read, once the report is made (the engine's `Reading::scan` only).
    Scanning,
}

/// How far an analysis has got. Reported often enough for a progress bar (about every 256 KiB of
/// input while reading, and at each phase change), never for every object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub phase: Phase,
    /// Bytes of input read so far, of `bytes_total` (the sum of all inputs' lengths).
    pub bytes_done: u64,
    pub bytes_total: u64,
    /// Documents read so far (YAML or JSON documents, List items, tables, describe sections).
    pub documents: u64,
}
