//! The shared corpus (`../shared/corpus`): realistic pastes with the expected diagnosis.
//!
//! Every case is ingested without an input error and gives its expected boundary and subject as the
//! first finding, citing the strings the case lists (and no error finding for `none`).

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use faultline_engine::{analyze, render, Boundary, Report, Severity};
use serde_json::Value;

fn expect(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap()
}

fn all_cases() -> Vec<std::path::PathBuf> {
    let corpus = common::corpus();
    let mut dirs = Vec::new();
    for group in ["cases", "real/troubleshoot"] {
        for entry in std::fs::read_dir(corpus.join(group)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("expect.json").is_file() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    assert!(
        dirs.len() >= 20,
        "expected the whole corpus, found {} cases",
        dirs.len()
    );
    dirs
}

/// Cases whose `expect.json` names the refused object as the subject, where the report names the
/// object that refused it (issue 22, "the subject is the object at fault"): (case, the subject's
/// kind in the report, why). The expected subject must then be in the finding's `affects`.
const JUDGED_DIFFERENTLY: &[(&str, &str, &str)] = &[(
    "cases/05-resourcequota-403-no-pod-mixed",
    "ResourceQuota",
    "`exceeded quota: team-reports-quota`: the quota refused the Pod, which does not exist",
)];

fn boundary_id(b: Boundary) -> &'static str {
    b.id()
}

fn check_diagnosis(name: &str, dir: &Path, report: &Report) {
    let expect = expect(dir);
    let top = report
        .findings
        .first()
        .unwrap_or_else(|| panic!("{name}: no finding"));
    assert_eq!(
        boundary_id(top.boundary),
        expect["boundary"].as_str().unwrap(),
        "{name}"
    );
    let subject = &expect["subject"];
    if subject.is_null() {
        // The evidence is about the cluster as a whole.
        assert_eq!(top.subject.kind, "Cluster", "{name}");
    } else {
        let is_expected = |o: &faultline_engine::ObjectRef| {
            o.kind == subject["kind"].as_str().unwrap()
                && o.name == subject["name"].as_str().unwrap()
                && o.namespace.as_deref() == subject["namespace"].as_str()
        };
        match JUDGED_DIFFERENTLY.iter().find(|(case, ..)| name.ends_with(case)) {
            // The case names the victim; the finding names the object at fault and lists the
            // victim in `affects` (DESIGN.md: "A finding's subject is the object at fault").
            Some((_, kind, _why)) => {
                assert_eq!(top.subject.kind, *kind, "{name}");
                assert!(top.affects.iter().any(is_expected), "{name}: {:?}", top.affects);
            }
            None => assert!(is_expected(&top.subject), "{name}: {}", top.subject),
        }
    }
    // The evidence cites the strings the case lists: each must be in a cited source line.
    let sources = common::case_sources(dir);
    let cited_lines: Vec<String> = top
        .evidence
        .iter()
        .map(|e| {
            let source = sources.iter().find(|s| s.name == e.source).unwrap();
            source
                .text
                .lines()
                .nth(e.line as usize - 1)
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    for wanted in expect["evidence_substrings"].as_array().unwrap() {
        let wanted = wanted.as_str().unwrap();
        assert!(
            cited_lines.iter().any(|l| l.contains(wanted)),
            "{name}: no cited line contains {wanted:?}; cited:\n{}",
            cited_lines.join("\n")
        );
    }
}

#[test]
fn every_case_ingests_and_gives_its_expected_first_finding() {
    let corpus = common::corpus();
    let mut diagnosed = 0;
    for dir in all_cases() {
        let name = dir.strip_prefix(&corpus).unwrap().to_string_lossy().to_string();
        let report = analyze(&common::case_sources(&dir));
        // Every file of the corpus is read: no input error at all (none of its cases is invalid).
        assert_eq!(report.errors, vec![], "{name}: input errors");
        if expect(&dir)["boundary"] == "none" {
            assert!(
                report.findings.iter().all(|f| f.severity != Severity::Error),
                "{name}: {:?}",
                report.findings
            );
        } else {
            check_diagnosis(&name, &dir, &report);
            diagnosed += 1;
        }
    }
    assert_eq!(diagnosed, 22, "every case but the healthy one is diagnosed");
}

/// The article's three experiments and the ResourceQuota 403 case: whole reports, reviewed as snapshots.
#[test]
fn scenario_report_snapshots() {
    let scenarios = [
        (
            "cases/01-exp1-unsatisfiable-node-label-describe",
            "exp1-unsatisfiable-node-label",
        ),
        (
            "cases/02-exp2-nonexistent-image-tag-yaml",
            "exp2-nonexistent-image-tag",
        ),
        (
            "cases/03-exp3-readiness-always-fails-yaml",
            "exp3-readiness-always-fails",
        ),
        (
            "cases/04-exp3-publish-not-ready-addresses-json",
            "exp3-publish-not-ready-addresses",
        ),
        (
            "cases/05-resourcequota-403-no-pod-mixed",
            "resourcequota-403-no-pod",
        ),
    ];
    for (case, name) in scenarios {
        let dir = common::corpus().join(case);
        let sources = common::case_sources(&dir);
        let report = analyze(&sources);
        common::assert_snapshot(
            &format!("{name}.json"),
            &(serde_json::to_string_pretty(&report).unwrap() + "\n"),
        );
        // Their text, Markdown and HTML renderings are snapshotted with every other case's
        // (`every_case_renders_as_reviewed_text_markdown_and_html`), not a second time here.
    }
}

/// What ingest and the model make of each case — inputs, counts, errors, edges and timeline — as a
/// reviewed snapshot per case (`tests/snapshots/corpus/`).
#[test]
fn every_case_ingest_model_and_timeline_snapshot() {
    use faultline_engine::ingest::ingest;
    use faultline_engine::model::graph::Target;
    use faultline_engine::model::{timeline, Model};
    use std::fmt::Write;

    let corpus = common::corpus();
    for dir in all_cases() {
        let name = dir
            .strip_prefix(&corpus)
            .unwrap()
            .to_string_lossy()
            .replace('/', "-");
        let sources = common::case_sources(&dir);
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let report = analyze(&sources);
        let mut out = String::new();
        writeln!(out, "inputs:").unwrap();
        for i in &report.inputs {
            writeln!(
                out,
                "  {}  {}  documents {}  objects {}",
                i.source, i.format, i.documents, i.objects
            )
            .unwrap();
        }
        let counts: Vec<String> = report.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(out, "counts: {}", counts.join(", ")).unwrap();
        writeln!(out, "errors:").unwrap();
        for e in &report.errors {
            writeln!(out, "  {}:{}:{} {}", e.source, e.line, e.column, e.message).unwrap();
        }
        writeln!(out, "kubectl messages:").unwrap();
        for (source, m) in &ingested.messages {
            let first = m.text.lines().next().unwrap_or_default();
            writeln!(
                out,
                "  {}:{} {:?} {}",
                sources[*source].name, m.line, m.kind, first
            )
            .unwrap();
        }
        writeln!(out, "edges:").unwrap();
        for edge in &model.graph.edges {
            let to = match &edge.to {
                Target::Object(i) => model.objects[*i].id.to_string(),
                Target::Missing(r) => format!("(not pasted) {r}"),
            };
            let inferred = if edge.inferred { " (inferred)" } else { "" };
            writeln!(
                out,
                "  {} -{:?}-> {to} via {}{inferred}",
                model.objects[edge.from].id, edge.kind, edge.path
            )
            .unwrap();
        }
        writeln!(out, "timeline:").unwrap();
        let (entries, capture) = timeline::build(&model, None);
        // The capture moment matters where entries are known only by age.
        if entries.iter().any(|t| t.age.is_some()) {
            match &capture {
                Some(c) => {
                    let anchor = c
                        .anchor
                        .as_ref()
                        .map(|a| format!(" from {} {} {}s after {}", a.subject, a.reason, a.age, a.created))
                        .unwrap_or_default();
                    writeln!(out, "  capture {} {:?}{anchor}", c.time, c.basis).unwrap();
                }
                None => writeln!(out, "  capture unknown").unwrap(),
            }
        }
        for t in entries {
            let estimated = if t.estimated_from.is_some() { " ~" } else { "" };
            let estimated = if t.before_object_existed {
                format!("{estimated} (before its object existed)")
            } else {
                estimated.to_string()
            };
            let time = if t.time.is_empty() {
                "(no time)"
            } else {
                t.time.as_str()
            };
            let at =
                t.at.as_ref()
                    .map(|a| format!(" @{}:{}", a.source, a.line))
                    .unwrap_or_default();
            writeln!(
                out,
                "  {time}{estimated} {} {} {} x{}{at}",
                t.subject, t.source, t.reason, t.count
            )
            .unwrap();
        }
        common::assert_snapshot(&format!("corpus/{name}.txt"), &out);
    }
}

/// Every case rendered as the CLI and the app's export render it — text (evidence on its source
/// line), Markdown and HTML — each compared with a reviewed snapshot (`tests/snapshots/renderings/`).
#[test]
fn every_case_renders_as_reviewed_text_markdown_and_html() {
    let corpus = common::corpus();
    for dir in all_cases() {
        let name = dir
            .strip_prefix(&corpus)
            .unwrap()
            .to_string_lossy()
            .replace('/', "-");
        let sources = common::case_sources(&dir);
        let report = analyze(&sources);
        let lang = render::Lang::En;
        common::assert_snapshot(
            &format!("renderings/{name}.txt"),
            &render::text(&report, &sources, lang),
        );
        common::assert_snapshot(&format!("renderings/{name}.md"), &render::markdown(&report, lang));
        let html = render::html(&report, lang);
        assert!(!html.contains("<script"), "{name}: no script in the HTML report");
        common::assert_snapshot(&format!("renderings/{name}.html"), &html);
    }
}

/// No snapshot of a corpus case outlives its case: every file under `tests/snapshots/corpus/` and
/// `tests/snapshots/renderings/` belongs to a case the tests above snapshot.
#[test]
fn no_corpus_snapshot_is_an_orphan() {
    let corpus = common::corpus();
    let names: Vec<String> = all_cases()
        .iter()
        .map(|dir| {
            dir.strip_prefix(&corpus)
                .unwrap()
                .to_string_lossy()
                .replace('/', "-")
        })
        .collect();
    let snapshots = common::snapshots();
    snapshots.assert_no_orphans("corpus", names.iter().map(|n| format!("corpus/{n}.txt")));
    snapshots.assert_no_orphans(
        "renderings",
        names
            .iter()
            .flat_map(|n| ["txt", "md", "html"].map(|ext| format!("renderings/{n}.{ext}"))),
    );
}
