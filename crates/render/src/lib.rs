//! Words and exports in both languages: the text, Markdown and HTML renderings of a
//! [`faultline_report::Report`], shared by the CLI and the app. One file a concern — the words of
//! each language ([`words`]), the terminal text ([`text`]), Markdown ([`markdown`]), HTML
//! ([`html`]), the export that splices a redaction note into them ([`export`]), the rules' page
//! ([`rules_markdown`]), what changed between two reports ([`changes`]) and the escaping of pasted
//! text in each (`escape`). It reads only the report contract: the app links it without the engine.

pub mod changes;
mod escape;
mod export;
pub mod guide;
mod html;
mod markdown;
pub mod protocol;
mod rules_page;
mod text;
pub mod texts;
mod words;

pub use export::{
    capture_line, export, export_name, inputs_line, readable_time, stamp_line, ExportFormat, Stamped, VERSION,
};
pub use faultline_report::lang::Lang;
pub use html::html;
pub use markdown::markdown;
pub use rules_page::rules_markdown;
pub use text::text;
pub use words::{verdict_sentence, words, Words};

/// The independent faults of a report and the boundaries they are at, in the findings' order: root
/// findings (explained by no other) of severity error or warning, those that hurt one workload
/// counted once (47 crash-looping Pods of one Deployment are one fault), as the app's summary
/// counts them. The headline names one boundary only when they are all at one (issue 40).
pub fn independent_faults(report: &faultline_report::Report) -> (usize, Vec<faultline_report::Boundary>) {
    let mut seen: Vec<(faultline_report::Boundary, &faultline_report::ObjectRef)> = Vec::new();
    let mut boundaries = Vec::new();
    for f in report.findings.iter().filter(|f| {
        f.explained_by.is_none()
            && matches!(
                f.severity,
                faultline_report::Severity::Error | faultline_report::Severity::Warning
            )
    }) {
        let whom = f.affects.first().unwrap_or(&f.subject);
        if !seen.contains(&(f.boundary, whom)) {
            seen.push((f.boundary, whom));
        }
        if !boundaries.contains(&f.boundary) {
            boundaries.push(f.boundary);
        }
    }
    (seen.len(), boundaries)
}

/// The headline's boundary part in words: `` `scheduling` (Scheduling constraints) `` for one, and
/// `3 independent faults across scheduling, storage and …` for several (`code` wraps an id).
pub fn boundaries_line(
    report: &faultline_report::Report,
    w: &Words,
    code: &dyn Fn(&str) -> String,
) -> Option<(String, String)> {
    let top = report.diagnosis()?;
    let (faults, boundaries) = independent_faults(report);
    if boundaries.len() <= 1 {
        let one = format!("{} ({})", code(top.boundary.id()), w.boundary_title(top.boundary));
        return Some((w.boundary.to_string(), one));
    }
    let names: Vec<String> = boundaries
        .iter()
        .map(|b| format!("{} ({})", code(b.id()), w.boundary_title(*b)))
        .collect();
    let list = match names.as_slice() {
        [head @ .., last] if w.lang != "zh" => format!("{} and {last}", head.join(", ")),
        _ => names.join("、"),
    };
    let across = w
        .faults_across
        .replace("{n}", &faults.to_string())
        .replace("{list}", &list);
    Some((w.boundaries_label.to_string(), across))
}

/// The heading of the input errors: what could not be read, when that is why the report is
/// inconclusive (never a bare "Input errors" there, issue 40); "Input errors" beside findings.
pub fn errors_title(report: &faultline_report::Report, w: &Words) -> &'static str {
    if report.verdict == faultline_report::Verdict::Inconclusive {
        w.not_read_title
    } else {
        w.input_errors
    }
}

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

/// The number ([`labels`]) of the finding a cause names, if the report holds it.
pub fn label_of<'l>(
    findings: &[Finding],
    labels: &'l [String],
    cause: &faultline_report::Cause,
) -> Option<&'l str> {
    findings
        .iter()
        .position(|f| f.rule == cause.rule && f.subject == cause.subject)
        .and_then(|i| labels.get(i))
        .map(String::as_str)
}

/// `1 and 2` (`1 与 2`): the findings a decider is between, by number, or by rule where the report
/// does not hold one.
pub fn between(
    findings: &[Finding],
    labels: &[String],
    decider: &faultline_report::Decider,
    lang: Lang,
) -> String {
    let names: Vec<String> = decider
        .between
        .iter()
        .map(|c| label_of(findings, labels, c).map_or_else(|| c.rule.clone(), |l| format!("#{l}")))
        .collect();
    names.join(if lang == Lang::Zh { " 与 " } else { " and " })
}

/// `If it confirms #2` (`如果输出证实了 #2`): the label of what the deciding command tests.
pub fn if_shown_label(
    findings: &[Finding],
    labels: &[String],
    decider: &faultline_report::Decider,
    w: &Words,
) -> String {
    let tested = decider.between.get(decider.tested).map_or_else(String::new, |c| {
        label_of(findings, labels, c).map_or_else(|| c.rule.clone(), |l| format!("#{l}"))
    });
    w.if_shown.replace("{label}", &tested)
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
