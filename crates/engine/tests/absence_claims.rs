//! Every sentence that says something is not in the input is checked against what was read. For
//! each corpus case (`cases/`, `real/`, `wild/`) and each rule fixture, the report's messages whose
//! id makes an absence claim ([`CLAIMS`]) are checked against the parsed input (the same
//! `ingest` and `Model` the rules read): a Pod said not to be pasted is not among the objects, a
//! container said to have no memory limit has a pasted spec without one, and so on. And every
//! message whose English says "not pasted", "not in the input" or the like is either such a claim
//! or listed in [`NOT_ABSENCE_CLAIMS`] with the reason it claims nothing about the input, so a new
//! absence claim cannot be added without its check.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod claims;
mod common;

use claims::{CLAIMS, NOT_ABSENCE_CLAIMS};
use faultline_engine::ingest::ingest;
use faultline_engine::message::{ArgValue, Message};
use faultline_engine::model::Model;
use faultline_engine::{analyze, Lang, Source};

fn claims_absence(english: &str) -> bool {
    let l = english.to_lowercase();
    [
        "pasted",
        "not in the input",
        "is not in ",
        "are not in ",
        "no limit",
    ]
    .iter()
    .any(|w| l.contains(w))
}

#[test]
fn every_message_that_speaks_of_the_input_is_checked_or_says_why_not() {
    let checked: Vec<&str> = CLAIMS.iter().map(|(id, _)| *id).collect();
    let exempt: Vec<&str> = NOT_ABSENCE_CLAIMS.iter().map(|(id, _)| *id).collect();
    let ids = faultline_engine::messages::ids();
    for id in checked.iter().chain(&exempt) {
        assert!(ids.contains(id), "{id} is listed but is no message id");
    }
    let mut unlisted = Vec::new();
    for m in faultline_engine::messages::samples() {
        let id = m.id();
        if claims_absence(&m.render(Lang::En)) && !checked.contains(&id) && !exempt.contains(&id) {
            unlisted.push(id);
        }
    }
    assert!(
        unlisted.is_empty(),
        "absence claims without a check: {unlisted:?}"
    );
}

/// The message and every message nested in its arguments.
fn walk<'m>(m: &'m Message, out: &mut Vec<&'m Message>) {
    out.push(m);
    fn arg<'m>(v: ArgValue<'m>, out: &mut Vec<&'m Message>) {
        match v {
            ArgValue::Message(m) => walk(m, out),
            ArgValue::List(items) => items.into_iter().for_each(|i| arg(i, out)),
            _ => {}
        }
    }
    for (_, v) in m.args() {
        arg(v, out);
    }
}

/// Every corpus case and rule fixture, as the sources analysed together.
fn inputs() -> Vec<(String, Vec<Source>)> {
    let corpus = common::corpus();
    let mut out = Vec::new();
    for dir in [
        corpus.join("cases"),
        corpus.join("real/troubleshoot"),
        corpus.join("wild"),
    ] {
        for case in common::sorted_entries(&dir).into_iter().filter(|p| p.is_dir()) {
            out.push((case.display().to_string(), common::case_sources(&case)));
        }
    }
    for rule in common::sorted_entries(&common::repo().join("tests/fixtures/rules")) {
        for file in common::sorted_entries(&rule) {
            let text = std::fs::read_to_string(&file).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            out.push((file.display().to_string(), vec![Source::new(name, text)]));
        }
    }
    out
}

#[test]
fn every_absence_claim_in_the_corpus_holds_against_the_parsed_input() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    let inputs = inputs();
    assert!(
        inputs.len() > 60,
        "the corpus and fixtures are there: {}",
        inputs.len()
    );
    for (name, sources) in &inputs {
        let report = analyze(sources);
        let ingested = ingest(sources);
        let model = Model::build(sources, &ingested);
        for finding in &report.findings {
            let mut messages = Vec::new();
            for m in std::iter::once(&finding.summary)
                .chain(&finding.cannot_establish)
                .chain(std::iter::once(&finding.confidence_note))
                .filter_map(|s| s.message())
            {
                walk(m, &mut messages);
            }
            for m in messages {
                let Some((_, check)) = CLAIMS.iter().find(|(id, _)| *id == m.id()) else {
                    continue;
                };
                checked += 1;
                if let Err(why) = check(&model, finding, m) {
                    wrong.push(format!("{name}: {} ({}): {why}", m.id(), finding.subject));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "absence claims the input contradicts:\n{}",
        wrong.join("\n")
    );
    // The corpus makes such claims: a check that never runs proves nothing.
    assert!(checked > 10, "only {checked} absence claims were checked");
    println!("{checked} absence claims checked");
}

/// Issue 23's case: a describe with `Limits: memory: 384Mi` three lines above was reported with
/// "the container's memory limit is not in the input". The check rejects that claim on that input,
/// and accepts the claim that the spec sets no limit once the limit is taken out.
#[test]
fn the_check_rejects_a_false_no_limit_claim() {
    use faultline_engine::rules::application::container_oom_killed::Msg;
    let path = common::repo()
        .join("tests/fixtures/rules/container-oom-killed/fires-node-heap-over-limit-describe.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let check = CLAIMS
        .iter()
        .find(|(id, _)| *id == "container-oom-killed.no-limit-in-spec")
        .unwrap()
        .1;
    let claim: Message = Msg::NoLimitInSpec {
        container: "api".into(),
    }
    .into();
    let verdict = |text: &str| {
        let sources = [Source::new("describe.txt", text)];
        let report = analyze(&sources);
        let finding = report
            .findings
            .iter()
            .find(|f| f.rule == "container-oom-killed")
            .unwrap()
            .clone();
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        check(&model, &finding, &claim)
    };
    let err = verdict(&text).unwrap_err();
    assert!(err.contains("384Mi"), "{err}");
    let without = text.replace("      memory:  384Mi\n", "");
    assert_ne!(without, text);
    assert_eq!(verdict(&without), Ok(()));
    // And the rule itself now says so only then.
    let ids = |text: &str| -> Vec<&'static str> {
        analyze(&[Source::new("describe.txt", text)])
            .findings
            .iter()
            .flat_map(|f| {
                f.cannot_establish
                    .iter()
                    .filter_map(|c| c.message())
                    .map(Message::id)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert!(!ids(&text).contains(&"container-oom-killed.no-limit-in-spec"));
    assert!(ids(&without).contains(&"container-oom-killed.no-limit-in-spec"));
}
