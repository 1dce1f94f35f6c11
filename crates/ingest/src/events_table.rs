//! `kubectl get events` and `kubectl events` tables (signals.md §5.2–5.3).
//!
//! Layouts read: `kubectl get events` (default, `-A`, `-o wide`), the old `LASTSEEN FIRSTSEEN COUNT
//! NAME KIND …` and 2015-era `FirstSeen LastSeen Count From …` layouts, and `kubectl events` (whose
//! OBJECT is `Kind/name` and whose LAST SEEN may read `118s (x6 over 14m)`). Columns are found from
//! the header's positions; a row whose cells do not line up (re-spaced by a chat tool) is split at
//! runs of two or more spaces instead. Ages stay relative: a table has no absolute time, except
//! the dates describe printed under FirstSeen and LastSeen in 2015.

use super::segment::Command;
use k8s_openapi::jiff::fmt::rfc2822::DateTimeParser;
use k8s_openapi::jiff::Timestamp;

/// One row of an events table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEvent {
    pub line: u32,
    pub namespace: Option<String>,
    pub kind: String,
    pub name: String,
    pub field_path: Option<String>,
    pub type_: String,
    pub reason: String,
    pub message: String,
    /// Seconds before the capture moment, from LAST SEEN (`None` for `<unknown>`).
    pub last_age: Option<i64>,
    pub first_age: Option<i64>,
    /// FirstSeen and LastSeen as kubectl 1.0–1.1 printed them: dates (`Tue, 07 Jul 2015 12:53:51
    /// -0700`), not ages.
    pub first_time: Option<Timestamp>,
    pub last_time: Option<Timestamp>,
    pub count: u32,
    pub reporter: Option<String>,
    /// Read from a sentence that quotes a component's words (the catalog's), not from a record: no
    /// time, no count of its own. Dropped where the same input holds the record it quotes.
    pub quoted: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Namespace,
    LastSeen,
    FirstSeen,
    Count,
    Type,
    Reason,
    Object,
    Kind,
    /// The involved object's name in the old layouts; the event's own name when OBJECT is present.
    Name,
    SubObject,
    Source,
    Message,
}

fn column(name: &str) -> Option<Column> {
    Some(match name.to_ascii_uppercase().replace(' ', "").as_str() {
        "NAMESPACE" => Column::Namespace,
        // describe's Events section: AGE reads like LAST SEEN (`9s (x20 over 4m3s)`).
        "LASTSEEN" | "AGE" => Column::LastSeen,
        "FIRSTSEEN" => Column::FirstSeen,
        "COUNT" => Column::Count,
        "TYPE" => Column::Type,
        "REASON" => Column::Reason,
        "OBJECT" => Column::Object,
        "KIND" => Column::Kind,
        "NAME" => Column::Name,
        "SUBOBJECT" | "SUBOBJECTPATH" => Column::SubObject,
        "SOURCE" | "FROM" => Column::Source,
        "MESSAGE" => Column::Message,
        _ => return None,
    })
}

/// Header cells and where they start (byte offsets). Header words are separated by two or more
/// spaces (tabwriter padding), except that `LAST SEEN` and `FIRST SEEN` contain one.
fn header_cells(line: &str) -> Vec<(usize, &str)> {
    let mut cells = Vec::new();
    let mut at = 0;
    let bytes = line.as_bytes();
    while at < line.len() {
        while at < line.len() && (bytes[at] == b' ' || bytes[at] == b'\t') {
            at += 1;
        }
        if at >= line.len() {
            break;
        }
        let start = at;
        while at < line.len() {
            let gap = bytes[at] == b'\t'
                || (bytes[at] == b' ' && bytes.get(at + 1).is_none_or(|b| *b == b' ' || *b == b'\t'));
            if gap {
                break;
            }
            at += 1;
        }
        cells.push((start, &line[start..at]));
    }
    cells
}

/// Whether a line is the header of an events table.
pub fn is_header(line: &str) -> bool {
    // Every layout has a REASON column: most lines of a paste are rejected here, before any cell
    // is split (this is asked of every line no reader took).
    if !line
        .as_bytes()
        .windows(6)
        .any(|w| w.eq_ignore_ascii_case(b"reason"))
    {
        return false;
    }
    let columns: Vec<_> = header_cells(line).iter().map(|(_, c)| column(c)).collect();
    let spaced = columns.iter().all(Option::is_some)
        && columns.contains(&Some(Column::Reason))
        && columns.contains(&Some(Column::Message));
    spaced || collapsed_header(line).is_some()
}

