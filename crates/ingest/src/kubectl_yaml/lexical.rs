//! What the reader asks of a line's characters: indicators, `: `, plain-scalar rules, quoted
//! scalars on one line and their escapes, line folding.

use crate::node::Text;

pub(super) enum Chomp {
    Clip,
    Strip,
    Keep,
}

pub(super) fn lone_carriage_return(text: &str) -> bool {
    memchr::memchr_iter(b'\r', text.as_bytes()).any(|at| text.as_bytes().get(at + 1) != Some(&b'\n'))
}

/// Whether `text` holds a U+FEFF anywhere. Looked for by its first byte: `str::contains` with a
/// non-ASCII char goes through the general substring search, which in wasm (then without SIMD) took
/// about 7 % of reading a YAML dump.
pub(super) fn has_byte_order_mark(text: &str) -> bool {
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let bytes = text.as_bytes();
    memchr::memchr_iter(BOM[0], bytes).any(|at| bytes[at..].starts_with(BOM))
}

/// A sequence entry: `-` followed by a space or the end of the line.
pub(super) fn is_entry(body: &str) -> bool {
    body == "-" || body.starts_with("- ")
}

/// Text that cannot start a plain scalar here, or that this reader leaves to the general parser.
pub(super) fn starts_with_indicator(text: &str) -> bool {
    let Some(&first) = text.as_bytes().first() else {
        return true;
    };
    match first {
        b'[' | b']' | b'{' | b'}' | b',' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%'
        | b'@' | b'`' | b'\t' => true,
        b'-' | b'?' | b':' => text.len() == 1 || text.as_bytes()[1] == b' ',
        _ => false,
    }
}

/// A line of a plain scalar this reader can take as it is: no comment, no `key: value` inside, no
/// tab (which YAML treats specially around line breaks), no trailing colon.
pub(super) fn plain_line_ok(text: &str) -> bool {
    let bytes = text.trim_end_matches(' ').as_bytes();
    let mut previous = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        let bad = match b {
            b'\t' => true,
            b'#' => previous == b' ',
            b':' => bytes.get(i + 1).is_none_or(|next| *next == b' '),
            _ => false,
        };
        if bad {
            return false;
        }
        previous = b;
    }
    true
}

/// The first `: ` in a line: where a plain key ends.
pub(super) fn colon_space(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|b| *b == b':') {
        let at = from + found;
        if bytes.get(at + 1) == Some(&b' ') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

pub(super) fn push_fold(out: &mut Text, breaks: usize) {
    if breaks == 0 {
        out.push(' ');
    } else {
        for _ in 0..breaks {
            out.push('\n');
        }
    }
}

/// A quoted scalar that closes on its line: its text and its length in bytes, quotes included.
pub(super) fn single_line_quoted(text: &str) -> Option<(Text, usize)> {
    let bytes = text.as_bytes();
    let quote = bytes[0];
    let mut out = Text::default();
    let mut i = 1;
    while i < bytes.len() {
        let b = bytes[i];
        if b == quote {
            if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            return Some((out, i + 1));
        }
        if quote == b'"' && b == b'\\' {
            let (c, len) = escape(&text[i + 1..])?;
            out.push(c);
            i += 1 + len;
            continue;
        }
        let run = bytes[i..]
            .iter()
            .position(|&c| c == quote || (quote == b'"' && c == b'\\'))
            .map_or(bytes.len(), |p| i + p);
        out.push_str(&text[i..run]);
        i = run;
    }
    None
}

/// A double-quoted escape after its backslash: the character and the length of the escape.
pub(super) fn escape(text: &str) -> Option<(char, usize)> {
    let c = match *text.as_bytes().first()? {
        b'0' => '\0',
        b'a' => '\u{7}',
        b'b' => '\u{8}',
        b't' | b'\t' => '\t',
        b'n' => '\n',
        b'v' => '\u{b}',
        b'f' => '\u{c}',
        b'r' => '\r',
        b'e' => '\u{1b}',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex(text, 2),
        b'u' => return hex(text, 4),
        b'U' => return hex(text, 8),
        _ => return None,
    };
    Some((c, 1))
}

pub(super) fn hex(text: &str, digits: usize) -> Option<(char, usize)> {
    let code = text.get(1..1 + digits)?;
    if !code.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(code, 16).ok()?)?;
    Some((c, 1 + digits))
}
