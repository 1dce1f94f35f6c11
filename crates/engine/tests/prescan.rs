//! The prescan ([`model::Prescan`]): what the model reads of the inputs' text alone, found on
//! another thread while the inputs are parsed (the command line does), and the rules' and the
//! timeline's halves of an analysis run at once ([`Join`]). A model given the prescan must be the
//! model that finds the same on first use, and the report the same report.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{
    analyze_read_prescanned, analyze_with, ingest, model, sha256_hex, Digests, Join, Options, Sequential,
};

/// [`Join`] as the command line runs it: `b` on another thread.
struct Threads;

impl Join for Threads {
    fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
        std::thread::scope(|scope| {
            let b = scope.spawn(b);
            (a(), b.join().unwrap())
        })
    }
}

/// Every real input there is (the shared corpus, the rule fixtures, the app's samples), alone and
/// each corpus case with its other inputs: the prescanned model knows the same lines at the same
/// places and indexes the same line starts, and the report is byte for byte the engine's own.
#[test]
fn a_prescanned_analysis_is_the_analysis() {
    let files = common::input_files(|p| {
        !p.file_name()
            .is_some_and(|n| n == "expect.json" || n == "expected.json" || n == "README.md")
            && p.extension().is_none_or(|e| e != "png")
    });
    assert!(files.len() > 100, "all the inputs: {}", files.len());
    let mut inputs = common::alone(&files);
    inputs.extend(common::by_case());
    let mut known_somewhere = 0;
    for sources in &inputs {
        let name = &sources[0].name;
        let ingested = ingest::ingest(sources);
        let lazy = model::Model::build(sources, &ingested);
        let prescanned = model::Model::build_prescanned(sources, &ingested, model::Prescan::of(sources));
        assert_eq!(prescanned.known_lines(), lazy.known_lines(), "{name}");
        assert_eq!(prescanned.line_index(), lazy.line_index(), "{name}");
        if !lazy.known_lines().is_empty() {
            known_somewhere += 1;
        }

        let options = Options {
            digests: Digests::Caller,
            ..Options::default()
        };
        let engine = analyze_with(sources, &Options::default());
        let hashed = |analyse: &dyn Fn() -> faultline_engine::Report| {
            let mut report = analyse();
            for (input, source) in report.inputs.iter_mut().zip(sources) {
                assert_eq!(input.sha256, "", "{name}: the caller hashes");
                input.sha256 = sha256_hex(source.text.as_bytes());
            }
            report
        };
        let read = || (ingest::ingest(sources), model::Prescan::of(sources));
        let sequential = hashed(&|| {
            let (ingested, prescan) = read();
            analyze_read_prescanned(sources, ingested, prescan, &options, &Sequential, &mut |_| {}).0
        });
        assert_eq!(sequential, engine, "{name}: sequential");
        let parallel = hashed(&|| {
            let (ingested, prescan) = read();
            analyze_read_prescanned(sources, ingested, prescan, &options, &Threads, &mut |_| {}).0
        });
        assert_eq!(parallel, engine, "{name}: on two threads");
    }
    // Not a comparison of empty scans: most of the real inputs hold lines the catalog knows.
    assert!(
        known_somewhere > 300,
        "{known_somewhere} of {} inputs",
        inputs.len()
    );
}
