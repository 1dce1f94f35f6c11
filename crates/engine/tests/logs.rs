//! Container logs from public threads (`tests/fixtures/ingest/logs/`, each thread in its README): each
//! is read into a log block whose terminal error is the pattern this table says (or none), with the
//! dependency the line names; every fixture of the folder is in the table, and every pattern family
//! of the table in `ingest/log_errors.rs` has a fixture.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::ingest::ingest;
use faultline_engine::ingest::log_errors::{Class, PATTERNS};
use faultline_engine::ingest::logs::LogOrigin;
use faultline_engine::Source;

/// (file, pattern id of the terminal error or none, the terminal line, the dependency named).
const EXPECT: &[(&str, Option<&str>, u32, Option<&str>)] = &[
    ("go-panic-logbridge.txt", Some("go-panic"), 2, None),
    (
        "python-keyerror-logengine.log",
        Some("python-key-error"),
        10,
        Some("LINK"),
    ),
    (
        "java-caused-by-keycloak-previous.txt",
        Some("postgres-password-failed"),
        1,
        Some("keycloak"),
    ),
    ("java-oom-tarpitan.log", Some("java-out-of-memory"), 2, None),
    (
        "node-econnrefused-web-k8s-exec.log",
        Some("node-econnrefused"),
        7,
        Some("127.0.0.1:6443"),
    ),
    (
        "node-enotfound-expanse.log",
        Some("node-enotfound"),
        6,
        Some("undefined"),
    ),
    (
        "node-heap-oom-addons-frontend.log",
        Some("node-heap-out-of-memory"),
        1,
        None,
    ),
    ("rust-panic-rudr.log", Some("rust-panic"), 1, None),
    ("exec-format-jitsi.txt", Some("exec-format-error"), 5, None),
    (
        "address-in-use-traefik.log",
        Some("address-in-use"),
        1,
        Some(":8080"),
    ),
    ("refused-kubeshare.txt", Some("connection-refused"), 8, None),
    (
        "timeout-rook-operator.txt",
        Some("io-timeout"),
        10,
        Some("10.96.0.1:443"),
    ),
    (
        "timeout-deis-example-php.log",
        Some("io-timeout"),
        2,
        Some("10.3.0.177:9000"),
    ),
    (
        "dns-no-such-host-logging-deployer.log",
        Some("go-no-such-host"),
        1,
        Some("kubernetes.default.svc.cluster.local"),
    ),
    (
        "dns-curl-could-not-resolve-php-messenger.log",
        Some("curl-could-not-resolve"),
        6,
        Some("rabbit"),
    ),
    (
        "dns-name-or-service-not-known-click.log",
        Some("name-or-service-not-known"),
        1,
        None,
    ),
    ("x509-expired-df-pv.log", Some("x509-expired"), 1, None),
    (
        "x509-unknown-authority-k3s-logs.txt",
        Some("x509-unknown-authority"),
        15,
        Some("10.43.0.1:443"),
    ),
    (
        "mysql-cannot-connect-informer.log",
        Some("mysql-cannot-connect"),
        1,
        Some("db:3307"),
    ),
    (
        "postgres-password-failed-minio.log",
        Some("postgres-password-failed"),
        1,
        Some("postgres"),
    ),
    (
        "permission-denied-docker-sock.log",
        Some("permission-denied"),
        1,
        Some("/var/run/docker.sock"),
    ),
    ("no-such-file-odf-operator.log", Some("no-such-file"), 1, None),
    (
        "python-environ-keyerror-wochenende.log",
        Some("python-key-error"),
        6,
        Some("WOCHENENDE_DIR"),
    ),
    (
        "postgres-connection-refused-rails-pg-adapter.log",
        Some("postgres-connection-failed"),
        1,
        Some("10.1.209.231"),
    ),
    ("quiet-postgres-auth-then-restart-minio.log", None, 0, None),
    ("quiet-bitnami-postgres-started.txt", None, 0, None),
    ("quiet-info-exception-molgenis.log", None, 0, None),
];

