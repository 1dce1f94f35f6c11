//! The dated lines of logs (issue 40): a kubelet's or a runtime's journal, a controller's or an
//! application's log. A line the catalog knows becomes a timeline entry at the time its prefix
//! says ([`dated`]), and the newest time any log states is a capture moment the timeline can use
//! when nothing else dates the input ([`newest`]). Lines a structural reader read (an object's
//! field, an event) are that reader's, not a log's. The dependency failures an application logs
//! are [`crate::dependencies`]'s, placed by the timeline on their own.

use faultline_report::instant::Instant;

use crate::known::{KnownLine, LineSet};
use crate::{log_time, Model};

/// A known line of a log, with the time it was written.
pub struct DatedLine<'m> {
    pub known: &'m KnownLine,
    pub time: Instant,
}

/// Every line the catalog knows, other than an application's dependency failure, that a log
/// dates, in input order.
pub fn dated<'m>(model: &'m Model<'_>) -> Vec<DatedLine<'m>> {
    // The time first: few lines of a dump start with one, and marking what the structural readers
    // read walks every object.
    let mut out: Vec<DatedLine<'m>> = model
        .known_lines()
        .iter()
        .filter(|k| k.recognised.entry.dependency.is_empty())
        .filter_map(|known| {
            let line = model.input_line(known.source, known.line)?;
            let time = log_time::line_time_with(line, || model.log_year(known.source))?;
            Some(DatedLine { known, time })
        })
        .collect();
    if out.is_empty() {
        return out;
    }
    let mut read = LineSet::new(model);
    crate::known::mark_objects(model, true, &mut read);
    for event in &model.events {
        if let Some((source, line)) = crate::known::event_at(model, event) {
            read.mark(source, line, line);
        }
    }
    out.retain(|d| !read.has(d.known.source, d.known.line));
    out
}

/// How far back from a log's end [`newest`] looks for a dated line.
const TAIL: usize = 500;

/// The newest time the inputs' logs state: a journal's `end at` (`-- Logs begin at …, end at Wed
/// 2022-10-05 06:43:42 UTC. --`), else the last dated line of each container log or journal.
pub fn newest(model: &Model<'_>) -> Option<Instant> {
    let mut newest: Option<Instant> = None;
    for (source, input) in model.sources.iter().enumerate() {
        let journal = journal_end(&input.text);
        let blocks: Vec<(u32, u32)> = model
            .logs
            .iter()
            .filter(|b| b.source == source)
            .map(|b| (b.first_line, b.last_line))
            .collect();
        if journal.is_none() && blocks.is_empty() {
            continue;
        }
        newest = newest.max(journal);
        for (first, last) in blocks {
            let year = model.log_year(source);
            let dated = (first..=last)
                .rev()
                .take(TAIL)
                .filter_map(|n| model.input_line(source, n))
                .find_map(|line| log_time::line_time(line, year));
            newest = newest.max(dated);
        }
    }
    newest
}

/// The `end at` of a journal's header, read in its first lines.
fn journal_end(text: &str) -> Option<Instant> {
    let header = text.lines().take(50).find(|l| {
        l.trim_start().starts_with("-- Logs begin at ") || l.trim_start().starts_with("-- Journal begins at ")
    })?;
    let (_, end) = header.split_once(", end at ")?;
    // `Wed 2022-10-05 06:43:42 UTC. --`
    let mut words = end
        .split_whitespace()
        .skip_while(|w| !(w.len() == 10 && w.as_bytes().get(4) == Some(&b'-')));
    let date = words.next()?;
    let time = words.next()?.trim_end_matches('.');
    let zone = words.next().map(|z| z.trim_end_matches('.')).unwrap_or("UTC");
    if zone != "UTC" && zone != "GMT" {
        // A local zone's offset is not in the header: no time rather than a wrong one.
        return None;
    }
    Instant::parse(&format!("{date}T{time}Z"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_header_ends_at_its_end_time_in_utc_only() {
        // kubernetes/kubernetes#112874, verbatim.
        let header = "-- Logs begin at Fri 2022-09-30 11:14:56 UTC, end at Wed 2022-10-05 06:43:42 UTC. --\n";
        assert_eq!(
            journal_end(header).map(|t| t.to_string()),
            Some("2022-10-05T06:43:42Z".to_string())
        );
        assert_eq!(
            journal_end(
                "-- Logs begin at Fri 2022-09-30 11:14:56 CEST, end at Wed 2022-10-05 06:43:42 CEST. --\n"
            ),
            None
        );
        assert_eq!(journal_end("-- No entries --\n"), None);
    }
}
