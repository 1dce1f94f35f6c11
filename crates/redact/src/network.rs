//! Opt-in ([`super::ScanOptions::include_network`]): IP addresses, e-mail addresses and host names
//! in internal domains. Often the evidence itself, so found only when asked for.

use super::scan::run;
use super::{SecretKind, Span};

pub(super) fn ip_addresses(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit()
            || (i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'.' | b'_')))
        {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i;
        let mut octets = 0;
        let mut ok = true;
        while octets < 4 {
            let end = run(bytes, j, |b| b.is_ascii_digit());
            let len = end - j;
            if len == 0 || len > 3 || text[j..end].parse::<u16>().map_or(true, |v| v > 255) {
                ok = false;
                break;
            }
            octets += 1;
            j = end;
            if octets < 4 {
                if bytes.get(j) != Some(&b'.') {
                    ok = false;
                    break;
                }
                j += 1;
            }
        }
        let followed = bytes.get(j).is_some_and(|b| b.is_ascii_alphanumeric())
            || (bytes.get(j) == Some(&b'.') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit));
        if ok && !followed && !matches!(&text[start..j], "0.0.0.0" | "255.255.255.255") {
            out.push(Span {
                rule: None,
                kind: SecretKind::IpAddress,
                start,
                end: j,
            });
            i = j;
        } else {
            i = run(bytes, i, |b| b.is_ascii_digit() || b == b'.');
        }
    }
}

pub(super) fn emails(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let local_ok = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut from = 0;
    while let Some(found) = text[from..].find('@') {
        let at = from + found;
        from = at + 1;
        let mut start = at;
        while start > 0 && local_ok(bytes[start - 1]) {
            start -= 1;
        }
        if start == at || (start > 0 && matches!(bytes[start - 1], b':' | b'/')) {
            continue;
        }
        let end = run(bytes, at + 1, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
        });
        let domain = text[at + 1..end].trim_end_matches('.');
        let Some(dot) = domain.rfind('.') else { continue };
        let tld = &domain[dot + 1..];
        if tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic()) {
            out.push(Span {
                rule: None,
                kind: SecretKind::Email,
                start,
                end: at + 1 + domain.len(),
            });
        }
    }
}

pub(super) fn internal_hostnames(text: &str, out: &mut Vec<Span>) {
    const SUFFIXES: [&str; 11] = [
        ".internal",
        ".local",
        ".localdomain",
        ".lan",
        ".corp",
        ".intranet",
        ".intra",
        ".home.arpa",
        ".svc",
        ".private",
        ".cluster.local",
    ];
    let bytes = text.as_bytes();
    let host = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-');
    let mut i = 0;
    while i < bytes.len() {
        if !host(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i = run(bytes, i, host);
        if start > 0 && matches!(bytes[start - 1], b'@' | b'_') {
            continue;
        }
        let word = text[start..i].trim_end_matches(['.', '-']);
        let lower = word.to_ascii_lowercase();
        if let Some(suffix) = SUFFIXES.iter().find(|s| lower.ends_with(**s)) {
            let name = &lower[..lower.len() - suffix.len()];
            if !name.is_empty()
                && !name.starts_with('.')
                && !name.ends_with('.')
                && name.bytes().any(|b| b.is_ascii_alphabetic())
            {
                out.push(Span {
                    rule: None,
                    kind: SecretKind::InternalHostname,
                    start,
                    end: start + word.len(),
                });
            }
        }
    }
}
