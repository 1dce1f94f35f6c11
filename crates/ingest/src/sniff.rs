//! How a segment is read: by what its first meaningful line looks like (a document, a table's
//! header, a describe object, kubectl's messages), never by where it starts or what came before it.

use super::{describe, events_table, fragments, get_table, messages, rewrap, segment};

/// The text without the indentation all its non-blank lines share, when that is two or more
/// columns and the text starts like describe output or a table (`    Name:  web`, `    NAME  READY
/// …`). YAML and JSON read the same at any indentation and are left alone.
pub(super) fn dedent(text: &str) -> Option<String> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if !first.starts_with("  ") {
        return None;
    }
    let body = first.trim_start();
    let tabular = body.starts_with("Name:")
        || body.starts_with("NAME ")
        || body.starts_with("NAMESPACE ")
        || body.starts_with("LAST SEEN")
        || body.starts_with("Events:")
        || events_table::is_header(body);
    if !tabular {
        return None;
    }
    // The block ends at a paragraph back at the margin after a blank line (a sentence after a
    // markdown code block): that text is kept as it is.
    let (text, rest) = text.split_at(indented_block_end(text).unwrap_or(text.len()));
    let common = |text: &str| {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .min()
            .unwrap_or(0)
    };
    // Lines at the left margin in an indented block may be the rest of hard-wrapped lines.
    let joined;
    let (text, common) = match common(text) {
        2.. => (text, common(text)),
        _ => {
            joined = rewrap::rejoin(text, rewrap::Keys::Describe)?;
            match common(&joined) {
                at @ 2.. => (joined.as_str(), at),
                _ => return None,
            }
        }
    };
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        out.push_str(
            line.get(common..)
                .filter(|_| line.len() > common && line[..common].trim().is_empty())
                .unwrap_or(line.trim_start_matches(' ')),
        );
    }
    out.push_str(rest);
    Some(out)
}

/// Where an indented block (a markdown code block: its first non-blank line indented by two spaces
/// or more) ends when a paragraph back at the margin follows it after a blank line (a sentence
/// after the code block): the offset of that paragraph. `None` when the text does not start
/// indented or no such paragraph follows.
pub(super) fn indented_block_end(text: &str) -> Option<usize> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if !first.starts_with("  ") {
        return None;
    }
    let depth = first.len() - first.trim_start().len();
    let mut at = 0;
    let mut after_blank = false;
    for line in text.split_inclusive('\n') {
        if after_blank && !line.trim().is_empty() && !line.starts_with("  ") {
            return Some(at);
        }
        // A blank line of the block holds no more than its indentation; a deeper run of spaces
        // alone is what a hard wrap leaves of a line whose one long word went to the next line.
        let spaces = line.trim_end_matches(['\n', '\r']);
        after_blank = spaces.trim().is_empty() && spaces.len() <= depth;
        at += line.len();
    }
    None
}

/// Whether a line starts a format read as a whole: an events table's header, a `get` table's
/// header, a describe object's `Name:`, a JSON document, a YAML object's first key.
pub(super) fn starts_whole_format(line: &str, command: Option<&segment::Command>) -> bool {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return false;
    }
    // At any indentation: a markdown code block after a sentence is read as a whole too.
    events_table::is_header(trimmed)
        || describe::is_describe(trimmed, command)
        || get_table::is_header(trimmed, command)
        || trimmed == "{"
        || trimmed.starts_with("{\"")
        || trimmed.starts_with("apiVersion:")
        || trimmed.starts_with("kind:")
        || (line == trimmed && trimmed == "---")
}

/// kubectl commands whose output the engine is meant to read (`get`, `describe`, `events`): their
/// output in an unknown layout is an error worth reporting, not just text.
pub(super) fn is_kubectl_reader(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    matches!(words.first(), Some(&"kubectl" | &"k" | &"oc"))
        && words.iter().any(|w| matches!(*w, "get" | "describe" | "events"))
}

pub(super) fn is_log_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with("logs.txt") || name.ends_with(".log") || name.ends_with("previous.txt")
}

pub(super) enum Sniffed {
    Empty,
    Json,
    Yaml,
    EventsTable,
    GetTable,
    Describe,
    Messages,
    /// None of these from its first meaningful line: read line by line ([`read_other`]).
    Other,
}

