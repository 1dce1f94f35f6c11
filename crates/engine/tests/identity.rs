//! One object seen in several inputs is one object, and one fault one finding (issue 22, "ranking
//! and identity"): the same incident pasted as YAML, as `kubectl describe` and as an events table
//! gives each finding once, citing each input.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use faultline_engine::{analyze, Report, Source};

fn read(path: &Path, name: &str) -> Source {
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

/// (rule, subject, severity) of each finding, in order.
fn judged(report: &Report) -> Vec<(String, String, String)> {
    report
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.subject.to_string(), format!("{:?}", f.severity)))
        .collect()
}

/// Experiment 2 of the corpus (a Pod whose image tag does not exist): its `pod.yaml`, the same Pod as
/// `kubectl describe` prints it (composed from that YAML and its events, `tests/fixtures/identity/`),
/// and its `get events` table.
#[test]
fn one_incident_pasted_three_ways_gives_each_finding_once_with_each_inputs_evidence() {
    let case = common::corpus().join("cases/02-exp2-nonexistent-image-tag-yaml");
    let describe = common::repo().join("tests/fixtures/identity/exp2-tag-probe/describe.txt");
    let yaml = read(&case.join("pod.yaml"), "pod.yaml");
    let sources = [
        yaml.clone(),
        read(&describe, "describe.txt"),
        read(&case.join("events.txt"), "events.txt"),
    ];
    let report = analyze(&sources);
    let pulls: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "image-pull-failed")
        .collect();
    assert_eq!(pulls.len(), 1, "{:#?}", judged(&report));
    let pull = pulls[0];
    assert_eq!(pull.subject.to_string(), "Pod exp-runtime/tag-probe");
    for source in ["pod.yaml", "describe.txt", "events.txt"] {
        assert!(
            pull.evidence.iter().any(|e| e.source == source),
            "no evidence from {source}: {:#?}",
            pull.evidence
        );
    }
    // Each (rule, subject) once, and the same diagnosis as the YAML alone.
    let alone = analyze(&[yaml]);
    assert_eq!(judged(&report)[0], judged(&alone)[0]);
    let mut keys: Vec<_> = judged(&report).into_iter().map(|(r, s, _)| (r, s)).collect();
    let all = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), all, "{:#?}", judged(&report));
}

/// Every corpus case and every rule fixture pasted twice (each input again under another name) is
/// judged as pasted once: the same findings (rule, subject, severity), in the same order, each citing
/// every input it cited alone, in that input or in its copy.
#[test]
fn an_input_pasted_twice_is_judged_as_pasted_once() {
    let mut cases: Vec<Vec<PathBuf>> = Vec::new();
    let corpus = common::corpus();
    for group in ["cases", "real/troubleshoot", "wild"] {
        for dir in common::sorted_entries(&corpus.join(group))
            .into_iter()
            .filter(|d| d.is_dir())
        {
            cases.push(
                common::sorted_entries(&dir)
                    .into_iter()
                    .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "expect.json"))
                    .collect(),
            );
        }
    }
    let rules = common::repo().join("tests/fixtures/rules");
    for dir in common::sorted_entries(&rules).into_iter().filter(|d| d.is_dir()) {
        cases.extend(common::sorted_entries(&dir).into_iter().map(|p| vec![p]));
    }
    assert!(cases.len() > 150, "{}", cases.len());
    for files in cases {
        let name = |p: &Path| p.file_name().unwrap().to_string_lossy().to_string();
        let once: Vec<Source> = files.iter().map(|p| read(p, &name(p))).collect();
        let twice: Vec<Source> = once
            .iter()
            .cloned()
            .chain(files.iter().map(|p| read(p, &format!("again-{}", name(p)))))
            .collect();
        // A fragment that does not name its object (a container's State block alone) may be
        // another object in another input: only named subjects are one object.
        let named = |mut r: Report| {
            r.findings.retain(|f| !f.subject.name.is_empty());
            r
        };
        let (alone, doubled) = (named(analyze(&once)), named(analyze(&twice)));
        let what = files[0].display();
        assert_eq!(judged(&doubled), judged(&alone), "{what}");
        for (a, d) in alone.findings.iter().zip(&doubled.findings) {
            // What a finding cited in an input it cites in that input or in its copy (a rule that
            // cites the newest of equal events cites the copy's).
            for e in &a.evidence {
                let copy = format!("again-{}", e.source);
                assert!(
                    d.evidence
                        .iter()
                        .any(|c| c.source == e.source || c.source == copy),
                    "{what}: {} lost {}",
                    a.rule,
                    e.source
                );
            }
        }
    }
}

/// wild/30's shape: `kubectl get pods | grep` rows (no namespace, no owner), then one Pod's describe
/// (`Namespace: default`, `Controlled By: DaemonSet/…`). The described Pod is one object with its
/// row; its siblings, named by the DaemonSet, are the DaemonSet's; and the Pods failing alike make
/// one finding about the DaemonSet, citing each row.
#[test]
fn pods_of_one_workload_failing_alike_are_one_finding_about_the_workload() {
    let text = "$ kubectl get pods | grep agent\nagent-t7dwh   0/1   CrashLoopBackOff   19 (75s ago)   74m\nagent-t855m   0/1   CrashLoopBackOff   19 (96s ago)   74m\nagent-w4x96   0/1   CrashLoopBackOff   19 (82s ago)   74m\n\n$ kubectl describe pods agent-t7dwh\nName:         agent-t7dwh\nNamespace:    default\nStatus:       Running\nControlled By:  DaemonSet/agent\n";
    let report = analyze(&[Source::new("paste", text)]);
    let top = &report.findings[0];
    assert_eq!(
        (top.rule.as_str(), top.subject.to_string().as_str()),
        ("container-crash-looping", "DaemonSet default/agent")
    );
    assert_eq!(
        top.evidence
            .iter()
            .map(|e| e.line)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        3,
        "each row cited: {:?}",
        top.evidence
    );
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.rule != "container-crash-looping" || f.subject.kind != "Pod"),
        "{:?}",
        judged(&report)
    );
    assert!(
        top.summary.starts_with("3 Pods of DaemonSet default/agent"),
        "{}",
        top.summary
    );
}
