//! What new evidence changed: two reports of one incident compared, the earlier one made from some
//! inputs and the later one from the same inputs plus new ones (the output of a next step). Each
//! change names a finding by its rule and subject and says what happened to it:
//!
//! - [`ChangeKind::Confirmed`]: in both reports, and the later one cites evidence the earlier did
//!   not (a line of the new input, or a new line of an old one);
//! - [`ChangeKind::Added`]: an error or warning only the later report has;
//! - [`ChangeKind::Refuted`]: an error or warning of the earlier report that the later one no
//!   longer has, or has only as history (info: a later state supersedes it);
//! - [`ChangeKind::Answered`]: a `cannot_establish` entry of a finding in both that the later
//!   report no longer lists (the new evidence settled it);
//! - [`ChangeKind::Verdict`]: the report's one-word answer moved (`inconclusive` to `fault`).
//!
//! Findings match by rule and subject (kind, namespace and name: a Pod known from its events and
//! the same Pod read from its YAML, with a uid, are one). `cannot_establish` entries are compared as
//! the reports wrote them: both reports must be in one language (the CLI's `--since` and the app
//! compare reports they made in the same language). Pure and deterministic: the changes come in the
//! later report's order of findings, then the earlier report's for the refuted ones.

use faultline_report::{Finding, ObjectRef, Report, Severity, Text, Verdict};

faultline_report::messages! {
    /// What new evidence changed in a report.
    pub enum Msg {
        Confirmed { rule: Text, subject: ObjectRef } = "changes.confirmed" {
            en: "Confirmed: {rule} about {subject}; the new evidence supports it.",
            zh: "已证实：关于 {subject} 的 {rule}；新的证据支持这一发现。",
        },
        Added { rule: Text, subject: ObjectRef, error: bool } = "changes.added" {
            en: {
                let what = if *error.0 { "an error" } else { "a warning" };
                format!("Added: {rule} about {subject} ({what}), from the new evidence.")
            },
            zh: {
                let what = if *error.0 { "错误" } else { "警告" };
                format!("新增：关于 {subject} 的 {rule}（{what}），来自新的证据。")
            },
        },
        /// The finding is now history: the later state supersedes it.
        Superseded { rule: Text, subject: ObjectRef } = "changes.superseded" {
            en: "Refuted: {rule} about {subject}; the new evidence shows a later state, so it is history now.",
            zh: "已推翻：关于 {subject} 的 {rule}；新的证据显示了更晚的状态，它现在只是历史。",
        },
        /// The finding is not in the later report at all.
        Gone { rule: Text, subject: ObjectRef } = "changes.gone" {
            en: "Refuted: {rule} about {subject} is no longer found with the new evidence.",
            zh: "已推翻：加入新的证据后，不再发现关于 {subject} 的 {rule}。",
        },
        /// `entry` is the earlier report's own words.
        Answered { rule: Text, subject: ObjectRef, entry: String } = "changes.answered" {
            en: "Answered for {rule} about {subject}: \"{entry}\"",
            zh: "关于 {subject} 的 {rule}，新的证据回答了：“{entry}”",
        },
        Verdict { from: Text, to: Text } = "changes.verdict" {
            en: "Verdict: {from} → {to}.",
            zh: "结论：{from} → {to}。",
        },
        Nothing {} = "changes.nothing" {
            en: "The new evidence changed no finding.",
            zh: "新的证据没有改变任何发现。",
        },
        /// The counts of a long list of changes, before its first few ([`lines`]).
        Counts { total: usize, confirmed: usize, added: usize, refuted: usize, answered: usize } = "changes.counts" {
            en: {
                let parts: Vec<String> = [(*confirmed.0, "confirmed"), (*added.0, "added"), (*refuted.0, "refuted"), (*answered.0, "answered")]
                    .iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(n, what)| format!("{n} {what}"))
                    .collect();
                format!("{} changes: {}.", total.0, parts.join(", "))
            },
            zh: {
                let parts: Vec<String> = [(*confirmed.0, "证实"), (*added.0, "新增"), (*refuted.0, "推翻"), (*answered.0, "回答")]
                    .iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(n, what)| format!("{what} {n} 项"))
                    .collect();
                format!("共 {} 项变化：{}。", total.0, parts.join("，"))
            },
        },
        /// The changes of a long list not shown ([`lines`]).
        More { n: usize } = "changes.more" {
            en: "… and {n} more.",
            zh: "……另有 {n} 项。",
        },
    }
}

/// How many changes [`lines`] lists one by one: beyond it, the counts come first and the rest are
/// "and N more" (a 9 MB dump added beside a describe is 174 "Added:" lines nobody reads).
pub const SHOWN: usize = 8;

