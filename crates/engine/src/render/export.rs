//! Exports (the app's and the CLI's): the Markdown and HTML renderings with the redaction note
//! spliced in at their top, or the JSON report.

use super::escape::esc;
use super::{html, markdown, words, Lang};
use crate::report::Report;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Lang;
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
            html[h1..]
                .chars()
                .take(200)
                .collect::<String>()
                .contains("脱敏副本"),
            "the note follows the title"
        );
        let json = export(&report, ExportFormat::Json, Lang::En, true).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["redacted"], true);
        let back: Report = serde_json::from_str(&json).unwrap();
        // The messages are written for other tools, not read back: the texts are.
        let mut texts_only = report.clone();
        for f in &mut texts_only.findings {
            f.message = None;
            f.cannot_establish_messages.clear();
        }
        texts_only.errors.iter_mut().for_each(|e| e.structured = None);
        assert_eq!(back, texts_only, "still the report contract");
        let plain: serde_json::Value =
            serde_json::from_str(&export(&report, ExportFormat::Json, Lang::En, false).unwrap()).unwrap();
        assert!(plain.get("redacted").is_none());
    }
}
