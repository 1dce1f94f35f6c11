//! Text, Markdown and HTML renderings of a [`Report`], shared by the CLI and the app's export.

use std::fmt::Write;

mod escape;

use escape::{esc, md_code, md_fence, md_name, md_text, one_line, terminal, terminal_columns};

use crate::ingest::Source;
pub use crate::lang::Lang;
use crate::report::{Evidence, Finding, Report};

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
    out
}

/// The sentence that says what a report without an error or warning finding amounts to, or `None`
/// for the verdict `fault` (the findings say it). Unread lines are listed by where they are.
pub fn verdict_sentence(report: &Report, w: &Words) -> Option<String> {
    match report.verdict {
        crate::report::Verdict::Fault => None,
        crate::report::Verdict::NoFault => Some(w.no_findings.to_string()),
        crate::report::Verdict::Inconclusive if report.unread.is_empty() && report.errors.is_empty() => {
            Some(w.nothing_read.to_string())
        }
        crate::report::Verdict::Inconclusive => {
            let mut places: Vec<String> = report.unread.iter().take(5).map(|u| unread_place(u, w)).collect();
            if report.unread.len() > 5 {
                places.push("…".to_string());
            }
            if !report.errors.is_empty() && places.is_empty() {
                places.push(w.input_errors.to_string());
            }
            Some(if w.lang == "zh" {
                format!("{}{}。{}", w.not_read_before, places.join("；"), w.not_read_after)
            } else {
                format!(
                    "{} {}. {}",
                    w.not_read_before,
                    places.join("; "),
                    w.not_read_after
                )
            })
        }
    }
}

/// `paste, lines 3–41: rows or columns in a layout Faultline does not read` (`paste 第 3–41 行：…`).
fn unread_place(u: &crate::report::Unread, w: &Words) -> String {
    let zh = w.lang == "zh";
    let lines = match (zh, u.line == u.end_line) {
        (false, true) => format!("line {}", u.line),
        (false, false) => format!("lines {}–{}", u.line, u.end_line),
        (true, true) => format!("第 {} 行", u.line),
        (true, false) => format!("第 {}–{} 行", u.line, u.end_line),
    };
    let reason = match (zh, u.reason_id.as_str()) {
        (true, "describe-fragment") => {
            "没有所属对象的 describe 字段（没有 `Name:` 行，也没有指明对象的 `kubectl describe` 命令）"
        }
        (true, "unknown-layout") => "Faultline 不认识其格式的行或列",
        _ => u.reason.as_str(),
    };
    if zh {
        format!("{} {lines}：{reason}", u.source)
    } else {
        format!("{}, {lines}: {reason}", u.source)
    }
}

