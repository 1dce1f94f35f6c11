//! What kubectl itself printed instead of objects: API errors (`Error from server (Forbidden): …`),
//! connection failures (`Unable to connect to the server: …`), client errors (`error: …`), klog lines
//! (`E0402 09:14:55.201773   90412 memcache.go:265] …`), warnings, and `No resources found`.
//!
//! These are often the only evidence there is: a ResourceQuota rejection leaves no Pod, only the
//! 403; an expired API server certificate leaves only the client's x509 error. Lines that follow a
//! message without being one (a multi-line patch error, a wrapped line) continue it.

use super::segment::Command;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// `Error from server (Forbidden): …`: the API server answered with an error status.
    ServerError { reason: Option<String> },
    /// `Unable to connect to the server: …`, `The connection to the server … was refused`.
    Connection,
    /// `error: …` from kubectl itself.
    ClientError,
    /// A klog line from client-go: `E…`, `W…`, `I…` with a timestamp and source file.
    Log { level: char },
    /// `Warning: …` (deprecations, admission warnings).
    Warning,
    /// `No resources found in NS namespace.` / `No resources found`: an empty answer, itself a fact.
    NoResources { namespace: Option<String> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientMessage {
    pub line: u32,
    pub kind: MessageKind,
    /// The message without its prefix, continuation lines joined with newlines.
    pub text: String,
    /// The command that printed it, when the paste shows it.
    pub command: Option<String>,
}

/// The message a line starts with, and its text without the prefix.
pub fn classify_line(line: &str) -> Option<(MessageKind, String)> {
    classify(line).map(|(kind, text)| (kind, text.to_string()))
}

fn classify(line: &str) -> Option<(MessageKind, &str)> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("Error from server") {
        let (reason, text) = match rest.strip_prefix(" (") {
            Some(r) => {
                let close = r.find("):")?;
                (Some(r[..close].to_string()), r[close + 2..].trim())
            }
            None => (None, rest.trim_start_matches(':').trim()),
        };
        return Some((MessageKind::ServerError { reason }, text));
    }
    if let Some(text) = line.strip_prefix("Unable to connect to the server:") {
        return Some((MessageKind::Connection, text.trim()));
    }
    if line.starts_with("The connection to the server ") && line.contains("was refused") {
        return Some((MessageKind::Connection, line));
    }
    if let Some(text) = line.strip_prefix("error: ") {
        return Some((MessageKind::ClientError, text.trim()));
    }
    if let Some(text) = line.strip_prefix("Warning: ") {
        return Some((MessageKind::Warning, text.trim()));
    }
    if let Some(rest) = line.strip_prefix("No resources found") {
        let namespace = rest
            .strip_prefix(" in ")
            .and_then(|r| r.strip_suffix(" namespace."))
            .map(str::to_string);
        return Some((MessageKind::NoResources { namespace }, line));
    }
    klog(line)
}

/// `E0402 09:14:55.201773   90412 memcache.go:265] text`
fn klog(line: &str) -> Option<(MessageKind, &str)> {
    let level = line
        .chars()
        .next()
        .filter(|c| matches!(c, 'E' | 'W' | 'I' | 'F'))?;
    let bytes = line.as_bytes();
    let header_ok = bytes.len() > 22
        && bytes[1..5].iter().all(u8::is_ascii_digit)
        && bytes[5] == b' '
        && bytes[8] == b':'
        && bytes[11] == b':';
    if !header_ok {
        return None;
    }
    let close = line.find("] ")?;
    Some((MessageKind::Log { level }, line[close + 2..].trim()))
}

/// Whether a line starts a kubectl message.
pub fn is_message(line: &str) -> bool {
    classify(line).is_some()
}

/// Whether a line starts a kubectl message when nothing says which program printed it: kubectl's
/// own lines, and klog lines from client-go's files (`memcache.go`, `round_trippers.go`, …). Other
/// klog lines are a component's log (the API server's, the controller manager's), read as text.
pub fn is_client_message(line: &str) -> bool {
    match classify(line) {
        Some((MessageKind::Log { .. }, _)) => is_client_go_log(line),
        found => found.is_some(),
    }
}

/// A klog line written by client-go, which kubectl prints on stderr.
pub fn is_client_go_log(line: &str) -> bool {
    const FILES: [&str; 8] = [
        "memcache.go:",
        "round_trippers.go:",
        "request.go:",
        "cached_discovery.go:",
        "loader.go:",
        "helpers.go:",
        "discovery.go:",
        "exec.go:",
    ];
    let head = line.find("] ").map_or(line, |at| &line[..at]);
    FILES.iter().any(|f| head.contains(f))
}

