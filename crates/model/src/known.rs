//! The lines of the inputs that the catalog knows ([`faultline_ingest::known`]), as typed signals:
//! which entry, where (input and line), and what its placeholders named.

use faultline_ingest::known::{self, Recognised};
use faultline_report::Source;

/// A known line of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownLine {
    /// The input's index.
    pub source: usize,
    /// 1-based.
    pub line: u32,
    /// The text the entry matched (the rest of the line is layout: a table's columns, a log prefix).
    pub text: String,
    pub recognised: Recognised,
}

/// Lines longer than this are not matched: a minified document on one line is read by the JSON
/// reader, and checking a template around each of its many hits would be quadratic.
const LONGEST: usize = 16 * 1024;

/// Every known line of `sources`, the best entry of each.
pub fn scan(sources: &[Source]) -> Vec<KnownLine> {
    let mut out = Vec::new();
    for (source, input) in sources.iter().enumerate() {
        for (i, line) in input.text.lines().enumerate() {
            if line.len() > LONGEST || line.len() < 12 {
                continue;
            }
            // A line of JSON escapes the quotes that the component printed.
            let unescaped;
            let line = if line.contains("\\\"") {
                unescaped = line.replace("\\\"", "\"");
                unescaped.as_str()
            } else {
                line
            };
            if let Some(recognised) = known::best(line) {
                out.push(KnownLine {
                    source,
                    line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    text: line[recognised.start..recognised.end].to_string(),
                    recognised,
                });
            }
        }
    }
    out
}
