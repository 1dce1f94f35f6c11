//! `cargo run --profile native --example bench_redact [-- SHAPE...]`: times [`redact`] of 1, 2, 4 and
//! 8 MB inputs of the shapes that once made the scan quadratic (issue 28), and prints the seconds and
//! MB/s. Used by `make bench`; a benchmark, not a test (the redacted output of each shape is checked
//! by `redact::tests::hostile_shapes_are_redacted_correctly`).
//! `BENCH_MB="1 2"` picks the sizes; `BENCH_RUNS` (default 3) the runs of which the median is shown.
//! `BENCH_FILES="a.txt b.yaml"` times the redaction of those files instead (the 1 MB mixed pastes of
//! `scripts/bench.sh`). `BENCH_FIGURES=FILE` also appends each time as a JSON line for `scripts/ratchet.py`.

#![allow(clippy::print_stdout)]

use std::time::Instant;

use faultline_engine::redact::{redact, shapes, ScanOptions};
use faultline_engine::Source;

mod figures;
use figures::{median, record};

/// The median seconds of `runs` redactions of `sources`, and the secrets found.
fn timed_redact(sources: &[Source], runs: usize) -> (f64, usize) {
    let mut times = Vec::new();
    let mut hits = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let redacted = redact(sources, &ScanOptions::default());
        times.push(start.elapsed().as_secs_f64());
        hits = redacted.hits.len();
    }
    (median(times), hits)
}

fn main() -> Result<(), String> {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let sizes: Vec<f64> = std::env::var("BENCH_MB")
        .unwrap_or_else(|_| "1 2 4 8".into())
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect();
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    if let Ok(files) = std::env::var("BENCH_FILES") {
        println!(
            "{:<40} {:>5} {:>10} {:>8} {:>8}",
            "redact: file", "MB", "seconds", "MB/s", "hits"
        );
        for path in files.split_whitespace() {
            let sources = [Source::new(
                path,
                std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
            )];
            let (s, hits) = timed_redact(&sources, runs);
            let size = sources[0].text.len() as f64 / 1e6;
            let name = std::path::Path::new(path)
                .file_name()
                .map_or(path.into(), |n| n.to_string_lossy());
            println!("{name:<40} {size:>5.1} {s:>10.3} {:>8.1} {hits:>8}", size / s);
            record(&format!("redact {name} s"), s)?;
        }
        return Ok(());
    }
    println!(
        "{:<22} {:>5} {:>10} {:>8} {:>8}",
        "redact: shape", "MB", "seconds", "MB/s", "hits"
    );
    for (name, make) in shapes::ALL {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        for &mb in &sizes {
            let text = make((mb * 1e6) as usize);
            let sources = [Source::new(format!("{name}.txt"), text)];
            let (s, hits) = timed_redact(&sources, runs);
            let size = sources[0].text.len() as f64 / 1e6;
            println!("{name:<22} {size:>5.1} {s:>10.3} {:>8.1} {hits:>8}", size / s);
            record(&format!("redact {name} {mb} MB s"), s)?;
        }
    }
    Ok(())
}
