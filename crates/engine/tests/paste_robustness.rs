//! What happens to a paste on its way to Faultline must not change the diagnosis: a markdown fence,
//! a 4-space code block, e-mail quoting, CRLF, a chat client collapsing spaces, tabs for aligned
//! spaces, a hard wrap at 76 columns, prose around it, trailing spaces, another shell's prompt —
//! alone and in pairs, over every corpus case (`cases/`, `real/`, `wild/`). Each variant must keep
//! the first error or warning finding's boundary and subject, and its evidence must cite lines that
//! hold the same text in the variant as in the original.
//!
//! The counts per transformation are printed. [`EXCEPTIONS`] lists the (transformation, case) pairs
//! that cannot hold and why; every other pair must.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use faultline_engine::{analyze, Finding, Report, Severity, Source};

type Transform = fn(&str) -> String;

const TRANSFORMS: [(&str, Transform); 10] = [
    ("fence", fence),
    ("indent-4", indent4),
    ("quote", quote),
    ("crlf", crlf),
    ("collapse-spaces", collapse),
    ("tabs", tabs),
    ("wrap-76", wrap76),
    ("prose-around", prose),
    ("trailing-spaces", trailing),
    ("prompts", prompts),
];

/// The variants that do not hold for every case, with how many cases they must keep right (a
/// ratchet: fewer fails the test; more is progress, and the floor is raised with it). Every other
/// variant must hold for every case. `wrap-76` holds alone and in every pair: `ingest::rewrap`
/// rejoins YAML, describe, and `get`/events headers and rows; fragments read a wrapped record
/// whole; `get` rows without a header are rejoined; the padding common to every line goes first
/// (`wrappers::unpad`); and a rest the wrap moved out of a quoted or 4-space-indented block to the
/// margin is joined back before the block is unwrapped (`rewrap::rejoin_broken_prefix`: `wild/01`
/// indented, `wild/17` quoted). `ROBUSTNESS_SHOW=+` prints what each failing variant gives instead.
/// The one exception:
/// - `quote` with `collapse-spaces` or `tabs` on `cases/03` (a `kind: List` of a Service, its
///   EndpointSlice and Pods, as YAML): does not hold, and cannot from what is left. The quote marker puts the YAML's
///   indentation inside the line, where the chat client folds every depth to one space (or one tab), so the
///   only nesting left is none: `name: echo` after `labels:` / `app: echo` may be a label or the
///   object's name, a `- addresses:` item may belong to any list before it. Only a schema of
///   every kind's fields could guess the tree back, and a label or annotation key that is also a
///   field name (`name`, `app`) would still be ambiguous. The events and the request transcript
///   beside it are read, so the Pods' readiness warning is found, not the Service's fault.
///
/// Quoted describe of a Pod, and a container's block alone (`wild/29`), get their nesting back
/// from their keys (`describe::reindent`, `describe::reindent_container`); single-spaced `| grep`
/// rows without a header are split by their words (`get_table::headerless`, `wild/30`); a
/// sentence after a 4-space code block of YAML ends the block (`sniff::indented_block_end`,
/// `cases/03`).
const GAPS: &[(&str, usize)] = &[("quote+collapse-spaces", 59), ("quote+tabs", 59)];

fn fence(text: &str) -> String {
    format!("```\n{}\n```\n", text.trim_end_matches('\n'))
}

fn indent4(text: &str) -> String {
    map_lines(text, |l| {
        if l.is_empty() {
            String::new()
        } else {
            format!("    {l}")
        }
    })
}

