use super::*;

fn kinds(text: &str, include_network: bool) -> Vec<(SecretKind, u32, String)> {
    let sources = [Source::new("t", text)];
    scan(&sources, &ScanOptions { include_network })
        .into_iter()
        .map(|h| (h.kind, h.line, text[h.start..h.end].to_string()))
        .collect()
}

#[test]
fn secret_keys_by_their_last_word() {
    for key in [
        "password",
        "DB_PASSWORD",
        "api-token",
        "clientSecret",
        "X-Api-Key",
        "AWS_SECRET_ACCESS_KEY",
        "client-key-data",
        "auth_token",
        "signingKey",
        "db.pwd",
        "PASS",
        "\"apiKEY\"",
        "mysql-root-password",
    ] {
        assert!(scan::is_secret_key(key), "{key}");
    }
    for key in [
        "token-ttl",
        "secretName",
        "secretKeyRef",
        "name",
        "kind",
        "tokenExpirationSeconds",
        "passwordSecretRef",
        "monkey",
        "keyboard",
        "key",
        "publicKey",
        "passthrough",
        "tokens",
        "",
    ] {
        assert!(!scan::is_secret_key(key), "{key}");
    }
}

#[test]
fn a_pem_key_in_a_json_string_and_a_cut_off_one_are_found() {
    let json = r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n", "type": "service_account"}"#;
    let found = kinds(json, false);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, SecretKind::PrivateKey);
    let cut = "key: |\n  -----BEGIN EC PRIVATE KEY-----\n  MHcCAQEEIBkg4LVWM9nuwNSkSX\n";
    let found = kinds(cut, false);
    assert!(
        found
            .iter()
            .any(|(k, _, v)| *k == SecretKind::PrivateKey && v.contains("MHcCAQEEIBkg4LVWM9nuwNSkSX")),
        "{found:?}"
    );
}

#[test]
fn a_redacted_block_scalar_keeps_its_lines_and_stays_yaml() {
    let text = "stringData:\n  password: |\n    line-one-secret\n    line-two-secret\nkind: Secret\n";
    let out = redact(&[Source::new("s.yaml", text)], &ScanOptions::default());
    assert_eq!(
        out.sources[0].text,
        "stringData:\n  password: |\n    <redacted:secret-data:1>\n    \nkind: Secret\n"
    );
}

#[test]
fn previews_mask_the_value() {
    assert_eq!(preview("hunter2"), "… (7 chars)");
    assert_eq!(preview("sk-bearer-0123456789"), "sk… (20 chars)");
    assert_eq!(preview("a\nb\nc"), "(3 lines)");
    let mut n = String::new();
    for k in [0, 7, 10, 1234567890] {
        push_number(&mut n, k);
        n.push(' ');
    }
    assert_eq!(n, "0 7 10 1234567890 ");
}

#[test]
fn hostile_text_is_scanned_without_panicking() {
    for text in [
        "-----BEGIN ",
        "-----BEGIN PRIVATE KEY-----",
        "eyJ",
        "Bearer ",
        "basic ====",
        "a://b:@",
        "x=",
        "\"k\":",
        "1.2.3.",
        "@",
        "é=é",
        "\\\"password\\\":\\\"",
    ] {
        let _ = redact(
            &[Source::new("t", text)],
            &ScanOptions {
                include_network: true,
            },
        );
    }
}

/// The text the scanners read: every line but kubectl's managedFields blocks, in order.
fn scanned(text: &str) -> String {
    scan::regions(text).into_iter().map(|r| &text[r]).collect()
}

