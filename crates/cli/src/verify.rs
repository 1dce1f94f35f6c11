//! `faultline verify REPORT.json [INPUT…]`: re-runs the analysis a JSON report was made from and
//! says whether it gives the same findings, or what differs.
//!
//! A report names what it was made from: each input by name and the SHA-256 of its text
//! (`inputs[].sha256`), the Faultline version (`faultline_version`), the language of its texts
//! (`lang`), the capture moment when it was set (`capture.basis: "set"`), and whether it was made
//! from the redacted copy (`redacted`). Verifying is: the same inputs (every hash matches), and the
//! same analysis of them (the same findings, in the same order, with the same evidence and words,
//! and the same verdict). A different version is said, not failed: the findings are what a
//! postmortem cites, and a newer Faultline that gives the same ones reproduces them.

use std::io::Write;
use std::process::ExitCode;

use faultline_engine::redact::{self, ScanOptions};
use faultline_engine::render::VERSION;
use faultline_engine::{analyze_with, sha256_hex, CaptureBasis, Finding, Lang, Options, Report, Source};

/// What re-running a report gave.
#[derive(Debug, PartialEq, Eq)]
pub struct Verification {
    /// The version that made the report (`None`: the report does not say).
    pub made_by: Option<String>,
    /// Each input of the report, and each input given that the report does not name.
    pub inputs: Vec<InputCheck>,
    /// The differences between the report's findings and verdict and the re-run's, one line each;
    /// empty when they are the same.
    pub differences: Vec<String>,
    /// How many findings the report has (for the verdict line).
    pub findings: usize,
}

/// One input, as the report names it and as it was given.
#[derive(Debug, PartialEq, Eq)]
pub enum InputCheck {
    /// Given, with the report's hash.
    Same { name: String, sha256: String },
    /// Given under the report's name, with another text.
    Changed {
        name: String,
        recorded: String,
        now: String,
    },
    /// Named by the report, not given.
    Missing { name: String },
    /// Given, not named by the report.
    Extra { name: String },
    /// Named by the report without a hash (made before hashes were recorded): cannot be checked.
    Unhashed { name: String },
}

impl Verification {
    /// Whether the report holds: every input is the one it names and the findings are the same.
    pub fn holds(&self) -> bool {
        self.differences.is_empty() && self.inputs.iter().all(|i| matches!(i, InputCheck::Same { .. }))
    }

    /// Whether the report was made by another version of Faultline than this one.
    pub fn other_version(&self) -> bool {
        self.made_by.as_deref().is_some_and(|v| v != VERSION)
    }

    /// The result as lines for a terminal: the version, each input, then the verdict and each
    /// difference.
    pub fn render(&self) -> String {
        let mut out = String::new();
        match &self.made_by {
            Some(v) if !self.other_version() => out.push_str(&format!("Made by Faultline {v}, the version running now.\n")),
            Some(v) => out.push_str(&format!(
                "Made by Faultline {v}; this is Faultline {VERSION}: a difference below may be the engine's.\n"
            )),
            None => out.push_str(&format!(
                "The report does not say which version made it; this is Faultline {VERSION}.\n"
            )),
        }
        for input in &self.inputs {
            out.push_str(&match input {
                InputCheck::Same { name, sha256 } => format!("  same      {name} (sha256 {sha256})\n"),
                InputCheck::Changed { name, recorded, now } => {
                    format!("  changed   {name}: sha256 {recorded} in the report, {now} now\n")
                }
                InputCheck::Missing { name } => {
                    format!("  missing   {name}: named by the report, not given\n")
                }
                InputCheck::Extra { name } => format!("  extra     {name}: given, not named by the report\n"),
                InputCheck::Unhashed { name } => {
                    format!("  unchecked {name}: the report has no hash for it\n")
                }
            });
        }
        if self.differences.is_empty() {
            out.push_str(&format!(
                "Same findings: re-running gives the report's {} finding(s) and verdict.\n",
                self.findings
            ));
        } else {
            out.push_str(&format!(
                "Different findings: re-running differs from the report in {} way(s):\n",
                self.differences.len()
            ));
            for line in &self.differences {
                out.push_str(&format!("  - {line}\n"));
            }
        }
        out.push_str(if self.holds() {
            "Verified: the report is reproduced from these inputs.\n"
        } else {
            "Not verified.\n"
        });
        out
    }
}

