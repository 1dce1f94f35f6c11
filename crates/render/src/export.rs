//! Exports (the app's and the CLI's): the Markdown and HTML renderings with the redaction note
//! spliced in at their top, or the JSON report.

use super::escape::{esc, md_text};
use super::{html, markdown, words, Lang};
use faultline_report::{CaptureBasis, Report};

/// The version of Faultline that made a report (every crate of the workspace has the same).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// An RFC 3339 UTC time as people read it: `2025-02-11 09:40:05 UTC`.
pub fn readable_time(time: &str) -> String {
    match time.strip_suffix('Z') {
        Some(t) if t.len() > 10 && t.as_bytes()[10] == b'T' => format!("{} {} UTC", &t[..10], &t[11..]),
        _ => time.to_string(),
    }
}

/// The capture moment and how it is known, one line: `Captured: 2025-02-11 09:40:05 UTC or later:
/// Pod exp-runtime/tag-probe was created at … and its Scheduled event is 4m31s old`.
pub fn capture_line(report: &Report, lang: Lang) -> String {
    let w = words(lang);
    let Some(capture) = &report.capture else {
        return format!("{}: {}", w.captured_label, w.captured[3]);
    };
    let how = match (capture.basis, &capture.anchor) {
        (CaptureBasis::Set, _) => w.captured[0].to_string(),
        (CaptureBasis::AgeAnchor, Some(anchor)) => w.captured[2]
            .replace("{subject}", &anchor.subject.to_string())
            .replace("{created}", &readable_time(&anchor.created))
            .replace("{reason}", &anchor.reason)
            .replace("{age}", &faultline_report::timeline::human(anchor.age)),
        _ => w.captured[1].to_string(),
    };
    format!("{}: {} {how}", w.captured_label, readable_time(&capture.time))
}

/// When an export was made (the caller's clock: the engine has none), and by which version:
/// `Exported: 2026-12-02 04:50:00 UTC · Faultline 0.1.0`.
pub fn stamp_line(exported_at: Option<&str>, lang: Lang) -> String {
    let w = words(lang);
    match exported_at {
        Some(at) => format!(
            "{}: {} · Faultline {VERSION}",
            w.exported_label,
            readable_time(at)
        ),
        None => format!("Faultline {VERSION}"),
    }
}

/// What the report was made from, one line: `Inputs (SHA-256): pod.yaml 3f2a…, events.txt 9c1e…`
/// (each hash in full, as `sha256sum` prints it, so that a reader can check a file against it and
/// `faultline verify` can re-run the analysis). `None` when no input carries a hash.
pub fn inputs_line(report: &Report, lang: Lang) -> Option<String> {
    let hashed: Vec<String> = report
        .inputs
        .iter()
        .filter(|i| !i.sha256.is_empty())
        .map(|i| format!("{} {}", i.source, i.sha256))
        .collect();
    (!hashed.is_empty()).then(|| format!("{}: {}", words(lang).inputs_label, hashed.join(", ")))
}

/// The file name of an export, telling incidents apart: `faultline-<subject>-<capture date>.md`,
/// the subject being the diagnosis's object (else the first finding's), in letters, digits, `.`
/// and `-` only; `faultline-diagnosis` without a finding, no date without a capture moment.
pub fn export_name(report: &Report, format: ExportFormat) -> String {
    let subject = report
        .diagnosis()
        .or(report.findings.first())
        .map(|f| f.subject.name.to_string())
        .unwrap_or_else(|| "diagnosis".into());
    let mut name = String::from("faultline-");
    for c in subject.chars().take(60) {
        if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let mut name = name.trim_end_matches(['-', '.']).to_string();
    if let Some(date) = report.capture.as_ref().and_then(|c| c.time.get(..10)) {
        name.push('-');
        name.push_str(date);
    }
    format!("{name}.{}", format.extension())
}

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

/// The report contract with the export's stamp: when it was exported, by which version and in which
/// language (`"lang": "en"`, what `faultline verify` re-runs it in), and `"redacted": true` when
/// the analysis ran on the redacted copy.
#[derive(serde::Serialize)]
pub struct Stamped<'a> {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub redacted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exported_at: Option<&'a str>,
    pub faultline_version: &'static str,
    pub lang: &'static str,
    #[serde(flatten)]
    pub report: &'a Report,
}