fn dir() -> std::path::PathBuf {
    common::repo().join("tests/fixtures/ingest/logs")
}

#[test]
fn every_fixture_ends_with_the_terminal_error_its_thread_shows() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    let mut listed: Vec<String> = EXPECT.iter().map(|e| e.0.to_string()).collect();
    listed.sort();
    assert_eq!(
        names, listed,
        "every fixture has an expectation, and every expectation a fixture"
    );
    for (name, pattern, line, dependency) in EXPECT {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        let got = ingest(&[Source::new(*name, text)]);
        assert_eq!(got.logs.len(), 1, "{name}: one log block, got {:?}", got.logs);
        let block = &got.logs[0];
        let terminal = block.terminal.as_ref();
        assert_eq!(terminal.map(|t| t.pattern), *pattern, "{name}: {terminal:?}");
        if let Some(t) = terminal {
            assert_eq!(t.line.0, *line, "{name}: {t:?}");
            assert_eq!(
                t.dependency.as_ref().map(|(_, d)| d.as_str()),
                *dependency,
                "{name}"
            );
        }
        assert!(block.last.is_some(), "{name}: its last line is kept");
    }
}

/// Every entry of the table that is a cause, and every runtime's form, fires on some fixture.
#[test]
fn every_pattern_family_has_a_real_paste() {
    let mut fired = Vec::new();
    let mut forms = Vec::new();
    for (name, ..) in EXPECT {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        let got = ingest(&[Source::new(*name, text)]);
        for t in got.logs.iter().filter_map(|b| b.terminal.as_ref()) {
            fired.push(t.cause);
            forms.push(t.form);
        }
    }
    for p in PATTERNS {
        match p.class {
            Class::Cause(c) => assert!(fired.contains(&Some(c)), "no fixture for {:?} ({})", c, p.id),
            Class::Form(f) => assert!(forms.contains(&Some(f)), "no fixture for {:?} ({})", f, p.id),
        }
    }
}

/// Every single pattern of the table (not only its family) is on a line of some fixture: at the
/// start of the line after its indentation, or anywhere with ASCII case ignored, as it is matched.
#[test]
fn every_pattern_is_on_a_line_of_a_real_paste() {
    use faultline_engine::ingest::log_errors::At;
    let texts: Vec<String> = EXPECT
        .iter()
        .map(|(name, ..)| std::fs::read_to_string(dir().join(name)).unwrap())
        .collect();
    for p in PATTERNS {
        let needle = p.needle.to_ascii_lowercase();
        let found = texts.iter().flat_map(|t| t.lines()).any(|line| match p.at {
            At::Start => line.trim_start().starts_with(p.needle),
            At::Anywhere => line.to_ascii_lowercase().contains(&needle),
        });
        assert!(found, "no fixture line for pattern {} ({:?})", p.id, p.needle);
    }
}

/// How each block was tied to its Pod: the prompt's command, the file's name, or its shape alone.
#[test]
fn blocks_name_their_pod_as_the_paste_does() {
    let read = |name: &str| {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        ingest(&[Source::new(name, text)]).logs.remove(0)
    };
    let rook = read("timeout-rook-operator.txt");
    assert_eq!(rook.origin, LogOrigin::Command);
    assert_eq!(rook.name.as_deref(), Some("rook-ceph-operator-cdc686667-jt96x"));
    assert_eq!(rook.namespace.as_deref(), Some("rook-ceph-system"));
    let keycloak = read("java-caused-by-keycloak-previous.txt");
    assert_eq!((keycloak.origin, keycloak.previous), (LogOrigin::FileName, true));
    assert_eq!(keycloak.name.as_deref(), Some("java-caused-by-keycloak"));
    let kubeshare = read("refused-kubeshare.txt");
    assert_eq!(
        (kubeshare.origin, kubeshare.name.as_deref()),
        (LogOrigin::Shape, None)
    );
}

