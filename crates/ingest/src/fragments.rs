//! Reading what is left when no whole-format reader applies: the lines of a paste that are not a
//! YAML or JSON document, a describe object, or a table with its header. Real pastes are mostly
//! this — an event row without its table, a scheduler message quoted in a sentence, a controller's
//! log relaying an event, kubectl's error inside an Ansible log — so each line is looked at on its
//! own, by content:
//!
//! 1. an event relayed in a component's log (`Event(v1.ObjectReference{…}): type: 'Warning' reason: …`);
//! 2. an event row without its header (`Warning  FailedScheduling  61s (x2 over 6m)  default-scheduler
//!    0/1 nodes are available: …`, in any of the layouts kubectl has printed, re-spaced or not);
//! 3. a kubectl message (`Error from server (Forbidden): …`), also inside a log line or a JSON string;
//! 4. a message of the [catalog](super::catalog) anywhere in the line;
//! 5. otherwise other text: prose, logs and shell output are kept for the rules that search text,
//!    and lines that look like kubectl output in a layout no reader knows are reported unread.
//!
//! Every record cites the line it came from in the user's text.

use super::catalog;
use super::events_table::{is_cluster_scoped, kind_from_table, parse_age, TableEvent};
use super::messages::{self, ClientMessage, MessageKind};
use super::segment::Command;

pub use crate::unread::{UnreadLines, UnreadReason};

/// What the lines held.
#[derive(Debug, Default)]
pub struct Read {
    pub events: Vec<TableEvent>,
    pub messages: Vec<ClientMessage>,
    /// Runs of other text (prose, logs, shell output, unread lines): (first line, text).
    pub other: Vec<(u32, String)>,
    pub unread: Vec<UnreadLines>,
}

/// The object a paste's context names: the command (`kubectl describe pvc x -n ns`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
}

impl Context {
    pub fn of(command: Option<&Command>) -> Self {
        let Some(command) = command else {
            return Self::default();
        };
        let described = super::describe::described_object(command);
        Self {
            kind: described.as_ref().map(|(kind, _)| kind.clone()),
            name: described.map(|(_, name)| name),
            namespace: command.namespace.clone(),
        }
    }

