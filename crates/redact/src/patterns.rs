//! Secrets recognisable by their own shape, wherever they are: PEM private keys, JWTs, bearer and
//! basic credentials, cloud keys with a known prefix, and passwords in URLs. Each scanner is one linear pass: where a
//! candidate fails, the bytes it read are not read again for a candidate that starts inside them.

use std::ops::Range;

use super::scan::{is_b64, is_b64url, push, run};
use super::{tokens, SecretKind, Span};
use faultline_report::hash::Map;

/// The bytes of a word for [`patterns`] (ASCII letters, digits, `_`), as a table: every byte of the
/// text is tested, and one load is cheaper than the three range tests of `is_ascii_alphanumeric`.
pub(super) static WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

/// PEM private key blocks, markers included (a PEM line inside a JSON string has `\n` escapes).
pub(super) fn private_keys(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    // Where each `-----END <label>-----` is, by label, found in one pass: looking for a block's end
    // marker from its start was a search to the end of the text for every block never ended (a
    // paste of PEM header lines: quadratic).
    let mut ends: Map<&str, Vec<usize>> = Map::default();
    for found in memchr::memmem::find_iter(bytes, b"-----END ") {
        let label_start = found + "-----END ".len();
        if let Some(label) = pem_label(text, label_start) {
            ends.entry(label).or_default().push(label_start + label.len() + 5);
        }
    }
    let mut from = 0;
    let begin = memchr::memmem::Finder::new(b"-----BEGIN ");
    while let Some(found) = begin.find(&bytes[from..]) {
        let start = from + found;
        let label_start = start + "-----BEGIN ".len();
        from = label_start;
        let Some(label) = pem_label(text, label_start) else {
            continue;
        };
        from = label_start + label.len() + 5;
        // `RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`, ... and OpenPGP's `PGP PRIVATE KEY BLOCK`.
        if !(label.ends_with("PRIVATE KEY") || label.ends_with("PRIVATE KEY BLOCK")) {
            continue;
        }
        // The first end marker of this label after the begin marker.
        let end_marker = ends.get(label).and_then(|ends| {
            let i = ends.partition_point(|&e| e - label.len() - "-----END -----".len() < from);
            ends.get(i).copied()
        });
        let end = match end_marker {
            Some(end) => end,
            // Cut off: the base64 lines that follow.
            None => {
                let mut end = from;
                while end < bytes.len() {
                    match pem_body_line_end(bytes, end) {
                        Some(line_end) => end = line_end,
                        None => break,
                    }
                }
                text[..end].trim_end().len().max(from)
            }
        };
        out.push(Span {
            rule: None,
            kind: SecretKind::PrivateKey,
            start,
            end,
        });
        from = end;
    }
}

/// A PEM private key encoded in base64 once more (`LS0tLS1CRUdJTi` is `-----BEGIN`), as a Secret's
/// `tls.key` is, wherever it is (a ConfigMap, a Helm values file, an env value): the whole run of
/// base64, when its first bytes decode to a private key's BEGIN marker. A certificate stays.
pub(super) fn encoded_private_keys(text: &str, region: Range<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let finder = memchr::memmem::Finder::new(b"LS0tLS1CRUdJTi");
    let mut from = region.start;
    while let Some(found) = bytes.get(from..region.end).and_then(|t| finder.find(t)) {
        let start = from + found;
        let end = run(bytes, start, is_b64);
        from = end;
        if start > 0 && is_b64(bytes[start - 1]) {
            continue;
        }
        let head = super::base64::decode_prefix(&bytes[start..end.min(start + 80)]);
        let marker = head.strip_prefix(b"-----BEGIN ".as_slice()).unwrap_or_default();
        let label_end = memchr::memmem::find(marker, b"-----").unwrap_or(marker.len());
        if marker[..label_end].ends_with(b"PRIVATE KEY")
            || marker[..label_end].ends_with(b"PRIVATE KEY BLOCK")
        {
            out.push(Span {
                rule: None,
                kind: SecretKind::PrivateKey,
                start,
                end,
            });
        }
    }
}

