//! The tools' work, apart from the protocol: each takes its parameters and returns its result or a
//! [`ToolError`], so that it can be tested without a client. The analysis always runs on the
//! redacted copy of the input ([`redact::redact`], the same redactor as the app's and the CLI's
//! `--redact`): every text these functions return — summaries, evidence values, input errors, the
//! text rendering — is made from that copy, and no parameter turns this off.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use faultline_engine::ingest::{looks_binary, text_from_bytes, BINARY_REASON};
use faultline_engine::redact::{self, ScanOptions};
use faultline_engine::render::{self, Lang};
use faultline_engine::{analyze_with, changes, Options, Report, Source};
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

/// The largest input `faultline mcp` accepts by default, all inputs together: 64 MB.
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// A tool call that cannot be answered: the message says why and, where there is one, where (an
/// input's line and column, a parameter's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(pub String);

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One input given as text.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct NamedText {
    /// The name evidence cites it by (`pod.yaml`, `events.txt`).
    pub name: String,
    /// What kubectl printed: `get -o yaml|json`, `describe`, `get` tables, events, logs, or a paste
    /// mixing several commands with their prompts.
    pub text: String,
}

/// The parameters of `analyze`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct AnalyzeParams {
    /// kubectl output as text, each with the name evidence will cite.
    #[serde(default)]
    pub inputs: Vec<NamedText>,
    /// Files or folders on this machine to read (folders recursively, in name order), as
    /// `faultline analyze PATH…` reads them; each file is named by its path.
    #[serde(default)]
    pub paths: Vec<String>,
    /// The language of the report's sentences: `en` (default) or `zh`.
    #[serde(default)]
    pub lang: Option<String>,
    /// When the output was captured (RFC 3339, `2026-03-02T10:05:00Z`), to place ages such as
    /// `4m31s` in time; default: the newest timestamp in the input.
    #[serde(default)]
    pub captured_at: Option<String>,
    /// An earlier result of `analyze` (its structured content) or an earlier
    /// `faultline analyze --format json` report, as an object or as JSON text: the result then says
    /// what the new evidence changed (findings confirmed, refuted or added, questions answered).
    #[serde(default)]
    pub since: Option<serde_json::Value>,
    /// Also withhold IP addresses, internal host names and e-mail addresses (secrets are always
    /// withheld).
    #[serde(default)]
    pub include_network: bool,
}

/// An object a finding is about.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Subject {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

/// A line of the input that a finding rests on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct EvidenceLine {
    /// The input's name.
    pub source: String,
    /// The line, from 1.
    pub line: u32,
    /// The field (`status.containerStatuses[0].state.waiting.reason`) or the kind of line.
    pub path: String,
    /// The value found there (redacted).
    pub value: String,
}

/// The finding another finding is a symptom of.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct CauseRef {
    pub rule: String,
    pub subject: Subject,
}

/// One finding, with the fields of the report contract (`faultline analyze --format json`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct FindingOut {
    /// The rule's id (`image-pull-failed`); `rule` documents it.
    pub rule: String,
    /// The fault boundary: control-plane, etcd, scheduling, node-runtime, quota-admission,
    /// zone-network-storage, readiness-endpoints or application.
    pub boundary: String,
    /// error, warning or info.
    pub severity: String,
    pub subject: Subject,
    /// The finding in one sentence.
    pub summary: String,
    /// Each line it rests on.
    pub evidence: Vec<EvidenceLine>,
    /// What this evidence alone cannot establish.
    pub cannot_establish: Vec<String>,
    /// The kubectl commands that collect the next piece of evidence.
    pub next_steps: Vec<String>,
    /// established, likely or possible.
    pub confidence: String,
    /// Why that confidence, and what would raise it.
    pub confidence_note: String,
    /// Set on a symptom: the finding that explains it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained_by: Option<CauseRef>,
}

/// A signal that was considered and is not the cause, with the line that shows it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct RuledOutOut {
    pub boundary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<CauseRef>,
    pub because: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<EvidenceLine>,
}

/// When two causes remain close: the command whose output tells them apart.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct DecideOut {
    pub between: Vec<CauseRef>,
    pub command: String,
    pub if_shown: String,
    pub if_not: String,
}

