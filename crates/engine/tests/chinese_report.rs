//! Issue 24: a report asked for in Chinese is in Chinese. Over every corpus case (cases, real,
//! wild), every text the engine writes — finding summaries, `cannot_establish`, input errors, unread
//! reasons, the timeline's own entries and estimates — comes from a message, and its Chinese rendering
//! has no English sentence outside names, values, reasons, fields and commands: once the values the
//! input itself holds, code spans and quotations are taken out, no run of three English words is
//! left. A value the input does not hold (a phrase a rule wrote in English and passed as a value)
//! is not taken out, so it is caught.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;

use faultline_engine::message::{ArgValue, Message};
use faultline_engine::{analyze_with, Lang, Options, Source};

fn case_dirs() -> Vec<PathBuf> {
    let corpus = common::corpus();
    let mut dirs = Vec::new();
    for part in ["cases", "wild", "real/troubleshoot"] {
        dirs.extend(
            common::sorted_entries(&corpus.join(part))
                .into_iter()
                .filter(|p| p.is_dir()),
        );
    }
    dirs
}

/// The leaf values of a message's arguments that the input holds verbatim (names, reasons, messages
/// of Kubernetes), which a Chinese text may quote as they are.
fn input_values(message: &Message, input: &str, out: &mut Vec<String>) {
    fn walk(value: &ArgValue<'_>, input: &str, out: &mut Vec<String>) {
        match value {
            ArgValue::Str(s) if !s.is_empty() => {
                // As the input has it, give or take the whitespace of a wrapped or re-spaced line, a
                // quote around it, and the end cut off a long message (`…`).
                let bare = spaced(s.trim_matches('"').trim_end_matches('…'));
                if input.contains(bare.as_str()) || of_input_words(&bare, input) {
                    out.push(s.to_string());
                }
            }
            ArgValue::Object(o) => {
                out.push(o.to_string());
                out.extend(
                    [o.kind.to_string(), o.name.to_string()]
                        .into_iter()
                        .filter(|v| !v.is_empty()),
                );
            }
            ArgValue::Message(m) => input_values(m, input, out),
            ArgValue::List(items) => items.iter().for_each(|v| walk(v, input, out)),
            _ => {}
        }
    }
    for (_, value) in message.args() {
        walk(&value, input, out);
    }
}

/// Whether every word of a value but its last (which a cut may have shortened) is a word of the
/// input: Kubernetes' text read from lines the engine joined (a message wrapped over lines, a k9s
/// box's borders), not a phrase of the engine's.
fn of_input_words(value: &str, input: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| c.is_whitespace() || "│|`".contains(c))
            .map(|w| w.trim_matches(|c: char| "\"'…,.".contains(c)).to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let known: std::collections::HashSet<String> = words(input).into_iter().collect();
    let value = words(value);
    value.len() >= 2 && value[..value.len() - 1].iter().all(|w| known.contains(w))
}

/// Runs of whitespace made one space.
fn spaced(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Removes `code`, "quoted" and 「」-free spans: what a text may leave in English.
fn without_code_and_quotes(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    let mut in_quote = false;
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '"' | '“' | '”' if !in_code => in_quote = !in_quote,
            _ if in_code || in_quote => {}
            _ => out.push(c),
        }
    }
    out
}

/// The first run of three or more English words (`is not ready`), if any.
fn english_run(text: &str) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    let mut longest: Vec<&str> = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || ",;:()".contains(c)) {
        let word = token.trim_matches(|c: char| ".!?'".contains(c));
        if !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '\'' || c == '-')
            && word.chars().any(|c| c.is_ascii_lowercase())
        {
            run.push(word);
            if run.len() > longest.len() {
                longest = run.clone();
            }
        } else if !token.is_empty() {
            run.clear();
        }
    }
    (longest.len() >= 3).then(|| longest.join(" "))
}

fn check(what: &str, message: Option<&Message>, text: &str, input: &str, problems: &mut Vec<String>) {
    let Some(message) = message else {
        problems.push(format!("{what}: a text without a message: {text}"));
        return;
    };
    assert_eq!(
        text,
        message.render(Lang::Zh),
        "{what}: the text is the message's Chinese"
    );
    let mut values = Vec::new();
    input_values(message, input, &mut values);
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    let mut rest = text.to_string();
    for v in &values {
        rest = rest.replace(v.as_str(), " ");
    }
    let rest = without_code_and_quotes(&rest);
    if let Some(run) = english_run(&rest) {
        problems.push(format!("{what} ({}): English \"{run}\" in: {text}", message.id()));
    }
}

#[test]
fn a_chinese_report_of_every_corpus_case_has_no_english_sentence() {
    let mut problems = Vec::new();
    let mut texts = 0;
    let dirs = case_dirs();
    assert!(dirs.len() >= 16 + 42 + 7, "{} cases", dirs.len());
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let sources: Vec<Source> = common::case_sources(dir);
        let input: String = sources
            .iter()
            .map(|s| s.text.as_ref())
            .collect::<Vec<&str>>()
            .join("\n");
        let options = Options {
            lang: Lang::Zh,
            ..Options::default()
        };
        let report = analyze_with(&sources, &options);
        // Every sentence the engine wrote is in Chinese; findings, input errors and unread reasons
        // are all the engine's.
        let mut index = 0;
        report.sentences(&mut |s| {
            index += 1;
            if s.message().is_some() {
                texts += 1;
                check(
                    &format!("{name}: sentence {index}"),
                    s.message(),
                    s,
                    &input,
                    &mut problems,
                );
            }
        });
        let engines = report
            .findings
            .iter()
            .flat_map(|f| std::iter::once(&f.summary).chain(&f.cannot_establish))
            .chain(report.errors.iter().map(|e| &e.message))
            .chain(report.unread.iter().map(|u| &u.reason));
        for s in engines.filter(|s| s.message().is_none()) {
            problems.push(format!("{name}: a text without a message: {s}"));
        }
        for t in &report.timeline {
            if t.message.message().is_none()
                && t.source != "event"
                && t.source != "condition"
                && t.source != "log"
                && !t.message.is_empty()
            {
                problems.push(format!(
                    "{name}: a timeline entry of the engine's without a message: {}",
                    t.message
                ));
            }
        }
    }
    assert!(texts > 300, "only {texts} texts: the corpus was not analysed");
    assert!(
        problems.is_empty(),
        "{} of {texts} texts:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The check itself: an English sentence is found, a Chinese one with names is not.
#[test]
fn the_english_check_finds_english_and_passes_names() {
    assert_eq!(english_run("Pod shop/web 无法拉取镜像"), None);
    assert_eq!(
        english_run("节点 ip-10-0-3-17.ec2.internal 上的 kubelet 与 CRI 运行时"),
        None
    );
    assert_eq!(
        english_run("Pod shop/web cannot pull its image"),
        Some("cannot pull its image".to_string())
    );
    assert_eq!(
        without_code_and_quotes("用 `kubectl describe pod web` 查看"),
        "用  查看"
    );
    assert_eq!(
        english_run(&without_code_and_quotes("答复 \"not found at all\"")),
        None
    );
}
