//! A Secret known from its fields alone: its `data` pasted without the rest of the object
//! (`kubectl get secret -o yaml | grep -A3 '^data:'`), so no reader makes it a Secret. A top-level
//! `data:` block whose values are all base64, in a document that names no kind other than Secret, is
//! a Secret's data (a ConfigMap's `data` holds text, and says `kind: ConfigMap`).

use super::scan::{is_plausible_value, yaml_key};
use super::{SecretKind, Span};
use faultline_ingest::lines::next_line;

pub(super) fn secret_data_without_kind(text: &str, out: &mut Vec<Span>) {
    // The values of the document being read, and of its `data:` block being read (with whether all
    // of them are base64 so far).
    let mut document: Vec<Span> = Vec::new();
    let mut block: Option<(Vec<Span>, bool)> = None;
    let mut other_kind = false;
    let mut at = 0;
    let close = |block: &mut Option<(Vec<Span>, bool)>, document: &mut Vec<Span>| {
        if let Some((spans, true)) = block.take() {
            document.extend(spans);
        }
    };
    while at < text.len() {
        let line_end = next_line(text, at);
        let line = text[at..line_end].trim_end_matches(['\n', '\r']);
        let line_start = at;
        at = line_end;
        // Indented lines matter only inside a `data:` block: the others (most of a JSON or YAML dump)
        // are passed over at their first byte.
        if block.is_none() && line.starts_with([' ', '\t']) {
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let indent = line.len() - trimmed.len();
        // A document ends at `---` and where a prompt starts another command's output.
        if line == "---" || line.starts_with("$ ") {
            close(&mut block, &mut document);
            if !other_kind {
                out.append(&mut document);
            }
            document.clear();
            other_kind = false;
            continue;
        }
        if indent == 0 {
            close(&mut block, &mut document);
            if line.trim_end() == "data:" {
                block = Some((Vec::new(), true));
            } else if let Some(kind) = line.strip_prefix("kind:") {
                other_kind = kind.trim() != "Secret";
            }
            continue;
        }
        let Some((spans, all_base64)) = block.as_mut() else {
            continue;
        };
        let value = yaml_key(trimmed).map(|(_, value_start)| &trimmed[value_start..]);
        match value.filter(|v| is_base64(v) && is_plausible_value(v)) {
            Some(value) => {
                let start = line_start + (line.len() - value.len());
                spans.push(Span {
                    rule: None,
                    kind: SecretKind::SecretData,
                    start,
                    end: start + value.len(),
                });
            }
            None => *all_base64 = false,
        }
    }
    close(&mut block, &mut document);
    if !other_kind {
        out.append(&mut document);
    }
}

/// Standard base64 of at least 8 characters, padded to a multiple of four (what a Secret's data holds).
fn is_base64(value: &str) -> bool {
    let body = value.trim_end_matches('=');
    value.len() >= 8
        && value.len() % 4 == 0
        && value.len() - body.len() <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        secret_data_without_kind(text, &mut out);
        out.iter().map(|s| &text[s.start..s.end]).collect()
    }

    #[test]
    fn base64_data_without_a_kind_is_a_secrets() {
        assert_eq!(
            found("data:\n  api-key: YWJjZGVmZ2hpams=\n  url: aHR0cHM6Ly94\n"),
            ["YWJjZGVmZ2hpams=", "aHR0cHM6Ly94"]
        );
        // A ConfigMap says so; text values are not base64; another document is another kind.
        assert_eq!(
            found("data:\n  a: YWJjZGVmZ2hpams=\nkind: ConfigMap\n"),
            Vec::<&str>::new()
        );
        assert_eq!(
            found("data:\n  a: YWJjZGVmZ2hpams=\n  b: plain text\n"),
            Vec::<&str>::new()
        );
        assert_eq!(
            found("data:\n  a: YWJjZGVmZ2hpams=\n---\nkind: ConfigMap\n"),
            ["YWJjZGVmZ2hpams="]
        );
    }
}
