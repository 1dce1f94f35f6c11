//! `cargo run --release --example bench_ingest -- FILE...`: times ingest alone, the full analysis, and
//! the analysis with the secret scan (what the app's worker runs: one reading for both) of each file (median of
//! BENCH_RUNS, default 3) and prints MB/s; then a redacted copy made by reading the input again
//! (`redact`) and from the analysis's reading (`Reading::redact`, what the worker does when the page
//! asks to redact what the scan found). Used by `make bench`; a benchmark, not a test.

#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use faultline_engine::redact::{redact, ScanOptions};
use faultline_engine::{analyze, analyze_for_scan, ingest, Options, Source};

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    println!(
        "{:<24} {:>7} {:>9} {:>7} {:>10} {:>7} {:>12} {:>7} {:>8} {:>9} {:>11}",
        "input",
        "MB",
        "ingest s",
        "MB/s",
        "analyze s",
        "MB/s",
        "+ secrets s",
        "MB/s",
        "objects",
        "redact s",
        "reused s"
    );
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
        let mb = text.len() as f64 / 1e6;
        let sources = [Source::new(path.clone(), text)];
        let mut ingest_times = Vec::new();
        let mut analyze_times = Vec::new();
        let mut scan_times = Vec::new();
        let mut redact_times = Vec::new();
        let mut reused_times = Vec::new();
        let mut objects = 0;
        for _ in 0..runs {
            let start = Instant::now();
            let ingested = ingest::ingest(&sources);
            ingest_times.push(start.elapsed().as_secs_f64());
            objects = ingested.objects.len() + ingested.table_events.len();
            drop(ingested);
            let start = Instant::now();
            let report = analyze(&sources);
            analyze_times.push(start.elapsed().as_secs_f64());
            assert!(report.errors.is_empty(), "{path}: {:?}", report.errors.first());
            drop(report);
            let start = Instant::now();
            let (report, reading) = analyze_for_scan(&sources, &Options::default(), &mut |_| {});
            drop(report);
            let secrets = reading.scan(&sources, &ScanOptions::default(), &mut |_| {});
            scan_times.push(start.elapsed().as_secs_f64());
            drop(secrets);
            let start = Instant::now();
            let reused = reading.redact(&sources, &ScanOptions::default());
            reused_times.push(start.elapsed().as_secs_f64());
            drop(reading);
            let start = Instant::now();
            let copy = redact(&sources, &ScanOptions::default());
            redact_times.push(start.elapsed().as_secs_f64());
            assert_eq!(copy, reused, "{path}");
        }
        let (i, a, s) = (median(ingest_times), median(analyze_times), median(scan_times));
        let (r, u) = (median(redact_times), median(reused_times));
        let name = std::path::Path::new(&path)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        println!(
            "{name:<24} {mb:>7.1} {i:>9.2} {:>7.1} {a:>10.2} {:>7.1} {s:>12.2} {:>7.1} {objects:>8} {r:>9.3} {u:>11.3}",
            mb / i,
            mb / a,
            mb / s
        );
        // Linear memory only grows: its size is the peak of everything above (the input included).
        #[cfg(target_arch = "wasm32")]
        {
            let bytes = core::arch::wasm32::memory_size(0) as f64 * 65536.0;
            println!(
                "{:<24} wasm memory {:.1} MB ({:.1}× the input)",
                "",
                bytes / 1e6,
                bytes / 1e6 / mb
            );
        }
    }
}
