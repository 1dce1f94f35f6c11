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
