//! `kubectl get` tables of the built-in kinds (pods, workloads, nodes, services, endpoints and
//! slices, PVs and PVCs, jobs and cronjobs, ingresses, storage classes, HPAs, network policies,
//! PDBs, secrets, config maps, service accounts, quotas, namespaces; default and `-o wide`, with
//! or without `-A`, and `get all` with a header per kind), turned into positioned object trees like
//! [`super::describe`] does. A custom resource's rows become objects of the kind the command line
//! names (`kubectl get certificates`: Certificate); without the command they are kept as text.
//!
//! Only what a column states exactly becomes a field: a node's STATUS `NotReady` is its `Ready`
//! condition not being True, a PVC's STATUS is its phase, a Deployment's READY `2/3` is its ready and
//! desired replicas. A pod's STATUS is kubectl's summary (`CrashLoopBackOff`, `Init:0/1`,
//! `Completed`), not a field of the object; it is kept as `kubectl.status` so rules can read it as the
//! weak evidence it is, without pretending to know which container it came from.

use crate::node::{MapEntry, Node, NodeValue, Pos, ScalarStyle};
use crate::segment::Command;

mod kinds;
mod row;

pub use kinds::kind_of_resource;
use kinds::{is_get_shaped, table_kind};
use row::row_object;

/// Header cells and their start offsets (cells are separated by 2+ spaces; `ACCESS MODES`,
/// `NOMINATED NODE`, `READINESS GATES`, `NODE SELECTOR` contain one).
fn header(line: &str) -> Vec<(usize, &str)> {
    let spaced = spaced_header(line);
    if spaced.len() == 1 && spaced[0].1.contains(' ') {
        if let Some(collapsed) = collapsed_header(line) {
            return collapsed;
        }
    }
    spaced
}

/// The column names that hold a space.
const TWO_WORD_COLUMNS: [&str; 10] = [
    "NOMINATED NODE",
    "READINESS GATES",
    "ACCESS MODES",
    "NODE SELECTOR",
    "LAST SEEN",
    "RECLAIM POLICY",
    "LAST SCHEDULE",
    "MIN AVAILABLE",
    "MAX UNAVAILABLE",
    "ALLOWED DISRUPTIONS",
];

/// A header a chat client collapsed to single spaces (`NAME READY STATUS RESTARTS AGE`): its names,
/// at no position (`usize::MAX`: rows are split by their words, [`row_cells`]).
fn collapsed_header(line: &str) -> Option<Vec<(usize, &str)>> {
    let line = line.trim();
    let mut cells = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let two = TWO_WORD_COLUMNS.iter().find(|n| {
            rest.starts_with(**n) && rest[n.len()..].chars().next().is_none_or(char::is_whitespace)
        });
        let len = two.map_or_else(|| rest.find(' ').unwrap_or(rest.len()), |n| n.len());
        cells.push((usize::MAX, &rest[..len]));
        rest = rest[len..].trim_start();
    }
    (cells.len() >= 2).then_some(cells)
}

fn spaced_header(line: &str) -> Vec<(usize, &str)> {
    let mut cells = Vec::new();
    let bytes = line.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && (bytes[at] == b' ' || bytes[at] == b'\t') {
            at += 1;
        }
        if at >= bytes.len() {
            break;
        }
        let start = at;
        while at < bytes.len()
            && !(bytes[at] == b'\t' || bytes[at] == b' ' && bytes.get(at + 1).is_none_or(|b| *b == b' '))
        {
            at += 1;
        }
        cells.push((start, &line[start..at]));
    }
    cells
}

/// Whether a line is a `kubectl get` header of a kind this module reads, or of any kind (its rows
/// then kept as text: [`parse`] makes no object of them).
pub fn is_header(line: &str, command: Option<&Command>) -> bool {
    // `NAME` or `NAMESPACE` first: most lines are rejected before their cells are split.
    if !line.trim_start().starts_with("NAME") {
        return false;
    }
    let cells = header(line.trim_end());
    let names: Vec<&str> = cells.iter().map(|(_, n)| *n).collect();
    let upper = matches!(names.first(), Some(&"NAME" | &"NAMESPACE"))
        && names.iter().all(|n| {
            n.chars().all(|c| {
                c.is_ascii_uppercase()
                    || matches!(c, ' ' | '-' | '(' | ')' | '_' | '.' | '/')
                    || c.is_ascii_digit()
            })
        });
    (upper && table_kind(&names, command).is_some()) || is_get_shaped(&names)
}

