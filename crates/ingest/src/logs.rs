//! Container logs as evidence: the output of `kubectl logs` after its prompt, a file named like a
//! log (`*.log`, `logs.txt`, `*-previous.txt`), a `kubectl cluster-info dump` log block, or text
//! recognised by its shape (a language runtime's crash) — read into a [`LogBlock`]: which Pod and
//! container it is of (as the command, the file or the block names them), its positioned last line,
//! and the terminal error the [pattern table](super::log_errors) finds in it.
//!
//! The text itself stays where it was (the input, and for `kubectl logs` the command output the
//! rules that search text read); a block keeps only the lines it cites, so a dump's gigabyte of logs
//! costs a few lines each.

use super::log_errors::{self, Terminal};
use super::segment::{Command, Segment};
use super::sniff::dedent;

/// How the block was tied to its Pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogOrigin {
    /// `kubectl logs POD …` before the output.
    Command,
    /// The file's name (`web-7d9f-previous.txt`, `<ns>/<pod>/logs.txt`).
    FileName,
    /// `==== START logs for container C of pod NS/POD ====` of a cluster-info dump.
    DumpBlock,
    /// Recognised by its shape in other text: it names no Pod.
    Shape,
}

/// One positioned line of a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub line: u32,
    pub text: String,
}

/// One container's log, as far as the input says whose it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogBlock {
    /// The input it is in.
    pub source: usize,
    pub origin: LogOrigin,
    /// The command line, when a prompt showed it.
    pub command: Option<String>,
    /// The kind of object named (`Pod`; `Job` for `kubectl logs job/x` or `-l job-name=x`;
    /// `Deployment` …), and its name and namespace, when named.
    pub kind: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub container: Option<String>,
    /// `--previous` / `-p`: the logs of the container's last terminated run.
    pub previous: bool,
    /// Its first and last line in the input.
    pub first_line: u32,
    pub last_line: u32,
    /// Its last non-blank line.
    pub last: Option<LogLine>,
    /// The error the process ended on, if the log ends with one.
    pub terminal: Option<Terminal>,
}

impl LogBlock {
    /// The object whose log this is (`Pod shop/web-1`, `Job billing/migrate`), when the input names
    /// it.
    pub fn object(&self) -> Option<faultline_report::ObjectRef> {
        Some(faultline_report::ObjectRef {
            kind: self.kind.as_str().into(),
            namespace: self.namespace.as_deref().map(Into::into),
            name: self.name.as_deref()?.into(),
            uid: None,
        })
    }
}

/// How much of a block's end is searched for its terminal error: a crash is at the end of a log,
/// and a dump's logs can be gigabytes.
const TAIL: usize = 64 * 1024;

/// At most this many of the tail's lines are searched.
const TAIL_LINES: usize = 400;

/// Flags of `kubectl logs` that take a value.
const VALUED: [&str; 16] = [
    "-c",
    "--container",
    "-n",
    "--namespace",
    "--tail",
    "--since",
    "--since-time",
    "-l",
    "--selector",
    "--limit-bytes",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--pod-running-timeout",
    "--max-log-requests",
    "--user",
];

/// What `kubectl logs …` names: (kind, name, container, previous, namespace), or `None` for another
/// command.
fn parse_logs_command(command: &Command) -> Option<(String, Option<String>, Option<String>, bool)> {
    let words: Vec<&str> = command.own_words();
    let at = words.iter().position(|w| *w == "logs" || *w == "log")?;
    if !matches!(words.first(), Some(&"kubectl" | &"k" | &"oc")) {
        return None;
    }
    let mut positional = Vec::new();
    let mut container = None;
    let mut previous = false;
    let mut selector = None;
    let mut i = at + 1;
    while i < words.len() {
        let w = words[i];
        i += 1;
        if let Some((flag, value)) = w.split_once('=').filter(|(f, _)| f.starts_with('-')) {
            match flag {
                "-c" | "--container" => container = Some(value.to_string()),
                "-p" | "--previous" => previous = value == "true",
                "-l" | "--selector" => selector = Some(value.to_string()),
                _ => {}
            }
            continue;
        }
        match w {
            "-p" | "--previous" => previous = true,
            "-c" | "--container" => {
                container = words.get(i).map(|s| s.to_string());
                i += 1;
            }
            "-l" | "--selector" => {
                selector = words.get(i).map(|s| s.to_string());
                i += 1;
            }
            _ if VALUED.contains(&w) => i += 1,
            _ if w.starts_with('-') => {}
            _ => positional.push(w),
        }
    }
    // `-l job-name=pi`: the Job's Pods.
    if let Some(job) = selector
        .as_deref()
        .and_then(|s| s.trim_matches(['\'', '"']).strip_prefix("job-name="))
    {
        return Some(("Job".into(), Some(job.to_string()), container, previous));
    }
    let (kind, name) = match positional.first() {
        Some(target) => match target.split_once('/') {
            Some((kind, name)) => (
                super::get_table::kind_of_resource(kind).unwrap_or_else(|| kind.to_string()),
                Some(name.to_string()),
            ),
            None => ("Pod".to_string(), Some(target.to_string())),
        },
        None => ("Pod".to_string(), None),
    };
    // The old form `kubectl logs POD CONTAINER`.
    let container = container.or_else(|| positional.get(1).map(|c| c.to_string()));
    Some((kind, name, container, previous))
}