/// A header whose runs of spaces a chat client collapsed to one (`LAST SEEN TYPE REASON OBJECT
/// MESSAGE`): its columns in order, the two-word names joined again.
fn collapsed_header(line: &str) -> Option<Vec<Column>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut columns = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let pair = words.get(i + 1).map(|next| format!("{} {next}", words[i]));
        match pair.as_deref().and_then(|p| {
            matches!(p, "LAST SEEN" | "FIRST SEEN")
                .then(|| column(p))
                .flatten()
        }) {
            Some(c) => {
                columns.push(c);
                i += 2;
            }
            None => {
                columns.push(column(words[i])?);
                i += 1;
            }
        }
    }
    (columns.len() >= 3 && columns.contains(&Column::Reason) && columns.last() == Some(&Column::Message))
        .then_some(columns)
}

/// The cells of a row whose spaces were collapsed, for a header whose MESSAGE is last: an age is
/// one word or `61s (x2 over 6m)`, a FROM is `kubelet, node-1` or one word, every other cell one
/// word, and the message what is left.
fn collapsed_row<'a>(line: &'a str, columns: &[Column]) -> Option<Vec<&'a str>> {
    let words = crate::lines::words(line);
    let mut cells = Vec::with_capacity(columns.len());
    let mut at = 0;
    for (n, column) in columns.iter().enumerate() {
        let (begin, _) = *words.get(at)?;
        if n + 1 == columns.len() {
            cells.push(line[begin..].trim());
            return Some(cells);
        }
        let mut end = at + 1;
        match column {
            Column::LastSeen | Column::FirstSeen
                if words.get(end).is_some_and(|(_, w)| w.starts_with("(x")) =>
            {
                end = (end + 3).min(words.len());
            }
            Column::Source if words[at].1.ends_with(',') => end = (end + 1).min(words.len()),
            _ => {}
        }
        let (last_start, last) = words[end - 1];
        cells.push(&line[begin..last_start + last.len()]);
        at = end;
    }
    None
}

/// Reads an events table from a segment's text; `None` when its first line is not an events header.
pub fn parse(text: &str, first_line: u32, command: Option<&Command>) -> Option<Vec<TableEvent>> {
    // Old kubectl (2015-2016) aligned columns with tabs: expand them to 8-column stops so the header
    // positions line up again.
    let expanded: Vec<std::borrow::Cow<'_, str>> = text.lines().map(expand_tabs).collect();
    let mut lines = (first_line..)
        .zip(expanded.iter().map(|l| l.as_ref()))
        .skip_while(|(_, l)| l.trim().is_empty());
    let (_, header) = lines.next()?;
    let header = header.trim_end();
    if !is_header(header) {
        return None;
    }
    let cells = header_cells(header);
    let mut columns: Vec<(usize, Column)> = cells
        .iter()
        .filter_map(|(at, name)| Some((*at, column(name)?)))
        .collect();
    // A collapsed header: columns in order, without positions (rows are split by their words).
    let collapsed = match collapsed_header(header) {
        Some(found) if columns.len() < found.len() => {
            columns = found.into_iter().map(|c| (usize::MAX, c)).collect();
            true
        }
        _ => false,
    };
    let hint_namespace = command.and_then(|c| c.namespace.clone());
    let mut rows: Vec<TableEvent> = Vec::new();
    let originals: Vec<&str> = text.lines().collect();
    for (line_no, raw) in lines {
        let line = raw.trim_end();
        // The row as pasted: when its expanded tabs do not line up with the header (a cell of
        // seven letters before a tab leaves one space), its tabs still separate its cells.
        let original = originals
            .get((line_no - first_line) as usize)
            .map_or(line, |o| o.trim_end());
        // Blank lines, and the dashed rule under describe's Events header.
        if line.trim().is_empty() || line.trim().chars().all(|c| c == '-' || c == ' ') {
            continue;
        }
        let split = if collapsed {
            let order: Vec<Column> = columns.iter().map(|(_, c)| *c).collect();
            collapsed_row(line, &order).filter(|v| plausible(v, &order))
        } else {
            split_row(line, &columns).or_else(|| {
                original
                    .contains('\t')
                    .then(|| split_row(original, &columns))
                    .flatten()
            })
        };
        let Some(values) = split else {
            // A line that does not fit the columns continues the previous message (wrapped text).
            if let Some(last) = rows.last_mut() {
                if !last.message.is_empty() {
                    last.message.push(' ');
                }
                last.message.push_str(line.trim());
            }
            continue;
        };
        rows.push(row(line_no, &columns, &values, hint_namespace.as_deref()));
    }
    let names_objects = columns
        .iter()
        .any(|(_, c)| matches!(c, Column::Object | Column::Kind | Column::Name));
    if !names_objects {
        name_subjects(&mut rows, command);
    }
    Some(rows)
}