/// A document that could not be read, at its line and column.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct InputErrorOut {
    pub source: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// An input as analysed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct InputOut {
    pub source: String,
    /// How it was read (`yaml-documents`, `describe`, `events-table`, …).
    pub format: String,
    /// The SHA-256 of its redacted text, the text analysed.
    pub sha256: String,
}

/// What was withheld from the model: counts and kinds only, never a value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Withheld {
    /// How many secret values were found and replaced by tokens (`<redacted:secret-data:1>`).
    pub values: usize,
    /// How many distinct values (each has one token, in every input).
    pub tokens: usize,
    /// The values by kind (`secret-data`, `env-secret`, `bearer-token`, …).
    pub kinds: BTreeMap<String, usize>,
}

/// The result of `analyze`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Analysis {
    /// fault, no-fault or inconclusive.
    pub verdict: String,
    /// The diagnosis in one sentence: the first error or warning finding's summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// Most likely root cause first; a symptom follows the finding that explains it.
    pub findings: Vec<FindingOut>,
    /// What was considered and ruled out, each with its line.
    pub ruled_out: Vec<RuledOutOut>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decide: Option<DecideOut>,
    /// Documents that could not be read.
    pub errors: Vec<InputErrorOut>,
    /// How many stretches of lines no reader could use.
    pub unread: usize,
    pub inputs: Vec<InputOut>,
    /// What the new evidence changed since `since`, one sentence each (absent without `since`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<String>>,
    pub withheld: Withheld,
    pub faultline_version: String,
    pub lang: String,
}

/// Reads the parameters' inputs (texts and paths), refusing more than `max_bytes` in all.
pub fn sources(params: &AnalyzeParams, max_bytes: u64) -> Result<Vec<Source>, ToolError> {
    if params.inputs.is_empty() && params.paths.is_empty() {
        return Err(ToolError(
            "no input: give `inputs` (name and text) or `paths` (files or folders)".into(),
        ));
    }
    let mut total: u64 = params.inputs.iter().map(|i| i.text.len() as u64).sum();
    let mut files = Vec::new();
    for (i, path) in params.paths.iter().enumerate() {
        let at = |e: std::io::Error| ToolError(format!("paths[{i}] `{path}`: cannot read it: {e}"));
        let path = Path::new(path);
        if path.is_dir() {
            collect_files(path, &mut files).map_err(at)?;
        } else {
            files.push(path.to_path_buf());
        }
    }
    for file in &files {
        total += std::fs::metadata(file)
            .map_err(|e| ToolError(format!("`{}`: cannot read it: {e}", file.display())))?
            .len();
    }
    if total > max_bytes {
        return Err(ToolError(format!(
            "the input is {total} bytes, over this server's limit of {max_bytes} bytes \
             (`faultline mcp --max-bytes`); give less, or run `faultline analyze` on the command line"
        )));
    }
    let mut sources: Vec<Source> = params
        .inputs
        .iter()
        .map(|i| Source::new(i.name.clone(), i.text.clone()))
        .collect();
    for file in files {
        let bytes = std::fs::read(&file)
            .map_err(|e| ToolError(format!("`{}`: cannot read it: {e}", file.display())))?;
        sources.push(Source::new(file.display().to_string(), text_from_bytes(bytes)));
    }
    if let Some(binary) = sources.iter().find(|s| looks_binary(&s.text)) {
        return Err(ToolError(format!("`{}` {BINARY_REASON}", binary.name)));
    }
    Ok(sources)
}

/// Every file under `dir`, depth first, each folder's entries by name: the order `faultline analyze
/// DIR` reads them in (the CLI uses this one).
pub fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The language asked for (`None`: English).
pub fn lang(tag: Option<&str>) -> Result<Lang, ToolError> {
    match tag {
        None => Ok(Lang::En),
        Some(tag) => Lang::parse(tag).ok_or_else(|| ToolError(format!("lang: takes en or zh, not `{tag}`"))),
    }
}

