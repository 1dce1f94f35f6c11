//! The Markdown rendering, for chat and tickets.

use std::fmt::Write;

use super::escape::{md_code, md_fence, md_name, md_text, terminal};
use super::{affects_line, between, labels, verdict_sentence, words, Lang};
use faultline_report::Report;

/// Markdown for chat and tickets.
pub fn markdown(report: &Report, lang: Lang) -> String {
    let w = words(lang);
    let mut out = format!("# {}\n\n", w.title);
    if let Some(note) = w.note {
        let _ = writeln!(out, "> {note}\n");
    }
    if let Some((label, line)) = super::boundaries_line(report, w, &|id| format!("`{id}`")) {
        let _ = writeln!(out, "**{label}:** {line}\n");
    }
    if let Some(sentence) = verdict_sentence(report, w) {
        let _ = writeln!(out, "{}\n", md_text(&sentence));
    }
    let labels = labels(&report.findings);
    if let Some(d) = &report.decide {
        let steps = [d.command.clone()];
        let fence = md_fence(&steps);
        let _ = writeln!(
            out,
            "## {} ({} {})\n\n{fence}sh\n{}\n{fence}\n\n- **{}:** {}\n- **{}:** {}\n",
            w.decide_title,
            w.decide_between,
            between(&report.findings, &labels, d, lang),
            terminal(&d.command),
            super::if_shown_label(&report.findings, &labels, d, w),
            md_text(&d.if_shown),
            w.if_not,
            md_text(&d.if_not)
        );
    }
    for (finding, label) in report.findings.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "## {label}. {} `{}` — {}\n",
            w.severity(finding.severity),
            finding.rule,
            md_text(&finding.subject.to_string())
        );
        let _ = writeln!(out, "{}\n", md_text(&finding.summary));
        let _ = writeln!(
            out,
            "**{}:** {} — {}\n",
            w.confidence,
            w.confidence(finding.confidence),
            md_text(&finding.confidence_note)
        );
        if let Some(line) = affects_line(finding, lang) {
            let _ = writeln!(out, "{}\n", md_text(&line));
        }
        let _ = writeln!(out, "**{}**\n", w.evidence_title);
        for e in &finding.evidence {
            let _ = writeln!(
                out,
                "- {} {}: {}",
                md_name(&format!("{}:{}", e.source, e.line)),
                md_name(&e.path),
                md_code(&e.value)
            );
        }
        let _ = writeln!(out, "\n**{}**\n", w.cannot_title);
        for c in &finding.cannot_establish {
            let _ = writeln!(out, "- {}", md_text(c));
        }
        let fence = md_fence(&finding.next_steps);
        let _ = writeln!(out, "\n**{}**\n\n{fence}sh", w.next_title);
        // One command a line: a line break or an escape sequence in a name is shown as an escape.
        for s in &finding.next_steps {
            let _ = writeln!(out, "{}", terminal(s));
        }
        let _ = writeln!(out, "{fence}\n");
    }
    if !report.ruled_out.is_empty() {
        let _ = writeln!(out, "## {}\n", w.ruled_out_title);
        for r in &report.ruled_out {
            let at = r.evidence.as_ref().map_or_else(String::new, |e| {
                format!(
                    " — {} {}: {}",
                    md_name(&format!("{}:{}", e.source, e.line)),
                    md_name(&e.path),
                    md_code(&e.value)
                )
            });
            let _ = writeln!(out, "- `{}` {}{at}", r.boundary.id(), md_text(&r.because));
        }
        out.push('\n');
    }
    if !report.errors.is_empty() {
        let _ = writeln!(out, "## {}\n", super::errors_title(report, w));
        for e in &report.errors {
            let _ = writeln!(
                out,
                "- {} {}",
                md_name(&format!("{}:{}:{}", e.source, e.line, e.column)),
                md_text(&e.message)
            );
        }
    }
    out
}
