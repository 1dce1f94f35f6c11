//! The self-contained HTML report.

use std::fmt::Write;

use super::escape::{esc, one_line};
use super::{affects_line, labels, verdict_sentence, words, Lang};
use faultline_report::{Finding, Report};

/// A self-contained HTML report: styles inline, no script, no external resource, every pasted
/// string escaped; it prints well.
pub fn html(report: &Report, lang: Lang) -> String {
    let w = words(lang);
    let mut out = format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n",
        w.lang, w.title
    );
    out.push_str(HTML_STYLE);
    let _ = writeln!(out, "</style>\n</head>\n<body>\n<h1>{}</h1>", w.title);
    if let Some(note) = w.note {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    if let Some((label, line)) = super::boundaries_line(report, w, &|id| format!("\u{1}{id}\u{2}")) {
        // The ids in <code>, the titles escaped.
        let line = esc(&line).replace('\u{1}', "<code>").replace('\u{2}', "</code>");
        let _ = writeln!(out, "<p class=\"boundary\">{label}: {line}</p>");
    }
    if let Some(sentence) = verdict_sentence(report, w) {
        let _ = writeln!(out, "<p class=\"verdict\">{}</p>", esc(&sentence));
    }
    let _ = writeln!(out, "<h2>{}</h2>\n<ul class=\"inputs\">", w.inputs);
    for input in &report.inputs {
        let _ = writeln!(
            out,
            "<li><code>{}</code>: {} ({} documents, {} objects)</li>",
            esc(&input.source),
            esc(&input.format),
            input.documents,
            input.objects
        );
    }
    out.push_str("</ul>\n");
    if !report.errors.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", super::errors_title(report, w));
        for e in &report.errors {
            let _ = writeln!(
                out,
                "<li><code>{}:{}:{}</code> {}</li>",
                esc(&e.source),
                e.line,
                e.column,
                esc(&e.message)
            );
        }
        out.push_str("</ul>\n");
    }
    let labels = labels(&report.findings);
    if let Some(d) = &report.decide {
        let _ = writeln!(
            out,
            "<section class=\"decide\">\n<h2>{} <span class=\"bnd\">{} {}</span></h2>\n<pre>$ {}</pre>\n\
             <p><strong>{}:</strong> {}</p>\n<p><strong>{}:</strong> {}</p>\n</section>",
            w.decide_title,
            w.decide_between,
            esc(&super::between(&report.findings, &labels, d, lang)),
            esc(&d.command),
            super::if_shown_label(&report.findings, &labels, d, w),
            esc(&d.if_shown),
            w.if_not,
            esc(&d.if_not)
        );
    }
    for (finding, label) in report.findings.iter().zip(&labels) {
        let symptom = if finding.explained_by.is_some() {
            " symptom"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<section class=\"finding {}{symptom}\">\n<h2>{label}. <span class=\"sev\">{}</span> <code>{}</code> \
             <span class=\"bnd\">{}</span></h2>\n<p class=\"subject\">{}</p>\n<p>{}</p>",
            severity(finding),
            w.severity(finding.severity),
            esc(&finding.rule),
            finding.boundary.id(),
            esc(&finding.subject.to_string()),
            esc(&finding.summary)
        );
        let _ = writeln!(
            out,
            "<p class=\"confidence\"><strong>{}:</strong> {} — {}</p>",
            w.confidence,
            w.confidence(finding.confidence),
            esc(&finding.confidence_note)
        );
        if let Some(line) = affects_line(finding, lang) {
            let _ = writeln!(out, "<p class=\"affects\">{}</p>", esc(&line));
        }
        let _ = writeln!(
            out,
            "<h3>{}</h3>\n<table>\n<tr><th>{}</th><th>{}</th><th>{}</th></tr>",
            w.evidence_title, w.columns[0], w.columns[1], w.columns[2]
        );
        for e in &finding.evidence {
            let _ = writeln!(
                out,
                "<tr><td><code>{}:{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                esc(&e.source),
                e.line,
                esc(&e.path),
                esc(&one_line(&e.value))
            );
        }
        let _ = writeln!(out, "</table>\n<h3>{}</h3>\n<ul>", w.cannot_title);
        for c in &finding.cannot_establish {
            let _ = writeln!(out, "<li>{}</li>", esc(c));
        }
        let _ = write!(out, "</ul>\n<h3>{}</h3>\n<pre>", w.next_title);
        for step in &finding.next_steps {
            let _ = writeln!(out, "$ {}", esc(step));
        }
        out.push_str("</pre>\n</section>\n");
    }
    if !report.ruled_out.is_empty() {
        let _ = writeln!(
            out,
            "<section class=\"ruled-out\">\n<h2>{}</h2>\n<ul>",
            w.ruled_out_title
        );
        for r in &report.ruled_out {
            let at = r.evidence.as_ref().map_or_else(String::new, |e| {
                format!(
                    " <code>{}:{}</code> <code>{}</code> {}",
                    esc(&e.source),
                    e.line,
                    esc(&e.path),
                    esc(&one_line(&e.value))
                )
            });
            let _ = writeln!(
                out,
                "<li><span class=\"bnd\">{}</span> {}{at}</li>",
                r.boundary.id(),
                esc(&r.because)
            );
        }
        out.push_str("</ul>\n</section>\n");
    }
    let _ = writeln!(out, "<footer>{}</footer>\n</body>\n</html>", w.footer);
    out
}

const HTML_STYLE: &str = "\
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f3f4f6;padding:.6rem .8rem;overflow-x:auto;white-space:pre-wrap}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.25rem .4rem;text-align:left;vertical-align:top}
td:last-child{word-break:break-word}
.finding{border-left:4px solid #57606a;padding:.2rem 1rem;margin:1.5rem 0;break-inside:avoid}
.finding.error{border-color:#b42318}.finding.warning{border-color:#9a6700}.finding.info{border-color:#0550ae}
.symptom{margin-left:2rem}
.decide{border:1px solid #0550ae;padding:.2rem 1rem;margin:1.5rem 0}
.sev{text-transform:uppercase;font-size:.8em;letter-spacing:.05em}
.bnd{font-weight:normal;color:#57606a;font-size:.8em}
.subject{color:#57606a;margin:0}
footer{margin-top:2rem;color:#57606a;font-size:.85em}
@media print{body{margin:0;max-width:none}pre{white-space:pre-wrap}}
";

fn severity(finding: &Finding) -> &'static str {
    match finding.severity {
        faultline_report::Severity::Error => "error",
        faultline_report::Severity::Warning => "warning",
        faultline_report::Severity::Info => "info",
    }
}