/// Reads every message of a segment; non-message lines continue the message before them. A line a
/// mail client hard-wrapped (`… x509: certificate signed by unknown` / `authority`) is joined back
/// to the line it was cut from, as [`super::rewrap`] does for YAML and describe, and leaves an
/// empty line behind, so the message's lines still count the input's.
pub fn parse(text: &str, first_line: u32, command: Option<&Command>) -> Vec<ClientMessage> {
    let width = |l: &str| crate::lines::chars(l.trim_end().as_bytes());
    let widest = text.lines().map(width).max().unwrap_or(0);
    // Mail clients wrap at 72–80 columns, chat clients wider; a text whose widest line is short or
    // very long was not wrapped.
    let wrapped = (60..=100).contains(&widest);
    let mut messages: Vec<ClientMessage> = Vec::new();
    let mut previous: Option<&str> = None;
    // Lines joined to the last message's last line, whose empty places are owed to its text.
    let mut owed = 0;
    for (line_no, line) in (first_line..).zip(text.lines()) {
        if line.trim().is_empty() {
            previous = None;
            continue;
        }
        match classify(line) {
            Some((kind, text)) => {
                owed = 0;
                messages.push(ClientMessage {
                    line: line_no,
                    kind,
                    text: text.to_string(),
                    command: command.map(|c| c.line.clone()),
                });
            }
            None => {
                if let Some(last) = messages.last_mut() {
                    let first_word = line.split(' ').next().map_or(0, width);
                    let rest_of_wrap = wrapped
                        && previous.is_some_and(|p| width(p) + 1 + first_word >= widest)
                        && line.starts_with(|c: char| !c.is_whitespace() && !matches!(c, '{' | '['));
                    if rest_of_wrap {
                        // The wrap took the space it broke at, unless it cut a word at full width.
                        let cut_in_word =
                            previous.is_some_and(|p| width(p) == widest && !p.trim().contains(' '));
                        if !cut_in_word {
                            last.text.push(' ');
                        }
                        last.text.push_str(line.trim_end());
                        // The joined line's rest keeps its own (now empty) line.
                        owed += 1;
                    } else {
                        for _ in 0..std::mem::take(&mut owed) {
                            last.text.push('\n');
                        }
                        last.text.push('\n');
                        last.text.push_str(line.trim_end());
                    }
                }
            }
        }
        previous = Some(line);
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_rejection_and_not_found() {
        let text = "Error from server (Forbidden): error when creating \"pod.yaml\": pods \"monthly-rollup\" is forbidden: exceeded quota: q, requested: requests.memory=6Gi, used: requests.memory=11Gi, limited: requests.memory=16Gi\nError from server (NotFound): pods \"monthly-rollup\" not found\nNo resources found in team-reports namespace.\n";
        let m = parse(text, 3, None);
        assert_eq!(m.len(), 3);
        assert_eq!(
            m[0].kind,
            MessageKind::ServerError {
                reason: Some("Forbidden".into())
            }
        );
        assert!(m[0].text.starts_with("error when creating") && m[0].text.contains("exceeded quota"));
        assert_eq!(m[1].line, 4);
        assert_eq!(
            m[2].kind,
            MessageKind::NoResources {
                namespace: Some("team-reports".into())
            }
        );
    }

    #[test]
    fn connection_klog_and_continuations() {
        let text = "E0402 09:14:55.201773   90412 memcache.go:265] couldn't get current server API group list: x509: certificate has expired\nUnable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid\nError from server: error when applying patch:\n{\"data\":{}}\nto:\nResource: \"/v1, Resource=configmaps\"\n";
        let m = parse(text, 1, Some(&Command::parse("kubectl get pods -A")));
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].kind, MessageKind::Log { level: 'E' });
        assert!(m[0]
            .text
            .starts_with("couldn't get current server API group list"));
        assert_eq!(m[1].kind, MessageKind::Connection);
        assert_eq!(m[2].kind, MessageKind::ServerError { reason: None });
        assert!(
            m[2].text.ends_with("Resource: \"/v1, Resource=configmaps\""),
            "{}",
            m[2].text
        );
        assert_eq!(m[2].command.as_deref(), Some("kubectl get pods -A"));
    }

    #[test]
    fn a_hard_wrapped_message_is_joined_and_keeps_its_lines() {
        // wild/42's line, as a mail client wrapped it at 76 columns, and then a patch error whose
        // short lines continue it without being a wrap.
        let text = "Unable to connect to the server: x509: certificate signed by unknown\nauthority\nError from server: error when applying patch:\n{\"data\":{}}\nto:\n";
        let m = parse(text, 1, None);
        assert_eq!(m.len(), 2);
        // The patch error alone: its first line is the widest, and nothing was wrapped.
        let text = "Error from server: error when applying patch: the object has been modified\n{\"data\":{}}\nto:\n";
        let m = parse(text, 1, None);
        assert_eq!(m[0].text.lines().count(), 3, "{:?}", m[0].text);
        let text = "Unable to connect to the server: x509: certificate signed by unknown\nauthority\nError from server: error when applying patch:\n{\"data\":{}}\nto:\n";
        let m = parse(text, 1, None);
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0].text, "x509: certificate signed by unknown authority",
            "the wrapped rest is joined with the space the wrap took"
        );
        assert_eq!(m[1].line, 3);
        assert_eq!(m[1].text, "error when applying patch:\n{\"data\":{}}\nto:");
        // Three lines cut from one: each rest leaves an empty line, so a later line keeps its place.
        let text = "Error from server (Forbidden): error when creating\n\"jobs/monthly-rollup-pod.yaml\": pods \"monthly-rollup\" is forbidden:\nexceeded quota: team-reports-quota, requested: requests.memory=6Gi, used:\nrequests.memory=11Gi, limited: requests.memory=16Gi\n  (details)\n";
        let m = parse(text, 1, None);
        assert_eq!(m.len(), 1);
        let lines: Vec<&str> = m[0].text.lines().collect();
        assert!(lines[0].ends_with("exceeded quota: team-reports-quota, requested: requests.memory=6Gi, used: requests.memory=11Gi, limited: requests.memory=16Gi"), "{lines:?}");
        assert_eq!(lines[1..], ["", "", "", "  (details)"]);
    }

    #[test]
    fn ordinary_lines_are_not_messages() {
        assert!(!is_message("NAME   READY   STATUS"));
        assert!(!is_message("Events:  <none>"));
        assert!(!is_message("Error: ErrImagePull"));
        assert!(!is_message("E2E tests passed"));
    }
}
