//! Any bytes, as one or several inputs (split at NUL bytes), through the whole analysis: it must
//! return a report, never panic; and the fast YAML reader must agree with the general parser.
#![no_main]

use faultline_engine::ingest::{kubectl_yaml, segment, yaml};
use faultline_engine::{analyze, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sources: Vec<Source> = text
        .split('\0')
        .enumerate()
        .map(|(i, part)| Source::new(format!("input-{i}"), part))
        .collect();
    // The fast reader of kubectl's YAML gives the general parser's tree wherever it reads at all.
    for source in &sources {
        for segment in segment::split(&source.text) {
            for (line, chunk) in yaml::split_documents(segment.text, segment.first_line) {
                if let Some(diff) = kubectl_yaml::disagreement(chunk, line) {
                    panic!("the YAML readers disagree at line {line}:\n{diff}");
                }
            }
        }
    }
    let report = analyze(&sources);
    // Every error points into an input that exists.
    for error in &report.errors {
        assert!(sources.iter().any(|s| s.name == error.source));
    }
});