const MANAGED_YAML: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:containers:
          k:{\"name\":\"app\"}:
            f:env:
              k:{\"name\":\"DB_PASSWORD\"}:
                f:password: {}
    manager: kubectl-client-side-apply
    operation: Update
  - apiVersion: v1
    manager: kubelet
  namespace: shop
spec:
  containers:
  - name: app
    env:
    - name: DB_PASSWORD
      value: hunter2-hunter2
";

#[test]
fn managed_fields_blocks_are_not_scanned_and_everything_else_is() {
    let scanned_yaml = scanned(MANAGED_YAML);
    assert!(!scanned_yaml.contains("managedFields") && !scanned_yaml.contains("manager:"));
    let expected: String = MANAGED_YAML
        .lines()
        .enumerate()
        .filter(|(i, _)| !(4..=17).contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert_eq!(scanned_yaml, expected);
    assert!(scanned_yaml.contains("  namespace: shop\n"));
    let found = kinds(MANAGED_YAML, false);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2.as_str()), (25, "hunter2-hunter2"));

    let json = "{\n    \"metadata\": {\n        \"managedFields\": [\n            {\n                \"apiVersion\": \"v1\",\n                \"manager\": \"kubectl\"\n            }\n        ],\n        \"name\": \"web\"\n    },\n    \"data\": {\"api-token\": \"tok-0123456789abcdef\"}\n}\n";
    let scanned_json = scanned(json);
    assert_eq!(
        scanned_json,
        "{\n    \"metadata\": {\n        \"name\": \"web\"\n    },\n    \"data\": {\"api-token\": \"tok-0123456789abcdef\"}\n}\n"
    );
    assert_eq!(kinds(json, false).len(), 1);
}

/// Only what has managedFields' shape is stepped over: a config file inside a ConfigMap that has a
/// `managedFields:` line of its own, a cut-off JSON block, and `managedFields: []` are all read.
#[test]
fn text_that_only_mentions_managed_fields_is_scanned() {
    let config =
        "kind: ConfigMap\ndata:\n  app.yaml: |\n    managedFields:\n      password: hunter2-hunter2\n";
    assert_eq!(scanned(config), config);
    assert_eq!(kinds(config, false).len(), 1);
    let cut =
        "{\n  \"managedFields\": [\n    {\n      \"manager\": \"x\", \"password\": \"hunter2-hunter2\"\n";
    assert_eq!(scanned(cut), cut);
    let empty = "metadata:\n  managedFields: []\n  annotations:\n    api-token: tok-0123456789abcdef\n";
    assert_eq!(scanned(empty), empty);
    assert_eq!(kinds(empty, false).len(), 1);
}

/// A long text is cut into regions of whole lines, none much longer than 64 KiB, that cover it.
#[test]
fn regions_are_whole_lines_that_cover_the_text() {
    let text = "  password: hunter2-hunter2\n  name: web\n".repeat(5_000);
    let regions = scan::regions(&text);
    assert!(regions.len() > 2, "{}", regions.len());
    assert_eq!(regions.first().map(|r| r.start), Some(0));
    assert!(regions.windows(2).all(|w| w[0].end == w[1].start));
    assert_eq!(regions.last().map(|r| r.end), Some(text.len()));
    assert!(regions
        .iter()
        .all(|r| text[..r.end].ends_with('\n') && r.len() < 64 * 1024 + 64));
    assert_eq!(kinds(&text, false).len(), 5_000);
}

/// The shapes that once made the scan quadratic (issue 28; timed by `examples/bench_redact.rs`) are
/// still redacted right: every value goes, every key and name stays, lines are kept, and the copy
/// reads as the original did.
#[test]
fn hostile_shapes_are_redacted_correctly() {
    let size = 40_000;
    let redacted = |text: &str| {
        let out = redact(&[Source::new("t", text)], &ScanOptions::default());
        let copy = out.sources[0].text.clone();
        assert_eq!(copy.lines().count(), text.lines().count());
        (copy, out.hits.len(), out.tokens)
    };

    let text = shapes::pem_headers(size);
    let (copy, hits, _) = redacted(&text);
    assert_eq!(hits, text.lines().count());
    assert!(
        copy.lines().all(|l| l == "<redacted:private-key:1>"),
        "{copy:.200}"
    );

    for text in [shapes::base64_lines(size), shapes::base64url_run(size)] {
        assert_eq!(
            redacted(&text),
            (text.clone(), 0, 0),
            "a blob is not a secret by itself"
        );
    }

    let text = shapes::short_secrets(size);
    let (copy, hits, tokens) = redacted(&text);
    assert_eq!((hits, tokens), (text.lines().count(), text.lines().count()));
    for (n, line) in copy.lines().enumerate() {
        assert_eq!(line, format!("password: <redacted:env-secret:{}>", n + 1));
    }

    let text = shapes::env_secrets(size);
    let (copy, hits, _) = redacted(&text);
    assert_eq!(hits * 2 + 1, text.lines().count());
    assert!(!copy.contains("pw-0"), "{copy:.200}");
    assert_eq!(
        copy.matches("- name: DB_PASSWORD\n  value: <redacted:env-secret:")
            .count(),
        hits
    );

    for text in [
        shapes::json_secret_one_line(size),
        shapes::flow_secret_one_line(size),
    ] {
        let (copy, hits, tokens) = redacted(&text);
        let keys = text.matches("dmFsdWUt").count();
        assert_eq!((hits, tokens), (keys, keys));
        assert!(!copy.contains("dmFsdWUt"), "{copy:.200}");
        let (before, after) = (
            faultline_ingest::ingest(&[Source::new("t", text.as_str())]),
            faultline_ingest::ingest(&[Source::new("t", copy.as_str())]),
        );
        assert!(after.errors.is_empty(), "{:?}", after.errors.first());
        let data = |i: &Ingested| -> Vec<String> {
            let secret = &i.objects[0].node;
            match secret.get("data").map(|d| &d.value) {
                Some(faultline_ingest::node::NodeValue::Map(entries)) => {
                    entries.iter().map(|e| e.key.to_string()).collect()
                }
                other => panic!("no data map: {other:?}"),
            }
        };
        assert_eq!(data(&after), data(&before));
        assert_eq!(data(&after).len(), keys);
    }

    let text = shapes::unclosed_managed_fields(size);
    let (copy, hits, _) = redacted(&text);
    assert_eq!(
        hits,
        text.matches("\"password\"").count(),
        "an unclosed block is scanned"
    );
    assert!(!copy.contains("pw-0"), "{copy:.200}");

    let text = shapes::last_applied_secret(size);
    let (copy, hits, tokens) = redacted(&text);
    let keys = text.matches("dmFsdWUt").count() / 2;
    assert_eq!(
        (hits, tokens),
        (2 * keys, keys),
        "each value twice, one token each"
    );
    assert!(!copy.contains("dmFsdWUt"), "{copy:.200}");
    let annotation = copy.lines().nth(5).unwrap_or_default().trim();
    let json: serde_json::Value = serde_json::from_str(annotation).unwrap_or_default();
    assert_eq!(
        json["data"]["k7"], "<redacted:annotation-secret:8>",
        "{annotation:.200}"
    );
    assert!(
        copy.contains("\n  k7: <redacted:annotation-secret:8>\n"),
        "the same token under data"
    );
}

/// A JSON managedFields block that is never closed is scanned, and remembered so that the next one
/// at its indentation is not read to the same place again; one after that place, closed, is still
/// stepped over.
#[test]
fn an_unclosed_managed_fields_block_is_scanned_and_a_later_closed_one_skipped() {
    let text = "{\n  \"a\": {\n    \"managedFields\": [\n      {\n  },\n  \"b\": {\n    \"managedFields\": [\n      {\n        \"manager\": \"x\"\n      }\n    ],\n    \"name\": \"web\"\n  }\n}\n";
    let scanned = scanned(text);
    assert!(
        scanned.starts_with("{\n  \"a\": {\n    \"managedFields\": [\n      {\n  },\n"),
        "{scanned}"
    );
    assert!(!scanned.contains("\"manager\""), "{scanned}");
    assert!(scanned.contains("\"name\": \"web\""), "{scanned}");
}

/// Issue 28: `secretKey` names a key of a Secret in an External Secrets Operator item and holds the
/// secret key itself in MinIO's values; the structure tells which. A parsed ExternalSecret says so
/// by its kind (even in flow style, where the line scanner reads `secretKey` as secret-named); a
/// fragment by the `remoteRef` beside it, before (kubectl sorts the keys) or after (a manifest).
#[test]
fn secret_key_is_a_name_only_where_the_structure_says_so() {
    assert!(scan::is_secret_key("secretKey") && scan::is_secret_key("accessKey"));
    let minio = "minio:\n  accessKey: \"minioadmin\"\n  secretKey: \"Zk3p9Qw7Lm2x\"\n  clientSecret: c1i3nt-s3cr3t-v4lu3\n";
    let found: Vec<String> = kinds(minio, false).into_iter().map(|(_, _, v)| v).collect();
    assert_eq!(found, ["minioadmin", "Zk3p9Qw7Lm2x", "c1i3nt-s3cr3t-v4lu3"]);
    for fragment in [
        "spec:\n  data:\n  - remoteRef:\n      key: prod/db\n      property: password\n    secretKey: db-password-v2\n",
        "  data:\n  - secretKey: db-password-v2\n    remoteRef:\n      key: shop/db\n",
        "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: db\nspec:\n  data:\n  - {secretKey: db-password-v2, remoteRef: {key: shop/db}}\n",
    ] {
        assert_eq!(kinds(fragment, false), vec![], "{fragment}");
    }
    // A chart's reference to a key of a Secret, by the `secretName` beside it (a real paste:
    // tests/fixtures/pastes/147).
    let consul = "  aclSyncToken:\n    secretName: consul-federation\n    secretKey: replicationToken\n";
    assert_eq!(kinds(consul, false), vec![], "{consul}");
    // Without a remoteRef beside it, the same line is a secret.
    let alone = "s3:\n  secretKey: db-password-v2\n  bucket: backups\n";
    assert_eq!(kinds(alone, false).len(), 1, "{alone}");
}

/// A double-quoted value over two lines, redacted, still reads as its token alone: the line break
/// left in its place is escaped (a bare one folds into a trailing space).
#[test]
fn a_redacted_folded_quoted_value_reads_as_its_token() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    env:\n    - name: API_TOKEN\n      value: \"abcdefgh12345678\n        ijklmnop87654321\"\n";
    let copy = redact(&[Source::new("p.yaml", text)], &ScanOptions::default());
    let redacted = &copy.sources[0].text;
    assert_eq!(redacted.lines().count(), text.lines().count());
    let ingested = faultline_ingest::ingest(&copy.sources);
    let value = ingested.objects[0]
        .node
        .locate("spec.containers[0].env[0].value")
        .and_then(|(_, n)| n.as_str().map(str::to_string));
    assert_eq!(value.as_deref(), Some("<redacted:env-secret:1>"), "{redacted}");
    // And redacting the copy changes nothing.
    assert_eq!(
        redact(&copy.sources, &ScanOptions::default()).sources,
        copy.sources
    );
}

