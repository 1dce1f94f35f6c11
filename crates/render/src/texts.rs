//! A report's texts in one language, apart from the report (issue 24). The engine writes each of its
//! sentences as a message and renders them at the end of the analysis in the job's language; the page
//! cannot render a message (it never decodes them: their serde code would weigh on its first load,
//! and the engine's wasm is the worker's), so in another language it gets the texts from who can: the
//! worker renders the report it made again (the worker's `job::localize`), and `build.rs` precomputes the
//! built-in samples' texts in every language. The page puts them into the report it shows
//! ([`Texts::apply`]).
//!
//! Depends on nothing but the engine and serde: the app's `build.rs` includes this file as a module
//! of its own (`#[path]`), without building the worker crate for the host.

use faultline_report::Unread;
use faultline_report::{Finding, InputError, Lang, Report, TimelineEntry};
use serde::{Deserialize, Serialize};

/// Every text of a report that has a message, in `lang`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    #[serde(with = "lang_tag")]
    pub lang: Lang,
    /// Each finding's, in the report's order.
    pub findings: Vec<FindingTexts>,
    /// Each input error's message, in the report's order (an error without a message keeps its text).
    pub errors: Vec<String>,
    /// Each unread range's reason, in the report's order.
    pub unread: Vec<String>,
    /// The timeline entries the engine wrote (those with a message), in the order of their indices: a
    /// dump's timeline is mostly events, in Kubernetes' own words, which no language changes.
    pub timeline: Vec<EntryTexts>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingTexts {
    pub summary: String,
    pub cannot_establish: Vec<String>,
}

/// The engine's words of one timeline entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryTexts {
    /// The entry's index in the report's timeline.
    #[serde(rename = "i")]
    pub index: usize,
    /// Its description, when the engine wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What its time was estimated from, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_from: Option<String>,
}

impl Texts {
    /// The texts of `report`, rendered in `lang` from its messages (the report itself is not
    /// changed). A text without a message is its own in every language.
    pub fn render(report: &Report, lang: Lang) -> Texts {
        let render = |m: &faultline_report::message::Message| m.render(lang);
        let findings = report
            .findings
            .iter()
            .map(|f| FindingTexts {
                summary: f.message.as_ref().map_or_else(|| f.summary.clone(), render),
                cannot_establish: if f.cannot_establish_messages.is_empty() {
                    f.cannot_establish.clone()
                } else {
                    f.cannot_establish_messages.iter().map(render).collect()
                },
            })
            .collect();
        let errors = report
            .errors
            .iter()
            .map(|e| e.structured.as_ref().map_or_else(|| e.message.clone(), render))
            .collect();
        let unread = report
            .unread
            .iter()
            .map(|u| u.reason_message.as_ref().map_or_else(|| u.reason.clone(), render))
            .collect();
        let timeline = report
            .timeline
            .iter()
            .enumerate()
            .filter(|(_, e)| e.structured.is_some() || e.estimated_from_message.is_some())
            .map(|(index, e)| EntryTexts {
                index,
                message: e.structured.as_ref().map(render),
                estimated_from: e.estimated_from_message.as_ref().map(render),
            })
            .collect();
        Texts {
            lang,
            findings,
            errors,
            unread,
            timeline,
        }
    }

    /// Adds a later part of the same texts ([`crate::protocol::Reply::Texts`]).
    pub fn merge(&mut self, part: Texts) {
        self.lang = part.lang;
        self.errors.extend(part.errors);
        self.unread.extend(part.unread);
        self.findings.extend(part.findings);
        self.timeline.extend(part.timeline);
    }

    /// Puts the texts into `report`, the report they were rendered from (as the page holds it,
    /// without its messages). Texts for items the report does not have are ignored.
    pub fn apply(&self, report: &mut Report) {
        for (finding, texts) in report.findings.iter_mut().zip(&self.findings) {
            finding.summary.clone_from(&texts.summary);
            finding.cannot_establish.clone_from(&texts.cannot_establish);
        }
        for (error, text) in report.errors.iter_mut().zip(&self.errors) {
            error.message.clone_from(text);
        }
        for (unread, text) in report.unread.iter_mut().zip(&self.unread) {
            unread.reason.clone_from(text);
        }
        for texts in &self.timeline {
            let Some(entry) = report.timeline.get_mut(texts.index) else {
                continue;
            };
            if let Some(message) = &texts.message {
                entry.message.clone_from(message);
            }
            if texts.estimated_from.is_some() {
                entry.estimated_from.clone_from(&texts.estimated_from);
            }
        }
    }
}