/// `faultline verify REPORT.json [PATH…]`: the verification on standard output; with no path, the
/// inputs are read from the paths the report names.
pub(crate) fn run(args: &[String], stderr: &mut impl Write) -> ExitCode {
    let (report_path, paths) = match args {
        [first, ..] if first == "-h" || first == "--help" => {
            return crate::write_stdout(crate::USAGE, stderr)
        }
        [report, paths @ ..] => (report, paths.to_vec()),
        [] => {
            let _ = writeln!(stderr, "faultline: verify needs a report\n\n{}", crate::USAGE);
            return ExitCode::from(2);
        }
    };
    let json = match std::fs::read_to_string(report_path) {
        Ok(json) => json,
        Err(e) => {
            let _ = writeln!(stderr, "faultline: cannot read {report_path}: {e}");
            return ExitCode::from(2);
        }
    };
    let paths = if paths.is_empty() {
        let named: Vec<String> = match serde_json::from_str::<Report>(&json) {
            Ok(report) => report.inputs.into_iter().map(|i| i.source).collect(),
            Err(e) => {
                let _ = writeln!(stderr, "faultline: {report_path}: not a JSON report: {e}");
                return ExitCode::from(2);
            }
        };
        if named.is_empty() {
            let _ = writeln!(stderr, "faultline: {report_path} names no input: give the inputs");
            return ExitCode::from(2);
        }
        named
    } else {
        paths
    };
    let sources = match crate::read_sources(&paths) {
        Ok(sources) => sources,
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {message}");
            return ExitCode::from(2);
        }
    };
    match verify(&json, &sources) {
        Ok(checked) => {
            let written = crate::write_stdout(&checked.render(), stderr);
            if written != ExitCode::SUCCESS {
                written
            } else if checked.holds() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {report_path}: {message}");
            ExitCode::from(2)
        }
    }
}

/// Re-runs the analysis of `report_json` (a `faultline analyze --format json` report, or the app's
/// JSON export) on `sources` and compares. An error when the report cannot be read as one.
pub fn verify(report_json: &str, sources: &[Source]) -> Result<Verification, String> {
    let stamp: serde_json::Value =
        serde_json::from_str(report_json).map_err(|e| format!("not a JSON report: {e}"))?;
    let recorded: Report = serde_json::from_value(stamp.clone())
        .map_err(|e| format!("not a report of `faultline analyze --format json`: {e}"))?;
    let made_by = stamp["faultline_version"].as_str().map(str::to_string);
    let lang = stamp["lang"].as_str().and_then(Lang::parse).unwrap_or(Lang::En);
    let redacted = stamp["redacted"].as_bool().unwrap_or(false);
    let mut options = Options {
        lang,
        ..Options::default()
    };
    if let Some(capture) = recorded.capture.as_ref().filter(|c| c.basis == CaptureBasis::Set) {
        options.captured_at = Some(
            capture
                .time
                .parse()
                .map_err(|e| format!("the report's capture time {:?}: {e}", capture.time))?,
        );
    }
    // A report made from the redacted copy is re-made from the redacted copy: redaction is
    // deterministic, so the originals give the same copy (and a copy redacts to itself).
    let redacted_sources;
    let sources = if redacted {
        redacted_sources = redact::redact(sources, &ScanOptions::default()).sources;
        &redacted_sources[..]
    } else {
        sources
    };
    let inputs = check_inputs(&recorded, sources);
    let rerun = normalized(&analyze_with(sources, &options))?;
    let mut recorded = recorded;
    recorded.strip_messages();
    Ok(Verification {
        made_by,
        inputs,
        differences: differences(&recorded, &rerun),
        findings: recorded.findings.len(),
    })
}

