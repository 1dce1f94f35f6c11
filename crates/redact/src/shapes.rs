//! Inputs of the shapes that once made the scan quadratic (issue 28), generated to about a given size:
//! for the benchmark (`examples/bench_redact.rs`) and for the tests that check their redaction.
//! Deterministic: the same size gives the same text.

/// A shape's generator: the text, of at least the size in bytes given.
pub type Generator = fn(usize) -> String;

/// Each shape's name and generator.
pub const ALL: [(&str, Generator); 9] = [
    ("pem-headers", pem_headers),
    ("base64-lines", base64_lines),
    ("base64url-run", base64url_run),
    ("short-secrets", short_secrets),
    ("env-secrets", env_secrets),
    ("json-secret-one-line", json_secret_one_line),
    ("flow-secret-one-line", flow_secret_one_line),
    ("last-applied-secret", last_applied_secret),
    ("unclosed-managed-fields", unclosed_managed_fields),
];

/// `-----BEGIN RSA PRIVATE KEY-----` lines, none ever ended.
pub fn pem_headers(size: usize) -> String {
    repeat_lines(size, |_| "-----BEGIN RSA PRIVATE KEY-----\n".to_string())
}

/// Lines of 76 base64 characters (`+` and `/` included), as in a PEM body or a pasted blob.
pub fn base64_lines(size: usize) -> String {
    let mut seed = 1u64;
    repeat_lines(size, |_| {
        let mut line: String = (0..76).map(|_| b64_char(&mut seed, false)).collect();
        line.push('\n');
        line
    })
}

/// One line of base64url (`-` and `_` included) with no break, as a long token.
pub fn base64url_run(size: usize) -> String {
    let mut seed = 7u64;
    let mut text: String = (0..size).map(|_| b64_char(&mut seed, true)).collect();
    text.push('\n');
    text
}

/// `password: VALUE` lines, each value different.
pub fn short_secrets(size: usize) -> String {
    repeat_lines(size, |i| format!("password: pw-{i:08}\n"))
}

/// An env list of secret-named variables, each value different.
pub fn env_secrets(size: usize) -> String {
    let mut text = String::from("env:\n");
    text.push_str(&repeat_lines(size, |i| {
        format!("- name: DB_PASSWORD\n  value: pw-{i:08}\n")
    }));
    text
}

/// A Secret printed as compact JSON: all of it on one line.
pub fn json_secret_one_line(size: usize) -> String {
    let mut text = String::from(r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"#);
    let mut i = 0;
    while text.len() < size {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#""k{i}":"dmFsdWUt{i:08}""#));
        i += 1;
    }
    text.push_str("}}\n");
    text
}

/// A Secret whose `data` is one flow map on one line.
pub fn flow_secret_one_line(size: usize) -> String {
    let mut text = String::from("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata: {");
    let mut i = 0;
    while text.len() < size {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(&format!("k{i}: dmFsdWUt{i:08}"));
        i += 1;
    }
    text.push_str("}\n");
    text
}

/// A Secret of many keys as `kubectl apply` leaves it: its data once in the
/// `last-applied-configuration` annotation (one line of JSON) and once under `data:`.
pub fn last_applied_secret(size: usize) -> String {
    let keys = size / 60;
    let json: Vec<String> = (0..keys).map(|i| format!(r#""k{i}":"dmFsdWUt{i:08}""#)).collect();
    let mut text = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  annotations:\n    \
         kubectl.kubernetes.io/last-applied-configuration: |\n      \
         {{\"apiVersion\":\"v1\",\"data\":{{{}}},\"kind\":\"Secret\",\"metadata\":{{\"name\":\"s\"}}}}\n  \
         name: s\ndata:\n",
        json.join(",")
    );
    for i in 0..keys {
        text.push_str(&format!("  k{i}: dmFsdWUt{i:08}\n"));
    }
    text
}

/// JSON `"managedFields": [` blocks that are never closed, each with a secret in it (a cut-off or
/// hostile paste: it is scanned, not stepped over).
pub fn unclosed_managed_fields(size: usize) -> String {
    repeat_lines(size, |i| {
        format!("\"managedFields\": [\n  {{\n  \"password\": \"pw-{i:08}\",\n")
    })
}

fn repeat_lines(size: usize, mut line: impl FnMut(usize) -> String) -> String {
    let mut text = String::with_capacity(size + 128);
    let mut i = 0;
    while text.len() < size {
        text.push_str(&line(i));
        i += 1;
    }
    text
}

/// A pseudo-random base64 (or base64url) character: a linear congruential generator, fixed seed.
fn b64_char(seed: &mut u64, url: bool) -> char {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let n = (*seed >> 58) as u8;
    match n {
        0..=25 => char::from(b'A' + n),
        26..=51 => char::from(b'a' + n - 26),
        52..=61 => char::from(b'0' + n - 52),
        62 if url => '-',
        62 => '+',
        _ if url => '_',
        _ => '/',
    }
}