/// A report to take elsewhere (the app's export and the CLI's Markdown, HTML and JSON). Every
/// export says under its title when the input was captured (and how that is known), when it was
/// exported (`exported_at`, RFC 3339, from the caller's clock) and by which Faultline version:
/// lines in Markdown and HTML, `exported_at` and `faultline_version` in JSON (the report contract,
/// whose `capture` holds the capture moment, plus those fields). When the analysis ran on the
/// redacted copy of the input, the export says so too: a line in Markdown and HTML,
/// `"redacted": true` in JSON. A JSON export that cannot be serialised is an error, never an empty
/// file that looks like a report.
pub fn export(
    report: &Report,
    format: ExportFormat,
    lang: Lang,
    redacted: bool,
    exported_at: Option<&str>,
) -> Result<String, serde_json::Error> {
    let w = words(lang);
    let mut stamps = vec![capture_line(report, lang), stamp_line(exported_at, lang)];
    stamps.extend(inputs_line(report, lang));
    Ok(match format {
        ExportFormat::Markdown => {
            let body = markdown(report, lang);
            let mut head = String::new();
            if redacted {
                head.push_str(&format!("> {}\n\n", w.redacted_note));
            }
            let lines: Vec<String> = stamps.iter().map(|s| md_text(s)).collect();
            head.push_str(&format!("{}\n\n", lines.join("  \n")));
            match body.split_once("\n\n") {
                Some((title, rest)) => format!("{title}\n\n{head}{rest}"),
                None => body + "\n" + &head,
            }
        }
        ExportFormat::Html => {
            let body = html(report, lang);
            let mut head = String::new();
            if redacted {
                head.push_str(&format!(
                    "<p class=\"note\"><strong>{}</strong></p>\n",
                    esc(w.redacted_note)
                ));
            }
            let lines: Vec<String> = stamps.iter().map(|s| esc(s)).collect();
            head.push_str(&format!("<p class=\"stamp\">{}</p>\n", lines.join("<br>")));
            match body.find("</h1>\n") {
                Some(at) => format!("{}{head}{}", &body[..at + 6], &body[at + 6..]),
                None => body,
            }
        }
        ExportFormat::Json => json(&Stamped {
            redacted,
            exported_at,
            faultline_version: VERSION,
            lang: lang.tag(),
            report,
        })?,
    })
}

