//! `cargo run --profile native --example bench_ingest -- FILE...`: times ingest alone, the full analysis,
//! and the analysis with the secret scan (what the app's worker runs: one reading for both) of each file
//! (median of BENCH_RUNS, default 3) and prints MB/s; then a redacted copy made by reading the input
//! again (`redact`) and from the analysis's reading (`Reading::redact`, what the worker does when the
//! page asks to redact what the scan found). Then where the time of one analysis went, stage by stage
//! (median of each stage over the runs): the engine's phases as its progress callback reports them,
//! the report serialised as the worker sends it (JSON), the secret scan, and the engine's SHA-256 of
//! the inputs (apart: the worker has WebCrypto hash them meanwhile). The engine has no clock:
//! the stages are timed here, between the phase changes it reports, so an analysis that nobody times
//! pays nothing for them.
//!
//! `BENCH_FIGURES=FILE` also appends each figure as a JSON line (`{"figure": ..., "value": ...}`) for
//! `scripts/ratchet.py`. Used by `make bench`; a benchmark, not a test.

#![allow(clippy::print_stdout)]

use std::time::Instant;

use faultline_engine::redact::{redact, ScanOptions};
use faultline_engine::{analyze, analyze_for_scan, ingest, sha256_hex, Digests, Options, Phase, Source};

mod figures;
use figures::{median, record};

/// The stages of an analysis in the order they run; the profile's columns.
/// "hashing" is the engine's own SHA-256 of the inputs, timed apart: the app's worker leaves it to
/// the browser's WebCrypto, on a thread of its own, while the engine analyses (`Digests::Caller`);
/// the command line and a redacted copy pay it.
const STAGES: [&str; 8] = [
    "reading", "relating", "rules", "judging", "timeline", "sending", "scan", "hashing",
];

fn stage_of(phase: Phase) -> usize {
    match phase {
        Phase::Reading => 0,
        Phase::Relating => 1,
        Phase::Diagnosing => 2,
        Phase::Judging => 3,
        Phase::Timeline => 4,
        Phase::Scanning => 6,
    }
}

/// One analysis, sent and scanned as the worker does it, in seconds per stage (a stage the engine
/// did not report stays 0).
fn profile(sources: &[Source]) -> [f64; 8] {
    let mut seconds = [0.0; 8];
    let mut current: Option<(usize, Instant)> = None;
    let mut enter = |stage: usize, seconds: &mut [f64; 8]| {
        let now = Instant::now();
        match current {
            Some((at, _)) if at == stage => return,
            Some((at, since)) => seconds[at] += (now - since).as_secs_f64(),
            None => {}
        }
        current = Some((stage, now));
    };
    let worker = Options {
        digests: Digests::Caller,
        ..Options::default()
    };
    let (report, reading) =
        analyze_for_scan(sources, &worker, &mut |p| enter(stage_of(p.phase), &mut seconds));
    enter(5, &mut seconds);
    // What the worker posts to the page: the report's parts as JSON.
    let sent = serde_json::to_vec(&report).map_or(0, |bytes| bytes.len());
    drop(report);
    enter(6, &mut seconds);
    let secrets = reading.scan(sources, &ScanOptions::default(), &mut |_| {});
    enter(7, &mut seconds);
    let digests: Vec<String> = sources.iter().map(|s| sha256_hex(s.text.as_bytes())).collect();
    enter(usize::MAX, &mut seconds);
    drop((secrets, reading, sent, digests));
    seconds
}

fn main() -> Result<(), String> {
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
    let mut profiles = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let mb = text.len() as f64 / 1e6;
        let sources = [Source::new(path.clone(), text)];
        let mut ingest_times = Vec::new();
        let mut analyze_times = Vec::new();
        let mut scan_times = Vec::new();
        let mut redact_times = Vec::new();
        let mut reused_times = Vec::new();
        let mut stage_times: Vec<Vec<f64>> = vec![Vec::new(); STAGES.len()];
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
            if let Some(error) = report.errors.first() {
                return Err(format!("{path}: {error:?}"));
            }
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
            if copy != reused {
                return Err(format!("{path}: the reading's redaction differs from redact()"));
            }
            for (times, seconds) in stage_times.iter_mut().zip(profile(&sources)) {
                times.push(seconds);
            }
        }
        let (i, a, s) = (median(ingest_times), median(analyze_times), median(scan_times));
        let (r, u) = (median(redact_times), median(reused_times));
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().to_string());
        println!(
            "{name:<24} {mb:>7.1} {i:>9.2} {:>7.1} {a:>10.2} {:>7.1} {s:>12.2} {:>7.1} {objects:>8} {r:>9.3} {u:>11.3}",
            mb / i,
            mb / a,
            mb / s
        );
        for (figure, value) in [
            ("ingest s", i),
            ("analyze s", a),
            ("+ secrets s", s),
            ("redact s", r),
        ] {
            record(&format!("{name} {figure}"), value)?;
        }
        let stages: Vec<f64> = stage_times.into_iter().map(median).collect();
        for (stage, value) in STAGES.iter().zip(&stages) {
            record(&format!("{name} stage {stage} s"), *value)?;
        }
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
            record(&format!("{name} memory MB"), bytes / 1e6)?;
        }
        profiles.push((name, stages));
    }
    println!();
    println!("Where one analysis's time went, ms (median of each stage; sending = the report as JSON;");
    println!("hashing = the engine's SHA-256 of the inputs, which the app's worker leaves to WebCrypto):");
    print!("{:<24}", "input");
    for stage in STAGES {
        print!(" {stage:>9}");
    }
    println!(" {:>9}", "total");
    for (name, stages) in profiles {
        print!("{name:<24}");
        for seconds in &stages {
            print!(" {:>9.1}", seconds * 1e3);
        }
        println!(" {:>9.1}", stages.iter().sum::<f64>() * 1e3);
    }
    Ok(())
}