/// When the line starting at `at` is (empty or) base64, `\n` escapes and white space aside: the start
/// of the next line. Read only up to its first other byte: a line of JSON holding many cut-off keys
/// is not read to its end once per key.
fn pem_body_line_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => return Some(i + 1),
            b'\\' if bytes.get(i + 1) == Some(&b'n') => i += 2,
            b if is_b64(b) || b.is_ascii_whitespace() => i += 1,
            _ => return None,
        }
    }
    Some(i)
}

/// The label of a PEM marker whose label starts at `at` (`RSA PRIVATE KEY` of
/// `-----BEGIN RSA PRIVATE KEY-----`): at most 40 bytes on one line, closed by `-----`.
fn pem_label(text: &str, at: usize) -> Option<&str> {
    let window = &text.as_bytes()[at..text.len().min(at + 45)];
    // At most 45 bytes: compared in place, no substring search set up for each marker.
    let len = window.windows(5).position(|w| w == b"-----")?;
    let label = text.get(at..at + len)?;
    (len <= 40 && !label.contains('\n')).then_some(label)
}

/// JWTs, bearer and basic credentials, and cloud keys with a known prefix.
pub(super) fn patterns(text: &str, region: Range<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let word = |c: u8| WORD[usize::from(c)];
    let mut i = region.start;
    // A JWT's parts are runs of base64url, which goes on past the end of a word (`-`): where one
    // failed to start, none that starts later in the same run can succeed (its parts end where the
    // failed one's did, and are shorter), so the run is not read again for each word in it.
    let mut no_jwt_before = 0;
    while i < region.end {
        let b = bytes[i];
        if !word(b) {
            i = run(bytes, i + 1, |c| !word(c));
            continue;
        }
        // Patterns start only at a word's start, and every one with one of these letters: any other
        // word, and the rest of a word, is stepped over whole (no position inside it is a start).
        let at_word_start = i == 0 || !word(bytes[i - 1]);
        if !at_word_start || !(matches!(b, b'e' | b'b' | b'B') || tokens::BY_FIRST_BYTE[usize::from(b)] != 0)
        {
            i = run(bytes, i + 1, word);
            continue;
        }
        let rest = &bytes[i..];
        if b == b'e' && i >= no_jwt_before {
            match jwt_at(bytes, i) {
                Ok(end) => {
                    out.push(Span {
                        rule: None,
                        kind: SecretKind::Jwt,
                        start: i,
                        end,
                    });
                    i = end;
                    continue;
                }
                Err(checked_to) => no_jwt_before = checked_to,
            }
        }
        if rest.len() > 7 && rest[..7].eq_ignore_ascii_case(b"bearer ") {
            let start = run(bytes, i + 7, |b| b == b' ');
            let end = run(bytes, start, |b| {
                is_b64url(b) || matches!(b, b'.' | b'~' | b'+' | b'/' | b'=')
            });
            if end - start >= 8 {
                push(out, SecretKind::BearerToken, start, end, text);
                i = end;
                continue;
            }
        }
        if rest.len() > 6 && rest[..6].eq_ignore_ascii_case(b"basic ") {
            let start = run(bytes, i + 6, |b| b == b' ');
            let end = run(bytes, start, is_b64);
            if end - start >= 8 && decodes_to_user_password(&text[start..end]) {
                push(out, SecretKind::BasicAuth, start, end, text);
                i = end;
                continue;
            }
        }
        if let Some((id, start, end)) = tokens::token_at(bytes, i) {
            out.push(Span {
                rule: Some(id),
                kind: SecretKind::Token,
                start,
                end,
            });
            i = end;
            continue;
        }
        i += 1;
    }
}