/// An INI key indented with a tab is read like one indented with spaces.
#[test]
fn a_tab_indented_ini_pair_is_read() {
    let text = "[default]\n\taws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCY\n\tregion = eu-west-1\n";
    let found = kinds(text, false);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].2, "wJalrXUtnFEMIK7MDENGbPxRfiCY");
}

/// A one-word value after a secret-named key is not followed over the indented lines below it:
/// they are a stack trace, not the value folded.
#[test]
fn indented_lines_after_a_one_word_value_are_not_its_continuation() {
    let text = "config loaded:\n  password: hunter2-hunter2\n    at com.shop.Db.connect(Db.java:42)\n    at com.shop.Main.main(Main.java:7)\n";
    let found = kinds(text, false);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].2, "hunter2-hunter2");
    let copy = redact(&[Source::new("log", text)], &ScanOptions::default());
    assert!(copy.sources[0]
        .text
        .contains("    at com.shop.Db.connect(Db.java:42)\n    at com.shop.Main.main"));
}

/// Overlaps resolved rank by rank (with binary searches and merges) keep what the one ordered pass
/// over all candidates with a `BTreeMap` of those kept kept before: the same spans, of the same
/// kinds, for many random sets of candidates that overlap in every way (same start, same end, one
/// inside another, equal spans of two kinds of one rank).
#[test]
fn overlaps_are_resolved_as_by_one_ordered_pass() {
    fn one_pass(mut candidates: Vec<Span>) -> Vec<Span> {
        candidates.retain(|s| s.start < s.end);
        candidates.sort_unstable_by_key(|s| (s.start, s.end, rank(s.kind)));
        candidates.sort_by_key(|s| (rank(s.kind), s.start, usize::MAX - s.end));
        let mut kept: std::collections::BTreeMap<usize, (usize, SecretKind)> = Default::default();
        for span in candidates {
            let overlaps = kept
                .range(..span.end)
                .next_back()
                .is_some_and(|(_, &(end, _))| end > span.start);
            if !overlaps {
                kept.insert(span.start, (span.end, span.kind));
            }
        }
        kept.into_iter()
            .map(|(start, (end, kind))| Span {
                rule: None,
                kind,
                start,
                end,
            })
            .collect()
    }
    let mut seed = 12345u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for round in 0..2000 {
        let count = 1 + next(40) as usize;
        let width = 1 + next(if round % 2 == 0 { 30 } else { 300 });
        let candidates: Vec<Span> = (0..count)
            .map(|_| {
                let start = next(width) as usize;
                Span {
                    rule: None,
                    kind: SecretKind::ALL[next(SecretKind::ALL.len() as u64) as usize],
                    start,
                    end: start + next(12) as usize,
                }
            })
            .collect();
        assert_eq!(
            resolve_overlaps(candidates.clone()),
            one_pass(candidates),
            "round {round}"
        );
    }
}