/// Reads a table into object trees, one per row.
pub fn parse(text: &str, first_line: u32, command: Option<&Command>) -> Vec<Node> {
    parse_rows(text, first_line, command).0
}

/// [`parse`], with the line of a last row cut off by the excerpt, if there is one (its object keeps
/// its name only).
pub fn parse_rows(text: &str, first_line: u32, command: Option<&Command>) -> (Vec<Node>, Option<u32>) {
    let mut cut = None;
    let mut lines = (first_line..)
        .zip(text.lines())
        .skip_while(|(_, l)| l.trim().is_empty());
    let Some((_, head)) = lines.next() else {
        return (Vec::new(), None);
    };
    let mut cells = header(head.trim_end());
    let mut names: Vec<&str> = cells.iter().map(|(_, n)| *n).collect();
    let mut kind = table_kind(&names, command);
    let hint_namespace = command.and_then(|c| c.namespace.clone());
    let mut objects = Vec::new();
    // The last row of an excerpt may be cut mid-line (`0/1     Cra`): its last cells are not there.
    let last_row = (first_line..)
        .zip(text.lines())
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, _)| n)
        .last();
    for (line_no, raw) in lines {
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        // `kubectl get all`, `get pods,svc`: a header per kind, each table after the one before.
        if is_header(line, command) && row_cells(line, &cells) != names {
            cells = header(line);
            names = cells.iter().map(|(_, n)| *n).collect();
            kind = table_kind(&names, command);
            continue;
        }
        let values = row_cells(line, &cells);
        let Some(kind) = kind.as_deref() else { continue };
        if values.len() != cells.len() {
            continue;
        }
        // A cut last row: the cells after the last one printed are missing, and that one may be
        // cut too. What it would have said is unknown, never failing: only its name is kept.
        // It ends before the last column (kubectl prints every row's AGE) with fewer words than the
        // header has columns; a Pending claim's empty VOLUME still reaches its AGE.
        let words = line.split_whitespace().count();
        // A table whose last column kubectl leaves empty (`get cs`'s ERROR) has no such tell.
        let short = cells
            .last()
            .is_some_and(|(at, name)| line.len() <= *at && !matches!(*name, "ERROR" | "MESSAGE"));
        let mut dropped: Vec<usize> = Vec::new();
        if Some(line_no) == last_row && short && words < names.len() && words > 1 {
            dropped = (0..values.len())
                .filter(|i| !matches!(names[*i], "NAME" | "NAMESPACE"))
                .collect();
            cut = Some(line_no);
        }
        // No object's name has a space: a line whose NAME cell does is a sentence under the table
        // (`Output of Kubelet on the Minion`, kubernetes/kubernetes#12269), not a row. A
        // StorageClass's `(default)` marker is the one space kubectl prints in a name cell.
        let name_cell = names.iter().position(|n| *n == "NAME").map(|i| values[i]);
        if name_cell.is_some_and(|n| {
            n.strip_suffix(" (default)")
                .unwrap_or(n)
                .contains(char::is_whitespace)
        }) {
            continue;
        }
        let pos = |i: usize| Pos::new(line_no, cells[i].0.min(line.len()) as u32 + 1);
        let get = |name: &str| {
            let i = names.iter().position(|n| *n == name)?;
            // `get all` prefixes each name with its kind: `pod/web-7d9f`, `deployment.apps/web`.
            let value = match (name, values[i].split_once('/')) {
                ("NAME", Some((prefix, rest))) if kind_of_resource(prefix).as_deref() == Some(kind) => rest,
                _ => values[i],
            };
            // A cell a cut row lost says nothing.
            if dropped.contains(&i) {
                return None;
            }
            let shift = (values[i].len() - value.len()) as u32;
            let at = pos(i);
            Some((value, Pos::new(at.line, at.column + shift)))
        };
        let mut object = row_object(kind, &get, pos(0), hint_namespace.as_deref());
        add_label_columns(&mut object, command, &names, &values, &pos);
        objects.push(object);
    }
    (objects, cut)
}