/// `eyJ<header>.<payload>.<signature>`, the first two parts at least 10 characters: where it ends,
/// or, when there is none at `i`, how far no JWT can start (the end of the base64url run read).
fn jwt_at(bytes: &[u8], i: usize) -> Result<usize, usize> {
    if !bytes[i..].starts_with(b"eyJ") {
        return Err(i + 1);
    }
    let header_end = run(bytes, i, is_b64url);
    if header_end - i < 10 || bytes.get(header_end) != Some(&b'.') {
        return Err(header_end);
    }
    let payload_end = run(bytes, header_end + 1, is_b64url);
    if payload_end - header_end - 1 < 10 || bytes.get(payload_end) != Some(&b'.') {
        return Err(header_end);
    }
    Ok(run(bytes, payload_end + 1, is_b64url))
}

/// Basic auth is base64 of `user:password`: decoding tells it from an ordinary word after "basic".
pub(super) fn decodes_to_user_password(b64: &str) -> bool {
    let body = b64.split('=').next().unwrap_or_default();
    if !body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    {
        return false;
    }
    let decoded = super::base64::decode_prefix(body.as_bytes());
    decoded.contains(&b':') && decoded.iter().all(|b| b.is_ascii_graphic() || *b == b' ')
}

/// `scheme://user:password@host`: the password. Database schemes make it a connection string.
pub(super) fn url_credentials(text: &str, region: Range<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut from = region.start;
    // `memmem`, not `str::find`: the general substring search goes byte by byte in wasm. One finder
    // for the region, not one set up for every URL.
    let separator = memchr::memmem::Finder::new(b"://");
    while let Some(found) = bytes.get(from..region.end).and_then(|t| separator.find(t)) {
        let sep = from + found;
        from = sep + 3;
        let scheme_start = {
            let mut s = sep;
            while s > 0
                && (bytes[s - 1].is_ascii_alphanumeric() || matches!(bytes[s - 1], b'+' | b'.' | b'-'))
            {
                s -= 1;
            }
            s
        };
        let scheme = text[scheme_start..sep].to_ascii_lowercase();
        let authority_end = run(bytes, from, |b| {
            !(b.is_ascii_whitespace()
                || matches!(
                    b,
                    b'/' | b'?' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`' | b')' | b']'
                ))
        });
        let authority = &text[from..authority_end];
        let Some(at) = authority.rfind('@') else { continue };
        let Some(colon) = authority[..at].find(':') else {
            continue;
        };
        let kind = if matches!(
            scheme.as_str(),
            "postgres"
                | "postgresql"
                | "mysql"
                | "mariadb"
                | "mongodb"
                | "mongodb+srv"
                | "redis"
                | "rediss"
                | "amqp"
                | "amqps"
                | "jdbc:postgresql"
                | "jdbc:mysql"
                | "sqlserver"
                | "clickhouse"
                | "nats"
                | "kafka"
        ) {
            SecretKind::ConnectionString
        } else {
            SecretKind::UrlCredential
        };
        push(out, kind, from + colon + 1, from + at, text);
        from = authority_end.max(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_credentials_are_found_at_either_end_of_a_region() {
        let text = "a: postgres://app:s3cret-pw@db:5432/x\nb: https://u:p4ss-word@h/\n";
        let mut out = Vec::new();
        url_credentials(text, 0..text.len(), &mut out);
        let found: Vec<&str> = out.iter().map(|s| &text[s.start..s.end]).collect();
        assert_eq!(found, ["s3cret-pw", "p4ss-word"]);
        // A region that ends inside the second URL's scheme separator does not see it.
        let second = text.rfind("://").unwrap_or_default();
        let mut out = Vec::new();
        url_credentials(text, 0..second + 1, &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn the_word_table_is_the_word_test() {
        for b in 0..=u8::MAX {
            assert_eq!(
                WORD[usize::from(b)],
                b.is_ascii_alphanumeric() || b == b'_',
                "{b}"
            );
        }
    }
}