/// The subjects of rows in a table that names none (describe's Events section pasted without its
/// object): what each row's message or the command names, else the kind its reason is recorded on;
/// then a row left without a name takes the one object of its kind that the other rows name (the
/// Pod a `Scheduled` row assigns, `Successfully assigned ns/pod to node`; the Node of `Node minikube
/// status is now: …`): one section's rows are about one object. A describe object that the rows
/// belong to sets them again afterwards.
fn name_subjects(rows: &mut [TableEvent], command: Option<&Command>) {
    let context = super::fragments::Context::of(command);
    for row in rows.iter_mut() {
        let message = row.message.clone();
        super::fragments::assign_subject(row, &message, &context);
    }
    let mut named: Vec<(String, Option<String>, String)> = Vec::new();
    for row in rows.iter().filter(|r| !r.name.is_empty()) {
        let object = (row.kind.clone(), row.namespace.clone(), row.name.clone());
        if !named.iter().any(|(k, _, n)| *k == object.0 && *n == object.2) {
            named.push(object);
        }
    }
    for row in rows
        .iter_mut()
        .filter(|r| r.name.is_empty() && !r.kind.is_empty())
    {
        let mut of_kind = named.iter().filter(|(kind, ..)| *kind == row.kind);
        if let (Some((_, namespace, name)), None) = (of_kind.next(), of_kind.next()) {
            row.name = name.clone();
            row.namespace = namespace.clone().or(row.namespace.take());
        }
    }
}

fn expand_tabs(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\t') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let spaces = 8 - column % 8;
            out.extend(std::iter::repeat_n(' ', spaces));
            column += spaces;
        } else {
            out.push(c);
            column += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The cells of a row, by header position when they line up, else by runs of 2+ spaces.
fn split_row<'a>(line: &'a str, columns: &[(usize, Column)]) -> Option<Vec<&'a str>> {
    let bytes = line.as_bytes();
    // Aligned when no word crosses a column start (an empty cell is all spaces, which is fine) and
    // the first cell is what its column holds (an age, for LAST SEEN).
    // Every column start must be a character boundary (a damaged or non-ASCII row may not be).
    let boundaries = columns
        .iter()
        .all(|(at, _)| *at >= line.len() || line.is_char_boundary(*at));
    let aligned = boundaries
        && columns.iter().skip(1).all(|(at, _)| {
            *at >= line.len()
                || (line.is_char_boundary(*at)
                    && bytes
                        .get(at.wrapping_sub(1))
                        .is_some_and(|b| *b == b' ' || *b == b'\t'))
        })
        && bytes.first().is_some_and(|b| *b != b' ')
        && columns
            .get(1)
            .is_none_or(|(at, _)| looks_like_age(line[..(*at).min(line.len())].trim(), columns[0].1));
    if aligned {
        let mut values = Vec::with_capacity(columns.len());
        for (i, (at, _)) in columns.iter().enumerate() {
            let start = (*at).min(line.len());
            let end = columns
                .get(i + 1)
                .map_or(line.len(), |(next, _)| (*next).min(line.len()));
            values.push(line[start..end].trim());
        }
        return Some(values);
    }
    // Re-spaced rows: split at 2+ spaces or tabs; the MESSAGE cell takes what is left when it is last.
    let mut parts: Vec<&str> = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() && parts.len() + 1 < columns.len() {
        let cut = find_gap(rest).unwrap_or(rest.len());
        parts.push(&rest[..cut]);
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() {
        parts.push(rest);
    }
    (parts.len() == columns.len() && looks_like_age(parts[0], columns[0].1)).then_some(parts)
}

fn find_gap(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find(|&i| bytes[i] == b'\t' || (bytes[i] == b' ' && bytes.get(i + 1) == Some(&b' ')))
}