/// `analyze`: the report of the redacted copy of the inputs, and its short text rendering.
pub fn analyze(params: &AnalyzeParams, max_bytes: u64) -> Result<(Analysis, String), ToolError> {
    let lang = lang(params.lang.as_deref())?;
    let mut options = Options {
        lang,
        ..Options::default()
    };
    if let Some(time) = &params.captured_at {
        options.captured_at = Some(
            time.parse()
                .map_err(|e| ToolError(format!("captured_at: `{time}` is not an RFC 3339 time: {e}")))?,
        );
    }
    let scan = ScanOptions {
        include_network: params.include_network,
    };
    let earlier = params
        .since
        .as_ref()
        .map(|v| earlier_report(v, &scan))
        .transpose()?;
    let originals = sources(params, max_bytes)?;
    let redacted = redact::redact(&originals, &scan);
    drop(originals);
    let report = analyze_with(&redacted.sources, &options);
    // Input that could not be read at all is an error, with each document's position.
    if !report.errors.is_empty() && report.findings.is_empty() && report.inputs.iter().all(|i| i.objects == 0)
    {
        let positions: Vec<String> = report
            .errors
            .iter()
            .map(|e| format!("{} line {}, column {}: {}", e.source, e.line, e.column, e.message))
            .collect();
        return Err(ToolError(format!(
            "nothing could be read from the input:\n{}\n{} secret value(s) were withheld before reading.",
            positions.join("\n"),
            redacted.hits.len()
        )));
    }
    let mut analysis = to_analysis(&report, &redacted, lang)?;
    if let Some(earlier) = &earlier {
        analysis.changes = Some(changes::every(&changes::compare(earlier, &report), lang));
    }
    let text = render_text(&analysis);
    Ok((analysis, text))
}

/// The earlier report of `since`, read from its redacted copy: a report made elsewhere (the CLI's,
/// unredacted) must not bring a value back through an error message or a change's words.
fn earlier_report(since: &serde_json::Value, scan: &ScanOptions) -> Result<Report, ToolError> {
    let text = match since {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    let copy = redact::redact(&[Source::new("since", text)], scan);
    let text = copy.sources.first().map(|s| s.text.as_str()).unwrap_or_default();
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ToolError(format!("since: not JSON: {e}")))?;
    // What a report needs beyond its findings and verdict, empty: `changes` compares only those.
    let mut report = serde_json::json!({"inputs": [], "counts": {}, "errors": [], "timeline": []});
    for key in ["findings", "verdict"] {
        if let Some(v) = value.get(key) {
            report[key] = v.clone();
        }
    }
    serde_json::from_value(report).map_err(|e| {
        ToolError(format!(
            "since: not a result of `analyze` nor a report of `faultline analyze --format json`: {e}"
        ))
    })
}

/// The report, through its contract's JSON, as the tool's result.
fn to_analysis(report: &Report, redacted: &redact::Redacted, lang: Lang) -> Result<Analysis, ToolError> {
    let json =
        serde_json::to_value(report).map_err(|e| ToolError(format!("cannot serialise the report: {e}")))?;
    // Absent (an empty list, no `decide`) reads as the type's default.
    fn field<T: serde::de::DeserializeOwned + Default>(
        json: &serde_json::Value,
        key: &str,
    ) -> Result<T, ToolError> {
        match json.get(key) {
            None | Some(serde_json::Value::Null) => Ok(T::default()),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| ToolError(format!("cannot read the report's {key}: {e}"))),
        }
    }
    let findings: Vec<FindingOut> = field(&json, "findings")?;
    let ruled_out: Vec<RuledOutOut> = field(&json, "ruled_out")?;
    let decide: Option<DecideOut> = field(&json, "decide")?;
    let errors: Vec<InputErrorOut> = field(&json, "errors")?;
    let inputs: Vec<InputOut> = field(&json, "inputs")?;
    let mut kinds = BTreeMap::new();
    for hit in &redacted.hits {
        *kinds.entry(hit.kind.id().to_string()).or_insert(0) += 1;
    }
    Ok(Analysis {
        verdict: report.verdict.id().to_string(),
        diagnosis: report.diagnosis().map(|f| f.summary.to_string()),
        findings,
        ruled_out,
        decide,
        errors,
        unread: report.unread.len(),
        inputs,
        changes: None,
        withheld: Withheld {
            values: redacted.hits.len(),
            tokens: redacted.tokens,
            kinds,
        },
        faultline_version: render::VERSION.to_string(),
        lang: lang.tag().to_string(),
    })
}

