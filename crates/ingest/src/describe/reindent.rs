//! `kubectl describe pod` whose indentation was lost on the way (a chat client collapsing runs of
//! spaces inside quoted text, tabs for the indentation, a copy from a web console): the sections
//! are read by their indentation, so the copy gets it back from the keys kubectl prints at each
//! level. `Containers:` holds containers (`router:`), a container holds `State:`, `Limits:`,
//! `Args:`…, a state holds `Reason:`, `Exit Code:`…. One line of the copy for each line of the text.

/// Top-level fields and sections of `kubectl describe pod`.
const TOP: [&str; 24] = [
    "Name",
    "Namespace",
    "Priority",
    "Priority Class Name",
    "Runtime Class Name",
    "Service Account",
    "Node",
    "Start Time",
    "Labels",
    "Annotations",
    "Status",
    "Reason",
    "Message",
    "IP",
    "IPs",
    "Controlled By",
    "Containers",
    "Init Containers",
    "Conditions",
    "Volumes",
    "QoS Class",
    "Node-Selectors",
    "Tolerations",
    "Events",
];

/// A container's fields.
const CONTAINER: [&str; 20] = [
    "Container ID",
    "Image",
    "Image ID",
    "Port",
    "Ports",
    "Host Port",
    "Host Ports",
    "Command",
    "Args",
    "State",
    "Last State",
    "Ready",
    "Restart Count",
    "Limits",
    "Requests",
    "Liveness",
    "Readiness",
    "Startup",
    "Environment",
    "Mounts",
];

/// A container state's fields.
const STATE: [&str; 6] = ["Reason", "Exit Code", "Signal", "Message", "Started", "Finished"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Top,
    /// Under `Containers:` or `Init Containers:`.
    Containers,
    Container,
    State,
    /// Under `Limits:`, `Requests:`, `Args:`, `Command:`, `Environment:`, `Mounts:`.
    ContainerList,
    /// Under `Conditions:`, `Events:`, `Volumes:`, `Labels:`…: table rows and values.
    Section,
}

/// The text with describe's indentation given back, or `None` when it still has it (a line
/// under `Containers:` is indented by two spaces or more).
pub fn reindent(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let containers = lines
        .iter()
        .position(|l| l.trim_start().starts_with("Containers:"))?;
    let next = lines[containers + 1..].iter().find(|l| !l.trim().is_empty())?;
    if next.starts_with("  ") && !next.starts_with('\t') {
        return None;
    }
    Some(nest(&lines, Level::Top))
}

/// A container's block pasted alone (`State:`, `Last State:`, `Ready:`, `Restart Count:`,
/// `Limits:`… with no `Containers:` above it) with its indentation given back, or `None` when the
/// line after `State:` is still indented under it.
pub fn reindent_container(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let state = lines
        .iter()
        .position(|l| key_of(l.trim_start_matches([' ', '\t'])) == Some("State"))?;
    let next = lines[state + 1..].iter().find(|l| !l.trim().is_empty())?;
    let depth = |l: &str| l.len() - l.trim_start_matches(' ').len();
    if depth(next) > depth(lines[state]) && !next.starts_with('\t') {
        return None;
    }
    Some(nest(&lines, Level::Container))
}

/// The lines with the indentation their keys give them, read from `level` on.
fn nest(lines: &[&str], start: Level) -> String {
    let text_len: usize = lines.iter().map(|l| l.len()).sum();
    let mut out = String::with_capacity(text_len + lines.len() * 4);
    let mut level = start;
    // A container's block alone has no Pod-level fields: `Reason:` there is a state's.
    let tops = start == Level::Top;
    for line in lines {
        let body = line.trim_start_matches([' ', '\t']);
        let content = body.trim_end_matches(['\n', '\r']);
        let key = key_of(content);
        let indent = if content.trim().is_empty() {
            0
        } else if let Some(k) =
            key.filter(|k| tops && TOP.contains(k) && !(level == Level::State && STATE.contains(k)))
        {
            level = match k {
                "Containers" | "Init Containers" => Level::Containers,
                _ if value_of(content).is_empty() => Level::Section,
                "Labels" | "Annotations" | "Tolerations" | "Node-Selectors" | "IPs" => Level::Section,
                _ => Level::Top,
            };
            0
        } else if matches!(
            level,
            Level::Containers | Level::Container | Level::State | Level::ContainerList
        ) && is_container_name(content)
        {
            level = Level::Container;
            2
        } else if matches!(level, Level::Container | Level::State | Level::ContainerList)
            && key.is_some_and(|k| CONTAINER.contains(&k))
        {
            level = match key {
                Some("State" | "Last State") => Level::State,
                Some("Limits" | "Requests" | "Args" | "Command" | "Environment" | "Mounts") => {
                    Level::ContainerList
                }
                _ => Level::Container,
            };
            4
        } else if level == Level::State && key.is_some_and(|k| STATE.contains(&k)) {
            6
        } else {
            match level {
                Level::ContainerList | Level::State => 6,
                Level::Top | Level::Containers | Level::Container => 4,
                // Rows of a section's table, and a label's further values (aligned under the
                // first, as describe prints them).
                Level::Section => 18,
            }
        };
        out.extend(std::iter::repeat_n(' ', indent));
        out.push_str(body);
    }
    out
}

