//! Lines a mail or chat client hard-wrapped at 72–80 columns, joined back before YAML or describe
//! output is read. The wrap breaks a long line at its last space before the width and starts the
//! rest at the left margin, where kubectl's YAML and describe put only keys: a line at the margin
//! that is no key, right after a line too full to have taken its first word, is the end of that line.
//!
//! The copy keeps one line for each line of the input (a joined line's rest leaves an empty line
//! behind), so evidence still cites the user's line numbers. JSON needs no copy: its reader steps
//! over a wrap inside a string (`json::Reader::wrapped_string_break`), and a wrap between tokens is
//! whitespace to it.

/// Which lines at the left margin are keys, and so never the rest of a wrapped line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// `apiVersion: v1`, `- name: web`, `---`, `# comment`.
    Yaml,
    /// `Name:   web`, `Node-Selectors:  <none>`, `QoS Class:  Burstable`.
    Describe,
}

/// No line of a wrapped text is longer than this; a text with longer lines was not hard-wrapped.
const WIDEST_WRAP: usize = 100;

/// The text with its hard-wrapped lines joined, or `None` when it has none.
pub fn rejoin(text: &str, keys: Keys) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Widths count the spaces a line ends with: the wrap leaves all but the one it broke at.
    let width = |l: &str| crate::lines::chars(l.trim_end_matches(['\n', '\r']).as_bytes());
    let widest = lines.iter().map(|l| width(l)).max()?;
    if !(40..=WIDEST_WRAP).contains(&widest) {
        return None;
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    // The line the current one would continue: its index in `out`.
    let mut open: Option<usize> = None;
    let mut joined = false;
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let eol = &line[body.len()..];
        let previous = i.checked_sub(1).map(|p| lines[p].trim_end_matches(['\n', '\r']));
        let continues = match (open, previous) {
            (Some(at), Some(previous)) => {
                let first_word = body
                    .split(' ')
                    .next()
                    .map_or(0, |w| crate::lines::chars(w.as_bytes()));
                !previous.trim().is_empty()
                    && !body.trim().is_empty()
                    && width(previous) + 1 + first_word >= widest
                    && starts_at_margin(body)
                    && (in_open_quote(&out[at], keys) || !is_structure(body, keys))
                    && (keys == Keys::Yaml || out[at].starts_with(' ') || is_structure(&out[at], keys))
            }
            _ => false,
        };
        match (continues, open) {
            (true, Some(at)) => {
                let target = &mut out[at];
                let end = target.trim_end_matches(['\n', '\r']).len();
                let eol_of_target = target[end..].to_string();
                target.truncate(end);
                // The wrap took the space it broke at; a line with no space to break at was cut
                // inside its word, at the full width, and lost nothing.
                let cut_in_word =
                    previous.is_some_and(|p| width(p) == widest && !p.trim_start().contains(' '));
                if !cut_in_word {
                    target.push(' ');
                }
                target.push_str(body);
                target.push_str(&eol_of_target);
                // The rest's own line stays, empty, with its line ending.
                out.push(eol.to_string());
                joined = true;
            }
            _ => {
                out.push((*line).to_string());
                open = (!body.trim().is_empty()).then_some(i);
            }
        }
    }
    joined.then(|| out.concat())
}

fn starts_at_margin(line: &str) -> bool {
    line.chars().next().is_some_and(|c| !c.is_whitespace())
}

/// A line at the margin that kubectl prints there itself: a key, a list item, a document marker, a
/// comment.
fn is_structure(line: &str, keys: Keys) -> bool {
    let line = line.trim_start();
    match keys {
        Keys::Yaml => {
            line.starts_with("---")
                || line.starts_with("...")
                || line.starts_with('#')
                || line == "-"
                || line.starts_with("- ")
                || key_of(line).is_some_and(|k| !k.contains(' '))
        }
        Keys::Describe => key_of(line).is_some_and(|k| {
            k.len() <= 40
                && k.starts_with(|c: char| c.is_ascii_uppercase())
                && k.chars().all(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '.' | '/' | '(' | ')' | '_')
                })
        }),
    }
}

/// The key of a `key: value` or `key:` line.
fn key_of(line: &str) -> Option<&str> {
    let colon = line.find(": ").or_else(|| line.strip_suffix(':').map(str::len))?;
    let key = &line[..colon];
    (!key.is_empty() && !key.starts_with(['\'', '"', '{', '[', '&', '*', '!', '|', '>'])).then_some(key)
}

/// A YAML line whose quoted scalar is not closed on it: the wrap cut the string, whatever the next
/// line looks like.
fn in_open_quote(line: &str, keys: Keys) -> bool {
    if keys != Keys::Yaml {
        return false;
    }
    let line = line.trim();
    let value = match line.find(": ") {
        Some(at) => line[at + 2..].trim_start(),
        None => line.strip_prefix("- ").unwrap_or(line),
    };
    if value.starts_with('\'') {
        // `''` is a quote inside the string: the opening and closing quotes make the count even.
        value.matches('\'').count() % 2 == 1
    } else if value.starts_with('"') {
        let mut quotes = 0;
        let mut escaped = false;
        for c in value.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => quotes += 1,
                _ => escaped = false,
            }
            if c != '\\' {
                escaped = false;
            }
        }
        quotes % 2 == 1
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_yaml_value_is_joined_and_the_line_count_kept() {
        let text = "status:\n  containerStatuses:\n  - state:\n      waiting:\n        message: 'Back-off pulling image \"registry.example.com/shop/web:1.4.2\":\n          ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack\nimage'\n        reason: ImagePullBackOff\n";
        let joined = rejoin(text, Keys::Yaml).unwrap();
        assert_eq!(joined.lines().count(), text.lines().count());
        assert!(joined.contains("unpack image'\n\n        reason"), "{joined}");
    }

    #[test]
    fn keys_at_the_margin_are_not_joined() {
        let text = "metadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"apiVersion\":\"v1\"}'\nspec:\n  nodeName: worker-1\n";
        assert_eq!(rejoin(text, Keys::Yaml), None);
    }

    #[test]
    fn a_wrapped_describe_message_is_joined_but_a_field_is_not() {
        let text = "Name:         web-7d9f\nStatus:       Pending\nMessage:      The node was low on resource: memory. Container web was using\n1024Mi, which exceeds its request of 0.\nEvents:       <none>\n";
        let joined = rejoin(text, Keys::Describe).unwrap();
        assert!(
            joined.contains("was using 1024Mi, which exceeds its request of 0.\n\nEvents:"),
            "{joined}"
        );
    }

    #[test]
    fn a_text_with_long_lines_was_not_wrapped() {
        let long = "x".repeat(120);
        let text = format!("key: {long}\nnot a key but fine\n");
        assert_eq!(rejoin(&text, Keys::Yaml), None);
    }
}
