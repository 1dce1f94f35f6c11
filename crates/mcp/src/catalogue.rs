//! The tools that need no input: the rules' catalogue (`rules`), one rule's documentation (`rule`),
//! and which commands' output decides a symptom (`what_to_paste`, the app's "What should I paste?").

use faultline_engine::render::guide;
use faultline_engine::report::docs::{sections, DocBlock};
use faultline_engine::rules;
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

use crate::tools::{lang, ToolError};

/// The parameters of `rules`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct RulesParams {
    /// `en` (default) or `zh`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// One rule of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct RuleSummary {
    /// The id findings carry (`image-pull-failed`).
    pub id: String,
    /// The fault boundary it points to.
    pub boundary: String,
    /// What it finds, in its first sentence.
    pub finds: String,
}

/// The result of `rules`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Catalogue {
    pub rules: Vec<RuleSummary>,
}

/// The parameters of `rule`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct RuleParams {
    /// The rule's id, as a finding's `rule` gives it.
    pub id: String,
    /// `en` (default) or `zh`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The result of `rule`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct RuleDocOut {
    pub id: String,
    pub boundary: String,
    /// Its documentation (Markdown): What it finds, Why it matters, Evidence, Fault boundary, What
    /// this evidence cannot establish, Next evidence to collect, Example.
    pub docs: String,
}

/// The first sentence of a rule's "What it finds" (or of its first section).
fn finds(docs: &str) -> String {
    let text = sections(docs)
        .into_iter()
        .find_map(|(_, blocks)| {
            blocks.into_iter().find_map(|b| match b {
                DocBlock::Text(t) => Some(t),
                DocBlock::Code(_) => None,
            })
        })
        .unwrap_or_default();
    // The first sentence: up to a full stop followed by a space (or the Chinese full stop).
    let end = text
        .find(". ")
        .map(|i| i + 1)
        .or_else(|| text.find('。').map(|i| i + '。'.len_utf8()))
        .unwrap_or(text.len());
    text[..end].to_string()
}

/// `rules`: every rule, its boundary and what it finds.
pub fn catalogue(params: &RulesParams) -> Result<Catalogue, ToolError> {
    let lang = lang(params.lang.as_deref())?;
    Ok(Catalogue {
        rules: rules::docs_all()
            .iter()
            .map(|r| RuleSummary {
                id: r.id.to_string(),
                boundary: r.boundary.id().to_string(),
                finds: finds(r.docs_in(lang)),
            })
            .collect(),
    })
}

/// `rule`: one rule's documentation; an unknown id is an error that names the ids that come close.
pub fn rule(params: &RuleParams) -> Result<RuleDocOut, ToolError> {
    let lang = lang(params.lang.as_deref())?;
    let all = rules::docs_all();
    let id = params.id.trim();
    match all.iter().find(|r| r.id == id) {
        Some(r) => Ok(RuleDocOut {
            id: r.id.to_string(),
            boundary: r.boundary.id().to_string(),
            docs: r.docs_in(lang).to_string(),
        }),
        None => {
            let words: Vec<&str> = id.split(['-', ' ', '_']).filter(|w| w.len() > 2).collect();
            let close: Vec<&str> = all
                .iter()
                .map(|r| r.id)
                .filter(|r| words.iter().any(|w| r.contains(&w.to_ascii_lowercase())))
                .collect();
            let hint = if close.is_empty() {
                "`rules` lists them all".to_string()
            } else {
                format!("close: {}", close.join(", "))
            };
            Err(ToolError(format!("id: no rule `{id}` ({hint})")))
        }
    }
}

/// The parameters of `what_to_paste`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct PasteParams {
    /// The symptom in a few words (`pod stuck Pending`, `CrashLoopBackOff`, `service not
    /// answering`), or a guide entry's id.
    pub symptom: String,
    /// `en` (default) or `zh`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// One symptom and the commands whose output decides it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct PasteEntry {
    /// The entry's id (`pending`).
    pub id: String,
    pub title: String,
    /// What the commands collect.
    pub collects: String,
    /// kubectl commands; upper-case words (`NS`, `POD`, `SVC`, `KEY=VALUE`) are the names to fill in.
    pub commands: Vec<String>,
}

/// The result of `what_to_paste`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct PasteGuide {
    /// Whether the symptom matched an entry; when not, every entry is given.
    pub matched: bool,
    pub entries: Vec<PasteEntry>,
}

/// `what_to_paste`: the entries whose id, title or description share the most words with the
/// symptom (every entry when none does).
pub fn what_to_paste(params: &PasteParams) -> Result<PasteGuide, ToolError> {
    let lang = lang(params.lang.as_deref())?;
    let symptom = params.symptom.to_lowercase();
    let words: Vec<&str> = symptom
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| w.len() >= 3 && !["pod", "the", "and", "not", "its"].contains(w))
        .collect();
    let score = |entry: &guide::Entry| -> usize {
        if entry.id == symptom.trim() {
            return usize::MAX;
        }
        let haystack = [
            entry.id,
            guide::symptom(entry.id, faultline_engine::Lang::En),
            guide::collects(entry.id, faultline_engine::Lang::En),
            guide::symptom(entry.id, faultline_engine::Lang::Zh),
        ]
        .join(" ")
        .to_lowercase();
        words.iter().filter(|w| haystack.contains(**w)).count()
    };
    let best = guide::ENTRIES.iter().map(score).max().unwrap_or(0);
    let entries = guide::ENTRIES
        .iter()
        .filter(|e| best == 0 || score(e) == best)
        .map(|e| PasteEntry {
            id: e.id.to_string(),
            title: guide::symptom(e.id, lang).to_string(),
            collects: guide::collects(e.id, lang).to_string(),
            commands: e.commands.iter().map(|c| c.to_string()).collect(),
        })
        .collect();
    Ok(PasteGuide {
        matched: best > 0,
        entries,
    })
}