/// Rows of `kubectl get pods` (or nodes) printed without their header — `kubectl get pods | grep
/// web`, `| tail -n +2` — read as a table whose header is the one kubectl prints for the command,
/// when every row has the shape of that kind's rows (a pod's READY is `n/m`; a node's STATUS is
/// `Ready` or `NotReady`). `None` when the command names no such kind or a line does not fit.
pub fn headerless(text: &str, first_line: u32, command: Option<&Command>) -> Option<Vec<Node>> {
    let Some(command) = command else {
        return commandless_node_rows(text, first_line).or_else(|| commandless_pod_rows(text, first_line));
    };
    let words: Vec<&str> = command.own_words();
    let at = words.iter().position(|w| *w == "get")?;
    let target = words[at + 1..].iter().find(|w| !w.starts_with('-'))?;
    let all = words.iter().any(|w| matches!(*w, "-A" | "--all-namespaces"));
    let wide = words.windows(2).any(|w| w == ["-o", "wide"]) || words.contains(&"-owide");
    type Shape = fn(&[&str]) -> bool;
    let (names, shape): (&[&str], Shape) = match target.split('/').next().unwrap_or(target) {
        "pods" | "pod" | "po" => (
            &[
                "NAME",
                "READY",
                "STATUS",
                "RESTARTS",
                "AGE",
                "IP",
                "NODE",
                "NOMINATED NODE",
                "READINESS GATES",
            ],
            |cells| {
                cells.len() >= 4
                    && cells[1]
                        .split_once('/')
                        .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
            },
        ),
        "nodes" | "node" | "no" => {
            // kubectl 1.0–1.1 printed `NAME LABELS STATUS [AGE]` (kubernetes/kubernetes#10486).
            let labels = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| node_row_header(&split_cells(l.trim())) == Some(&OLD_NODE_HEADER[..]));
            if labels {
                (&OLD_NODE_HEADER[..], |cells: &[&str]| {
                    node_row_header(cells) == Some(&OLD_NODE_HEADER[..])
                })
            } else {
                (
                    &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
                    |cells: &[&str]| cells.len() >= 4 && is_node_status(cells[1]),
                )
            }
        }
        _ => return None,
    };
    // A chat client collapsed the runs of spaces between the cells: no row splits at two spaces,
    // and the cells are one word each (`19 (75s ago)` one cell), as under a collapsed header.
    let collapsed = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|r| split_cells(r.trim()).len() == 1);
    let fits = |line: &str| {
        let cells = if collapsed {
            collapsed_cells(line)
        } else {
            split_cells(line.trim())
        };
        shape(if all && cells.len() > 1 {
            &cells[1..]
        } else {
            &cells
        })
    };
    let most = names.len() + usize::from(all);
    let rejoined = rejoin_rows(text, &fits, most);
    let text = rejoined.as_deref().unwrap_or(text);
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let first = *rows.first()?;
    if is_header(first, Some(command)) || !rows.iter().all(|r| fits(r)) {
        return None;
    }
    let count = if collapsed {
        collapsed_cells(first).len()
    } else {
        split_cells(first.trim()).len()
    };
    let mut header: Vec<&str> = Vec::new();
    if all {
        header.push("NAMESPACE");
    }
    header.extend(names.iter().take(count - usize::from(all)));
    if !wide && header.len() < count {
        return None;
    }
    // Single spaces between the names make the header a collapsed one ([`collapsed_header`]): its
    // rows are then split by their words.
    let header = header.join(if collapsed { " " } else { "   " });
    let mut table = String::with_capacity(header.len() + text.len() + 1);
    table.push_str(&header);
    table.push('\n');
    // The text after the header line, with every row where it was: the header takes line
    // `first_line - 1` (a line of the input before the rows, never cited).
    table.push_str(text.trim_start_matches('\n'));
    let skipped = text.len() - text.trim_start_matches('\n').len();
    let objects = parse(&table, first_line + skipped as u32 - 1, Some(command));
    (!objects.is_empty()).then_some(objects)
}

/// The header of kubectl 1.0–1.1's `get nodes`, which printed each node's labels.
const OLD_NODE_HEADER: [&str; 4] = ["NAME", "LABELS", "STATUS", "AGE"];