impl Texts {
    /// A copy of `report` (as the page holds it: without its messages) with these texts in it:
    /// [`Texts::apply`] to a copy. Made field by field, not by `Report::clone`, which would link the
    /// clone code of every message into the page's wasm (they are `None` there).
    pub fn applied(&self, report: &Report) -> Report {
        let findings = report
            .findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let texts = self.findings.get(i);
                Finding {
                    rule: f.rule.clone(),
                    boundary: f.boundary,
                    severity: f.severity,
                    subject: f.subject.clone(),
                    summary: texts.map_or_else(|| f.summary.clone(), |t| t.summary.clone()),
                    message: None,
                    evidence: f.evidence.clone(),
                    cannot_establish: texts
                        .map_or_else(|| f.cannot_establish.clone(), |t| t.cannot_establish.clone()),
                    cannot_establish_messages: Vec::new(),
                    next_steps: f.next_steps.clone(),
                    explained_by: f.explained_by.clone(),
                    affects: f.affects.clone(),
                    components: f.components.clone(),
                    node: f.node.clone(),
                    details: f.details.clone(),
                }
            })
            .collect();
        let errors = report
            .errors
            .iter()
            .enumerate()
            .map(|(i, e)| InputError {
                source: e.source.clone(),
                line: e.line,
                column: e.column,
                message: self.errors.get(i).unwrap_or(&e.message).clone(),
                structured: None,
            })
            .collect();
        let unread = report
            .unread
            .iter()
            .enumerate()
            .map(|(i, u)| Unread {
                source: u.source.clone(),
                line: u.line,
                end_line: u.end_line,
                reason: self.unread.get(i).unwrap_or(&u.reason).clone(),
                reason_message: None,
                reason_id: u.reason_id.clone(),
            })
            .collect();
        let mut texts = self.timeline.iter().peekable();
        let timeline = report
            .timeline
            .iter()
            .enumerate()
            .map(|(i, e)| {
                while texts.next_if(|t| t.index < i).is_some() {}
                let texts = texts.next_if(|t| t.index == i);
                TimelineEntry {
                    time: e.time.clone(),
                    subject: e.subject.clone(),
                    source: e.source.clone(),
                    reason: e.reason.clone(),
                    message: texts
                        .and_then(|t| t.message.clone())
                        .unwrap_or_else(|| e.message.clone()),
                    structured: None,
                    count: e.count,
                    warning: e.warning,
                    estimated_from: texts
                        .and_then(|t| t.estimated_from.clone())
                        .or_else(|| e.estimated_from.clone()),
                    estimated_from_message: None,
                    age: e.age,
                    first_age: e.first_age,
                    before_object_existed: e.before_object_existed,
                    at: e.at.clone(),
                }
            })
            .collect();
        Report {
            inputs: report.inputs.clone(),
            counts: report.counts.clone(),
            errors,
            findings,
            timeline,
            objects: report.objects.clone(),
            relations: report.relations.clone(),
            verdict: report.verdict,
            unread,
            workloads: report.workloads.clone(),
            capture: report.capture.clone(),
        }
    }
}

/// Takes every message out of `report`, its texts left as they are: the report as the page holds it
/// (the page never reads a message back; sent, they would only make the report's parts longer).
pub fn strip_messages(report: &mut Report) {
    for finding in &mut report.findings {
        finding.message = None;
        finding.cannot_establish_messages = Vec::new();
    }
    for error in &mut report.errors {
        error.structured = None;
    }
    for unread in &mut report.unread {
        unread.reason_message = None;
    }
    for entry in &mut report.timeline {
        entry.structured = None;
        entry.estimated_from_message = None;
    }
}

/// A language as its tag in JSON (`"en"`, `"zh"`); an unknown tag reads as English.
pub mod lang_tag {
    use faultline_report::Lang;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lang: &Lang, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match lang {
            Lang::En => "en",
            Lang::Zh => "zh",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let tag = String::deserialize(d)?;
        Ok(Lang::parse(&tag).unwrap_or_default())
    }
}