/// `==== START logs for container C of pod NS/POD ====`: (namespace, pod, container).
fn parse_dump_header(line: &str) -> Option<(String, String, String)> {
    let rest = line.trim().strip_prefix("==== START logs for container ")?;
    let (container, rest) = rest.split_once(" of pod ")?;
    let target = rest.trim_end_matches('=').trim();
    let (namespace, pod) = target.split_once('/')?;
    Some((namespace.to_string(), pod.to_string(), container.to_string()))
}

/// What a log file's name says: (namespace, pod, previous). `<ns>/<pod>/logs.txt` (a cluster-info
/// dump), `web-7d9f-previous.txt`, `web-7d9f.log`, `web-7d9f-logs.txt`.
fn parse_file_name(name: &str) -> (Option<String>, Option<String>, bool) {
    let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let Some(file) = parts.last() else {
        return (None, None, false);
    };
    let stem = file
        .strip_suffix(".txt")
        .or_else(|| file.strip_suffix(".log"))
        .unwrap_or(file);
    let lower = stem.to_ascii_lowercase();
    let previous = lower.ends_with("previous");
    let mut pod = stem;
    for suffix in [
        "-previous",
        "_previous",
        ".previous",
        "-logs",
        "_logs",
        ".logs",
        "-log",
        "_log",
    ] {
        if lower.ends_with(suffix) {
            pod = &stem[..stem.len() - suffix.len()];
            break;
        }
    }
    if matches!(
        pod.to_ascii_lowercase().as_str(),
        "logs" | "log" | "previous" | ""
    ) {
        // `<ns>/<pod>/logs.txt`.
        let n = parts.len();
        let pod = (n >= 2).then(|| parts[n - 2].to_string());
        let namespace = (n >= 3).then(|| parts[n - 3].to_string());
        return (namespace, pod, previous);
    }
    (None, Some(pod.to_string()), previous)
}

