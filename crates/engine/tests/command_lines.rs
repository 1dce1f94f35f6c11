//! Every command runs as written (issue 40, item 2): each next step of each finding, the deciding
//! command and the paste an inconclusive report asks for, of every real input there is — the shared corpus (`cases`, `real`, `wild`),
//! the paste and differential fixtures, each rule fixture and each built-in sample — passes
//! [`shell_check::check`]: a `kubectl` command line (or one of the few documented others) with
//! no empty argument, nothing the shell would run besides it, a value for each flag that takes
//! one, and placeholders only single-quoted.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod shell_check;

use std::path::Path;

use faultline_engine::{analyze, Report, Source};

/// Each analysis to run: a name, and its inputs. A folder of a group is one analysis of its files
/// (a corpus case, a paste, a sample); a file of a group is one on its own.
fn analyses() -> Vec<(String, Vec<Source>)> {
    let corpus = common::corpus();
    let repo = common::repo();
    let mut groups = vec![
        corpus.join("cases"),
        corpus.join("real/troubleshoot"),
        corpus.join("wild"),
        repo.join("static/samples"),
    ];
    // Every fixture group (pastes, differential, identity, layouts, …); each rule's folder is a group.
    for group in common::sorted_entries(&repo.join("tests/fixtures")) {
        if group.ends_with("rules") {
            groups.extend(common::sorted_entries(&group));
        } else if group.is_dir() {
            groups.push(group);
        }
    }
    let mut out = Vec::new();
    for group in groups {
        for entry in common::sorted_entries(&group) {
            let sources: Vec<Source> = if entry.is_dir() {
                common::case_sources(&entry)
            } else {
                let text = std::fs::read(&entry).unwrap();
                let name = entry.file_name().unwrap().to_string_lossy().to_string();
                vec![Source::new(name, String::from_utf8_lossy(&text).to_string())]
            };
            let sources: Vec<Source> = sources
                .into_iter()
                .filter(|s| !matches!(s.name.as_str(), "README.md" | "expect.json"))
                .collect();
            if !sources.is_empty() {
                out.push((name_of(&entry), sources));
            }
        }
    }
    out
}

fn name_of(path: &Path) -> String {
    let parent = path.parent().and_then(|p| p.file_name()).unwrap_or_default();
    format!(
        "{}/{}",
        parent.to_string_lossy(),
        path.file_name().unwrap().to_string_lossy()
    )
}

/// Every command a report suggests: its findings' next steps, the deciding command, and the paste
/// an inconclusive report asks for.
fn commands(report: &Report) -> Vec<&str> {
    let steps = report.findings.iter().flat_map(|f| &f.next_steps);
    steps
        .map(String::as_str)
        .chain(report.decide.iter().map(|d| d.command.as_str()))
        .chain(report.paste_next.as_deref())
        .collect()
}

#[test]
fn every_suggested_command_parses_as_a_command_line_that_runs_as_written() {
    let analyses = analyses();
    assert!(analyses.len() > 400, "{} analyses", analyses.len());
    let (mut checked, mut decide, mut paste_next) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, sources) in &analyses {
        let report = analyze(sources);
        decide += usize::from(report.decide.is_some());
        paste_next += usize::from(report.paste_next.is_some());
        // A placeholder in a finding's commands is said in its words: what the input does not state.
        for f in &report.findings {
            let ids: Vec<&str> = f
                .cannot_establish
                .iter()
                .filter_map(|c| c.message().map(|m| m.id()))
                .collect();
            for (placeholder, id) in [
                ("'<namespace>'", "common.not-stated"),
                ("'<name>'", "common.not-stated"),
                ("'<node>'", "common.node-not-stated"),
            ] {
                if f.next_steps.iter().any(|s| s.contains(placeholder)) && !ids.contains(&id) {
                    failures.push(format!(
                        "{name}: {} writes {placeholder} without saying so",
                        f.rule
                    ));
                }
            }
        }
        for command in commands(&report) {
            checked += 1;
            if let Err(why) = shell_check::check(command) {
                failures.push(format!("{name}: {why}: {command}"));
            }
        }
    }
    eprintln!(
        "{checked} commands of {} analyses checked ({decide} deciding commands, {paste_next} pastes asked for)",
        analyses.len()
    );
    assert!(checked > 1000, "only {checked} commands");
    assert!(
        failures.is_empty(),
        "{} of {checked} commands do not run as written:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