/// What happened to a finding (or to the verdict).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    Confirmed,
    Added,
    Refuted,
    Answered,
    Verdict,
}

impl ChangeKind {
    /// A stable id (`confirmed`, `added`, …): the app's DOM, tests.
    pub fn id(self) -> &'static str {
        match self {
            ChangeKind::Confirmed => "confirmed",
            ChangeKind::Added => "added",
            ChangeKind::Refuted => "refuted",
            ChangeKind::Answered => "answered",
            ChangeKind::Verdict => "verdict",
        }
    }
}

/// One change: its kind, the finding it is about (none for the verdict), and the sentence. The
/// sentence is this module's [`Msg`], not a [`faultline_report::message::Message`]: rendering it links only these texts (the
/// app's first load does not carry every rule's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    /// The finding's rule and subject.
    pub finding: Option<(String, ObjectRef)>,
    pub message: Msg,
}

impl Msg {
    /// The sentence in `lang`.
    pub fn render(&self, lang: crate::Lang) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.put(lang, &mut out);
        out
    }
}

fn weighs(finding: &Finding) -> bool {
    matches!(finding.severity, Severity::Error | Severity::Warning)
}

fn same(a: &Finding, b: &Finding) -> bool {
    a.rule == b.rule && a.subject == b.subject
}

fn change(kind: ChangeKind, finding: &Finding, message: Msg) -> Change {
    Change {
        kind,
        finding: Some((finding.rule.clone(), finding.subject.clone())),
        message,
    }
}

/// What `after` changed from `before`: empty when nothing did (say [`Msg::Nothing`]).
pub fn compare(before: &Report, after: &Report) -> Vec<Change> {
    let mut changes = Vec::new();
    if before.verdict != after.verdict {
        changes.push(Change {
            kind: ChangeKind::Verdict,
            finding: None,
            message: Msg::Verdict {
                from: verdict_id(before.verdict).into(),
                to: verdict_id(after.verdict).into(),
            },
        });
    }
    for finding in &after.findings {
        let rule: Text = finding.rule.as_str().into();
        let subject = finding.subject.clone();
        let earlier = before.findings.iter().find(|b| same(b, finding));
        match earlier {
            None if weighs(finding) => changes.push(change(
                ChangeKind::Added,
                finding,
                Msg::Added {
                    rule,
                    subject,
                    error: finding.severity == Severity::Error,
                },
            )),
            None => {}
            // Now history: refuted below, with the ones that are gone.
            Some(earlier) if weighs(earlier) && !weighs(finding) => {}
            Some(earlier) => {
                let new_evidence = finding.evidence.iter().any(|e| !earlier.evidence.contains(e));
                if new_evidence && weighs(finding) {
                    changes.push(change(
                        ChangeKind::Confirmed,
                        finding,
                        Msg::Confirmed {
                            rule: rule.clone(),
                            subject: subject.clone(),
                        },
                    ));
                }
                for entry in &earlier.cannot_establish {
                    if !finding
                        .cannot_establish
                        .iter()
                        .any(|c| c.as_str() == entry.as_str())
                    {
                        changes.push(change(
                            ChangeKind::Answered,
                            finding,
                            Msg::Answered {
                                rule: rule.clone(),
                                subject: subject.clone(),
                                entry: entry.to_string(),
                            },
                        ));
                    }
                }
            }
        }
    }
    for earlier in before.findings.iter().filter(|f| weighs(f)) {
        let rule: Text = earlier.rule.as_str().into();
        let subject = earlier.subject.clone();
        match after.findings.iter().find(|a| same(earlier, a)) {
            Some(later) if !weighs(later) => changes.push(change(
                ChangeKind::Refuted,
                earlier,
                Msg::Superseded { rule, subject },
            )),
            Some(_) => {}
            None => changes.push(change(ChangeKind::Refuted, earlier, Msg::Gone { rule, subject })),
        }
    }
    changes
}

fn verdict_id(verdict: Verdict) -> &'static str {
    verdict.id()
}

/// One line of [`lines`]: its sentence and what it is (a [`ChangeKind::id`], or `nothing`, `counts`,
/// `more`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: &'static str,
    pub text: String,
}

