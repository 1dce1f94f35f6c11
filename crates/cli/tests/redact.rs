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

/// Pseudo-random bytes (a fixed linear congruential generator): with NUL bytes, or, with `no_nul`,
/// only bytes that are never valid UTF-8 on their own.
fn random_bytes(len: usize, no_nul: bool) -> Vec<u8> {
    let mut seed = 42u64;
    (0..len)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = (seed >> 56) as u8;
            if no_nul {
                b | 0x80
            } else {
                b
            }
        })
        .collect()
}

/// Issue 28: `redact random.bin` exited 0 and wrote a rewritten "copy" twice the file's size. A
/// binary input is refused as the app refuses it (the engine's one check and words), nothing is
/// written, not even the copies of the text inputs beside it; `analyze` says the same.
#[test]
fn a_binary_file_is_refused_and_no_copy_is_written() {
    let dir = std::env::temp_dir().join(format!("faultline-binary-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let text = fixtures().join("describe.txt");
    for (name, no_nul) in [("random.bin", false), ("latin.bin", true)] {
        let bin = dir.join(name);
        std::fs::write(&bin, random_bytes(256 * 1024, no_nul)).unwrap();
        let bin = bin.to_str().unwrap();
        let (code, stdout, stderr) = run(&["redact", bin], None);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stdout.is_empty(),
            "no copy on standard output: {} bytes",
            stdout.len()
        );
        assert!(stderr.contains("looks like a binary file"), "{stderr}");
        assert!(stderr.contains("no copy was written"), "{stderr}");
        let (code, _, stderr) = run(
            &[
                "redact",
                "--out",
                out.to_str().unwrap(),
                text.to_str().unwrap(),
                bin,
            ],
            None,
        );
        assert_eq!(code, 2, "{stderr}");
        assert!(!out.exists(), "nothing written under --out");
        let (code, _, stderr) = run(&["redact", "--list", bin], None);
        assert_eq!(code, 2, "{stderr}");
        let (_, stdout, stderr) = run(&["analyze", "--format", "json", bin], None);
        let report: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        let message = report["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(message.contains("looks like a binary file"), "{message}");
        assert!(!message.contains("not a format Faultline reads"), "{message}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
