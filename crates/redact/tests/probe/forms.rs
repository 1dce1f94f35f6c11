//! The four forms in which a value must not survive, written here rather than taken from the
//! engine so that the check does not share the engine's mistakes.

/// Standard base64 with padding.
pub fn base64_encode(bytes: &[u8]) -> String {
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

/// What standard base64 `text` decodes to, when it is base64 of UTF-8 text.
pub fn base64_decode(text: &str) -> Option<String> {
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

/// The forms of `value`: itself, its base64, its decoding (when it is base64 of text of 8 bytes
/// or more), and every 12-character piece that is not also part of a name that stays.
pub fn forms(value: &str, names: &[String]) -> Vec<String> {
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

/// The forms of `value` still in `text`.
pub fn survivors(value: &str, text: &str, names: &[String]) -> Vec<String> {
    forms(value, names)
        .into_iter()
        .filter(|f| text.contains(f.as_str()))
        .collect()
}