/// A workload's Pod template is dropped from its tree once read: a secret in the template's `env`
/// is still found, from the text.
#[test]
fn a_secret_in_a_pruned_pod_template_is_still_found() {
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-7d4\n  namespace: shop\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n        - name: DB_PASSWORD\n          value: hunter2-hunter2\nstatus:\n  replicas: 1\n";
    let sources = [faultline_ingest::Source::new("rs.yaml", rs)];
    let got = faultline_ingest::ingest(&sources);
    assert_eq!(got.objects[0].locate("spec.template").map(|(p, _)| p.line), None);
    let hits = super::scan_ingested(&sources, &got, &Default::default());
    assert!(
        hits.iter().any(|h| h.input == 0 && h.line == 14),
        "the template's env value is still a secret: {hits:?}"
    );
}

/// Issue 42: a value once redacted is redacted, by the same token, from an input added later where
/// nothing else says it is a secret; a new value of the same kind gets the next number, after the
/// tokens the redacted copy already holds.
#[test]
fn a_known_value_is_redacted_from_an_input_added_later() {
    let first = [Source::new(
        "secret.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: bjBnM0ZyNHpQcTc=\n",
    )];
    let once = redact_known(
        &first,
        &faultline_ingest::ingest_trees(&first),
        &ScanOptions::default(),
        &Known::default(),
    );
    assert_eq!(once.known.len(), 1);
    // A plain redaction keeps no copy of the values.
    assert!(redact(&first, &ScanOptions::default()).known.is_empty());
    let mut inputs = once.sources.clone();
    // Added later: the value decoded in a log line, and a new secret.
    inputs.push(Source::new(
        "later.txt",
        "auth failed with n0g3Fr4zPq7 for app\nDB_PASSWORD=another-secret-1\n",
    ));
    // Without what the first redaction knew, the log line's value is not a secret.
    let blind = redact(&inputs, &ScanOptions::default());
    assert!(blind.sources[1].text.contains("n0g3Fr4zPq7"));
    let ingested = faultline_ingest::ingest_trees(&inputs);
    let hits = scan_known(&inputs, &ingested, &ScanOptions::default(), &once.known);
    assert!(hits.iter().any(|h| h.input == 1 && h.line == 1), "{hits:?}");
    let twice = redact_known(&inputs, &ingested, &ScanOptions::default(), &once.known);
    assert_eq!(
        twice.sources[1].text,
        "auth failed with <redacted:secret-data:1> for app\nDB_PASSWORD=<redacted:env-secret:1>\n"
    );
    assert_eq!(twice.sources[0].text, once.sources[0].text);
    assert_eq!(twice.known.len(), 2);
    // Numbering goes on after the tokens already in the inputs.
    let third = [
        twice.sources[1].clone(),
        Source::new("more.txt", "API_TOKEN=yet-another-secret\n"),
    ];
    let again = redact(&third, &ScanOptions::default());
    assert_eq!(again.sources[1].text, "API_TOKEN=<redacted:env-secret:2>\n");
}