/// A crash-looping Pod in kubectl's YAML, for the tests below (composed; `NAME` and `NS` replaced).
const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: NAME\n  namespace: NS\nspec:\n  containers:\n  - name: app\n    image: example/app:1\nstatus:\n  phase: Running\n  containerStatuses:\n  - name: app\n    image: example/app:1\n    imageID: x\n    ready: false\n    restartCount: 4\n    state:\n      waiting:\n        reason: CrashLoopBackOff\n    lastState:\n      terminated:\n        exitCode: 1\n        reason: Error\n";

fn pod(name: &str, ns: &str) -> String {
    POD.replace("NAME", name).replace("NS", ns)
}

fn crash(report: &faultline_engine::Report) -> &faultline_engine::Finding {
    report
        .findings
        .iter()
        .find(|f| f.rule == "container-crash-looping")
        .expect("the crash is reported")
}

/// A log pasted without its command beside the only Pod: taken as that Pod's, and the finding says
/// that this is inferred. With a second Pod in the input, it is nobody's.
#[test]
fn a_log_that_names_no_pod_is_the_only_pods_and_says_so() {
    // The fenced log alone (the thread's inline `kubectl logs` line before it is prose).
    let log = std::fs::read_to_string(dir().join("refused-kubeshare.txt")).unwrap();
    let log = &log[log.find("```").unwrap()..];
    let text = format!("{}{log}", pod("pod3", "default"));
    let report = faultline_engine::analyze(&[Source::new("paste", text.clone())]);
    let finding = crash(&report);
    let cited = finding
        .evidence
        .iter()
        .find(|e| e.path.contains("recognised by its shape"))
        .expect("the log's terminal line is cited");
    assert_eq!(
        cited.value,
        "2020-06-22 09:16:06.221937 Gemini E/ Connection error: Connection refused"
    );
    assert_eq!(
        text.lines().nth(cited.line as usize - 1),
        Some(cited.value.as_str())
    );
    assert!(
        finding.summary.contains("a refused connection"),
        "{}",
        finding.summary
    );
    assert!(
        finding
            .cannot_establish
            .iter()
            .any(|c| c.contains("only Pod in the input")),
        "{:?}",
        finding.cannot_establish
    );
    let two = format!("{}---\n{}{log}", pod("pod3", "default"), pod("pod4", "default"));
    let report = faultline_engine::analyze(&[Source::new("paste", two)]);
    for f in report
        .findings
        .iter()
        .filter(|f| f.rule == "container-crash-looping")
    {
        assert!(
            f.evidence.iter().all(|e| !e.path.contains("log")),
            "{:?}",
            f.evidence
        );
    }
}

/// A `kubectl cluster-info dump` log block names its namespace, Pod and container: the crash of that
/// container cites it, another Pod's crash does not.
#[test]
fn a_dump_log_block_is_evidence_for_its_own_container() {
    let panic = std::fs::read_to_string(dir().join("rust-panic-rudr.log")).unwrap();
    let text = format!(
        "{}---\n{}==== START logs for container app of pod shop/web-1 ====\n{panic}==== END logs for container app of pod shop/web-1 ====\n",
        pod("web-1", "shop"),
        pod("web-2", "shop")
    );
    let report = faultline_engine::analyze(&[Source::new("dump.txt", text)]);
    let crashes: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "container-crash-looping")
        .collect();
    assert_eq!(crashes.len(), 2);
    for f in crashes {
        let cites = f
            .evidence
            .iter()
            .any(|e| e.path == "log of pod/web-1 container app: terminal error");
        assert_eq!(cites, f.subject.name == "web-1", "{:?}", f.evidence);
        if f.subject.name == "web-1" {
            assert!(f.summary.contains("a Rust panic"), "{}", f.summary);
        }
    }
}
