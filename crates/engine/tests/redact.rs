//! Secret detection and redaction: a known secret of every kind, seeded into realistic inputs (YAML,
//! JSON, describe text, curl output), is found with its kind and line and does not survive
//! redaction; near misses stay quiet; and the redacted copy of every corpus case gives the same
//! diagnosis as the original.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::redact::{redact, scan, ScanOptions, SecretKind};
use faultline_engine::{analyze, analyze_for_scan, ingest, Options, Report, Source};

fn fixture(name: &str) -> Source {
    let path = common::repo().join("tests/fixtures/redact").join(name);
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

const SEEDED: [&str; 6] = [
    "secrets.yaml",
    "deployment.yaml",
    "kubeconfig.yaml",
    "describe.txt",
    "curl.txt",
    "pod.json",
];

/// (input, kind, line, the secret as it appears there), from `tests/fixtures/redact/expected.json`
/// (the browser tests seed the same secrets). Network kinds are found only with `include_network`.
fn expected() -> Vec<(String, SecretKind, u32, String)> {
    let path = common::repo().join("tests/fixtures/redact/expected.json");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    rows.iter()
        .map(|row| {
            let kind = SecretKind::ALL
                .into_iter()
                .find(|k| k.id() == row["kind"].as_str().unwrap())
                .unwrap();
            (
                row["input"].as_str().unwrap().to_string(),
                kind,
                row["line"].as_u64().unwrap() as u32,
                row["secret"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn seeded() -> Vec<Source> {
    SEEDED.iter().map(|n| fixture(n)).collect()
}

#[test]
fn every_seeded_secret_is_found_with_its_kind_and_line() {
    for include_network in [false, true] {
        let sources = seeded();
        let hits = scan(&sources, &ScanOptions { include_network });
        for (input, kind, line, secret) in &expected() {
            let index = SEEDED.iter().position(|n| n == input).unwrap();
            let text = &sources[index].text;
            let found = hits.iter().any(|h| {
                h.input == index
                    && h.kind == *kind
                    && h.line == *line
                    && text[h.start..h.end].contains(secret)
            });
            assert_eq!(
                found,
                include_network || !kind.is_network(),
                "{input}:{line} {} {secret} (network {include_network}); hits there: {:?}",
                kind.id(),
                hits.iter()
                    .filter(|h| h.input == index && h.line == *line)
                    .map(|h| (h.kind.id(), &text[h.start..h.end]))
                    .collect::<Vec<_>>()
            );
        }
        // Every kind is exercised.
        for kind in SecretKind::ALL {
            assert!(
                !include_network || expected().iter().any(|(_, k, _, _)| *k == kind),
                "no seeded secret of kind {}",
                kind.id()
            );
        }
        // Previews never show the secret.
        for hit in &hits {
            let value = &sources[hit.input].text[hit.start..hit.end];
            assert!(!hit.preview.contains(value), "{:?}", hit);
        }
    }
}

#[test]
fn no_seeded_secret_survives_redaction_and_tokens_are_deterministic() {
    for include_network in [false, true] {
        let options = ScanOptions { include_network };
        let sources = seeded();
        let redacted = redact(&sources, &options);
        for (input, kind, line, secret) in &expected() {
            if kind.is_network() && !include_network {
                continue;
            }
            for source in &redacted.sources {
                assert!(
                    !source.text.contains(secret.as_str()),
                    "{input}:{line} {secret} survives in {}:\n{}",
                    source.name,
                    source.text
                );
            }
        }
        // Redacting is done in one pass: the copy has nothing left to find.
        assert_eq!(scan(&redacted.sources, &options), vec![]);
        // The same inputs give the same copy; the same value gets the same token everywhere.
        assert_eq!(redact(&sources, &options), redacted);
        let secrets = &redacted.sources[0].text;
        let token = "<redacted:secret-data:1>";
        assert_eq!(
            secrets.matches(token).count(),
            2,
            "data and last-applied share a token:\n{secrets}"
        );
        // Line counts are kept, so evidence lines stay where they were.
        for (before, after) in sources.iter().zip(&redacted.sources) {
            assert_eq!(
                before.text.lines().count(),
                after.text.lines().count(),
                "{}",
                before.name
            );
            assert_eq!(before.name, after.name);
        }
        // The copy still reads: no input error that the original did not have. (It may have fewer:
        // a PEM key pasted after `cat` starts with `---` and reads as a broken YAML document.)
        let errors = |s: &[Source]| {
            ingest::ingest(s)
                .errors
                .into_iter()
                .map(|e| (e.source, e.line))
                .collect::<Vec<_>>()
        };
        let before = errors(&sources);
        for error in errors(&redacted.sources) {
            assert!(before.contains(&error), "new error {error:?}");
        }
        // Only values are replaced: keys stay.
        assert!(redacted.sources[1]
            .text
            .contains("- name: DB_PASSWORD\n          value: <redacted:env-secret:"));
        assert!(redacted.sources[2]
            .text
            .contains("    client-key-data: <redacted:kubeconfig-credential:1>"));
    }
}

#[test]
fn the_last_applied_annotation_stays_valid_json_after_redaction() {
    let redacted = redact(&[fixture("secrets.yaml")], &ScanOptions::default());
    let ingested = ingest::ingest(&redacted.sources);
    let secret = &ingested.objects[0].node;
    let annotation = secret
        .locate("metadata.annotations.kubectl.kubernetes.io/last-applied-configuration")
        .map(|(_, n)| n.as_str().unwrap().to_string())
        .or_else(|| {
            let meta = secret.get("metadata").unwrap();
            let annotations = meta.get("annotations").unwrap();
            annotations
                .get("kubectl.kubernetes.io/last-applied-configuration")
                .and_then(|n| n.as_str())
                .map(str::to_string)
        })
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(&annotation).unwrap();
    assert_eq!(json["data"]["password"], "<redacted:secret-data:1>");
    assert_eq!(json["metadata"]["name"], "db-creds");
}

#[test]
fn near_misses_are_not_flagged() {
    for name in ["quiet.yaml", "quiet-describe.txt"] {
        let source = fixture(name);
        let hits = scan(std::slice::from_ref(&source), &ScanOptions::default());
        let found: Vec<_> = hits
            .iter()
            .map(|h| (h.kind.id(), h.line, &source.text[h.start..h.end]))
            .collect();
        assert_eq!(found, vec![], "{name}");
        let redacted = redact(std::slice::from_ref(&source), &ScanOptions::default());
        assert_eq!(redacted.sources[0].text, source.text);
    }
}

fn diagnosis(report: &Report) -> Vec<(String, &'static str, String)> {
    report
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.boundary.id(), f.subject.to_string()))
        .collect()
}

#[test]
fn the_redacted_copy_of_every_corpus_case_gives_the_same_diagnosis() {
    let corpus = common::corpus();
    let mut cases = 0;
    for group in ["cases", "real/troubleshoot"] {
        let mut dirs: Vec<_> = std::fs::read_dir(corpus.join(group))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("expect.json").is_file())
            .collect();
        dirs.sort();
        for dir in dirs {
            cases += 1;
            let sources = common::case_sources(&dir);
            let original = analyze(&sources);
            let redacted = redact(&sources, &ScanOptions::default());
            // The analysis's own reading redacts alike (issue 26: one ingest, shared).
            let (report, reading) = analyze_for_scan(&sources, &Options::default(), &mut |_| {});
            assert_eq!(report, original, "{}", dir.display());
            assert_eq!(
                reading.redact(&sources, &ScanOptions::default()),
                redacted,
                "{}",
                dir.display()
            );
            let report = analyze(&redacted.sources);
            assert_eq!(diagnosis(&report), diagnosis(&original), "{}", dir.display());
            assert_eq!(report.errors.len(), original.errors.len(), "{}", dir.display());
            // With addresses redacted too, a subject named by its address (`Cluster 10.40.0.10:6443`)
            // is named by the address's token; everything else is the same.
            let options = ScanOptions {
                include_network: true,
            };
            let redacted = redact(&sources, &options);
            assert_eq!(scan(&redacted.sources, &options), vec![], "{}", dir.display());
            let report = analyze(&redacted.sources);
            assert_eq!(
                report.findings.len(),
                original.findings.len(),
                "{}",
                dir.display()
            );
            for (after, before) in report.findings.iter().zip(&original.findings) {
                assert_eq!(
                    (&after.rule, after.boundary),
                    (&before.rule, before.boundary),
                    "{}",
                    dir.display()
                );
                assert!(
                    after.subject == before.subject || after.subject.to_string().contains("<redacted:"),
                    "{}: {} vs {}",
                    dir.display(),
                    after.subject,
                    before.subject
                );
            }
        }
    }
    assert!(cases >= 20, "the whole corpus: {cases}");
}

/// Inputs (format and counts), objects, event rows, errors (input, line, column).
type Reading = (Vec<String>, Vec<String>, usize, Vec<(String, u32, u32)>);

/// What ingest read of some inputs, for comparing an input with its redacted copy: each input's
/// format and counts, every object's identity and position, the event rows, and where each error is.
/// With `names` false, objects are compared by kind and line only: with addresses redacted too, a
/// Node named by its address is named by the address's token.
fn reading(sources: &[Source], names: bool) -> Reading {
    let ingested = ingest::ingest(sources);
    let inputs = ingested
        .inputs
        .iter()
        .map(|i| format!("{} {} {} {:?}", i.format, i.documents, i.objects, i.kinds))
        .collect();
    let objects = ingested
        .objects
        .iter()
        .map(|o| match names {
            true => format!("{} {} line {}", o.source, o.id, o.node.pos.line),
            false => format!("{} {} line {}", o.source, o.id.kind, o.node.pos.line),
        })
        .collect();
    let errors = ingested
        .errors
        .iter()
        .map(|e| (e.source.clone(), e.line, e.column))
        .collect();
    (inputs, objects, ingested.table_events.len(), errors)
}

/// The redacted copy parses as the original did, for every input of the shared corpus (cases, real
/// captures, pastes from the wild) and every secret fixture, read alone and, for a case, with the case's other inputs: the
/// same documents, the same objects (kind, namespace, name) at the same lines, and the same errors
/// at the same places. Issue 28: a flow map lost its tail and the Secret dropped out.
#[test]
fn the_redacted_copy_of_every_corpus_input_reads_as_the_original() {
    let seeded = common::repo().join("tests/fixtures/redact");
    let secrets = common::repo().join("tests/fixtures/secrets");
    let files = common::input_files(|p| {
        (p.starts_with(common::corpus()) || p.starts_with(&seeded) || p.starts_with(&secrets))
            && !p
                .file_name()
                .is_some_and(|n| n == "expect.json" || n == "expected.json" || n == "README.md")
    });
    assert!(files.len() > 70, "the whole corpus: {}", files.len());
    let mut redacted_somewhere = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let sources = [Source::new(path.display().to_string(), text)];
        for include_network in [false, true] {
            let copy = redact(&sources, &ScanOptions { include_network });
            if copy.tokens > 0 {
                redacted_somewhere += 1;
            }
            assert_eq!(
                reading(&copy.sources, !include_network),
                reading(&sources, !include_network),
                "{} (network: {include_network})",
                path.display()
            );
        }
    }
    assert!(redacted_somewhere > 10, "{redacted_somewhere}");
    for group in ["cases", "wild"] {
        for dir in std::fs::read_dir(common::corpus().join(group)).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            let sources = common::case_sources(&dir);
            let copy = redact(&sources, &ScanOptions::default());
            assert_eq!(
                reading(&copy.sources, true),
                reading(&sources, true),
                "{}",
                dir.display()
            );
        }
    }
}

/// `redact` reads only the objects' trees (not events, messages, logs or typed objects, which no
/// finder reads): it finds and replaces exactly what a redaction of the analysis's own reading does,
/// for every input of the shared corpus, every secret fixture and every hostile shape, alone and
/// (for a case) with the case's other inputs.
#[test]
fn redacting_from_its_own_reading_is_redacting_from_the_analysis() {
    let seeded = common::repo().join("tests/fixtures/redact");
    let secrets = common::repo().join("tests/fixtures/secrets");
    let files = common::input_files(|p| {
        p.starts_with(common::corpus()) || p.starts_with(&seeded) || p.starts_with(&secrets)
    });
    let mut inputs = common::alone(&files);
    assert!(inputs.len() > 70, "the whole corpus: {}", inputs.len());
    inputs.extend(common::by_case());
    for (name, make) in faultline_engine::redact::shapes::ALL {
        inputs.push(vec![Source::new(name, make(20_000))]);
    }
    let mut found = 0;
    for sources in &inputs {
        let (_, analysis) = analyze_for_scan(sources, &Options::default(), &mut |_| {});
        for include_network in [false, true] {
            let options = ScanOptions { include_network };
            let own = redact(sources, &options);
            assert_eq!(own, analysis.redact(sources, &options), "{}", sources[0].name);
            found += own.hits.len();
        }
    }
    assert!(found > 1000, "{found}");
}

/// Issue 28's example: a Secret's `data` as a flow map. Each value becomes its token, the commas and
/// the brace stay, and the copy still reads as a Secret with both keys.
#[test]
fn a_flow_map_secret_keeps_its_commas_and_brace() {
    let text = "apiVersion: v1\nkind: Secret\nmetadata: {name: app, namespace: shop}\n\
                data: {config: Zmxvdy1zdHlsZS1jb25maWc=, other: b3RoZXItc2VjcmV0LXZhbHVl}\n";
    let sources = [Source::new("secret.yaml", text)];
    let copy = redact(&sources, &ScanOptions::default());
    assert_eq!(
        copy.sources[0].text,
        "apiVersion: v1\nkind: Secret\nmetadata: {name: app, namespace: shop}\n\
         data: {config: <redacted:secret-data:1>, other: <redacted:secret-data:2>}\n"
    );
    assert_eq!(reading(&copy.sources, true), reading(&sources, true));
    // The same in a multi-line flow map, and in JSON on one line.
    for text in [
        "kind: Secret\nmetadata: {name: app}\ndata: {config: Zmxvdy1zdHlsZS1jb25maWc=,\n  other: b3RoZXItc2VjcmV0LXZhbHVl}\n",
        "{\"kind\":\"Secret\",\"metadata\":{\"name\":\"app\"},\"data\":{\"config\":\"Zmxvdy1zdHlsZS1jb25maWc=\",\"other\":\"b3RoZXItc2VjcmV0LXZhbHVl\"}}\n",
    ] {
        let sources = [Source::new("secret", text)];
        let copy = redact(&sources, &ScanOptions::default());
        assert_eq!(copy.tokens, 2, "{}", copy.sources[0].text);
        assert!(!copy.sources[0].text.contains("Zmxv"), "{}", copy.sources[0].text);
        assert_eq!(reading(&copy.sources, true), reading(&sources, true), "{text}");
        assert_eq!(ingest::ingest(&copy.sources).objects.len(), 1);
    }
}

/// One paste of the secrets corpus (`tests/fixtures/secrets/expect.json`): the values that must go,
/// the names that must stay.
struct SecretCase {
    file: String,
    note: String,
    go: Vec<String>,
    stay: Vec<String>,
}

fn secret_cases() -> Vec<SecretCase> {
    let dir = common::repo().join("tests/fixtures/secrets");
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    rows.iter()
        .map(|row| {
            assert!(
                row["source"].as_str().is_some_and(|s| !s.is_empty()),
                "{row}: each kind says where its shape is documented"
            );
            SecretCase {
                file: row["file"].as_str().unwrap().to_string(),
                note: row["note"].as_str().unwrap().to_string(),
                go: strings(&row["go"]),
                stay: strings(&row["stay"]),
            }
        })
        .collect()
}

/// Standard base64 with padding, written here rather than taken from the engine so that the check
/// does not share the engine's mistakes.
fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<String> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for b in text.trim_end_matches('=').bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = bits << 6 | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    String::from_utf8(out).ok()
}

