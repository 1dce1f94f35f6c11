//! Pasted text in the renderings stays text (issue 28): names, messages and values come from the
//! input, and a Pod name holding a newline, a backtick fence and `<img src=x onerror=…>` must not
//! end a code fence, become Markdown or HTML, or forge lines in a terminal.

use std::borrow::Cow;

/// Escapes text for HTML element content and attribute values.
pub(super) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The text on one line: every run of white space, line breaks included, one space.
pub(super) fn one_line(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Pasted text inside Markdown prose (a heading, a list item): control characters as escapes, on one line, so that it cannot start
/// a block of its own (a fence, a list, a heading, raw HTML), with a backslash before every
/// character that would turn it into inline markup, a link, an entity or HTML.
pub(super) fn md_text(value: &str) -> String {
    let value = one_line(&terminal(value));
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '&' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Pasted text as inline code, on one line, with a fence longer than any backtick run inside it.
pub(super) fn md_code(value: &str) -> String {
    let value = one_line(&terminal(value));
    if value.is_empty() {
        return "(empty)".to_string();
    }
    let fence = "`".repeat(longest_backtick_run(&value) + 1);
    format!("{fence} {value} {fence}")
}

/// [`md_code`] without the padding spaces unless the text needs them (it starts or ends with a
/// backtick): for names and field paths.
pub(super) fn md_name(value: &str) -> String {
    let value = one_line(&terminal(value));
    if value.is_empty() {
        return "(empty)".to_string();
    }
    let fence = "`".repeat(longest_backtick_run(&value) + 1);
    if value.starts_with('`') || value.ends_with('`') {
        format!("{fence} {value} {fence}")
    } else {
        format!("{fence}{value}{fence}")
    }
}

/// A fence for a Markdown code block holding `lines`: three backticks, or one more than the longest
/// run of backticks in them, so that no line can close it early.
pub(super) fn md_fence<'a>(lines: impl IntoIterator<Item = &'a String>) -> String {
    let longest = lines
        .into_iter()
        .map(|l| longest_backtick_run(l))
        .max()
        .unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

fn longest_backtick_run(value: &str) -> usize {
    value.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Whether a character would act on a terminal rather than show: control characters (line breaks,
/// escape sequences) and the bidirectional overrides that reorder what is shown.
fn is_unprintable(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Pasted text for the terminal, on its own line: each control character written as an escape
/// (`\n`, `\u{1b}`), so that a name cannot start a line of its own or send an escape sequence.
pub(super) fn terminal(value: &str) -> Cow<'_, str> {
    if !value.chars().any(is_unprintable) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        if is_unprintable(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A source line for the terminal, its columns kept (so the mark under a value stays under it): a
/// tab is a space, any other unprintable character `\u{FFFD}`.
pub(super) fn terminal_columns(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if is_unprintable(c) => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "web\n```\n<img src=x onerror=alert(1)>\n\u{1b}[31mred";

    #[test]
    fn markdown_text_and_code_stay_on_their_line_and_inert() {
        let text = md_text(HOSTILE);
        assert!(!text.contains('\n'), "{text}");
        assert!(!text.contains("``"), "{text}");
        assert!(text.contains("\\<img"), "{text}");
        assert_eq!(md_text("a & b ~~c~~"), "a \\& b \\~\\~c\\~\\~");
        let code = md_code("a ``` b `` c");
        assert_eq!(code, "```` a ``` b `` c ````");
        assert!(!md_code(HOSTILE).contains('\n'));
        assert_eq!(md_name("input.txt:27"), "`input.txt:27`");
        assert_eq!(md_name("a`b.yaml"), "``a`b.yaml``");
        assert_eq!(md_name("`x"), "`` `x ``");
        let steps = vec!["kubectl get pod 'web\n```\n<img>'".to_string()];
        assert_eq!(md_fence(&steps), "````");
        assert_eq!(md_fence(&["plain".to_string()]), "```");
    }

    #[test]
    fn terminal_text_shows_control_characters_as_escapes() {
        assert_eq!(terminal("web-1"), "web-1");
        assert_eq!(terminal("a\nb\u{1b}[31m\u{202E}c"), "a\\nb\\u{1b}[31m\\u{202e}c");
        assert_eq!(terminal_columns("a\tb\u{1b}c"), "a b\u{FFFD}c");
    }
}