    /// The object a sentence names by quoting the command that describes it (`The command "kubectl
    /// describe pods apache-x" and the output is …`, `when I run kubectl describe pod foo -n bar`).
    pub fn in_prose(line: &str) -> Option<Self> {
        let at = find_literal(line, "kubectl describe ")?;
        let rest = &line[at..];
        // The command ends where its quotation or its clause does (no name holds these).
        let end = [
            rest.find(['"', '`', '\'', '\u{201d}', ')', ',', ';']),
            rest.find(". "),
            rest.find(": "),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
        let quoted = rest[..end].trim_end_matches(['.', ',', ':', ';', '?', '!', ' ']);
        let context = Self::of(Some(&Command::parse(quoted)));
        context.name.is_some().then_some(context)
    }
}

/// Reads the lines of `text` (starting at line `first_line` of its input) one by one.
pub fn read(text: &str, first_line: u32, command: Option<&Command>) -> Read {
    let mut context = Context::of(command);
    let client_output = command.is_some_and(|c| is_kubectl_client(&c.line));
    let mut out = Read::default();
    let mut other_start: Option<(u32, String)> = None;
    let flush = |out: &mut Read, other: &mut Option<(u32, String)>| {
        if let Some(run) = other.take() {
            if !run.1.trim().is_empty() {
                out.other.push(run);
            }
        }
    };
    let mut previous_event_line: Option<u32> = None;
    // A hard wrap's evidence in these lines: a record a mail client broke is read from its whole
    // text, cited at its first line.
    let wrap = super::rewrap::Wrap::of(text);
    let physical: Vec<&str> = text.lines().collect();
    let mut next = 0;
    while next < physical.len() {
        let first = next;
        let line_no = first_line + first as u32;
        let whole = wrapped_record(&physical, &mut next, wrap);
        let raws = &physical[first..next];
        let end_line = first_line + next as u32 - 1;
        let line = strip_inline_wrapping(&whole);
        if line.trim().is_empty() {
            if let Some((_, run)) = other_start.as_mut() {
                run.push('\n');
            }
            continue;
        }
        // A sentence that quotes `kubectl describe KIND NAME` names the object of the rows after
        // it (and of a row on its own line), unless a command already does.
        let prose_context = context.name.is_none().then(|| Context::in_prose(line)).flatten();
        if let Some(named) = prose_context {
            context = named;
        }
        if let Some(event) = event_of_line(line, line_no, &context) {
            flush(&mut out, &mut other_start);
            out.events.push(event);
            previous_event_line = Some(end_line);
            continue;
        }
        if let Some(message) = message_of_line(line, line_no, command, client_output) {
            flush(&mut out, &mut other_start);
            out.messages.push(message);
            previous_event_line = None;
            continue;
        }
        // A line right after an event that is not a record of its own continues its message (a
        // wrapped row, `Mounting arguments: …` under a FailedMount, a hard wrap at 76 columns).
        if let (Some(at), Some(last)) = (previous_event_line, out.events.last_mut()) {
            if at + 1 == line_no && continues_message(line) {
                last.message.push(' ');
                last.message.push_str(line.trim());
                previous_event_line = Some(end_line);
                continue;
            }
        }
        previous_event_line = None;
        // Other text keeps its lines as they were, for the rules that search it.
        for (i, raw) in raws.iter().enumerate() {
            match &mut other_start {
                Some((_, run)) => {
                    run.push('\n');
                    run.push_str(raw);
                }
                None => other_start = Some((line_no + i as u32, raw.to_string())),
            }
        }
        if let Some(reason) = unread_reason(line) {
            match out.unread.last_mut() {
                Some(last) if last.end_line + 1 == line_no && last.reason == reason => {
                    last.end_line = end_line
                }
                _ => out.unread.push(UnreadLines {
                    line: line_no,
                    end_line,
                    reason,
                }),
            }
        }
    }
    flush(&mut out, &mut other_start);
    out
}

/// The record that starts at `lines[*next]`, with the lines a hard wrap broke it into joined
/// ([`Wrap::broke`](super::rewrap::Wrap::broke)): a line continues the one before it when that one
/// was too full to take its first word and it starts no record of its own (a log line's time or
/// level, an event row's type, a fence, a JSON line). `*next` moves past the lines taken.
fn wrapped_record<'a>(
    lines: &[&'a str],
    next: &mut usize,
    wrap: Option<super::rewrap::Wrap>,
) -> std::borrow::Cow<'a, str> {
    let first = *next;
    *next += 1;
    let Some(wrap) = wrap else {
        return std::borrow::Cow::Borrowed(lines[first]);
    };
    let mut whole: Option<String> = None;
    while *next < lines.len() && wrap.broke(lines[*next - 1], lines[*next]) && !starts_record(lines[*next]) {
        let joined = whole.get_or_insert_with(|| lines[first].to_string());
        // Spaces the line ended with are no part of the record's text (a row's padding is, but
        // tables are rejoined before: `rewrap::rejoin_tables`).
        joined.truncate(joined.trim_end().len());
        wrap.join(joined, lines[*next - 1], lines[*next]);
        *next += 1;
    }
    whole.map_or(std::borrow::Cow::Borrowed(lines[first]), std::borrow::Cow::Owned)
}

