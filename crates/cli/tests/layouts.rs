//! The CLI reads folders as kubectl and troubleshoot lay them out, and standard input.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn layouts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/layouts")
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    let code = out.status.code().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (code, json)
}

fn check_dump(report: &Value, pods_source_suffix: &str, events_source_suffix: &str) {
    assert_eq!(report["errors"], serde_json::json!([]), "{:#}", report["errors"]);
    let finding = &report["findings"][0];
    assert_eq!(finding["rule"], "image-pull-failed");
    assert_eq!(finding["subject"]["name"], "web-6d8f7b9c4-q2w8x");
    let sources: Vec<&str> = finding["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"].as_str().unwrap())
        .collect();
    assert!(
        sources.iter().any(|s| s.ends_with(pods_source_suffix)),
        "{sources:?}"
    );
    assert!(
        sources.iter().any(|s| s.ends_with(events_source_suffix)),
        "the event from another file is cited: {sources:?}"
    );
    assert!(
        finding["summary"].as_str().unwrap().contains("does not exist"),
        "the event's registry answer is used"
    );
}

#[test]
fn a_cluster_info_dump_folder() {
    let dir = layouts().join("cluster-info-dump");
    let (code, report) = run(&["analyze", "--format", "json", dir.to_str().unwrap()], None);
    assert_eq!(code, 0);
    check_dump(&report, "shop/pods.json", "shop/events.json");
    let logs: Vec<&Value> = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["format"] == "container-log")
        .collect();
    assert_eq!(
        logs.len(),
        2,
        "both logs.txt files are listed as container logs, not errors"
    );
    assert_eq!(
        report["counts"],
        serde_json::json!({"Event": 1, "Node": 1, "Pod": 1})
    );
}

#[test]
fn a_support_bundle_folder() {
    let dir = layouts().join("support-bundle");
    let (code, report) = run(&["analyze", "--format", "json", dir.to_str().unwrap()], None);
    assert_eq!(code, 0);
    check_dump(
        &report,
        "cluster-resources/pods/shop.json",
        "cluster-resources/events/shop.json",
    );
    assert!(report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["format"] == "container-log"));
}

#[test]
fn a_cluster_info_dump_on_standard_input() {
    let text = std::fs::read_to_string(layouts().join("cluster-info-dump-stdout.txt")).unwrap();
    let (code, report) = run(&["analyze", "--format", "json", "-"], Some(&text));
    assert_eq!(code, 0);
    assert_eq!(report["inputs"][0]["source"], "stdin");
    assert_eq!(report["inputs"][0]["format"], "mixed");
    check_dump(&report, "stdin", "stdin");
}

#[test]
fn an_unreadable_path_exits_2() {
    let (code, _) = run(&["analyze", "/nonexistent/faultline/input.yaml"], None);
    assert_eq!(code, 2);
}
