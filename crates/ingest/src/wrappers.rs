//! What a paste carries around kubectl's output, taken off line by line before reading: e-mail and
//! chat quoting (`> `, nested), the box borders of a k9s copy (`│ … │`), and terminal colour codes.
//! The copy keeps every line where it was (one line of the copy for each line of the input), so
//! evidence still cites the user's own line numbers; only columns move.
//!
//! Most inputs carry none of these: the check is one pass of byte searches, and then no copy is made.

/// The input without its wrapping, or `None` when it has none.
pub fn unwrap(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    // One pass for the three bytes that can start a wrapper (a dump has almost none of them), then
    // the line-by-line copy checks each line for each wrapper.
    let wrapped = memchr::memchr3_iter(b'>', 0x1b, 0xE2, bytes).any(|at| match bytes[at] {
        b'>' => at == 0 || bytes[at - 1] == b'\n',
        0x1b => true,
        _ => bytes[at..].starts_with("│".as_bytes()),
    });
    if !wrapped {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for raw in text.split_inclusive('\n') {
        let (line, end) = match raw.strip_suffix('\n') {
            Some(line) => (line, "\n"),
            None => (raw, ""),
        };
        let (line, cr) = match line.strip_suffix('\r') {
            Some(line) => (line, "\r"),
            None => (line, ""),
        };
        let uncoloured;
        let line = if line.contains('\x1b') {
            uncoloured = strip_ansi(line);
            uncoloured.as_str()
        } else {
            line
        };
        out.push_str(unbox(unquote(line)));
        out.push_str(cr);
        out.push_str(end);
    }
    Some(out)
}

/// The input without the spaces a terminal or chat client padded every line with, or `None` when
/// some line with text ends without a space (kubectl ends no line with one). Only the padding
/// common to every such line goes: the spaces of a run a hard wrap broke at stay beyond it, so a
/// wrapped table row still joins with its cells under their columns. Lines stay where they were.
pub fn unpad(text: &str) -> Option<String> {
    let mut pad = usize::MAX;
    let mut padded = 0;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let spaces = line.len() - line.trim_end_matches(' ').len();
        if spaces == 0 {
            return None;
        }
        pad = pad.min(spaces);
        padded += 1;
    }
    if padded < 2 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for raw in text.split_inclusive('\n') {
        let (line, end) = match raw.strip_suffix('\n') {
            Some(line) => (line, "\n"),
            None => (raw, ""),
        };
        let (line, cr) = match line.strip_suffix('\r') {
            Some(line) => (line, "\r"),
            None => (line, ""),
        };
        if line.trim().is_empty() {
            out.push_str(line);
        } else {
            out.push_str(&line[..line.len() - pad]);
        }
        out.push_str(cr);
        out.push_str(end);
    }
    Some(out)
}

/// `> text`, `>> text`, `> > text`: the quoted text. A `>` inside a line is not quoting.
fn unquote(line: &str) -> &str {
    let mut rest = line;
    let mut stripped = false;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        // At most three spaces before a quote marker, as markdown allows.
        if rest.len() - trimmed.len() > 3 && !stripped {
            return line;
        }
        match trimmed.strip_prefix('>') {
            Some(after) => {
                rest = after.strip_prefix(' ').unwrap_or(after);
                stripped = true;
            }
            None => return if stripped { rest } else { line },
        }
    }
}

/// A k9s row `│ text │` (box-drawing vertical bars), and the horizontal rules `┌──…┐`, `└──…┘`.
fn unbox(line: &str) -> &str {
    let trimmed = line.trim();
    if trimmed.starts_with(['┌', '└', '├'])
        && trimmed
            .chars()
            .all(|c| matches!(c, '┌' | '┐' | '└' | '┘' | '├' | '┤' | '─' | ' '))
    {
        return "";
    }
    let Some(rest) = line.trim_start().strip_prefix('│') else {
        return line;
    };
    rest.trim_end().strip_suffix('│').unwrap_or(rest).trim_end()
}

/// The line without ANSI escape sequences (`ESC [ … letter`, and lone `ESC x`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.next_if_eq(&'[').is_some() {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_not_copied() {
        assert_eq!(unwrap("kind: Pod\nmetadata: {name: a > b}\n"), None);
    }

    #[test]
    fn quoting_borders_and_colours_go_and_lines_stay() {
        let text = "> Warning  Failed  x\n>> nested\n> > spaced\nplain > not a quote\n    > indented code keeps it\n";
        assert_eq!(
            unwrap(text).unwrap(),
            "Warning  Failed  x\nnested\nspaced\nplain > not a quote\n    > indented code keeps it\n"
        );
        let k9s = "┌──────┐\r\n│ Warning  FailedMount  110s  kubelet  MountVolume.MountDevice failed     │\r\n│ Output: busy\n";
        assert_eq!(
            unwrap(k9s).unwrap(),
            "\r\n Warning  FailedMount  110s  kubelet  MountVolume.MountDevice failed\r\n Output: busy\n"
        );
        assert_eq!(unwrap("\x1b[31mError\x1b[0m: boom\n").unwrap(), "Error: boom\n");
        for text in [text, k9s] {
            assert_eq!(unwrap(text).unwrap().lines().count(), text.lines().count());
        }
    }

    #[test]
    fn the_padding_common_to_every_line_goes_and_a_wrapped_runs_spaces_stay() {
        // A get row a mail client broke in the run of spaces before RESTARTS, then every line
        // padded with two spaces by the chat client it was pasted into.
        let text = "NAME   READY   STATUS      RESTARTS   AGE  \r\napi-0  0/1     Error       \r\n  \r\n3          5m  \r\n";
        assert_eq!(
            unpad(text).unwrap(),
            "NAME   READY   STATUS      RESTARTS   AGE\r\napi-0  0/1     Error     \r\n  \r\n3          5m\r\n"
        );
        // One line of text without a trailing space: nothing was padded.
        assert_eq!(unpad("Name:  api-0  \nStatus:  Running\n"), None);
        assert_eq!(unpad("kind: Pod\n"), None);
    }
}