/// A line that starts a record of its own, never the rest of a wrapped one: a log line's time or
/// level (`I0105 10:24:00.334462`, `[10:01:45.636]`, `2019-11-04T10:01:44Z`, `10:01:44`), an event
/// row (`Warning  FailedMount …`), kubectl's error, a markdown fence, a JSON log line.
fn starts_record(line: &str) -> bool {
    let line = line.trim_start();
    let bytes = line.as_bytes();
    let digits = |from: usize, n: usize| {
        bytes.len() >= from + n && bytes[from..from + n].iter().all(u8::is_ascii_digit)
    };
    let klog = matches!(bytes.first(), Some(b'I' | b'W' | b'E' | b'F'))
        && digits(1, 4)
        && bytes.get(5) == Some(&b' ');
    let time = digits(0, 4) && bytes.get(4) == Some(&b'-') || digits(0, 2) && bytes.get(2) == Some(&b':');
    klog || time
        || line.starts_with('[') && bytes.get(1).is_some_and(u8::is_ascii_digit)
        || line.starts_with('{')
        || line.starts_with("```")
        || matches!(line.split_whitespace().next(), Some("Normal" | "Warning"))
        || line.starts_with("Error from server")
        || line.starts_with("error: ")
}

/// Whether output after this command is kubectl talking to the API server (so klog lines in it are
/// client-go's), not a container's or a component's log.
pub fn is_kubectl_client(command: &str) -> bool {
    let mut words = command.split_whitespace();
    matches!(words.next(), Some("kubectl" | "k" | "oc" | "kubectl.exe"))
        && !command
            .split_whitespace()
            .any(|w| matches!(w, "logs" | "exec" | "attach"))
}

/// A line without the inline markdown around it: a single backtick opening or closing inline code
/// (`` `$ kubectl apply -f x `` … `` …denied` ``), and a leading `* ` or `- ` list marker before a record.
fn strip_inline_wrapping(line: &str) -> &str {
    let mut line = line.trim_end();
    // Markdown bold around a row (`**Warning  Unhealthy  …**`).
    if let Some(rest) = line.trim_start().strip_prefix("**") {
        line = rest.strip_suffix("**").unwrap_or(rest);
    }
    if let Some(rest) = line.strip_prefix('`').filter(|r| !r.starts_with('`')) {
        line = rest;
    }
    if let Some(rest) = line.strip_suffix('`').filter(|r| !r.ends_with('`')) {
        line = rest;
    }
    line
}

fn continues_message(line: &str) -> bool {
    let body = line.trim();
    // Not a new record or a section: a row of another table, a describe key, a prompt, the quote
    // mark that closes a quotation in prose (bitpoke/mysql-operator#310: `"`, the row, `"`).
    !(body.starts_with("Normal ")
        || body.chars().all(|c| matches!(c, '"' | '\'' | '`'))
        || body.starts_with("Warning ")
        || body.ends_with(':') && !body.contains(' ')
        || body.starts_with('$')
        || body.starts_with("```"))
        && (body.starts_with(|c: char| {
            c.is_ascii_lowercase()
                || c.is_ascii_digit()
                || matches!(c, '(' | '"' | '\'' | '[' | '{' | '.' | ',' | ':' | '/')
        }) || body.starts_with("Mounting ")
            || body.starts_with("Output: ")
            || body.starts_with("Unauthorized")
            || body.starts_with("Error "))
}

/// An event, from a relayed log line, a header-less row, or a catalog message.
fn event_of_line(line: &str, line_no: u32, context: &Context) -> Option<TableEvent> {
    if let Some((type_, reason, message)) = catalog::relayed_event(line) {
        let mut event = new_event(line_no, type_, reason, message);
        assign_subject(&mut event, line, context);
        return Some(event);
    }
    if let Some(event) = event_row(line, line_no, context) {
        return Some(event);
    }
    let (at, entry) = catalog::find(line)?;
    // A catalog message inside kubectl's own error is kubectl's message (read as such), not an event.
    if line.contains("Error from server") {
        return None;
    }
    let message = message_start(line, at);
    let mut event = new_event(
        line_no,
        if entry.warning { "Warning" } else { "Normal" },
        entry.reason,
        message,
    );
    event.quoted = true;
    assign_subject(&mut event, line, context);
    Some(event)
}