/// A token names the rule of gitleaks' set that found it, not a class: a GitHub token is a
/// `github-pat`.
#[test]
fn a_token_is_named_by_its_rule() {
    let text = "git clone https://x:ghp_R8tY6uV4b7N1cD5eF0gHZk3p9Qw7Lm2xAq1W@github.com/shop/api\n";
    let hits = scan(&[Source::new("t", text)], &ScanOptions::default());
    let names: Vec<&str> = hits.iter().map(SecretHit::name).collect();
    assert!(names.contains(&"github-pat"), "{names:?}");
    assert!(hits
        .iter()
        .all(|h| h.kind != SecretKind::Token || h.rule.is_some()));
}

/// A value and its other form (the decoded value of a Secret's data, in a log line) are one token.
#[test]
fn a_value_and_its_decoded_form_share_a_token() {
    let text = "kind: Secret\nmetadata:\n  name: db\ndata:\n  password: bjBnM0ZyNHpQcTc=\n---\n# log\nauth failed with n0g3Fr4zPq7\n";
    let copy = redact(&[Source::new("t", text)], &ScanOptions::default());
    assert_eq!(copy.tokens, 1, "{}", copy.sources[0].text);
    assert_eq!(
        copy.sources[0].text.matches("<redacted:secret-data:1>").count(),
        2
    );
}