/// `router:` (a container's name, alone on its line).
fn is_container_name(content: &str) -> bool {
    let Some(name) = content.trim_end().strip_suffix(':') else {
        return false;
    };
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.'))
}

fn key_of(content: &str) -> Option<&str> {
    let colon = content.find(':')?;
    let after = &content[colon + 1..];
    (after.is_empty() || after.starts_with([' ', '\t'])).then(|| &content[..colon])
}

fn value_of(content: &str) -> &str {
    content.split_once(':').map_or("", |(_, v)| v.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_describe_with_its_indentation_collapsed_gets_it_back() {
        let text = "Name: web-7d9f\nNamespace: shop\nContainers:\nweb:\nImage: registry.example.com/web:1.4\nState: Waiting\nReason: CrashLoopBackOff\nLast State: Terminated\nReason: Error\nExit Code: 1\nReady: False\nRestart Count: 7\nLimits:\nmemory: 256Mi\nConditions:\nType Status\nReady False\nEvents: <none>\n";
        let back = reindent(text).unwrap();
        assert_eq!(back.lines().count(), text.lines().count());
        let lines: Vec<&str> = back.lines().collect();
        assert_eq!(lines[3], "  web:");
        assert_eq!(lines[5], "    State: Waiting");
        assert_eq!(lines[6], "      Reason: CrashLoopBackOff");
        assert_eq!(lines[9], "      Exit Code: 1");
        assert_eq!(lines[11], "    Restart Count: 7");
        assert_eq!(lines[13], "      memory: 256Mi");
        assert_eq!(lines[14], "Conditions:");
    }

    /// The container block of https://github.com/lsst-it/k8s-cookbook/pull/1308 (the corpus's
    /// `wild/29`), quoted and then collapsed by a chat client: every line at the margin.
    #[test]
    fn a_container_block_alone_gets_its_nesting_back() {
        let text = "State: Running\nStarted: Fri, 16 Jan 2026 07:21:54 -0700\nLast State: Terminated\nReason: OOMKilled\nExit Code: 137\nStarted: Fri, 16 Jan 2026 03:29:44 -0700\nFinished: Fri, 16 Jan 2026 07:21:53 -0700\nReady: True\nRestart Count: 1255\nLimits:\ncpu: 1\nmemory: 1Gi\nRequests:\ncpu: 200m\nmemory: 256Mi\n";
        let back = reindent_container(text).unwrap();
        let lines: Vec<&str> = back.lines().collect();
        assert_eq!(lines.len(), text.lines().count());
        assert_eq!(lines[0], "    State: Running");
        assert_eq!(lines[1], "      Started: Fri, 16 Jan 2026 07:21:54 -0700");
        assert_eq!(lines[2], "    Last State: Terminated");
        assert_eq!(lines[3], "      Reason: OOMKilled");
        assert_eq!(lines[4], "      Exit Code: 137");
        assert_eq!(lines[7], "    Ready: True");
        assert_eq!(lines[8], "    Restart Count: 1255");
        assert_eq!(lines[11], "      memory: 1Gi");
        assert_eq!(lines[12], "    Requests:");
        // Tabs where the spaces were (a quoted copy of tab-aligned output).
        let tabbed = "\tState:\tRunning\n\tStarted:\tFri, 16 Jan 2026 07:21:54 -0700\n\tLast State:\tTerminated\n\tReason:\tOOMKilled\n";
        let back = reindent_container(tabbed).unwrap();
        assert_eq!(back.lines().nth(3), Some("      Reason:\tOOMKilled"));
        // Still nested: left alone.
        assert_eq!(
            reindent_container(
                "    State:          Running\n      Started:      Fri\n    Ready:          True\n"
            ),
            None
        );
    }

    #[test]
    fn an_indented_describe_is_left_alone() {
        assert_eq!(reindent("Name: a\nContainers:\n  web:\n    Image: x\n"), None);
    }
}