fn quote(text: &str) -> String {
    map_lines(text, |l| {
        if l.is_empty() {
            ">".to_string()
        } else {
            format!("> {l}")
        }
    })
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// Runs of spaces inside a line become one; the indentation stays (a chat client's rendering).
fn collapse(text: &str) -> String {
    map_lines(text, |l| {
        let body = l.trim_start();
        let indent = &l[..l.len() - body.len()];
        let mut out = indent.to_string();
        let mut last_space = false;
        for c in body.chars() {
            if c == ' ' {
                if !last_space {
                    out.push(' ');
                }
                last_space = true;
            } else {
                out.push(c);
                last_space = false;
            }
        }
        out
    })
}

/// Runs of two or more spaces inside a line become a tab (a terminal copy of tab-aligned output).
fn tabs(text: &str) -> String {
    map_lines(text, |l| {
        let body = l.trim_start();
        let indent = &l[..l.len() - body.len()];
        let mut out = indent.to_string();
        let mut rest = body;
        while let Some(at) = rest.find("  ") {
            out.push_str(&rest[..at]);
            out.push('\t');
            rest = rest[at..].trim_start_matches(' ');
        }
        out.push_str(rest);
        out
    })
}

/// Lines longer than 76 columns broken at the last space before it, as a mail client does.
fn wrap76(text: &str) -> String {
    map_lines(text, |l| {
        let mut out = String::new();
        let mut rest = l;
        while rest.chars().count() > 76 {
            let limit = rest.char_indices().nth(76).map_or(rest.len(), |(i, _)| i);
            let cut = rest[..limit].rfind(' ').filter(|c| *c > 0).unwrap_or(limit);
            out.push_str(&rest[..cut]);
            out.push('\n');
            rest = rest[cut..].trim_start_matches(' ');
        }
        out.push_str(rest);
        out
    })
}

fn prose(text: &str) -> String {
    format!("Hi all, this is what I get on the cluster since this morning:\n\n{text}\n\nAny idea what is wrong here? Thanks in advance.\n")
}

fn trailing(text: &str) -> String {
    map_lines(text, |l| format!("{l}  "))
}

/// `$ kubectl …` prompts in another shell's style.
fn prompts(text: &str) -> String {
    map_lines(text, |l| match l.strip_prefix("$ ") {
        Some(command) if command.starts_with("kubectl ") || command.starts_with("k ") => {
            format!("[ops@bastion-1 ~]$ {command}")
        }
        _ => l.to_string(),
    })
}

fn map_lines(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut out: Vec<String> = text.split('\n').map(&f).collect();
    if text.ends_with('\n') {
        out.pop();
        out.push(String::new());
    }
    out.join("\n")
}

fn first_weighty(report: &Report) -> Option<&Finding> {
    report
        .findings
        .iter()
        .find(|f| matches!(f.severity, Severity::Error | Severity::Warning))
}

/// A line's text without what the transformations add: quote markers, fences' backticks, prompts'
/// decorations, spacing.
fn bare(line: &str) -> String {
    let line = line.trim_start().trim_start_matches(['>', ' ']);
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cases() -> Vec<PathBuf> {
    let corpus = common::corpus();
    let mut dirs = Vec::new();
    for group in ["cases", "real/troubleshoot", "wild"] {
        for entry in std::fs::read_dir(corpus.join(group)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("expect.json").is_file() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn a_paste_reads_the_same_through_fences_quotes_wraps_and_prompts() {
    let corpus = common::corpus();
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures: Vec<(String, String)> = Vec::new();
    let mut variants: Vec<(String, Vec<usize>)> = TRANSFORMS
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.to_string(), vec![i]))
        .collect();
    for (a, (first, _)) in TRANSFORMS.iter().enumerate() {
        for (b, (second, _)) in TRANSFORMS.iter().enumerate().skip(a + 1) {
            variants.push((format!("{first}+{second}"), vec![a, b]));
        }
    }
    for dir in cases() {
        let name = dir.strip_prefix(&corpus).unwrap().to_string_lossy().to_string();
        let sources = common::case_sources(&dir);
        let report = analyze(&sources);
        let Some(top) = first_weighty(&report) else {
            continue;
        };
        for (variant, steps) in &variants {
            let changed: Vec<Source> = sources
                .iter()
                .map(|s| {
                    let text = steps.iter().fold(s.text.clone(), |t, i| (TRANSFORMS[*i].1)(&t));
                    Source::new(s.name.clone(), text)
                })
                .collect();
            let got = analyze(&changed);
            let entry = counts.entry(variant.clone()).or_default();
            entry.1 += 1;
            let problem = match first_weighty(&got) {
                None => Some("no error or warning finding".to_string()),
                Some(f) if f.boundary != top.boundary => Some(format!(
                    "boundary {} instead of {}",
                    f.boundary.id(),
                    top.boundary.id()
                )),
                Some(f) if f.subject != top.subject => {
                    Some(format!("subject {} instead of {}", f.subject, top.subject))
                }
                Some(f) => f.evidence.iter().find_map(|e| {
                    let source = changed.iter().position(|s| s.name == e.source)?;
                    let cited = bare(
                        changed[source]
                            .text
                            .lines()
                            .nth(e.line as usize - 1)
                            .unwrap_or_default(),
                    );
                    let original = &sources[source].text;
                    let found = cited.is_empty()
                        || original.lines().any(|l| {
                            let l = bare(l);
                            l.contains(&cited) || (!l.is_empty() && cited.contains(&l))
                        });
                    (!found).then(|| {
                        format!(
                            "evidence {}:{} cites {cited:?}, not a line of the original",
                            e.source, e.line
                        )
                    })
                }),
            };
            match problem {
                None => entry.0 += 1,
                Some(problem) => failures.push((variant.clone(), format!("{variant} on {name}: {problem}"))),
            }
        }
    }
    // `ROBUSTNESS_SHOW=wrap-76` prints every failure of the variants whose name contains it.
    if let Ok(show) = std::env::var("ROBUSTNESS_SHOW") {
        for (variant, line) in &failures {
            if variant.contains(show.as_str()) {
                println!("{line}");
            }
        }
    }
    println!("paste robustness (variant: right/cases):");
    for (variant, (right, total)) in &counts {
        println!("  {variant:<34} {right}/{total}");
    }
    let mut broken = Vec::new();
    for (variant, (right, total)) in &counts {
        let floor = GAPS
            .iter()
            .find(|(v, _)| v == variant)
            .map_or(*total, |(_, floor)| *floor);
        if *right < floor {
            let lines: Vec<&str> = failures
                .iter()
                .filter(|(v, _)| v == variant)
                .map(|(_, l)| l.as_str())
                .collect();
            broken.push(format!(
                "{variant}: {right}/{total}, must keep {floor}:\n  {}",
                lines.join("\n  ")
            ));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(
        counts.len() == 55,
        "ten transformations alone and in pairs: {}",
        counts.len()
    );
}