/// Each input the report names against the one given under that name.
fn check_inputs(recorded: &Report, sources: &[Source]) -> Vec<InputCheck> {
    let mut checks = Vec::new();
    for input in &recorded.inputs {
        let name = input.source.clone();
        let given = sources.iter().find(|s| s.name == input.source);
        checks.push(match given {
            None => InputCheck::Missing { name },
            Some(_) if input.sha256.is_empty() => InputCheck::Unhashed { name },
            Some(source) => {
                let now = sha256_hex(source.text.as_bytes());
                if now == input.sha256 {
                    InputCheck::Same { name, sha256: now }
                } else {
                    InputCheck::Changed {
                        name,
                        recorded: input.sha256.clone(),
                        now,
                    }
                }
            }
        });
    }
    for source in sources {
        if !recorded.inputs.iter().any(|i| i.source == source.name) {
            checks.push(InputCheck::Extra {
                name: source.name.clone(),
            });
        }
    }
    checks
}

/// The report as its JSON reads back: what a report file holds, without the messages (written for
/// other tools, never read back) and the details that are not in the JSON.
fn normalized(report: &Report) -> Result<Report, String> {
    let json = serde_json::to_value(report).map_err(|e| format!("cannot serialise the re-run: {e}"))?;
    let mut back: Report =
        serde_json::from_value(json).map_err(|e| format!("cannot read back the re-run: {e}"))?;
    back.strip_messages();
    Ok(back)
}

/// A finding named for a reader: `image-pull-failed about Pod shop/web (error)`.
fn named(f: &Finding) -> String {
    format!("{} about {} ({})", f.rule, f.subject, severity(f))
}

fn severity(f: &Finding) -> String {
    serde_json::to_value(f.severity)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// What differs between the report's findings and verdict and the re-run's, one line each: findings
/// only in one, findings in both whose fields differ (by name), findings in another order, the
/// verdict.
fn differences(recorded: &Report, rerun: &Report) -> Vec<String> {
    let mut out = Vec::new();
    let key = |f: &Finding| (f.rule.clone(), f.subject.clone());
    let mut matched = vec![false; rerun.findings.len()];
    for before in &recorded.findings {
        let found = rerun
            .findings
            .iter()
            .enumerate()
            .position(|(i, after)| !matched[i] && key(after) == key(before));
        match found {
            None => out.push(format!("only in the report: {}", named(before))),
            Some(i) => {
                matched[i] = true;
                let fields = changed_fields(before, &rerun.findings[i]);
                if !fields.is_empty() {
                    out.push(format!("changed: {}: {}", named(before), fields.join(", ")));
                }
            }
        }
    }
    for (i, after) in rerun.findings.iter().enumerate() {
        if !matched[i] {
            out.push(format!("only in the re-run: {}", named(after)));
        }
    }
    if out.is_empty() && recorded.findings != rerun.findings {
        out.push("the same findings in another order".to_string());
    }
    if recorded.verdict != rerun.verdict {
        out.push(format!(
            "verdict: {} in the report, {} now",
            recorded.verdict.id(),
            rerun.verdict.id()
        ));
    }
    out
}

/// The names of the fields in which two findings of one rule and subject differ.
fn changed_fields(a: &Finding, b: &Finding) -> Vec<&'static str> {
    let mut fields = Vec::new();
    let mut differs = |name, same: bool| {
        if !same {
            fields.push(name);
        }
    };
    differs("severity", a.severity == b.severity);
    differs("boundary", a.boundary == b.boundary);
    differs("summary", a.summary == b.summary);
    differs("evidence", a.evidence == b.evidence);
    differs("cannot_establish", a.cannot_establish == b.cannot_establish);
    differs("next_steps", a.next_steps == b.next_steps);
    differs("explained_by", a.explained_by == b.explained_by);
    differs("affects", a.affects == b.affects);
    differs(
        "confidence",
        a.confidence == b.confidence && a.confidence_note == b.confidence_note,
    );
    if fields.is_empty() && a != b {
        fields.push("other fields");
    }
    fields
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