/// Where `needle` first occurs in `line`: its first byte found by `memchr`, then compared. For the
/// short literals looked for on every line of a paste, cheaper than `str::find`, which builds a
/// searcher for each call.
pub fn find_literal(line: &str, needle: &str) -> Option<usize> {
    let (bytes, needle) = (line.as_bytes(), needle.as_bytes());
    let first = *needle.first()?;
    memchr::memchr_iter(first, bytes).find(|&i| bytes[i..].starts_with(needle))
}

/// Where the message around a catalog literal starts: after a quote, a backtick or a run of two
/// spaces before it (a cell of a table), else the line's text after its wrapping.
fn message_start(line: &str, at: usize) -> &str {
    let head = &line[..at];
    let cut = [
        head.rfind("  "),
        head.rfind('"')
            .filter(|q| head[..*q].matches('"').count() % 2 == 0),
        head.rfind('`'),
        klog_header_end(head),
    ]
    .into_iter()
    .flatten()
    .max();
    let start = cut.map_or(0, |c| c + 1);
    let message = line[start..].trim();
    message.trim_end_matches(['"', '`']).trim()
}

/// Where a klog header before a message ends (`E0108 22:07:45.954750  1 factory.go:660] `): the
/// `]` after the source file's `.go:LINE`, so the message is the component's words alone.
fn klog_header_end(head: &str) -> Option<usize> {
    head.match_indices("] ").map(|(at, _)| at).find(|&at| {
        head[..at].rsplit_once(".go:").is_some_and(|(file, line)| {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

fn new_event(line: u32, type_: &str, reason: &str, message: &str) -> TableEvent {
    TableEvent {
        line,
        namespace: None,
        kind: String::new(),
        name: String::new(),
        field_path: None,
        type_: type_.to_string(),
        reason: reason.to_string(),
        message: message.to_string(),
        last_age: None,
        first_age: None,
        first_time: None,
        last_time: None,
        count: 1,
        reporter: None,
        quoted: false,
    }
}

/// The subject of an event read alone: what its message names, a `kind/name` word on its line,
/// the object the command describes, or else an object of the kind its reason is recorded on,
/// without a name.
pub fn assign_subject(event: &mut TableEvent, line: &str, context: &Context) {
    let implied = catalog::kind_of_reason(&event.reason);
    let (kind, namespace, name) = if let Some(named) = catalog::named_subject(&event.message)
        .or_else(|| catalog::named_subject(line))
        .filter(|(kind, ..)| {
            // `Successfully assigned` names the Pod; it is the subject of Pod events only.
            implied.is_none_or(|k| k == kind || kind != "Pod")
        }) {
        named
    } else if let Some((kind, name)) = kind_slash_name(line) {
        (kind, None, name)
    } else if let (Some(kind), Some(name)) = (&context.kind, &context.name) {
        if implied.is_none_or(|k| k == kind) {
            (kind.clone(), None, name.clone())
        } else {
            (implied.unwrap_or_default().to_string(), None, String::new())
        }
    } else {
        (implied.unwrap_or_default().to_string(), None, String::new())
    };
    let cluster = is_cluster_scoped(&kind);
    event.namespace = if cluster {
        None
    } else {
        namespace.or_else(|| context.namespace.clone())
    };
    event.kind = kind;
    event.name = name;
}

/// A `pod/web-1`, `replicaset/x` word (kubectl events' OBJECT cell) among a line's first words.
fn kind_slash_name(line: &str) -> Option<(String, String)> {
    line.split_whitespace().take(6).find_map(|word| {
        let (kind, name) = word.split_once('/')?;
        let known = matches!(
            kind.to_ascii_lowercase().as_str(),
            "pod"
                | "node"
                | "replicaset"
                | "deployment"
                | "statefulset"
                | "daemonset"
                | "job"
                | "cronjob"
                | "persistentvolumeclaim"
                | "pvc"
                | "service"
                | "ingress"
                | "persistentvolume"
        );
        (known && !name.is_empty() && !name.contains('/')).then(|| (kind_from_table(kind), name.to_string()))
    })
}

/// An event row without its header: a `Normal`/`Warning` word followed by a reason, in describe's
/// order (TYPE REASON AGE FROM MESSAGE), kubectl 1.2's (… FROM SUBOBJECT TYPE REASON MESSAGE) or a
/// web console's (TIME TYPE REASON MESSAGE). Cells are split at runs of two spaces or tabs where
/// the row has them, and by their shape where a chat client collapsed them.
fn event_row(line: &str, line_no: u32, context: &Context) -> Option<TableEvent> {
    // A row names its type: lines that say neither are not cut into words (most lines of a paste).
    if find_literal(line, "Normal").is_none() && find_literal(line, "Warning").is_none() {
        return None;
    }
    let words = crate::lines::words(line);
    let type_at = words.iter().take(12).position(|(_, w)| {
        matches!(
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric()),
            "Normal" | "Warning"
        ) && !w.contains(':')
    })?;
    let type_ = words[type_at]
        .1
        .trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let (reason_offset, reason) = *words.get(type_at + 1)?;
    let reason = reason.trim_end_matches(':');
    if !is_reason(reason) {
        return None;
    }
    let mut rest = words.get(type_at + 2..).unwrap_or_default();
    // A reason no catalog knows is a row only when an age follows it, or the line has cells.
    let gapped = line[reason_offset..].contains("  ") || line.contains('\t');
    let ages = rest.iter().take_while(|(_, w)| is_age_word(w)).count();
    if catalog::kind_of_reason(reason).is_none() && ages == 0 && !gapped {
        return None;
    }
    let mut last_age = None;
    let mut count = 1;
    if ages > 0 {
        let age_text: Vec<&str> = rest[..ages].iter().map(|(_, w)| *w).collect();
        last_age = parse_age(age_text[0]);
        if let Some(x) = age_text.iter().find_map(|w| w.strip_prefix("(x")) {
            count = x.parse().unwrap_or(1);
        }
        rest = &rest[ages..];
    }
    // FROM: `default-scheduler`, `kubelet`, `kubelet, node-1`, `attachdetach-controller`.
    let mut reporter = None;
    if let Some((_, first)) = rest.first() {
        if first.ends_with(',') && rest.len() > 2 {
            reporter = Some(first.trim_end_matches(',').to_string());
            rest = &rest[2..];
        } else if is_component(first) && rest.len() > 1 {
            reporter = Some(first.to_string());
            rest = &rest[1..];
        }
    }
    // `kubectl get events` without its header (LAST SEEN TYPE REASON OBJECT MESSAGE): the OBJECT
    // cell (`job/x`) before the message is the subject (`assign_subject` reads it), not the
    // message's first word.
    if let Some((_, first)) = rest.first() {
        if rest.len() > 1 && reporter.is_none() && kind_slash_name(first).is_some() {
            rest = &rest[1..];
        }
    }
    let (message_at, _) = *rest.first()?;
    let message = line[message_at..].trim().trim_end_matches(['"', '`']).trim_end();
    let mut event = new_event(line_no, type_, reason, message);
    event.last_age = last_age;
    event.count = count;
    event.reporter = reporter;
    assign_subject(&mut event, line, context);
    Some(event)
}

/// An event reason: one CamelCase word (`FailedScheduling`, `BackOff`, `NodeHasDiskPressure`).
fn is_reason(word: &str) -> bool {
    word.len() >= 4
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric())
        && word.chars().any(|c| c.is_ascii_lowercase())
}

/// A word of an AGE cell: `61s`, `4m47s`, `<unknown>`, `(x5903`, `over`, `24h)`, or a COUNT.
fn is_age_word(word: &str) -> bool {
    let word = word.trim_start_matches('(').trim_end_matches(')');
    word == "over"
        || word == "<unknown>"
        || word == "<invalid>"
        || word
            .strip_prefix('x')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        || parse_age(word).is_some() && word.ends_with(|c: char| c.is_ascii_alphabetic())
}

/// A FROM cell's word: a component name (`default-scheduler`, `kubelet`, `persistentvolume-controller`).
fn is_component(word: &str) -> bool {
    matches!(word, "kubelet" | "multus" | "kube-proxy" | "cilium" | "calico")
        || word.contains('-')
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.'))
            && !word.starts_with('-')
}

/// kubectl's own message on a line, or inside it (an Ansible log's JSON `"stderr": "Error from
/// server: …"`). klog lines count only after a kubectl command (elsewhere they are a component's log).
fn message_of_line(
    line: &str,
    line_no: u32,
    command: Option<&Command>,
    client_output: bool,
) -> Option<ClientMessage> {
    let body = line.trim().trim_start_matches(['"', '\'']);
    let (kind, text) = match messages::classify_line(body) {
        Some((MessageKind::Log { .. }, _)) if !client_output && !messages::is_client_go_log(body) => {
            return api_request_failure(body, line_no, command);
        }
        Some(found) => found,
        None => {
            let Some(at) = find_literal(body, "Error from server") else {
                return api_request_failure(body, line_no, command);
            };
            let (kind, text) = messages::classify_line(&body[at..])?;
            let end = text.find("\", \"").unwrap_or(text.len());
            (kind, text[..end].trim_end_matches(['"', '\'']).to_string())
        }
    };
    Some(ClientMessage {
        line: line_no,
        kind,
        text,
        command: command.map(|c| c.line.clone()),
    })
}

/// A client of the API server failing to reach it, in any program's log: a request to the API
/// (`Get https://kubernetes.docker.internal:6443/api/v1/nodes`, `…/apis/…`) and the network or
/// TLS error it got (`dial tcp: lookup …: no such host`, `connection refused`, `x509: …`). Read as
/// a connection failure of a client, from the request on.
fn api_request_failure(body: &str, line_no: u32, command: Option<&Command>) -> Option<ClientMessage> {
    const VERBS: [&str; 4] = ["Get ", "Post ", "Put ", "Patch "];
    const ERRORS: [&str; 7] = [
        "no such host",
        "connection refused",
        "i/o timeout",
        "x509: ",
        "connection reset by peer",
        "TLS handshake timeout",
        "no route to host",
    ];
    // One pass for the four verbs (a `str::find` of each was a tenth of reading a paste's lines).
    let bytes = body.as_bytes();
    let at = memchr::memchr2_iter(b'G', b'P', bytes)
        .find(|&i| VERBS.iter().any(|v| bytes[i..].starts_with(v.as_bytes())))?;
    let request = &body[at..];
    let url = request.split_whitespace().nth(1)?.trim_matches(['"', ':']);
    let api = url.starts_with("http")
        && (url.contains(":6443") || url.contains("/api/v1") || url.contains("/apis/"));
    if !api || !ERRORS.iter().any(|e| request.contains(e)) {
        return None;
    }
    let text = request.trim_end_matches(['"', '\'', '`']);
    Some(ClientMessage {
        line: line_no,
        kind: MessageKind::Connection,
        text: format!("Unable to connect to the server: {text}"),
        command: command.map(|c| c.line.clone()),
    })
}

/// The sections of `kubectl describe` output that hold fields or tables under their title.
const DESCRIBE_SECTIONS: [&str; 30] = [
    "Containers",
    "Init Containers",
    "Conditions",
    "Volumes",
    "Labels",
    "Annotations",
    "Capacity",
    "Allocatable",
    "System Info",
    "Non-terminated Pods",
    "Allocated resources",
    "Addresses",
    "Taints",
    "Tolerations",
    "Node-Selectors",
    "IPs",
    "Mounts",
    "Environment",
    "Environment Variables from",
    "Limits",
    "Requests",
    "State",
    "Last State",
    "Pod Template",
    "Port",
    "Ports",
    "Rules",
    "Subsets",
    "Resource Quotas",
    "Lease",
];

/// Why a line that no reader took is reported unread, or `None` for prose, logs and shell output
/// (recognised as other text). What looks like kubectl output is: describe's `Key:   value`
/// fields, and rows of two or more cells separated by runs of spaces.
fn unread_reason(line: &str) -> Option<UnreadReason> {
    let body = line.trim();
    if is_prose(body) || is_log_line(body) {
        return None;
    }
    if let Some((key, value)) = body.split_once(':') {
        let key_ok = !key.is_empty()
            && key.len() < 40
            && key.starts_with(|c: char| c.is_ascii_uppercase())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')'));
        // A key alone is a section of describe output only under one of describe's own section
        // names (`Like this:`, `After:` end sentences); `Events:` is the title of the table
        // after it, which is read on its own.
        let section = value.trim().is_empty() && DESCRIBE_SECTIONS.contains(&key);
        let field = value.starts_with("  ") || value.starts_with('\t');
        if key_ok && (section || field) {
            return Some(UnreadReason::DescribeFragment);
        }
    }
    let cells = body.split("  ").filter(|c| !c.trim().is_empty()).count();
    (cells >= 3).then_some(UnreadReason::UnknownLayout)
}

/// A sentence: several words, mostly letters, not cells of a table.
fn is_prose(body: &str) -> bool {
    let words = body.split_whitespace().count();
    let letters = body.chars().filter(|c| c.is_alphabetic() || *c == ' ').count();
    words >= 4 && !body.contains("  ") && letters * 10 >= body.chars().count() * 7
}

/// A log line: a timestamp or a klog header first, or a bracketed field (`[10:01:44.429][ApiProxy]`).
pub(super) fn is_log_line(body: &str) -> bool {
    let first = body.split_whitespace().next().unwrap_or("");
    body.starts_with('[')
        || first.len() >= 8 && first.chars().take(4).all(|c| c.is_ascii_digit())
        || messages::classify_line(body).is_some()
        || first.starts_with(['I', 'W', 'E', 'F'])
            && first.len() == 5
            && first[1..].chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests;

/// Drops each event read from a sentence ([`TableEvent::quoted`]) that the same input also holds as
/// a record — a row of the same reason about the same object, or about an unnamed one: the user
/// quoting what the table below shows (`the attachdetach-controller reports "Multi-Attach error for
/// volume xxx"`). The record carries the time and the count; the quote would stand undated beside
/// it, never superseded by what came after.
/// Returns where the dropped quotes were (input, line): read, as quotes of a record.
pub fn drop_quoted_records(events: &mut Vec<(usize, TableEvent)>) -> Vec<(usize, u32)> {
    if !events.iter().any(|(_, e)| e.quoted) {
        return Vec::new();
    }
    // The records by (input, reason) and by (input, reason, name): one pass, not one per quote.
    let mut reasons: faultline_report::hash::Set<(usize, &str)> = faultline_report::hash::Set::default();
    let mut named: faultline_report::hash::Set<(usize, &str, &str)> = faultline_report::hash::Set::default();
    for (source, e) in events.iter().filter(|(_, e)| !e.quoted) {
        reasons.insert((*source, e.reason.as_str()));
        named.insert((*source, e.reason.as_str(), e.name.as_str()));
    }
    let quotes_a_record = |source: usize, e: &TableEvent| {
        if e.name.is_empty() {
            reasons.contains(&(source, e.reason.as_str()))
        } else {
            named.contains(&(source, e.reason.as_str(), e.name.as_str()))
        }
    };
    let drop: Vec<bool> = events
        .iter()
        .map(|(source, e)| e.quoted && quotes_a_record(*source, e))
        .collect();
    let mut dropped = Vec::new();
    let mut i = 0;
    events.retain(|(source, e)| {
        let keep = !drop[i];
        i += 1;
        if !keep {
            dropped.push((*source, e.line));
        }
        keep
    });
    dropped
}
