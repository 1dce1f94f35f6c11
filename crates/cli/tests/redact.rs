//! `faultline redact`: the redacted copy of files and standard input, and what was replaced.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/redact")
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn standard_input_is_printed_redacted_and_the_replacements_listed_without_values() {
    let text =
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: aHVudGVyMi1odW50ZXIy\n";
    let (code, stdout, stderr) = run(&["redact"], Some(text));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        text.replace("aHVudGVyMi1odW50ZXIy", "<redacted:secret-data:1>")
    );
    assert!(stderr.contains("stdin:6:13 secret-data"), "{stderr}");
    assert!(
        !stderr.contains("aHVudGVy"),
        "the value is never printed: {stderr}"
    );
}

#[test]
fn several_files_go_to_a_folder_with_tokens_shared_across_them() {
    let dir = std::env::temp_dir().join(format!("faultline-redact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let a = fixtures().join("describe.txt");
    let b = fixtures().join("curl.txt");
    let (code, _, stderr) = run(
        &[
            "redact",
            "--include-network",
            "--out",
            dir.to_str().unwrap(),
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let name = |p: &PathBuf| {
        let relative: PathBuf = p
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        std::fs::read_to_string(dir.join(relative)).unwrap()
    };
    let (describe, curl) = (name(&a), name(&b));
    // The pod IP appears in both inputs: one token for both.
    assert!(
        describe.contains("IP:               <redacted:ip-address:2>"),
        "{describe}"
    );
    assert!(
        curl.contains("client <redacted:ip-address:2> connected"),
        "{curl}"
    );
    assert!(!curl.contains("sk-bearer-0123456789abcdef"));
    // Several inputs without --out is refused rather than mixed on one stream.
    let (code, _, stderr) = run(&["redact", a.to_str().unwrap(), b.to_str().unwrap()], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("--out"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_only_lists() {
    let path = fixtures().join("kubeconfig.yaml");
    let (code, stdout, _) = run(&["redact", "--list", path.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let kinds: Vec<&str> = stdout.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(kinds, ["kubeconfig-credential"; 3]);
    assert!(stdout.lines().all(|l| l.contains("kubeconfig.yaml:")));
}