/// Pretty JSON with a final newline.
fn json(value: &impl serde::Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(|j| j + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;
    use faultline_engine::{analyze, Source};

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
        let md = export(&report, ExportFormat::Markdown, Lang::En, true, None).unwrap();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "# Faultline diagnosis");
        assert!(lines[2].starts_with("> Made from the redacted copy"), "{md}");
        assert!(!export(&report, ExportFormat::Markdown, Lang::En, false, None)
            .unwrap()
            .contains("redacted copy"));
        let html = export(&report, ExportFormat::Html, Lang::Zh, true, None).unwrap();
        let h1 = html.find("</h1>").unwrap();
        assert!(
            html[h1..]
                .chars()
                .take(200)
                .collect::<String>()
                .contains("脱敏副本"),
            "the note follows the title"
        );
        let json = export(&report, ExportFormat::Json, Lang::En, true, None).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["redacted"], true);
        let back: Report = serde_json::from_str(&json).unwrap();
        // The messages are written for other tools, not read back: the texts are.
        let mut texts_only = report.clone();
        texts_only.strip_messages();
        assert_eq!(back, texts_only, "still the report contract");
        let plain: serde_json::Value =
            serde_json::from_str(&export(&report, ExportFormat::Json, Lang::En, false, None).unwrap())
                .unwrap();
        assert!(plain.get("redacted").is_none());
    }

    /// The image-pull sample as pasted: a Pod and a `kubectl get events` table of ages.
    fn image_pull() -> Report {
        analyze(&[
            Source::new(
                "pod.yaml",
                include_str!("../../../static/samples/image-pull/pod.yaml"),
            ),
            Source::new(
                "events.txt",
                include_str!("../../../static/samples/image-pull/events.txt"),
            ),
        ])
    }

    #[test]
    fn every_export_carries_the_capture_the_export_time_and_the_version() {
        let report = image_pull();
        let at = Some("2026-12-02T04:50:00Z");
        let md = export(&report, ExportFormat::Markdown, Lang::En, false, at).unwrap();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "# Faultline diagnosis");
        assert_eq!(
            lines[2],
            "Captured: 2025-02-11 09:40:05 UTC or later: Pod exp-runtime/tag-probe was created at 2025-02-11 09:35:34 UTC and its Scheduled event is 4m31s old  "
        );
        assert_eq!(
            lines[3],
            format!("Exported: 2026-12-02 04:50:00 UTC · Faultline {VERSION}  ")
        );
        // What it was made from: each input by name and the SHA-256 of its text.
        let pod = include_str!("../../../static/samples/image-pull/pod.yaml");
        let events = include_str!("../../../static/samples/image-pull/events.txt");
        assert_eq!(
            lines[4],
            format!(
                "Inputs (SHA-256): pod.yaml {}, events.txt {}",
                faultline_engine::sha256_hex(pod.as_bytes()),
                faultline_engine::sha256_hex(events.as_bytes())
            )
        );
        let html = export(&report, ExportFormat::Html, Lang::Zh, false, at).unwrap();
        assert!(
            html.contains("<p class=\"stamp\">采集时间: 2025-02-11 09:40:05 UTC 或更晚"),
            "{html}"
        );
        assert!(html.contains("导出时间: 2026-12-02 04:50:00 UTC · Faultline "));
        assert!(html.contains("<br>输入（SHA-256）: pod.yaml "), "{html}");
        let json: serde_json::Value =
            serde_json::from_str(&export(&report, ExportFormat::Json, Lang::En, false, at).unwrap()).unwrap();
        assert_eq!(json["exported_at"], "2026-12-02T04:50:00Z");
        assert_eq!(json["faultline_version"], VERSION);
        assert_eq!(json["lang"], "en");
        assert_eq!(
            json["inputs"][1]["sha256"],
            faultline_engine::sha256_hex(events.as_bytes())
        );
        assert_eq!(json["capture"]["time"], "2025-02-11T09:40:05Z");
        assert_eq!(json["capture"]["basis"], "age-anchor");
        assert_eq!(json["capture"]["anchor"]["reason"], "Scheduled");
    }

    #[test]
    fn export_names_tell_incidents_apart() {
        let report = image_pull();
        assert_eq!(
            export_name(&report, ExportFormat::Markdown),
            "faultline-tag-probe-2025-02-11.md"
        );
        // No capture moment (no absolute time anywhere): no date.
        assert_eq!(
            export_name(&self::report(), ExportFormat::Json),
            "faultline-web.json"
        );
        assert_eq!(
            export_name(&Report::default(), ExportFormat::Html),
            "faultline-diagnosis.html"
        );
        let mut odd = self::report();
        odd.findings[0].subject.name = "Web/../x y".into();
        assert_eq!(
            export_name(&odd, ExportFormat::Markdown),
            "faultline-web-..-x-y.md"
        );
    }

    #[test]
    fn a_report_with_ages_only_says_its_capture_is_unknown() {
        let table = "LAST SEEN   TYPE      REASON    OBJECT    MESSAGE\n90s         Warning   Failed    pod/web   Error: ErrImagePull\n";
        let report = analyze(&[Source::new("events.txt", table)]);
        assert_eq!(report.capture, None);
        assert_eq!(
            capture_line(&report, Lang::En),
            "Captured: unknown: the input has no absolute time; entries are shown by age"
        );
    }
}