/// Decides how to read an input from its first meaningful line. YAML is tried only when that line
/// looks like YAML (a `key:`, a `---`, a `- ` item), so a pasted table is not reported as a YAML
/// syntax error somewhere in its middle.
pub(super) fn sniff(text: &str, command: Option<&segment::Command>) -> Sniffed {
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || is_thematic_break(trimmed) {
            continue;
        }
        if events_table::is_header(trimmed) {
            return Sniffed::EventsTable;
        }
        if describe::is_describe(line, command) {
            return Sniffed::Describe;
        }
        if get_table::is_header(line, command) {
            return Sniffed::GetTable;
        }
        if messages::is_client_message(line)
            || command.is_some_and(|c| fragments::is_kubectl_client(&c.line)) && messages::is_message(line)
        {
            return Sniffed::Messages;
        }
        if looks_like_json_start(trimmed) {
            return Sniffed::Json;
        }
        // `---` is a document marker only alone or before a space: `-----BEGIN … KEY-----` (a key
        // printed by `cat`) is not YAML, and its redacted copy must read as it does.
        let marker = trimmed
            .strip_prefix("---")
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']));
        if marker || trimmed.starts_with("- ") || looks_like_yaml_key(trimmed) {
            return Sniffed::Yaml;
        }
        return Sniffed::Other;
    }
    Sniffed::Empty
}

/// Where a `get` table pasted without a prompt between it and what follows ends: the byte offset of
/// the first line after its header at the left margin that starts another format (a YAML document
/// or object, JSON, a describe, an events table). A table's rows never look like these: their first
/// cell is a name, and names hold no `:` and no spaces.
pub(super) fn table_end(text: &str, command: Option<&segment::Command>) -> Option<usize> {
    let mut offset = 0;
    let mut header_seen = false;
    for raw in text.split_inclusive('\n') {
        let at = offset;
        offset += raw.len();
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if !header_seen {
            header_seen = true;
            continue;
        }
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let marker = line
            .strip_prefix("---")
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']));
        if marker
            || looks_like_yaml_key(line)
            || looks_like_json_start(line)
            || events_table::is_header(line)
            || describe::is_describe(line, command)
        {
            return Some(at);
        }
    }
    None
}

/// A markdown horizontal rule between parts of a post (`- - -`, `* * *`, `___`): not YAML's `---`.
pub(super) fn is_thematic_break(line: &str) -> bool {
    let marks = line.chars().filter(|c| !c.is_whitespace()).count();
    marks >= 3
        && line.contains(' ')
        && ['-', '*', '_']
            .iter()
            .any(|m| line.chars().all(|c| c == *m || c == ' '))
        || matches!(line, "***" | "___")
}

/// `{"kind": …`, `{` alone, `[` followed by a value: JSON. `[check-expiration] …` (kubeadm) and
/// `[10:01:44.429][ApiProxy]` (a log's time field) are not.
pub(super) fn looks_like_json_start(line: &str) -> bool {
    if let Some(number) = line.strip_prefix('[').map(str::trim_start) {
        let after = number.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
        if number.starts_with(|c: char| c.is_ascii_digit())
            && !after.trim_start().starts_with([',', ']'])
            && !after.trim().is_empty()
        {
            return false;
        }
    }
    let mut chars = line.chars();
    let first = chars.next();
    matches!(
        (first, chars.find(|c| !c.is_whitespace())),
        (Some('{'), None | Some('"' | '}'))
            | (Some('['), None | Some('{' | '[' | '"' | ']' | '-' | '0'..='9'))
    )
}

/// The first line of a Kubernetes object in YAML: one of the top-level keys `kubectl get -o yaml`
/// and manifests start with. `kubectl describe` (`Name:         web`) and kubectl's own messages
/// (`error: the server doesn't have a resource type`) must not be read as YAML.
pub(super) fn looks_like_yaml_key(line: &str) -> bool {
    let line = line.strip_prefix("- ").unwrap_or(line);
    let Some((key, rest)) = line.split_once(':') else {
        return false;
    };
    (rest.is_empty() || rest.starts_with(' '))
        && matches!(
            key.trim_matches(['"', '\'']),
            "apiVersion" | "kind" | "metadata" | "items" | "spec" | "status" | "data" | "stringData"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_indented_block_ends_at_a_paragraph_back_at_the_margin() {
        let text = "    apiVersion: v1\n    kind: Service\n\nAny idea what is wrong here?\n";
        let end = indented_block_end(text).unwrap();
        assert_eq!(&text[end..], "Any idea what is wrong here?\n");
        // A blank line with the block's indentation (or trailing spaces) is blank too.
        assert!(indented_block_end("    a: 1\n    \nThanks\n").is_some());
        // What a hard wrap leaves of a deep line whose one long word went to the margin is not a
        // blank line: the block goes on.
        let wrapped = "    {\n                     \n\"k:{\\\"uid\\\":\\\"a85295e8-54e4-40a4-aeb0-b47c19f1a69f\\\"}\": {}\n    }\n";
        assert_eq!(indented_block_end(wrapped), None);
        // Not indented, or no paragraph after the block.
        assert_eq!(indented_block_end("apiVersion: v1\n\nThanks\n"), None);
        assert_eq!(indented_block_end("    a: 1\n    b: 2\n"), None);
    }
}
