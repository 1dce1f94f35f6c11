//! Any bytes, as one or several inputs (split at NUL bytes), through the whole analysis: it must
//! return a report, never panic.
#![no_main]

use faultline_engine::{analyze, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sources: Vec<Source> = text
        .split('\0')
        .enumerate()
        .map(|(i, part)| Source::new(format!("input-{i}"), part))
        .collect();
    let report = analyze(&sources);
    // Every error points into an input that exists.
    for error in &report.errors {
        assert!(sources.iter().any(|s| s.name == error.source));
    }
});