/// A node's STATUS as `kubectl get nodes` prints it: `Ready`, `NotReady`, `Unknown`, each maybe
/// followed by `,SchedulingDisabled`.
fn is_node_status(cell: &str) -> bool {
    let mut parts = cell.split(',');
    matches!(parts.next(), Some("Ready" | "NotReady" | "Unknown")) && parts.all(|p| p == "SchedulingDisabled")
}

/// The header of a `get nodes` row known by its cells alone, without a header or a command: kubectl
/// 1.0–1.1's `NAME LABELS STATUS [AGE]` (labels `k=v,…` or `<none>`), or a later one whose last cell
/// is the kubelet's version (`NAME STATUS [ROLES] AGE VERSION`). Other shapes are not sure enough
/// to be read as nodes without a command naming them.
fn node_row_header(cells: &[&str]) -> Option<&'static [&'static str]> {
    let name = *cells.first()?;
    if name.contains(char::is_whitespace) || name.ends_with(':') {
        return None;
    }
    let labels = |c: &str| c == "<none>" || c.contains('=') && !c.contains(' ');
    let version = |c: &str| {
        c.strip_prefix('v')
            .is_some_and(|v| v.starts_with(|d: char| d.is_ascii_digit()))
    };
    match cells.len() {
        3 | 4 if labels(cells[1]) && is_node_status(cells[2]) => Some(&OLD_NODE_HEADER[..]),
        4 if is_node_status(cells[1]) && version(cells[3]) => Some(&["NAME", "STATUS", "AGE", "VERSION"]),
        5 if is_node_status(cells[1]) && version(cells[4]) => {
            Some(&["NAME", "STATUS", "ROLES", "AGE", "VERSION"])
        }
        _ => None,
    }
}

/// Where a run of `kubectl get nodes` rows without their header and without a command ends (blank
/// lines between rows belong to it): the byte offset after its last row, 0 when `text` does not
/// start with such a row. The rows are known by their cells ([`node_row_header`]), all of one
/// layout.
pub fn node_rows_end(text: &str) -> usize {
    let mut header = None;
    let (mut at, mut end) = (0, 0);
    for line in text.split_inclusive('\n') {
        at += line.len();
        if line.trim().is_empty() {
            continue;
        }
        // Most lines of a paste are not node rows: those without a node's STATUS are not split.
        if !(line.contains("Ready") || line.contains("Unknown")) {
            break;
        }
        match node_row_header(&split_cells(line.trim())) {
            Some(h) if header.is_none_or(|k| k == h) => {
                header = Some(h);
                end = at;
            }
            _ => break,
        }
    }
    end
}

/// Rows of `kubectl get nodes` pasted without their header and without the command (`When i run
/// kubectl get nodes i am getting below output`, then the rows): read as a table with the header
/// their layout has, when every row has it ([`node_row_header`]).
fn commandless_node_rows(text: &str, first_line: u32) -> Option<Vec<Node>> {
    let mut header: Option<&[&str]> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let this = node_row_header(&split_cells(line.trim()))?;
        if header.is_some_and(|h| h != this) {
            return None;
        }
        header = Some(this);
    }
    let header = header?;
    let count = split_cells(text.lines().find(|l| !l.trim().is_empty())?.trim()).len();
    let header = header[..count.min(header.len())].join("   ");
    let mut table = String::with_capacity(header.len() + text.len() + 1);
    table.push_str(&header);
    table.push('\n');
    table.push_str(text.trim_start_matches('\n'));
    let skipped = text.len() - text.trim_start_matches('\n').len();
    let command = Command::parse("kubectl get nodes");
    let objects = parse(&table, first_line + skipped as u32 - 1, Some(&command));
    (!objects.is_empty()).then_some(objects)
}

