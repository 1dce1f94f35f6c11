//! Words and exports in both languages: the text, Markdown and HTML renderings of a
//! [`faultline_report::Report`], shared by the CLI and the app. One file a concern — the words of
//! each language ([`words`]), the terminal text ([`text`]), Markdown ([`markdown`]), HTML
//! ([`html`]), the export that splices a redaction note into them ([`export`]), the rules' page
//! ([`rules_markdown`]), what changed between two reports ([`changes`]) and the escaping of pasted
//! text in each (`escape`). It reads only the report contract: the app links it without the engine.

pub mod changes;
mod escape;
mod export;
mod html;
mod markdown;
pub mod protocol;
mod rules_page;
mod text;
pub mod texts;
mod words;

pub use export::{
    capture_line, export, export_name, readable_time, stamp_line, ExportFormat, Stamped, VERSION,
};
pub use faultline_report::lang::Lang;
pub use html::html;
pub use markdown::markdown;
pub use rules_page::rules_markdown;
pub use text::text;
pub use words::{verdict_sentence, words, Words};

use faultline_report::Finding;

/// Each finding's number: `1`, `2`, … for causes, `1.1`, `1.2` for the symptoms listed under a cause
/// (the report already puts each symptom right after its cause).
pub fn labels(findings: &[Finding]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::with_capacity(findings.len());
    let mut top = 0;
    let mut children: Vec<usize> = vec![0; findings.len()];
    // Each finding's first index by (rule, subject): a dump with thousands of findings would make a
    // search per symptom quadratic.
    let mut first: faultline_report::hash::Map<(&str, &faultline_report::ObjectRef), usize> =
        faultline_report::hash::Map::default();
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

faultline_report::messages! {
    /// The renderings' own lines. A group of its own, holding no nested message: the page exports
    /// through here, and a group that nests a [`faultline_report::message::Message`] would link every group's
    /// texts into the page.
    pub enum Msg {
        /// The workloads a finding hurts ([`faultline_report::Finding::affects`]), one line.
        Affects { workloads: Vec<faultline_report::ObjectRef> } = "render.affects" {
            en: "Affects: {workloads}",
            zh: "受影响的工作负载：{workloads}",
        },
    }
}

/// The line that lists the workloads a finding hurts (`Affects: Deployment shop/web`), in `lang`;
/// `None` when it lists none.
pub fn affects_line(finding: &Finding, lang: Lang) -> Option<String> {
    if finding.affects.is_empty() {
        return None;
    }
    let message = Msg::Affects {
        workloads: finding.affects.clone(),
    };
    let mut line = String::new();
    // Writing into a String cannot fail.
    let _ = message.put(lang, &mut line);
    Some(line)
}
