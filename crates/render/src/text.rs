//! The terminal rendering (the CLI's output): evidence shown on its source line, like a compiler's
//! diagnostic.

use std::fmt::Write;

use super::escape::{one_line, terminal, terminal_columns};
use super::words::unread_place;
use super::{affects_line, between, labels, verdict_sentence, words, Lang};
use faultline_report::Source;
use faultline_report::{Evidence, Report};

/// A terminal rendering: inputs, errors, then findings with their evidence. With the `sources`, each
/// piece of evidence is shown as its source line with the cited value marked, like a compiler's
/// diagnostic; without them (or for a line the sources lack), as `file:line  path = value`.
pub fn text(report: &Report, sources: &[Source], lang: Lang) -> String {
    let w = words(lang);
    let mut out = String::new();
    if let Some(note) = w.note {
        let _ = writeln!(out, "{note}\n");
    }
    for input in &report.inputs {
        let kinds: Vec<String> = input.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let kinds = if kinds.is_empty() {
            String::new()
        } else {
            format!(": {}", kinds.join(", "))
        };
        let note = w.format_note(&input.format);
        let note = if note.is_empty() {
            String::new()
        } else {
            format!(" — {note}")
        };
        let _ = writeln!(
            out,
            "{} {}: {} ({} {}, {} {}{kinds}){note}",
            w.input,
            terminal(&input.source),
            input.format,
            input.documents,
            w.documents,
            input.objects,
            w.objects
        );
    }
    if !report.counts.is_empty() {
        let counts: Vec<_> = report.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(out, "{}: {}", w.counts, counts.join(", "));
    }
    for error in &report.errors {
        let _ = writeln!(
            out,
            "{}: {}:{}:{}: {}",
            w.error,
            terminal(&error.source),
            error.line,
            error.column,
            terminal(&error.message)
        );
    }
    for u in &report.unread {
        let _ = writeln!(out, "{}: {}", w.unread, unread_place(u, w));
    }
    out.push('\n');
    if let Some(sentence) = verdict_sentence(report, w) {
        let _ = writeln!(out, "{sentence}");
    }
    let labels = labels(&report.findings);
    if let Some(d) = &report.decide {
        let _ = writeln!(
            out,
            "{} ({} {}):\n   $ {}\n   {}: {}\n   {}: {}\n",
            w.decide_title,
            w.decide_between,
            between(&report.findings, &labels, d, lang),
            terminal(&d.command),
            super::if_shown_label(&report.findings, &labels, d, w),
            terminal(&d.if_shown),
            w.if_not,
            terminal(&d.if_not)
        );
    }
    for (finding, label) in report.findings.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "{label}. [{}] {} ({}) — {}",
            w.severity(finding.severity),
            finding.rule,
            finding.boundary.id(),
            terminal(&finding.subject.to_string())
        );
        let _ = writeln!(out, "   {}", terminal(&finding.summary));
        let _ = writeln!(
            out,
            "   {}: {} — {}",
            w.confidence,
            w.confidence(finding.confidence),
            terminal(&finding.confidence_note)
        );
        if let Some(line) = affects_line(finding, lang) {
            let _ = writeln!(out, "   {}", terminal(&line));
        }
        let _ = writeln!(out, "   {}:", w.evidence);
        let width = finding
            .evidence
            .iter()
            .map(|e| e.line.to_string().len())
            .max()
            .unwrap_or(1);
        for e in &finding.evidence {
            match source_line(sources, e) {
                Some(line) => out.push_str(&diagnostic(e, line, width)),
                None => {
                    let _ = writeln!(
                        out,
                        "     {}:{}  {} = {}",
                        terminal(&e.source),
                        e.line,
                        terminal(&e.path),
                        terminal(&one_line(&e.value))
                    );
                }
            }
        }
        let _ = writeln!(out, "   {}:", w.cannot);
        for c in &finding.cannot_establish {
            let _ = writeln!(out, "     - {}", terminal(c));
        }
        let _ = writeln!(out, "   {}:", w.next);
        for s in &finding.next_steps {
            let _ = writeln!(out, "     $ {}", terminal(s));
        }
        out.push('\n');
    }
    if !report.ruled_out.is_empty() {
        let _ = writeln!(out, "{}:", w.ruled_out_title);
        for r in &report.ruled_out {
            let _ = writeln!(out, "   - [{}] {}", r.boundary.id(), terminal(&r.because));
            if let Some(e) = &r.evidence {
                let _ = writeln!(
                    out,
                    "     {}:{}  {} = {}",
                    terminal(&e.source),
                    e.line,
                    terminal(&e.path),
                    terminal(&one_line(&e.value))
                );
            }
        }
    }
    out
}

/// The text of the line a piece of evidence cites, if the sources have it.
fn source_line<'a>(sources: &'a [Source], e: &Evidence) -> Option<&'a str> {
    let source = sources.iter().find(|s| s.name == e.source)?;
    source.text.lines().nth((e.line as usize).checked_sub(1)?)
}

/// ```text
///      --> pods.yaml:88  status.containerStatuses[0].state.waiting.reason
///       |
///    88 |         reason: ImagePullBackOff
///       |                 ^^^^^^^^^^^^^^^^
/// ```
/// The mark is under the value where the line holds it (from its start to the line's end when the
/// value goes on over later lines), else under the whole line's text. `width` is the widest line
/// number of the finding, so its gutters line up.
fn diagnostic(e: &Evidence, line: &str, width: usize) -> String {
    let line = terminal_columns(line);
    let value = terminal_columns(e.value.lines().next().unwrap_or_default().trim());
    let value = value.as_str();
    // A long line is shown from a little before the value, so the value is in view.
    let value_at = (!value.is_empty())
        .then(|| line.find(value))
        .flatten()
        .map(|byte| line[..byte].chars().count());
    let (skip, lead) = match value_at {
        Some(at) if at > 120 => (at - 40, "…"),
        _ => (0, ""),
    };
    let shown: String = lead.chars().chain(line.chars().skip(skip).take(160)).collect();
    let shown_len = shown.chars().count();
    let cut = skip + 160 < line.chars().count();
    let head: String = value.chars().take(24).collect();
    let (start, len) = if let Some(byte) = (!value.is_empty()).then(|| shown.find(value)).flatten() {
        (shown[..byte].chars().count(), value.chars().count())
    } else if let Some(byte) = (!head.is_empty()).then(|| shown.find(&head)).flatten() {
        let start = shown[..byte].chars().count();
        (start, shown.trim_end().chars().count().saturating_sub(start))
    } else {
        let text = shown.trim_start();
        (shown_len - text.chars().count(), text.trim_end().chars().count())
    };
    let len = len.min(shown_len.saturating_sub(start)).max(1);
    let pad = " ".repeat(width);
    format!(
        "     {pad}--> {}:{}  {}\n     {pad} |\n     {:>width$} | {shown}{}\n     {pad} | {}{}\n",
        terminal(&e.source),
        e.line,
        terminal(&e.path),
        e.line,
        if cut { "…" } else { "" },
        " ".repeat(start),
        "^".repeat(len)
    )
}