/// A collapsed row's cells hold what their columns do: an age under LAST SEEN, FIRST SEEN or AGE,
/// `Normal` or `Warning` under TYPE. A message's continuation split into words does not
/// (`available: 1 Insufficient pods, …` under describe's `Type Reason Age From Message`).
fn plausible(cells: &[&str], columns: &[Column]) -> bool {
    cells.iter().zip(columns).all(|(cell, column)| match column {
        Column::Type => matches!(*cell, "Normal" | "Warning"),
        _ => looks_like_age(cell, *column),
    })
}

fn looks_like_age(cell: &str, column: Column) -> bool {
    match column {
        Column::LastSeen | Column::FirstSeen => {
            cell.starts_with('<') || parse_last_seen(cell).0.is_some() || date(cell).is_some()
        }
        _ => true,
    }
}

/// A date as describe printed FirstSeen and LastSeen in 2015 (`Tue, 07 Jul 2015 12:53:51 -0700`,
/// RFC 2822), kubernetes/kubernetes#10861.
fn date(cell: &str) -> Option<Timestamp> {
    static PARSER: DateTimeParser = DateTimeParser::new();
    // Most cells are ages: only a cell that starts with a weekday is parsed.
    if !cell
        .get(..4)
        .is_some_and(|d| d.ends_with(',') && d[..3].chars().all(|c| c.is_ascii_alphabetic()))
    {
        return None;
    }
    PARSER.parse_timestamp(cell.trim()).ok()
}

fn row(line: u32, columns: &[(usize, Column)], values: &[&str], hint_namespace: Option<&str>) -> TableEvent {
    let get = |c: Column| {
        columns
            .iter()
            .position(|(_, col)| *col == c)
            .and_then(|i| values.get(i))
            .copied()
    };
    let (kind, name) = match get(Column::Object) {
        Some(object) => match object.split_once('/') {
            Some((kind, name)) => (kind_from_table(kind), name.to_string()),
            None => (String::new(), object.to_string()),
        },
        None => (
            kind_from_table(get(Column::Kind).unwrap_or_default()),
            get(Column::Name).unwrap_or_default().to_string(),
        ),
    };
    let last_seen = get(Column::LastSeen).unwrap_or_default();
    let (last_age, series) = parse_last_seen(last_seen);
    let count = get(Column::Count)
        .and_then(|c| c.parse::<u32>().ok())
        .or(series.map(|(count, _)| count))
        .filter(|c| *c > 0)
        .unwrap_or(1);
    let first_age = get(Column::FirstSeen)
        .and_then(parse_age)
        .or(series.and_then(|(_, over)| over));
    let namespace = get(Column::Namespace)
        .map(str::to_string)
        .or_else(|| hint_namespace.map(str::to_string));
    TableEvent {
        line,
        namespace: if is_cluster_scoped(&kind) { None } else { namespace },
        kind,
        name,
        field_path: get(Column::SubObject)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        type_: get(Column::Type).unwrap_or_default().to_string(),
        reason: get(Column::Reason).unwrap_or_default().to_string(),
        message: get(Column::Message).unwrap_or_default().to_string(),
        last_age,
        first_age,
        first_time: get(Column::FirstSeen).and_then(date),
        last_time: get(Column::LastSeen).and_then(date),
        count,
        reporter: get(Column::Source)
            .filter(|s| !s.is_empty())
            .map(|s| s.split(',').next().unwrap_or(s).trim().to_string()),
        quoted: false,
    }
}

pub fn is_cluster_scoped(kind: &str) -> bool {
    matches!(
        kind,
        "Node"
            | "PersistentVolume"
            | "Namespace"
            | "StorageClass"
            | "ClusterRole"
            | "ClusterRoleBinding"
            | "CSINode"
            | "VolumeAttachment"
            | "PriorityClass"
    )
}

/// `LAST SEEN` as `kubectl events` prints it: `118s (x6 over 14m)` -> (118, Some((6, Some(840)))).
fn parse_last_seen(cell: &str) -> (Option<i64>, Option<(u32, Option<i64>)>) {
    let (age, rest) = match cell.split_once(" (x") {
        Some((age, rest)) => (age, Some(rest)),
        None => (cell, None),
    };
    let series = rest.and_then(|rest| {
        let (count, over) = rest.trim_end_matches(')').split_once(" over ")?;
        Some((count.parse().ok()?, parse_age(over)))
    });
    (parse_age(age.trim()), series)
}

/// Kubernetes' short human durations: `26s`, `4m31s`, `3h20m`, `2d3h`, `5y`; `None` for `<unknown>`.
pub fn parse_age(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() || !text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut total = 0i64;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'y' => 365 * 86_400,
            _ => return None,
        };
        total = total.checked_add(number.parse::<i64>().ok()?.checked_mul(unit)?)?;
        number.clear();
    }
    number.is_empty().then_some(total)
}

