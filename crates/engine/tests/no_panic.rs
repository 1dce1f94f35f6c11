//! Property test: truncated and corrupted pastes never make `analyze` panic. Every input file of the
//! shared corpus is cut at random points and has random bytes changed (deterministic seeds, so a
//! failure names a reproducible case); whatever the damage, `analyze` must return a report, the same
//! report each time, whose errors and evidence cite lines that exist in the damaged input.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use faultline_engine::{analyze, Source};

/// xorshift64*: a tiny deterministic generator, enough to pick cut points and bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let corpus = common::corpus();
    let mut files = Vec::new();
    for group in ["cases", "real/troubleshoot"] {
        for case in std::fs::read_dir(corpus.join(group)).unwrap() {
            let case = case.unwrap().path();
            for file in std::fs::read_dir(&case).unwrap() {
                let path = file.unwrap().path();
                if path.file_name().is_some_and(|n| n != "expect.json") {
                    let name = path.strip_prefix(&corpus).unwrap().display().to_string();
                    files.push((name, std::fs::read(&path).unwrap()));
                }
            }
        }
    }
    files.sort();
    files
}

/// Analyses the damaged text: it must not panic, must give the same report twice (the engine is
/// deterministic), and every line the report cites in it must be a line of it.
fn must_not_panic(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let run = || {
        catch_unwind(AssertUnwindSafe(|| {
            analyze(&[Source::new("damaged", text.as_str())])
        }))
    };
    let Ok(report) = run() else {
        panic!("analyze panicked on {what}");
    };
    let again = run().unwrap_or_else(|_| panic!("analyze panicked the second time on {what}"));
    assert!(report == again, "two analyses of {what} differ");
    // A last line without its newline is a line too. An error may sit just past the last line, where
    // the input ends (a document the cut left open); evidence is always on a line of the input.
    let lines = text.lines().count() as u32;
    for e in &report.errors {
        assert!(
            (1..=lines + 1).contains(&e.line),
            "{what}: error at line {} of {lines} ({})",
            e.line,
            e.message
        );
    }
    for e in report.findings.iter().flat_map(|f| &f.evidence) {
        assert!(
            e.source == "damaged" && (1..=lines).contains(&e.line),
            "{what}: evidence at {}:{} of {lines} lines ({} = {})",
            e.source,
            e.line,
            e.path,
            e.value
        );
    }
}

#[test]
fn truncations_and_byte_flips_never_panic() {
    let files = corpus_files();
    assert!(
        files.len() >= 30,
        "expected the whole corpus, found {} files",
        files.len()
    );
    // 24 rounds in `make test`; FAULTLINE_NO_PANIC_ROUNDS=2000 for a long local run.
    let rounds: usize = std::env::var("FAULTLINE_NO_PANIC_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(24);
    let seed: u64 = std::env::var("FAULTLINE_NO_PANIC_SEED")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0x5EED_FA17_11E5_0001);
    let mut rng = Rng(seed);
    for (name, bytes) in &files {
        for round in 0..rounds {
            let cut = rng.below(bytes.len() + 1);
            must_not_panic(&format!("{name} cut at byte {cut}"), &bytes[..cut]);
            let mut flipped = bytes.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(flipped.len());
                if let Some(b) = flipped.get_mut(at) {
                    *b = match rng.below(4) {
                        0 => b'\n',
                        1 => b' ',
                        2 => b"{}[]:-'\"#|>&*!%@`"[rng.below(17)],
                        _ => rng.below(256) as u8,
                    };
                }
            }
            must_not_panic(&format!("{name} round {round} with flipped bytes"), &flipped);
        }
    }
}
