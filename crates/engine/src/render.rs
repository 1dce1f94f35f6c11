//! Plain-text and Markdown renderings of a [`Report`], shared by the CLI and (later) the app's export.

use std::fmt::Write;

use crate::report::{Finding, Report};

/// A terminal rendering: inputs, errors, then findings with their evidence.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    for input in &report.inputs {
        let kinds: Vec<String> = input.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let kinds = if kinds.is_empty() {
            String::new()
        } else {
            format!(": {}", kinds.join(", "))
        };
        let note = match input.format.as_str() {
            "container-log" => " — a container log: listed, not analysed",
            "command-output" => " — output of another command: kept as text for the rules",
            "kubectl-messages" => " — kubectl's own messages (API errors, connection failures)",
            "empty" => " — empty",
            _ => "",
        };
        let _ = writeln!(
            out,
            "input {}: {} ({} documents, {} objects{kinds}){note}",
            input.source, input.format, input.documents, input.objects
        );
    }
    if !report.counts.is_empty() {
        let counts: Vec<_> = report.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(out, "objects: {}", counts.join(", "));
    }
    for error in &report.errors {
        let _ = writeln!(
            out,
            "error: {}:{}:{}: {}",
            error.source, error.line, error.column, error.message
        );
    }
    out.push('\n');
    if report.findings.is_empty() {
        out.push_str("No findings: nothing in this input points to a fault.\n");
    }
    let labels = labels(&report.findings);
    for (finding, label) in report.findings.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "{label}. [{}] {} ({}) — {}",
            severity(finding),
            finding.rule,
            finding.boundary.id(),
            finding.subject
        );
        let _ = writeln!(out, "   {}", finding.summary);
        let _ = writeln!(out, "   evidence:");
        for e in &finding.evidence {
            let _ = writeln!(
                out,
                "     {}:{}  {} = {}",
                e.source,
                e.line,
                e.path,
                one_line(&e.value)
            );
        }
        let _ = writeln!(out, "   cannot establish:");
        for c in &finding.cannot_establish {
            let _ = writeln!(out, "     - {c}");
        }
        let _ = writeln!(out, "   next steps:");
        for s in &finding.next_steps {
            let _ = writeln!(out, "     $ {s}");
        }
        out.push('\n');
    }
    out
}

/// Markdown for chat and tickets.
pub fn markdown(report: &Report) -> String {
    let mut out = String::from("# Faultline diagnosis\n\n");
    if let Some(top) = report.findings.first() {
        let _ = writeln!(
            out,
            "**Fault boundary:** `{}` ({})\n",
            top.boundary.id(),
            top.boundary.title()
        );
    } else {
        out.push_str("No findings: nothing in this input points to a fault.\n\n");
    }
    let labels = labels(&report.findings);
    for (finding, label) in report.findings.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "## {label}. {} `{}` — {}\n",
            severity(finding),
            finding.rule,
            md_text(&finding.subject.to_string())
        );
        let _ = writeln!(out, "{}\n", md_text(&finding.summary));
        out.push_str("**Evidence**\n\n");
        for e in &finding.evidence {
            let _ = writeln!(
                out,
                "- `{}:{}` `{}`: {}",
                e.source,
                e.line,
                e.path,
                md_code(&one_line(&e.value))
            );
        }
        out.push_str("\n**What this evidence cannot establish**\n\n");
        for c in &finding.cannot_establish {
            let _ = writeln!(out, "- {}", md_text(c));
        }
        out.push_str("\n**Next steps**\n\n```sh\n");
        for s in &finding.next_steps {
            let _ = writeln!(out, "{s}");
        }
        out.push_str("```\n\n");
    }
    if !report.errors.is_empty() {
        out.push_str("## Input errors\n\n");
        for e in &report.errors {
            let _ = writeln!(
                out,
                "- `{}:{}:{}` {}",
                e.source,
                e.line,
                e.column,
                md_text(&e.message)
            );
        }
    }
    out
}

/// Each finding's number: `1`, `2`, … for causes, `1.1`, `1.2` for the symptoms listed under a cause
/// (the report already puts each symptom right after its cause).
pub fn labels(findings: &[Finding]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::with_capacity(findings.len());
    let mut top = 0;
    let mut children: Vec<usize> = vec![0; findings.len()];
    for finding in findings {
        let parent = finding.explained_by.as_ref().and_then(|c| {
            findings
                .iter()
                .position(|f| f.rule == c.rule && f.subject == c.subject)
                .filter(|&p| p < labels.len())
        });
        let label = match parent {
            Some(p) => {
                children[p] += 1;
                format!("{}.{}", labels[p], children[p])
            }
            None => {
                top += 1;
                top.to_string()
            }
        };
        labels.push(label);
    }
    labels
}

fn severity(finding: &Finding) -> &'static str {
    match finding.severity {
        crate::Severity::Error => "error",
        crate::Severity::Warning => "warning",
        crate::Severity::Info => "info",
    }
}

fn one_line(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Pasted text inside Markdown prose: escape what would turn it into markup or HTML.
fn md_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Pasted text as inline code, with a fence longer than any backtick run inside it.
fn md_code(value: &str) -> String {
    if value.is_empty() {
        return "(empty)".to_string();
    }
    let longest = value.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {value} {fence}")
}