/// `pod` -> `Pod`, `replicaset` -> `ReplicaSet`; `kubectl events` already prints `Pod`.
pub fn kind_from_table(kind: &str) -> String {
    let known = [
        "ComponentStatus",
        "Pod",
        "Node",
        "ReplicaSet",
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "CronJob",
        "Service",
        "Endpoints",
        "EndpointSlice",
        "PersistentVolumeClaim",
        "PersistentVolume",
        "StorageClass",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "ConfigMap",
        "Secret",
        "Namespace",
        "Ingress",
        "ResourceQuota",
        "LimitRange",
        "ServiceAccount",
        "VolumeAttachment",
        "Lease",
        "ReplicationController",
        "NetworkPolicy",
        "IngressClass",
        "PriorityClass",
        "CertificateSigningRequest",
        "CustomResourceDefinition",
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
        "Role",
        "RoleBinding",
        "ClusterRole",
        "ClusterRoleBinding",
        "CSIDriver",
        "CSINode",
    ];
    let kind = kind.split('.').next().unwrap_or(kind);
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(kind))
        .map(|k| k.to_string())
        .unwrap_or_else(|| {
            let mut chars = kind.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str, command: Option<&str>) -> Vec<TableEvent> {
        let command = command.map(Command::parse);
        parse(text, 1, command.as_ref()).unwrap()
    }

    #[test]
    fn rows_of_an_events_section_alone_take_the_one_object_their_messages_name() {
        // The tail of `kubectl describe node`: no Name: line, the node named by one message.
        let text = "  Type     Reason                Age    From               Message\n  ----     ------                ----   ----               -------\n  Warning  EvictionThresholdMet  4m32s  kubelet, minikube  Attempting to reclaim ephemeral-storage\n  Normal   NodeHasDiskPressure   4m23s  kubelet, minikube  Node minikube status is now: NodeHasDiskPressure\n";
        let rows = parse_text(text, None);
        assert!(
            rows.len() == 2 && rows.iter().all(|r| r.kind == "Node" && r.name == "minikube"),
            "{rows:?}"
        );
    }

    #[test]
    fn default_layout_with_a_namespace_from_the_command() {
        let text = "LAST SEEN   TYPE      REASON      OBJECT          MESSAGE\n4m31s       Normal    Scheduled   pod/tag-probe   Successfully assigned exp-runtime/tag-probe to lab-worker2\n11s         Warning   Failed      pod/tag-probe   Error: ErrImagePull\n";
        let rows = parse_text(text, Some("kubectl -n exp-runtime get events"));
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[0].last_age, Some(271));
        assert_eq!(
            (rows[0].kind.as_str(), rows[0].name.as_str()),
            ("Pod", "tag-probe")
        );
        assert_eq!(rows[0].namespace.as_deref(), Some("exp-runtime"));
        assert_eq!(rows[1].reason, "Failed");
        assert_eq!(rows[1].message, "Error: ErrImagePull");
    }

    #[test]
    fn kubectl_events_series_and_all_namespaces() {
        let text = "LAST SEEN            TYPE      REASON               OBJECT         MESSAGE\n118s (x6 over 14m)   Warning   FailedAttachVolume   Pod/gitaly-0   AttachVolume.Attach failed\n";
        let rows = parse_text(text, Some("kubectl events -n gitlab --for pod/gitaly-0"));
        assert_eq!(
            (rows[0].last_age, rows[0].count, rows[0].first_age),
            (Some(118), 6, Some(840))
        );
        assert_eq!(rows[0].namespace.as_deref(), Some("gitlab"));
        let text = "NAMESPACE   LAST SEEN   TYPE      REASON                OBJECT             MESSAGE\ndefault     21m         Normal    NodeHasDiskPressure   node/edge-node-3   Node edge-node-3 status is now: NodeHasDiskPressure\n";
        let rows = parse_text(text, None);
        assert_eq!(rows[0].kind, "Node");
        assert_eq!(rows[0].namespace, None, "nodes are cluster-scoped");
    }

    #[test]
    fn wide_and_old_layouts() {
        let wide = "LAST SEEN   TYPE      REASON   OBJECT      SUBOBJECT                SOURCE              MESSAGE          FIRST SEEN   COUNT   NAME\n2m          Warning   Failed   pod/web-1   spec.containers{web}     kubelet, node-a     Error: x         10m          7       web-1.17a\n";
        let rows = parse_text(wide, Some("kubectl get events -o wide -n shop"));
        let r = &rows[0];
        assert_eq!((r.name.as_str(), r.count, r.first_age), ("web-1", 7, Some(600)));
        assert_eq!(r.field_path.as_deref(), Some("spec.containers{web}"));
        assert_eq!(r.reporter.as_deref(), Some("kubelet"));
        let old = "LASTSEEN   FIRSTSEEN   COUNT     NAME      KIND      SUBOBJECT   TYPE      REASON    SOURCE              MESSAGE\n1m         1h          12        web-1     Pod                   Warning   BackOff   kubelet, node-a     Back-off restarting failed container\n";
        let r = &parse_text(old, None)[0];
        assert_eq!(
            (r.kind.as_str(), r.name.as_str(), r.count, r.reason.as_str()),
            ("Pod", "web-1", 12, "BackOff")
        );
        assert_eq!(r.field_path, None);
    }

    #[test]
    fn the_2015_tab_aligned_describe_layout() {
        let text = "FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubObjectPath\tType\t\tReason\t\t\tMessage\n---------\t--------\t-----\t----\t\t\t-------------\t--------\t------\t\t\t-------\n2m\t\t2m\t\t1\t{default-scheduler }\t\t\tWarning\t\tFailedScheduling\tpod (web) failed to fit in any node\n";
        let rows = parse_text(text, None);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let r = &rows[0];
        assert_eq!(
            (r.reason.as_str(), r.type_.as_str(), r.count),
            ("FailedScheduling", "Warning", 1)
        );
        assert_eq!((r.first_age, r.last_age), (Some(120), Some(120)));
        assert_eq!(r.reporter.as_deref(), Some("{default-scheduler }"));
        assert_eq!(r.message, "pod (web) failed to fit in any node");
    }

    /// kubernetes/kubernetes#10861: kubectl 1.0 printed dates under FirstSeen and LastSeen.
    #[test]
    fn the_2015_layout_with_dates() {
        let text = "FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\t\t\t\tSubobjectPath\t\t\t\tReason\t\tMessage\nTue, 07 Jul 2015 12:53:51 -0700\tTue, 07 Jul 2015 12:54:41 -0700\t2\t{kubelet kubernetes-minion-tf0f}\timplicitly required container POD\tpulled\t\tPod container image \"gcr.io/google_containers/pause:0.8.0\" already present on machine\n";
        let rows = parse_text(text, None);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let r = &rows[0];
        assert_eq!((r.reason.as_str(), r.count), ("pulled", 2));
        assert_eq!(
            r.first_time.map(|t| t.to_string()).as_deref(),
            Some("2015-07-07T19:53:51Z")
        );
        assert_eq!(
            r.last_time.map(|t| t.to_string()).as_deref(),
            Some("2015-07-07T19:54:41Z")
        );
        assert_eq!(r.last_age, None);
        assert!(r.message.ends_with("already present on machine"));
    }

    #[test]
    fn re_spaced_rows_and_wrapped_messages() {
        let text = "LAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n5m  Warning  Failed  pod/a  Failed to pull image \"x\": not found\n   (continued on the next line)\n";
        let rows = parse_text(text, None);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].reason, "Failed");
        assert!(
            rows[0]
                .message
                .ends_with("not found (continued on the next line)"),
            "{}",
            rows[0].message
        );
    }

    /// Regression: a multi-byte character at the start of a row made the aligned path slice inside
    /// it (found by the no-panic property test).
    #[test]
    fn a_multibyte_character_at_a_column_start_does_not_panic() {
        let text = "  Type     Reason   Age   From     Message\n\u{FFFD} ----     ------   ----  ----     -------\n  Warning  Failed   5s    kubelet  Error: x\n";
        let rows = parse(text, 1, None).unwrap();
        assert_eq!(rows.last().map(|r| r.reason.as_str()), Some("Failed"));
    }

    #[test]
    fn ages() {
        assert_eq!(parse_age("26s"), Some(26));
        assert_eq!(parse_age("3h20m"), Some(12_000));
        assert_eq!(parse_age("2d3h"), Some(183_600));
        assert_eq!(parse_age("<unknown>"), None);
        assert_eq!(parse_age("5x"), None);
        assert!(!is_header("NAME   READY   STATUS   RESTARTS   AGE"));
    }
}