/// [`compare`]'s changes as a person reads them, in `lang`: [`Msg::Nothing`]'s sentence when there
/// are none; each of them when there are at most [`SHOWN`]; otherwise their counts by kind, the
/// first [`SHOWN`] by weight (the verdict, then refuted, confirmed, answered, added; in their order
/// within a kind) and "and N more".
pub fn lines(changes: &[Change], lang: crate::Lang) -> Vec<Line> {
    let line = |kind: &'static str, message: &Msg| Line {
        kind,
        text: message.render(lang),
    };
    if changes.is_empty() {
        return vec![line("nothing", &Msg::Nothing {})];
    }
    if changes.len() <= SHOWN {
        return changes.iter().map(|c| line(c.kind.id(), &c.message)).collect();
    }
    let count = |kind: ChangeKind| changes.iter().filter(|c| c.kind == kind).count();
    let counts = Msg::Counts {
        total: changes.len(),
        confirmed: count(ChangeKind::Confirmed),
        added: count(ChangeKind::Added),
        refuted: count(ChangeKind::Refuted),
        answered: count(ChangeKind::Answered),
    };
    let weight = |kind: ChangeKind| match kind {
        ChangeKind::Verdict => 0,
        ChangeKind::Refuted => 1,
        ChangeKind::Confirmed => 2,
        ChangeKind::Answered => 3,
        ChangeKind::Added => 4,
    };
    let mut by_weight: Vec<&Change> = changes.iter().collect();
    by_weight.sort_by_key(|c| weight(c.kind));
    let mut out = vec![line("counts", &counts)];
    out.extend(
        by_weight
            .iter()
            .take(SHOWN)
            .map(|c| line(c.kind.id(), &c.message)),
    );
    out.push(line(
        "more",
        &Msg::More {
            n: changes.len() - SHOWN,
        },
    ));
    out
}

/// Every change's sentence, one per line, uncapped (the MCP server's answer: an agent reads them
/// all), or [`Msg::Nothing`]'s when there are none.
pub fn every(changes: &[Change], lang: crate::Lang) -> Vec<String> {
    if changes.is_empty() {
        return vec![Msg::Nothing {}.render(lang)];
    }
    changes.iter().map(|c| c.message.render(lang)).collect()
}

