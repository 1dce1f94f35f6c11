//! What the benchmark examples share: the median of their runs, and each figure appended to the
//! file `make bench` collects (`BENCH_FIGURES`, read by scripts/ratchet.py).

use std::io::Write;

/// Where the figures come from, for their names.
pub const TARGET: &str = if cfg!(target_arch = "wasm32") {
    "wasm"
} else {
    "native"
};

/// The median of `times` (NaN for none).
pub fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Appends `figure = value` to the file named by `BENCH_FIGURES`, if any.
pub fn record(figure: &str, value: f64) -> Result<(), String> {
    let Ok(path) = std::env::var("BENCH_FIGURES") else {
        return Ok(());
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{path}: {e}"))?;
    let line = serde_json::json!({ "figure": format!("{TARGET} {figure}"), "value": value });
    writeln!(file, "{line}").map_err(|e| format!("{path}: {e}"))
}