/// The short text beside the structured result: the verdict, each finding with its evidence and
/// first next step, and what was withheld.
pub fn render_text(a: &Analysis) -> String {
    let mut out = format!("Verdict: {}", a.verdict);
    if let Some(d) = &a.diagnosis {
        out.push_str(&format!(". Diagnosis: {d}"));
    }
    out.push('\n');
    if let Some(changes) = &a.changes {
        out.push_str("What changed:\n");
        for c in changes {
            out.push_str(&format!("  - {c}\n"));
        }
    }
    for (i, f) in a.findings.iter().enumerate() {
        out.push_str(&format!(
            "{}. [{}] {} ({}, {}): {}\n",
            i + 1,
            f.severity,
            f.rule,
            f.boundary,
            f.confidence,
            f.summary
        ));
        for e in f.evidence.iter().take(3) {
            out.push_str(&format!("   {}:{} {} = {}\n", e.source, e.line, e.path, e.value));
        }
        if let Some(c) = f.cannot_establish.first() {
            out.push_str(&format!("   cannot establish: {c}\n"));
        }
        if let Some(step) = f.next_steps.first() {
            out.push_str(&format!("   next: {step}\n"));
        }
    }
    for e in &a.errors {
        out.push_str(&format!(
            "Input error: {} line {}, column {}: {}\n",
            e.source, e.line, e.column, e.message
        ));
    }
    out.push_str(&format!(
        "Withheld: {} secret value(s) ({} distinct) replaced by tokens before the analysis; no value is in this result.\n",
        a.withheld.values, a.withheld.tokens
    ));
    out
}

/// The parameters of `redact`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct RedactParams {
    /// The text to redact.
    pub text: String,
    /// Also replace IP addresses, internal host names and e-mail addresses.
    #[serde(default)]
    pub include_network: bool,
}

/// One value replaced: where and what kind, never the value.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Replaced {
    /// The kind of secret (`secret-data`, `env-secret`, `bearer-token`, `url-password`, …).
    pub kind: String,
    /// The line and column (from 1, in characters) where the value began.
    pub line: u32,
    pub column: u32,
}

/// The result of `redact`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Redaction {
    /// The text with every secret value replaced by its token (`<redacted:secret-data:1>`); line
    /// numbers stay, and YAML and JSON stay valid.
    pub text: String,
    /// What was replaced, in order.
    pub replaced: Vec<Replaced>,
    /// How many values were withheld, and how many distinct ones (one token each).
    pub withheld: Withheld,
}

/// `redact`: the redacted copy of one text and what was replaced (kinds and positions only).
pub fn redact_text(params: &RedactParams, max_bytes: u64) -> Result<Redaction, ToolError> {
    let size = params.text.len() as u64;
    if size > max_bytes {
        return Err(ToolError(format!(
            "the text is {size} bytes, over this server's limit of {max_bytes} bytes (`faultline mcp --max-bytes`)"
        )));
    }
    if looks_binary(&params.text) {
        return Err(ToolError(format!("the text {BINARY_REASON}")));
    }
    let scan = ScanOptions {
        include_network: params.include_network,
    };
    let copy = redact::redact(&[Source::new("text", params.text.clone())], &scan);
    let mut kinds = BTreeMap::new();
    let replaced = copy
        .hits
        .iter()
        .map(|hit| {
            *kinds.entry(hit.kind.id().to_string()).or_insert(0) += 1;
            Replaced {
                kind: hit.kind.id().to_string(),
                line: hit.line,
                column: hit.column,
            }
        })
        .collect();
    Ok(Redaction {
        text: copy
            .sources
            .into_iter()
            .next()
            .map(|s| s.text)
            .unwrap_or_default(),
        replaced,
        withheld: Withheld {
            values: copy.hits.len(),
            tokens: copy.tokens,
            kinds,
        },
    })
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
