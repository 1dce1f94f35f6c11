//! A next step never repeats a command whose output is already in the investigation (issue 40,
//! item 2): neither one shown after a `$` prompt in a paste, nor one the app's "Paste its output"
//! added as an input named by the command. The deciding command neither.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, Report, Source};

fn steps(report: &Report) -> Vec<&str> {
    report
        .findings
        .iter()
        .flat_map(|f| &f.next_steps)
        .map(String::as_str)
        .collect()
}

/// Case 01 with its nodes table pasted without the prompt that names it: the diagnosis asks for
/// `kubectl get nodes -L storage-tier`. Its output added through "Paste its output" (an input named
/// by the command) answers the step, and so does a prompt that spells the command another way.
#[test]
fn a_step_whose_output_is_pasted_is_not_asked_for_again() {
    let dir = common::corpus().join("cases/01-exp1-unsatisfiable-node-label-describe");
    let describe = std::fs::read_to_string(dir.join("input.txt")).unwrap();
    let nodes = std::fs::read_to_string(dir.join("nodes.txt")).unwrap();
    let (prompt, table) = nodes.split_once('\n').unwrap();
    assert_eq!(prompt, "$ kubectl get nodes -L storage-tier");
    let step = "kubectl get nodes -L storage-tier";
    let with = |name: &str, text: String| {
        analyze(&[
            Source::new("input.txt", describe.as_str()),
            Source::new(name, text),
        ])
    };
    let report = with("nodes.txt", table.to_string());
    assert!(steps(&report).contains(&step), "{:?}", steps(&report));
    let report = with(step, table.to_string());
    assert!(!steps(&report).contains(&step), "{:?}", steps(&report));
    assert_eq!(report.diagnosis().unwrap().rule, "pod-unschedulable");
    for prompt in [
        "$ kubectl get no -L storage-tier",
        "user@bastion:~$ kubectl get nodes -o wide --label-columns storage-tier",
        "$ kubectl get nodes -L 'storage-tier'",
    ] {
        let report = with("nodes.txt", format!("{prompt}\n{table}"));
        assert!(!steps(&report).contains(&step), "{prompt}: {:?}", steps(&report));
    }
    // Another label's column is not this one.
    let report = with("nodes.txt", format!("$ kubectl get nodes -L zone\n{table}"));
    assert!(steps(&report).contains(&step), "{:?}", steps(&report));
}

/// A whole describe (from `Name:` to its `Events:`) is what `kubectl describe` prints, prompt or
/// not: case 09 pastes one without its command, and is not asked for it. Cut before its events, it
/// is a part, and the whole is asked for.
#[test]
fn a_whole_describe_is_its_command_a_part_is_not() {
    let sources =
        common::case_sources(&common::corpus().join("cases/09-crashloop-config-typo-exit1-describe"));
    let step = "kubectl describe pod event-router-69d8c7f5b6-t8wqz -n events-pipeline";
    let report = analyze(&sources);
    assert_eq!(report.diagnosis().unwrap().rule, "container-crash-looping");
    assert!(!steps(&report).contains(&step), "{:?}", steps(&report));
    let text = &sources[0].text;
    let head = &text[..text.find("\nEvents:").unwrap()];
    let report = analyze(&[Source::new("paste", head)]);
    assert!(steps(&report).contains(&step), "{:?}", steps(&report));
}

/// The deciding command of issue 39's pair (an OOM kill on a node under memory pressure) is the
/// node's describe. Pasted without a SystemOOM event in it, the question it asked is answered: the
/// report does not ask for it again, as the decider or as a step.
#[test]
fn the_deciding_command_is_never_one_already_pasted() {
    let dir = common::repo().join("tests/fixtures/differential");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let pod_and_node = Source::new(
        "oom-killed-on-node-under-memory-pressure.yaml",
        read("oom-killed-on-node-under-memory-pressure.yaml"),
    );
    let report = analyze(std::slice::from_ref(&pod_and_node));
    let command = report.decide.as_ref().unwrap().command.clone();
    assert_eq!(command, "kubectl describe node ip-10-0-3-17.ec2.internal");
    // The node's describe, its events without the kernel's OOM kill.
    let describe: String = read("oom-killed-node-describe-system-oom.txt")
        .lines()
        .skip(1)
        .filter(|l| !l.contains("SystemOOM"))
        .map(|l| format!("{l}\n"))
        .collect();
    let report = analyze(&[pod_and_node, Source::new(command.as_str(), describe)]);
    if let Some(decide) = &report.decide {
        assert_ne!(decide.command, command);
    }
    assert!(
        !steps(&report).contains(&command.as_str()),
        "{:?}",
        steps(&report)
    );
}