/// One language's words for the renderings.
pub struct Words {
    pub lang: &'static str,
    pub note: Option<&'static str>,
    pub title: &'static str,
    pub boundary: &'static str,
    pub no_findings: &'static str,
    /// The verdict `inconclusive` when nothing judgeable was read.
    pub nothing_read: &'static str,
    /// The verdict `inconclusive` with unread lines: before the list of where they are.
    pub not_read_before: &'static str,
    /// … and after it.
    pub not_read_after: &'static str,
    pub unread: &'static str,
    pub evidence: &'static str,
    pub cannot: &'static str,
    pub next: &'static str,
    pub evidence_title: &'static str,
    pub cannot_title: &'static str,
    pub next_title: &'static str,
    pub inputs: &'static str,
    pub input_errors: &'static str,
    pub columns: [&'static str; 3],
    pub footer: &'static str,
    pub redacted_note: &'static str,
    pub input: &'static str,
    pub documents: &'static str,
    pub objects: &'static str,
    pub counts: &'static str,
    pub error: &'static str,
    /// Notes on inputs that are not objects: container log, command output, kubectl's messages, empty.
    format_notes: [&'static str; 4],
    severities: [&'static str; 3],
    /// The boundaries' titles in `Boundary::ALL` order; `None`: the article's English titles.
    boundaries: Option<[&'static str; 8]>,
}

impl Words {
    pub fn severity(&self, severity: crate::Severity) -> &'static str {
        match severity {
            crate::Severity::Error => self.severities[0],
            crate::Severity::Warning => self.severities[1],
            crate::Severity::Info => self.severities[2],
        }
    }

    /// What an input of this format is, when it is not objects; empty otherwise.
    pub fn format_note(&self, format: &str) -> &'static str {
        match format {
            "container-log" => self.format_notes[0],
            "command-output" => self.format_notes[1],
            "kubectl-messages" => self.format_notes[2],
            "empty" => self.format_notes[3],
            _ => "",
        }
    }

    pub fn boundary_title(&self, boundary: crate::Boundary) -> &'static str {
        let at = crate::Boundary::ALL
            .iter()
            .position(|b| *b == boundary)
            .unwrap_or_default();
        self.boundaries.map_or(boundary.title(), |titles| titles[at])
    }
}

const EN: Words = Words {
    lang: "en",
    note: None,
    title: "Faultline diagnosis",
    boundary: "Fault boundary",
    no_findings: "No findings: the input was read, and nothing in it points to a fault.",
    nothing_read: "Inconclusive: Faultline found nothing in this input it could judge (no Kubernetes object, event or kubectl message). Paste the output of `kubectl describe` or `kubectl get -o yaml` for the object in trouble, with its events.",
    not_read_before: "Inconclusive: no finding, but Faultline could not read all of this input to judge it:",
    not_read_after: "Paste the whole `kubectl describe` (or `kubectl get -o yaml`) output of the object in trouble.",
    unread: "not read",
    evidence: "evidence",
    cannot: "cannot establish",
    next: "next steps",
    evidence_title: "Evidence",
    cannot_title: "What this evidence cannot establish",
    next_title: "Next steps",
    inputs: "Inputs",
    input_errors: "Input errors",
    columns: ["where", "field", "value"],
    footer: "Made by Faultline from the pasted input alone; nothing was sent anywhere.",
    redacted_note: "Made from the redacted copy of the input: secrets were replaced by tokens such as <redacted:token:1> before this analysis.",
    input: "input",
    documents: "documents",
    objects: "objects",
    counts: "objects",
    error: "error",
    format_notes: [
        "a container log: listed, not analysed",
        "output of another command: kept as text for the rules",
        "kubectl's own messages (API errors, connection failures)",
        "empty",
    ],
    severities: ["error", "warning", "info"],
    boundaries: None,
};

const ZH: Words = Words {
    lang: "zh",
    note: Some("说明：以下各项发现的摘要、证据与限制由规则以英文写出，此处保留原文；命令可直接运行。"),
    title: "Faultline 诊断",
    boundary: "故障边界",
    no_findings: "没有发现：输入已读取，其中没有证据指向故障。",
    nothing_read: "无法判断：输入中没有 Faultline 能判断的内容（没有 Kubernetes 对象、事件或 kubectl 消息）。请粘贴出问题对象的 `kubectl describe` 或 `kubectl get -o yaml` 输出及其事件。",
    not_read_before: "无法判断：没有发现，但输入中有部分内容 Faultline 未能读取，不足以判断：",
    not_read_after: "请粘贴出问题对象完整的 `kubectl describe`（或 `kubectl get -o yaml`）输出。",
    unread: "未读取",
    evidence: "证据",
    cannot: "无法确定",
    next: "下一步",
    evidence_title: "证据",
    cannot_title: "这些证据无法确定的内容",
    next_title: "下一步",
    inputs: "输入",
    input_errors: "输入错误",
    columns: ["位置", "字段", "值"],
    footer: "由 Faultline 仅根据粘贴的输入生成；没有向任何地方发送数据。",
    redacted_note: "基于输入的脱敏副本生成：分析前，机密值已替换为 <redacted:token:1> 这样的标记。",
    input: "输入",
    documents: "个文档",
    objects: "个对象",
    counts: "对象",
    error: "错误",
    format_notes: [
        "容器日志：只列出，不分析",
        "其他命令的输出：作为文本供规则读取",
        "kubectl 自身的消息（API 错误、连接失败）",
        "空",
    ],
    severities: ["错误", "警告", "信息"],
    boundaries: Some([
        "API 服务器 / 控制平面",
        "etcd",
        "调度约束",
        "节点 / 容器运行时",
        "资源配额 / 准入",
        "可用区 / 网络 / 存储",
        "就绪 / Service 端点",
        "应用",
    ]),
};

/// The words of a language.
pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
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

/// Markdown for chat and tickets.
pub fn markdown(report: &Report, lang: Lang) -> String {
    let w = words(lang);
    let mut out = format!("# {}\n\n", w.title);
    if let Some(note) = w.note {
        let _ = writeln!(out, "> {note}\n");
    }
    if let Some(top) = report.findings.first() {
        let _ = writeln!(
            out,
            "**{}:** `{}` ({})\n",
            w.boundary,
            top.boundary.id(),
            w.boundary_title(top.boundary)
        );
    }
    if let Some(sentence) = verdict_sentence(report, w) {
        let _ = writeln!(out, "{}\n", md_text(&sentence));
    }
    let labels = labels(&report.findings);
    for (finding, label) in report.findings.iter().zip(&labels) {
        let _ = writeln!(
            out,
            "## {label}. {} `{}` — {}\n",
            w.severity(finding.severity),
            finding.rule,
            md_text(&finding.subject.to_string())
        );
        let _ = writeln!(out, "{}\n", md_text(&finding.summary));
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
    if !report.errors.is_empty() {
        let _ = writeln!(out, "## {}\n", w.input_errors);
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

/// Each finding's number: `1`, `2`, … for causes, `1.1`, `1.2` for the symptoms listed under a cause
/// (the report already puts each symptom right after its cause).
pub fn labels(findings: &[Finding]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::with_capacity(findings.len());
    let mut top = 0;
    let mut children: Vec<usize> = vec![0; findings.len()];
    // Each finding's first index by (rule, subject): a dump with thousands of findings would make a
    // search per symptom quadratic.
    let mut first: crate::hash::Map<(&str, &crate::ObjectRef), usize> = crate::hash::Map::default();
    for (i, f) in findings.iter().enumerate() {
        first.entry((f.rule.as_str(), &f.subject)).or_insert(i);
    }
    for finding in findings {
        let parent = finding.explained_by.as_ref().and_then(|c| {
            first
                .get(&(c.rule.as_str(), &c.subject))
                .copied()
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
    if let Some(top) = report.findings.first() {
        let _ = writeln!(
            out,
            "<p class=\"boundary\">{}: <code>{}</code> ({})</p>",
            w.boundary,
            top.boundary.id(),
            esc(w.boundary_title(top.boundary))
        );
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
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", w.input_errors);
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
.sev{text-transform:uppercase;font-size:.8em;letter-spacing:.05em}
.bnd{font-weight:normal;color:#57606a;font-size:.8em}
.subject{color:#57606a;margin:0}
footer{margin-top:2rem;color:#57606a;font-size:.85em}
@media print{body{margin:0;max-width:none}pre{white-space:pre-wrap}}
";

/// The formats a report is exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Markdown,
    Html,
    Json,
}

impl ExportFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "md",
            ExportFormat::Html => "html",
            ExportFormat::Json => "json",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "text/markdown;charset=utf-8",
            ExportFormat::Html => "text/html;charset=utf-8",
            ExportFormat::Json => "application/json",
        }
    }
}

/// A report to take elsewhere (the app's export). When the analysis ran on the redacted copy of the
/// input, the export says so at its top: a line in Markdown and HTML, `"redacted": true` in JSON
/// (the report contract plus that one field). A JSON export that cannot be serialised is an error,
/// never an empty file that looks like a report.
pub fn export(
    report: &Report,
    format: ExportFormat,
    lang: Lang,
    redacted: bool,
) -> Result<String, serde_json::Error> {
    let w = words(lang);
    Ok(match format {
        ExportFormat::Markdown => {
            let body = markdown(report, lang);
            if !redacted {
                return Ok(body);
            }
            match body.split_once("\n\n") {
                Some((title, rest)) => format!("{title}\n\n> {}\n\n{rest}", w.redacted_note),
                None => body,
            }
        }
        ExportFormat::Html => {
            let body = html(report, lang);
            if !redacted {
                return Ok(body);
            }
            let note = format!(
                "<p class=\"note\"><strong>{}</strong></p>\n",
                esc(w.redacted_note)
            );
            match body.find("</h1>\n") {
                Some(at) => format!("{}{note}{}", &body[..at + 6], &body[at + 6..]),
                None => body,
            }
        }
        ExportFormat::Json => {
            #[derive(serde::Serialize)]
            struct Redacted<'a> {
                redacted: bool,
                #[serde(flatten)]
                report: &'a Report,
            }
            if redacted {
                json(&Redacted { redacted, report })?
            } else {
                json(report)?
            }
        }
    })
}

/// Pretty JSON with a final newline.
fn json(value: &impl serde::Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(|j| j + "\n")
}

/// Every rule with its documentation, grouped by boundary, as Markdown (`faultline rules`): generated
/// from the rules' doc comments (or, for [`Lang::Zh`], their Chinese translations), never written by
/// hand. `sample_link` gives, for a rule id, where a live example of it can be opened (a deep link
/// into the app), if anywhere.
pub fn rules_markdown(sample_link: &dyn Fn(&str) -> Option<String>, lang: Lang) -> String {
    use crate::report::Boundary;
    use crate::rules::docs::{sections, DocBlock};
    let w = words(lang);
    let mut out = String::from(match lang {
        Lang::En => "# Faultline's rules\n\nEach rule names one condition Faultline recognises, the fault boundary it points to, and what its evidence cannot establish.\n\n",
        Lang::Zh => "# Faultline 的规则\n\n每条规则对应 Faultline 能识别的一种情况，说明它指向的故障边界，以及它的证据无法确定的内容。规则 ID、字段、原因、消息和命令保留英文原文，与集群中看到的一致。\n\n",
    });
    let sample = match lang {
        Lang::En => "Open a sample that triggers it",
        Lang::Zh => "打开一个触发此规则的示例",
    };
    for boundary in Boundary::ALL {
        let rules: Vec<_> = crate::rules::RULES
            .iter()
            .filter(|r| r.boundary == boundary)
            .collect();
        let _ = writeln!(out, "## {} (`{}`)\n", w.boundary_title(boundary), boundary.id());
        for rule in rules {
            let _ = writeln!(out, "### `{}`\n", rule.id);
            if let Some(link) = sample_link(rule.id) {
                let _ = writeln!(out, "[{sample}]({link})\n");
            }
            for (title, blocks) in sections(rule.docs_in(lang)) {
                let _ = writeln!(out, "**{title}**\n");
                for block in blocks {
                    match block {
                        DocBlock::Text(t) => {
                            let _ = writeln!(out, "{t}\n");
                        }
                        DocBlock::Code(c) => {
                            let _ = writeln!(out, "```\n{c}\n```\n");
                        }
                    }
                }
            }
        }
    }
    out
}

fn severity(finding: &Finding) -> &'static str {
    match finding.severity {
        crate::Severity::Error => "error",
        crate::Severity::Warning => "warning",
        crate::Severity::Info => "info",
    }
}

#[cfg(test)]
mod export_tests {
    use super::*;
    use crate::{analyze, Source};

    fn report() -> Report {
        analyze(&[Source::new(
            "pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers: [{name: web, image: \"shop/web:9\"}]\nstatus:\n  phase: Pending\n  containerStatuses:\n  - {name: web, image: \"shop/web:9\", imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull, message: 'manifest unknown'}}}\n",
        )])
    }

    #[test]
    fn what_cannot_be_serialised_is_an_error_not_an_empty_export() {
        let keys_not_strings: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        assert!(json(&keys_not_strings).is_err());
        assert!(json(&report()).is_ok_and(|j| j.starts_with('{') && j.ends_with("}\n")));
    }

    #[test]
    fn exports_of_a_redacted_analysis_say_so_at_the_top() {
        let report = report();
        assert_eq!(report.findings[0].rule, "image-pull-failed");
        let md = export(&report, ExportFormat::Markdown, Lang::En, true).unwrap();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "# Faultline diagnosis");
        assert!(lines[2].starts_with("> Made from the redacted copy"), "{md}");
        assert!(!export(&report, ExportFormat::Markdown, Lang::En, false)
            .unwrap()
            .contains("redacted copy"));
        let html = export(&report, ExportFormat::Html, Lang::Zh, true).unwrap();
        let h1 = html.find("</h1>").unwrap();
        assert!(
            html[h1..h1 + 200].contains("脱敏副本"),
            "the note follows the title"
        );
        let json = export(&report, ExportFormat::Json, Lang::En, true).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["redacted"], true);
        let back: Report = serde_json::from_str(&json).unwrap();
        assert_eq!(back, report, "still the report contract");
        let plain: serde_json::Value =
            serde_json::from_str(&export(&report, ExportFormat::Json, Lang::En, false).unwrap()).unwrap();
        assert!(plain.get("redacted").is_none());
    }
}
