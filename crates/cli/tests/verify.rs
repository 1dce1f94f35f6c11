//! `faultline verify`, run as a reviewer would: a report written by `faultline analyze --format
//! json`, then verified against the same files (status 0), a changed file (status 1), and a report
//! claiming another version (said; status 0 while the findings are the same).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn faultline(args: &[&str], dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

/// A folder of its own holding the image-pull sample's two files.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/samples/image-pull");
    for file in ["pod.yaml", "events.txt"] {
        std::fs::copy(samples.join(file), dir.join(file)).unwrap();
    }
    dir
}

fn write_report(dir: &Path) {
    let (status, json) = faultline(&["analyze", "--format", "json", "pod.yaml", "events.txt"], dir);
    assert_eq!(status, 0);
    std::fs::write(dir.join("report.json"), json).unwrap();
}

#[test]
fn the_same_inputs_verify_and_a_changed_one_does_not() {
    let dir = workdir("verify-same-changed");
    write_report(&dir);
    // The inputs named by the report, read from where it says.
    let (status, out) = faultline(&["verify", "report.json"], &dir);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("  same      pod.yaml (sha256 "), "{out}");
    assert!(
        out.ends_with("Verified: the report is reproduced from these inputs.\n"),
        "{out}"
    );
    let (status, _) = faultline(&["verify", "report.json", "pod.yaml", "events.txt"], &dir);
    assert_eq!(status, 0);
    // The Failed and BackOff rows gone: the input is another, and so are the findings' evidence.
    let events = std::fs::read_to_string(dir.join("events.txt")).unwrap();
    let kept: String = events
        .lines()
        .filter(|l| !l.contains("Failed") && !l.contains("BackOff"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("events.txt"), kept).unwrap();
    let (status, out) = faultline(&["verify", "report.json"], &dir);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("  changed   events.txt: sha256 "), "{out}");
    assert!(out.contains("Different findings"), "{out}");
    assert!(out.ends_with("Not verified.\n"), "{out}");
}

#[test]
fn another_engine_version_is_said() {
    let dir = workdir("verify-version");
    write_report(&dir);
    let mut report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    report["faultline_version"] = "0.0.9".into();
    std::fs::write(dir.join("report.json"), report.to_string()).unwrap();
    let (status, out) = faultline(&["verify", "report.json"], &dir);
    assert_eq!(status, 0, "{out}");
    assert!(
        out.starts_with("Made by Faultline 0.0.9; this is Faultline "),
        "{out}"
    );
    // What is not a report: status 2 and why.
    std::fs::write(dir.join("report.json"), "{\"findings\": [").unwrap();
    let (status, out) = faultline(&["verify", "report.json"], &dir);
    assert_eq!(status, 2);
    assert!(out.contains("report.json: not a JSON report"), "{out}");
}