/// `kubectl get pods` rows known by their cells alone, without a header or a command (the user cut
/// both): every row `NAME READY STATUS RESTARTS AGE [IP NODE …]`, or with a NAMESPACE first, where
/// READY is `n/m`, STATUS one word kubectl prints (`Running`, `CrashLoopBackOff`, `Init:0/1`) and
/// AGE an age (`14m`, `3d2h`). Read as the rows of the command kubectl would have printed them for.
fn commandless_pod_rows(text: &str, first_line: u32) -> Option<Vec<Node>> {
    let mut namespaced: Option<bool> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let this = pod_row_namespaced(line)?;
        if namespaced.is_some_and(|n| n != this) {
            return None;
        }
        namespaced = Some(this);
    }
    let wide = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| split_cells(l.trim()).len() > 5 + usize::from(namespaced == Some(true)));
    let command = Command::parse(&format!(
        "kubectl get pods{}{}",
        if namespaced? { " -A" } else { "" },
        if wide { " -o wide" } else { "" }
    ));
    headerless(text, first_line, Some(&command))
}

/// Whether a line is a `kubectl get pods` row by its cells alone ([`commandless_pod_rows`]): `Some`
/// with whether a NAMESPACE cell comes first, `None` when it is not one.
fn pod_row_namespaced(line: &str) -> Option<bool> {
    // Most lines are not rows: one without READY's `/` is not split.
    if !line.contains('/') {
        return None;
    }
    let ready = |c: &str| {
        c.split_once('/')
            .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
    };
    let status = |c: &str| {
        let word = c.split(':').next().unwrap_or(c);
        word.len() > 2
            && word.starts_with(|ch: char| ch.is_ascii_uppercase())
            && word.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    let restarts = |c: &str| c.split(' ').next().is_some_and(|n| n.parse::<u32>().is_ok());
    let age = |c: &str| {
        c.starts_with(|ch: char| ch.is_ascii_digit())
            && c.bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b's' | b'm' | b'h' | b'd' | b'y'))
            && c.ends_with(['s', 'm', 'h', 'd', 'y'])
    };
    let pod_row = |cells: &[&str]| {
        cells.len() >= 5 && ready(cells[1]) && status(cells[2]) && restarts(cells[3]) && age(cells[4])
    };
    let cells = split_cells(line.trim());
    if pod_row(&cells) {
        Some(false)
    } else if cells.len() > 1 && pod_row(&cells[1..]) {
        Some(true)
    } else {
        None
    }
}

/// Where a run of `kubectl get pods` rows at the start of `text` ends, pasted without header or
/// command (blank lines between rows belong to it): the byte offset after its last row, 0 when
/// `text` does not start with such a row. All rows of one layout (with or without NAMESPACE).
pub fn pod_rows_end(text: &str) -> usize {
    let mut layout = None;
    let (mut at, mut end) = (0, 0);
    for line in text.split_inclusive('\n') {
        at += line.len();
        if line.trim().is_empty() {
            continue;
        }
        match pod_row_namespaced(line) {
            Some(n) if layout.is_none_or(|l| l == n) => {
                layout = Some(n);
                end = at;
            }
            _ => break,
        }
    }
    end
}

/// Rows without their header that a hard wrap broke (`granulate-gprofiler-t7dwh  0/1
/// CrashLoopBackOff  19 (75s` | `ago)   74m`), joined: a line that is no row continues the row
/// before it when that row was too full to take its first word ([`Wrap::broke`]) and the two make
/// a row of at most `most` cells. One line per line of the text (a rest's line is left empty), so
/// a row stays cited at its first line; `None` when nothing was joined.
///
/// [`Wrap::broke`]: crate::rewrap::Wrap::broke
fn rejoin_rows(text: &str, fits: &dyn Fn(&str) -> bool, most: usize) -> Option<String> {
    let wrap = crate::rewrap::Wrap::of(text)?;
    let lines: Vec<&str> = crate::lines::split_inclusive(text).collect();
    let body = |l: &str| l.trim_end_matches(['\n', '\r']).len();
    let mut out = String::with_capacity(text.len());
    let mut joined_any = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let mut row = line[..body(line)].to_string();
        let mut next = i + 1;
        if fits(&row) {
            while next < lines.len() && wrap.broke(lines[next - 1], lines[next]) && !fits(lines[next]) {
                let mut longer = row.clone();
                wrap.join(&mut longer, lines[next - 1], lines[next]);
                if !fits(&longer) || split_cells(longer.trim()).len() > most {
                    break;
                }
                row = longer;
                next += 1;
            }
        }
        out.push_str(&row);
        out.push_str(&line[body(line)..]);
        for taken in &lines[i + 1..next] {
            out.push_str(&taken[body(taken)..]);
            joined_any = true;
        }
        i = next;
    }
    joined_any.then_some(out)
}