/// The whole of a file named like a log, unless a `kubectl logs` prompt or a dump's log block in it
/// says whose each part is.
pub(super) fn read_file(
    source: usize,
    file_name: &str,
    text: &str,
    segments: &[Segment<'_>],
) -> Option<LogBlock> {
    if !super::sniff::is_log_file(file_name)
        || segments.iter().any(|s| {
            s.log
                || s.command
                    .as_ref()
                    .is_some_and(|c| parse_logs_command(c).is_some())
        })
    {
        return None;
    }
    let (namespace, name, previous) = parse_file_name(file_name);
    let mut block = block_of(source, LogOrigin::FileName, 1, text)?;
    block.name = name;
    block.namespace = namespace;
    block.previous = previous;
    Some(block)
}

/// The block of a segment, when the segment is a container's log: after `kubectl logs`, or in a
/// dump's log block (`before` is the text before the segment, whose last line is the block's
/// header).
pub(super) fn read(source: usize, before: &str, segment: &Segment<'_>) -> Option<LogBlock> {
    let (origin, kind, name, namespace, container, previous) = if segment.log {
        let header = before.trim_end_matches(['\n', '\r']);
        let header = header.rsplit('\n').next().unwrap_or(header);
        let (ns, pod, container) = parse_dump_header(header)?;
        (
            LogOrigin::DumpBlock,
            "Pod".to_string(),
            Some(pod),
            Some(ns),
            Some(container),
            false,
        )
    } else if let Some(command) = &segment.command {
        let (kind, name, container, previous) = parse_logs_command(command)?;
        (
            LogOrigin::Command,
            kind,
            name,
            command.namespace.clone(),
            container,
            previous,
        )
    } else {
        return None;
    };
    let mut block = block_of(source, origin, segment.first_line, segment.text)?;
    block.command = segment.command.as_ref().map(|c| c.line.clone());
    block.kind = kind;
    block.name = name;
    block.namespace = namespace;
    block.container = container;
    block.previous = previous;
    Some(block)
}

/// A log block recognised by its shape in other text (`first_line`, `text`): only when its terminal
/// error is a language runtime's crash, or sits on a line shaped like a log's (a timestamp or a level
/// first) — a sentence that quotes an error is not a log.
pub(super) fn by_shape(source: usize, first_line: u32, text: &str) -> Option<LogBlock> {
    let block = block_of(source, LogOrigin::Shape, first_line, text)?;
    let terminal = block.terminal.as_ref()?;
    let shaped = terminal.form.is_some() || super::fragments::is_log_line(&terminal.line.1);
    shaped.then_some(block)
}

fn block_of(source: usize, origin: LogOrigin, first_line: u32, text: &str) -> Option<LogBlock> {
    let dedented = dedent(text);
    let text = dedented.as_deref().unwrap_or(text);
    let line_count = text.lines().count() as u32;
    if line_count == 0 {
        return None;
    }
    let last_line = first_line + line_count - 1;
    // The tail that is searched, from a line start.
    let mut from = text.len().saturating_sub(TAIL);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    if from > 0 {
        from = text[from..].find('\n').map_or(text.len(), |n| from + n + 1);
    }
    let skipped = text[..from].matches('\n').count() as u32;
    let mut lines: Vec<(u32, &str)> = (first_line + skipped..).zip(text[from..].lines()).collect();
    // And of those, the last few hundred.
    lines.drain(..lines.len().saturating_sub(TAIL_LINES));
    let last = lines
        .iter()
        .rev()
        .find(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| LogLine {
            line: *n,
            text: l.trim().to_string(),
        });
    Some(LogBlock {
        source,
        origin,
        command: None,
        kind: "Pod".to_string(),
        name: None,
        namespace: None,
        container: None,
        previous: false,
        first_line,
        last_line,
        last,
        terminal: log_errors::terminal(&lines),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_name_their_pod_container_and_run() {
        let parse = |line: &str| parse_logs_command(&Command::parse(line));
        assert_eq!(
            parse("kubectl logs web-7d9f -n shop --previous"),
            Some(("Pod".into(), Some("web-7d9f".into()), None, true))
        );
        assert_eq!(
            parse("kubectl -n cytomine logs sam-55bb9c6f85-mbww5 -c private-key-fetcher"),
            Some((
                "Pod".into(),
                Some("sam-55bb9c6f85-mbww5".into()),
                Some("private-key-fetcher".into()),
                false
            ))
        );
        assert_eq!(
            parse("oc logs logging-kibana-1-rsjx9 kibana -p"),
            Some((
                "Pod".into(),
                Some("logging-kibana-1-rsjx9".into()),
                Some("kibana".into()),
                true
            ))
        );
        assert_eq!(
            parse("kubectl logs job/pi --tail=20"),
            Some(("Job".into(), Some("pi".into()), None, false))
        );
        assert_eq!(
            parse("kubectl logs -n batch -l job-name=report --previous=true"),
            Some(("Job".into(), Some("report".into()), None, true))
        );
        assert_eq!(parse("kubectl get pods"), None);
    }

    #[test]
    fn file_names_and_dump_headers() {
        assert_eq!(
            parse_file_name("web-7d9f-previous.txt"),
            (None, Some("web-7d9f".into()), true)
        );
        assert_eq!(
            parse_file_name("dump/shop/web-7d9f/logs.txt"),
            (Some("shop".into()), Some("web-7d9f".into()), false)
        );
        assert_eq!(parse_file_name("api.log"), (None, Some("api".into()), false));
        assert_eq!(parse_file_name("logs.txt"), (None, None, false));
        assert_eq!(
            parse_dump_header("==== START logs for container app of pod shop/web-1 ===="),
            Some(("shop".into(), "web-1".into(), "app".into()))
        );
    }
}
