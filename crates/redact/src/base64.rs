//! Standard base64 (and base64url) both ways, for the forms a secret takes: a value redacted as
//! written is looked for decoded and encoded too.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64, padded.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes that the base64 (or base64url) `encoded` decodes to, up to its first byte that is
/// neither.
pub fn decode_prefix(encoded: &[u8]) -> Vec<u8> {
    let mut bits = 0u32;
    let mut nbits = 0;
    let mut decoded = Vec::with_capacity(encoded.len() / 4 * 3 + 2);
    for &b in encoded {
        let v = SEXTET[usize::from(b)];
        if v == NOT_BASE64 {
            break;
        }
        bits = (bits << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            decoded.push((bits >> nbits) as u8);
        }
    }
    decoded
}

const NOT_BASE64: u8 = 0xff;

/// Each byte's six bits in base64 or base64url (`+` and `-` are 62, `/` and `_` 63), or
/// [`NOT_BASE64`]: a table, one load a byte, where a `match` of ranges was most of decoding every
/// value of a Secret of many keys.
static SEXTET: [u8; 256] = {
    let mut table = [NOT_BASE64; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table[b'-' as usize] = 62;
    table[b'_' as usize] = 63;
    table
};

/// What `value` decodes to when it is standard base64 (padded to a multiple of four) of printable
/// text: `None` for anything else, so that ordinary words are not "decoded".
pub fn decode_text(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    if bytes.len() < 8 || bytes.len() % 4 != 0 {
        return None;
    }
    let body = value.trim_end_matches('=');
    if bytes.len() - body.len() > 2
        || !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    {
        return None;
    }
    let decoded = String::from_utf8(decode_prefix(body.as_bytes())).ok()?;
    decoded
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .then_some(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_and_decoding_agree() {
        for text in ["", "a", "ab", "abc", "hunter2-super-secret", "robot$shop+ci:pw"] {
            let encoded = encode(text.as_bytes());
            assert_eq!(decode_prefix(encoded.as_bytes()), text.as_bytes(), "{text}");
        }
        assert_eq!(encode(b"admin-user"), "YWRtaW4tdXNlcg==");
        assert_eq!(decode_text("YWRtaW4tdXNlcg==").as_deref(), Some("admin-user"));
        // Words are not base64 of text: wrong length, or bytes that are not text.
        assert_eq!(decode_text("password"), None);
        assert_eq!(decode_text("credentials1"), None);
        // base64url's two letters decode as standard base64's; anything else ends the prefix.
        assert_eq!(decode_prefix(b"-_-_"), decode_prefix(b"+/+/"));
        assert_eq!(decode_prefix(b"YWRt=aW4"), b"adm");
        assert_eq!(decode_prefix(b"YW\x80Rt"), decode_prefix(b"YW"));
    }
}