/// The cells of a row whose spaces were collapsed: one word each, a `(75s ago)` after RESTARTS
/// joined to the count before it.
fn collapsed_cells(line: &str) -> Vec<&str> {
    let line = line.trim();
    let mut cells: Vec<&str> = Vec::new();
    let mut at = 0;
    while at < line.len() {
        let rest = &line[at..];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word_start = at;
        at += len;
        at += line[at..].len() - line[at..].trim_start().len();
        if rest.starts_with('(') {
            // Join `(75s` `ago)` to the cell before it.
            let close = line[word_start..]
                .find(')')
                .map_or(line.len(), |c| word_start + c + 1);
            if let Some(last) = cells.last_mut() {
                let begin = last.as_ptr() as usize - line.as_ptr() as usize;
                *last = &line[begin..close];
            }
            at = close + (line[close..].len() - line[close..].trim_start().len());
            continue;
        }
        cells.push(&line[word_start..word_start + len]);
    }
    cells
}

/// A row's cells, split at runs of two or more spaces (or tabs).
fn split_cells(line: &str) -> Vec<&str> {
    line.split("  ")
        .flat_map(|c| c.split('\t'))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Cells by the header's positions when the row lines up, else split at runs of 2+ spaces.
fn row_cells<'a>(line: &'a str, cells: &[(usize, &str)]) -> Vec<&'a str> {
    if cells.first().is_some_and(|(at, _)| *at == usize::MAX) {
        return collapsed_cells(line);
    }
    let bytes = line.as_bytes();
    let boundaries = cells
        .iter()
        .all(|(at, _)| *at >= line.len() || line.is_char_boundary(*at));
    let aligned = boundaries
        && cells.iter().skip(1).all(|(at, _)| {
            *at >= line.len() || (line.is_char_boundary(*at) && bytes.get(at.wrapping_sub(1)) == Some(&b' '))
        });
    if aligned {
        return cells
            .iter()
            .enumerate()
            .map(|(i, (at, _))| {
                let start = (*at).min(line.len());
                let end = cells
                    .get(i + 1)
                    .map_or(line.len(), |(next, _)| (*next).min(line.len()));
                line[start..end].trim()
            })
            .collect();
    }
    split_cells(line)
}

/// `kubectl get … -L storage-tier` adds a column headed `STORAGE-TIER` (the key's last path segment,
/// upper-cased); its cells are that label's values.
fn add_label_columns(
    object: &mut Node,
    command: Option<&Command>,
    names: &[&str],
    values: &[&str],
    pos: &dyn Fn(usize) -> Pos,
) {
    let Some(command) = command else { return };
    let words: Vec<&str> = command.line.split_whitespace().collect();
    let mut keys = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let list = match *word {
            "-L" | "--label-columns" => words.get(i + 1).copied(),
            _ => word
                .strip_prefix("--label-columns=")
                .or_else(|| word.strip_prefix("-L").filter(|k| !k.is_empty())),
        };
        keys.extend(list.into_iter().flat_map(|l| l.split(',')));
    }
    let NodeValue::Map(entries) = &mut object.value else {
        return;
    };
    let Some(meta) = entries.iter_mut().find(|e| e.key == "metadata") else {
        return;
    };
    let NodeValue::Map(meta_entries) = &mut meta.value.value else {
        return;
    };
    let mut labels = Vec::new();
    for key in keys {
        let header = key.rsplit('/').next().unwrap_or(key).to_ascii_uppercase();
        if let Some(i) = names.iter().position(|n| *n == header) {
            if !values[i].is_empty() {
                let at = pos(i);
                labels.push(MapEntry {
                    key: key.into(),
                    key_pos: at,
                    value: Node::new(NodeValue::scalar(values[i], ScalarStyle::Quoted), at),
                });
            }
        }
    }
    if !labels.is_empty() {
        let at = labels[0].key_pos;
        let mut with_labels = std::mem::take(meta_entries).into_vec();
        with_labels.push(MapEntry {
            key: "labels".into(),
            key_pos: at,
            value: Node::new(NodeValue::Map(labels.into()), at),
        });
        *meta_entries = with_labels.into();
    }
}

#[cfg(test)]
mod tests;