/// The sentences of [`lines`], one per line.
pub fn render(changes: &[Change], lang: crate::Lang) -> Vec<String> {
    lines(changes, lang).into_iter().map(|l| l.text).collect()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use faultline_engine::{analyze_with, Lang, Options, Source};

    fn corpus() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
    }

    fn report(files: &[&str], lang: Lang) -> Report {
        let sources: Vec<Source> = files
            .iter()
            .map(|f| {
                let path = corpus().join(f);
                let text =
                    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                Source::new(f.to_string(), text)
            })
            .collect();
        analyze_with(
            &sources,
            &Options {
                lang,
                ..Options::default()
            },
        )
    }

    const EVENTS: &str = "cases/02-exp2-nonexistent-image-tag-yaml/events.txt";
    const POD: &str = "cases/02-exp2-nonexistent-image-tag-yaml/pod.yaml";
    const QUOTA: &str = "cases/05-resourcequota-403-no-pod-mixed/input.txt";

    fn kinds(changes: &[Change]) -> Vec<(ChangeKind, &str)> {
        changes
            .iter()
            .map(|c| (c.kind, c.finding.as_ref().map_or("", |(rule, _)| rule.as_str())))
            .collect()
    }

    /// The image-pull sample's events first, then its Pod: the Pod's status confirms the finding
    /// and answers "the Pod itself was not pasted".
    #[test]
    fn the_pods_yaml_confirms_what_its_events_said_and_answers_whether_it_still_fails() {
        for lang in Lang::ALL {
            let before = report(&[EVENTS], lang);
            let after = report(&[EVENTS, POD], lang);
            let changes = compare(&before, &after);
            assert_eq!(
                kinds(&changes),
                [
                    (ChangeKind::Confirmed, "image-pull-failed"),
                    (ChangeKind::Answered, "image-pull-failed"),
                ],
                "{lang:?}"
            );
            let lines = render(&changes, lang);
            assert!(lines[0].contains("Pod exp-runtime/tag-probe"), "{lines:?}");
            let answered = &before.findings[0].cannot_establish[0];
            assert!(lines[1].contains(answered.as_str()), "{lines:?}");
            assert!(!after.findings[0].cannot_establish.contains(answered));
        }
    }

    #[test]
    fn a_fault_in_the_new_input_is_added_and_one_no_longer_found_is_refuted() {
        let before = report(&[EVENTS], Lang::En);
        let after = report(&[EVENTS, QUOTA], Lang::En);
        let added = compare(&before, &after);
        assert!(
            added
                .iter()
                .any(|c| c.kind == ChangeKind::Added && c.message.render(Lang::En).starts_with("Added: ")),
            "{:?}",
            render(&added, Lang::En)
        );
        assert!(!added
            .iter()
            .any(|c| c.finding.as_ref().is_some_and(|(r, _)| r == "image-pull-failed")));
        // The other way round: the quota input's findings are gone.
        let gone = compare(&after, &before);
        let refuted: Vec<_> = gone.iter().filter(|c| c.kind == ChangeKind::Refuted).collect();
        assert_eq!(
            refuted.len(),
            added.iter().filter(|c| c.kind == ChangeKind::Added).count()
        );
        assert!(refuted.iter().all(|c| c.message.id() == "changes.gone"));
    }

    /// A finding that the later report keeps only as history (info) is refuted, not "confirmed".
    #[test]
    fn a_finding_now_history_is_refuted_as_superseded() {
        let before = report(&[EVENTS, POD], Lang::En);
        let mut after = before.clone();
        after.findings[0].severity = Severity::Info;
        after.verdict = Verdict::NoFault;
        let changes = compare(&before, &after);
        assert_eq!(
            kinds(&changes),
            [
                (ChangeKind::Verdict, ""),
                (ChangeKind::Refuted, "image-pull-failed")
            ]
        );
        assert_eq!(changes[1].message.id(), "changes.superseded");
        assert_eq!(render(&changes, Lang::En)[0], "Verdict: fault → no-fault.");
    }

    #[test]
    fn the_same_inputs_change_nothing() {
        let before = report(&[EVENTS, POD], Lang::Zh);
        let changes = compare(&before, &before.clone());
        assert!(changes.is_empty());
        assert_eq!(render(&changes, Lang::Zh), ["新的证据没有改变任何发现。"]);
    }

    #[test]
    fn an_inconclusive_report_that_becomes_a_fault_says_so() {
        let prose = Source::new(
            "paste".to_string(),
            "my pod is not starting, what should I do?\n".to_string(),
        );
        let before = analyze_with(std::slice::from_ref(&prose), &Options::default());
        assert_eq!(before.verdict, Verdict::Inconclusive);
        let events = report(&[EVENTS], Lang::En);
        let mut sources = vec![prose];
        sources.push(Source::new(
            "events".to_string(),
            std::fs::read_to_string(corpus().join(EVENTS)).unwrap(),
        ));
        let after = analyze_with(&sources, &Options::default());
        assert_eq!(after.findings.len(), events.findings.len());
        let changes = compare(&before, &after);
        assert_eq!(changes[0].kind, ChangeKind::Verdict);
        assert_eq!(render(&changes, Lang::En)[0], "Verdict: inconclusive → fault.");
        assert_eq!(changes[1].kind, ChangeKind::Added);
    }

    /// Every case of the corpus dropped beside one Pod's events: a person reads the counts, the
    /// refuted and confirmed first, and "and N more", not a screen of "Added:" lines.
    #[test]
    fn a_long_list_of_changes_is_counted_then_cut() {
        let before = report(&[EVENTS], Lang::En);
        let mut files: Vec<String> = Vec::new();
        for case in std::fs::read_dir(corpus().join("cases")).unwrap() {
            let case = case.unwrap().path();
            for file in std::fs::read_dir(&case).unwrap() {
                let file = file.unwrap().path();
                if file.file_name().is_some_and(|n| n != "expect.json") {
                    files.push(file.strip_prefix(corpus()).unwrap().display().to_string());
                }
            }
        }
        files.sort();
        let names: Vec<&str> = files.iter().map(String::as_str).collect();
        let after = report(&names, Lang::En);
        let changes = compare(&before, &after);
        assert!(changes.len() > SHOWN + 5, "{}", changes.len());
        let shown = lines(&changes, Lang::En);
        assert_eq!(shown.len(), SHOWN + 2);
        assert_eq!(shown[0].kind, "counts");
        let added = changes.iter().filter(|c| c.kind == ChangeKind::Added).count();
        assert!(
            shown[0].text.starts_with(&format!("{} changes: ", changes.len())),
            "{}",
            shown[0].text
        );
        assert!(
            shown[0].text.contains(&format!("{added} added")),
            "{}",
            shown[0].text
        );
        assert_eq!(
            shown.last().unwrap().text,
            format!("… and {} more.", changes.len() - SHOWN)
        );
        // By weight: nothing added is listed before a change of another kind.
        let kinds: Vec<&str> = shown[1..=SHOWN].iter().map(|l| l.kind).collect();
        let first_added = kinds.iter().position(|k| *k == "added").unwrap_or(kinds.len());
        assert!(kinds[first_added..].iter().all(|k| *k == "added"), "{kinds:?}");
        // The same in Chinese, and a short list is every change.
        let zh = lines(&changes, Lang::Zh);
        assert!(
            zh[0].text.starts_with(&format!("共 {} 项变化：", changes.len())),
            "{}",
            zh[0].text
        );
        assert_eq!(lines(&changes[..3], Lang::En).len(), 3);
        assert_eq!(every(&changes, Lang::En).len(), changes.len());
    }
}