/// Every form in which a value must not survive: itself, its base64, its decoding when it is base64,
/// and every 12-character piece of it (a partial keep is a leak) that is not also part of a name that
/// stays (a certificate beside a key starts with the same `-----BEGIN `).
fn forms(value: &str, names: &[String]) -> Vec<String> {
    let mut out = vec![value.to_string(), base64_encode(value.as_bytes())];
    if let Some(decoded) = base64_decode(value).filter(|d| d.len() >= 8) {
        out.push(decoded);
    }
    let chars: Vec<char> = value.chars().collect();
    for piece in chars.windows(12) {
        let piece: String = piece.iter().collect();
        if piece.trim() == piece && !names.iter().any(|n| n.contains(piece.as_str())) {
            out.push(piece);
        }
    }
    out
}

/// `text` without its redaction tokens.
fn without_tokens(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("<redacted:") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('>').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// What a diagnosis says, for comparing it before and after redaction: each finding's rule,
/// boundary and subject, and the field paths of its evidence.
fn diagnosis_with_evidence(report: &Report) -> Vec<(String, &'static str, String, Vec<String>)> {
    report
        .findings
        .iter()
        .map(|f| {
            (
                f.rule.clone(),
                f.boundary.id(),
                f.subject.to_string(),
                f.evidence.iter().map(|e| e.path.clone()).collect(),
            )
        })
        .collect()
}

/// Issue 28's secrets corpus: a realistic paste per kind of secret. Every form of every value that
/// must go is gone; every name that must stay is still there as often as before; the copy reads as
/// the original; redacting the copy changes nothing; and the diagnosis is the same.
#[test]
fn every_secret_of_the_secrets_corpus_is_redacted_and_every_name_kept() {
    let cases = secret_cases();
    assert!(cases.len() >= 30, "{}", cases.len());
    let dir = common::repo().join("tests/fixtures/secrets");
    let mut failures = Vec::new();
    let mut clean = 0;
    for case in &cases {
        let text = std::fs::read_to_string(dir.join(&case.file)).unwrap();
        let sources = [Source::new(case.file.as_str(), text.as_str())];
        let copy = redact(&sources, &ScanOptions::default());
        let redacted = &copy.sources[0].text;
        assert!(!case.go.is_empty() && !case.stay.is_empty(), "{}", case.file);
        let mut problems = Vec::new();
        for value in &case.go {
            assert!(
                text.contains(value.as_str()),
                "{}: {value} is not in the paste",
                case.file
            );
            if let Some(form) = forms(value, &case.stay)
                .into_iter()
                .find(|f| redacted.contains(f.as_str()))
            {
                problems.push(format!("{form:?} of {value:?} survives"));
            }
        }
        // A token is named after the rule that found it (`<redacted:sendgrid-api-token:1>`): names
        // are counted outside the tokens.
        let outside_tokens = without_tokens(redacted);
        for name in &case.stay {
            let (before, after) = (
                text.matches(name.as_str()).count(),
                outside_tokens.matches(name.as_str()).count(),
            );
            assert!(before > 0, "{}: {name} is not in the paste", case.file);
            if after != before {
                problems.push(format!("the name {name:?} is kept {after} of {before} times"));
            }
        }
        if reading(&copy.sources, true) != reading(&sources, true) {
            problems.push("the copy does not read as the original".to_string());
        }
        if text.lines().count() != redacted.lines().count() {
            problems.push("the copy has another line count".to_string());
        }
        if redact(&copy.sources, &ScanOptions::default()).sources != copy.sources {
            problems.push("redacting the copy changes it".to_string());
        }
        if diagnosis_with_evidence(&analyze(&copy.sources)) != diagnosis_with_evidence(&analyze(&sources)) {
            problems.push("the diagnosis changes".to_string());
        }
        if problems.is_empty() {
            clean += 1;
        }
        for problem in problems {
            failures.push(format!("{} ({}): {problem}", case.file, case.note));
        }
    }
    assert!(
        failures.is_empty(),
        "{clean} of {} pastes fully redacted; {} problems:\n{}\n{}",
        cases.len(),
        failures.len(),
        failures.join("\n"),
        ""
    );
}

/// The name that is the fix survives: the Pod waits for a key `password` that the Secret lacks, and
/// the diagnosis of the redacted copy still names it.
#[test]
fn the_missing_key_is_still_named_after_redaction() {
    let dir = common::repo().join("tests/fixtures/secrets");
    let text = std::fs::read_to_string(dir.join("names-external-secret.yaml")).unwrap();
    let copy = redact(
        &[Source::new("names-external-secret.yaml", text)],
        &ScanOptions::default(),
    );
    let report = analyze(&copy.sources);
    let finding = report
        .findings
        .iter()
        .find(|f| f.rule == "container-config-invalid")
        .expect("the missing key is found");
    assert!(
        finding
            .evidence
            .iter()
            .any(|e| e.value.contains("couldn't find key password")),
        "{:?}",
        finding.evidence
    );
}
