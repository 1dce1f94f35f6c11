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

/// The width of a text's widest line, when it is one a hard wrap leaves (40 to [`WIDEST_WRAP`]).
/// A longer line followed by an empty one is a table row [`rejoin_tables`] joined, not a sign the
/// text was not wrapped: it is left out. Stops at the first longer line (a dump's first long line).
///
/// It takes the lines as they come, so that a text is not split into a list of its lines before
/// its first long line lets it go: a 43 MB JSON dump's 868,558 lines were collected (14 MB, 93
/// million instructions) to look at its first 320.
fn widest<'t>(lines: impl IntoIterator<Item = &'t str>) -> Option<usize> {
    let mut lines = lines.into_iter().peekable();
    let mut widest = 0;
    while let Some(line) = lines.next() {
        let w = width(line);
        if w > WIDEST_WRAP {
            let joined_row = lines
                .peek()
                .is_some_and(|next| next.trim_end_matches(['\n', '\r']).is_empty());
            if !joined_row {
                return None;
            }
            continue;
        }
        widest = widest.max(w);
    }
    (widest >= 40).then_some(widest)
}

/// The text with its hard-wrapped lines joined, or `None` when it has none.
pub fn rejoin(text: &str, keys: Keys) -> Option<String> {
    // Widths count the spaces a line ends with: the wrap leaves all but the one it broke at.
    let widest = widest(text.split_inclusive('\n'))?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    // The line the current one would continue: its index in `out`.
    let mut open: Option<usize> = None;
    let mut joined = false;
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
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
                join_rest(&mut out, at, Wrap { widest }, lines[i - 1], line);
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

/// A line of JSON (a member `"message": "…`, a string in an array): JSON's reader steps over a
/// wrap inside its strings itself (`json::Reader::wrapped_string_break`), from the widths the wrap
/// left.
fn json_line(content: &str) -> bool {
    content.starts_with(['"', '{', '['])
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

/// What a hard wrap leaves in a text, read from its lines alone: no line is wider than the widest
/// one, and a line the wrap broke was too full to take the first word of the line after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wrap {
    widest: usize,
}

impl Wrap {
    /// `None` when the text has a line too long to have been hard-wrapped, or none long enough to
    /// have needed it ([`widest`]).
    pub fn of(text: &str) -> Option<Wrap> {
        Some(Wrap {
            widest: widest(crate::lines::split_inclusive(text))?,
        })
    }

    /// Whether `next` may be the rest of `line`: `line` holds text and was too full to take
    /// `next`'s first word, and `next` starts at the left margin, where the wrap puts a rest.
    pub fn broke(self, line: &str, next: &str) -> bool {
        let first_word = next.split([' ', '\t']).next().map_or(0, |w| {
            crate::lines::chars(w.trim_end_matches(['\n', '\r']).as_bytes())
        });
        !line.trim().is_empty()
            && !next.trim().is_empty()
            && starts_at_margin(next)
            && width(line) + 1 + first_word >= self.widest
    }

    /// `line` (without its line end) and the rest the wrap moved to `next`: the space it broke at
    /// between them, unless it cut a word that had no space to break at (a line as wide as the
    /// widest, without a space).
    pub fn join(self, joined: &mut String, line: &str, next: &str) {
        if !self.cut_in_word(line) {
            joined.push(' ');
        }
        joined.push_str(next.trim_end_matches(['\n', '\r']));
    }

    /// A line the wrap cut inside a word: as wide as the widest, with no space to break at.
    fn cut_in_word(self, line: &str) -> bool {
        let line = line.trim_end_matches(['\n', '\r']);
        width(line) == self.widest && !line.trim_start().contains(' ')
    }
}

/// A line's width in characters, without its line end; the spaces it ends with count (the wrap
/// leaves all but the one it broke at).
fn width(line: &str) -> usize {
    crate::lines::chars(line.trim_end_matches(['\n', '\r']).as_bytes())
}

/// The text with the lines a hard wrap broke out of a quoted (`> `) or indented (4-space) block
/// joined back, or `None` when it has none. A mail client that wraps a quoted or indented line
/// puts the rest at the left margin, without the line's quote marker or indentation: the block's
/// next line then starts at the margin, where the block never does, and unwrapping the block
/// (`wrappers::unwrap`, the indented-block reader) would leave it outside. Such a line is the rest
/// of the one before it when that one (or the rest before it) was too full to take its first word
/// ([`Wrap::broke`]) and it is not a line kubectl prints at the margin itself (a YAML key or list
/// item, a describe field: [`is_structure`]). Like [`rejoin`], the copy keeps one line per line of
/// the text: the rest's own line is left empty.
pub fn rejoin_broken_prefix(text: &str) -> Option<String> {
    // Most texts start at the margin and quote no line (a dump): they are let go before their
    // lines are collected, after one search for `>` at the start of a line.
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if block_prefix(first).is_none() && !quotes_a_line(text) {
        return None;
    }
    let wrap = Wrap {
        widest: widest(crate::lines::split_inclusive(text))?,
    };
    let lines: Vec<&str> = crate::lines::split_inclusive(text).collect();
    // An indented block is one only when the whole text is indented but for the rests of broken
    // lines (a code block pasted alone): then any line at its margin is a rest, whatever it looks
    // like (`valid: current time …` is the rest of an x509 message, not a YAML key). Elsewhere
    // lines indented by four are YAML's or describe's own nesting, whose wraps their readers join
    // (`rejoin`). A quoted line is quoted wherever it is: a line at the margin after a full one is
    // the rest the wrap took out of the quote.
    let one_block = lines.iter().enumerate().all(|(i, line)| {
        line.trim().is_empty()
            || block_prefix(line).is_some()
            || i.checked_sub(1).is_some_and(|p| wrap.broke(lines[p], line))
    });
    // Most texts have neither (a dump's first line is at the margin, and no line is quoted): then
    // no copy is made.
    if !one_block && !lines.iter().any(|l| block_prefix(l) == Some(Prefix::Quote)) {
        return None;
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    // The line being continued (its index in `out`) and whether it is quoted, while a chain of
    // rests goes on.
    let mut open: Option<(usize, Prefix)> = None;
    let mut joined = false;
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let rest = match (open, i.checked_sub(1)) {
            (Some((_, prefix)), Some(p)) => {
                wrap.broke(lines[p], line)
                    && block_prefix(line).is_none()
                    && (prefix == Prefix::Quote || one_block)
            }
            _ => false,
        };
        match (rest, open) {
            (true, Some((at, _))) => {
                join_rest(&mut out, at, wrap, lines[i - 1], line);
                joined = true;
            }
            _ => {
                out.push((*line).to_string());
                // Only a quoted or indented line opens a chain; a line at the margin continues
                // one only as its rest.
                let content = body.trim().trim_start_matches(['>', ' ']).trim_start();
                open = block_prefix(line)
                    .filter(|_| !content.is_empty() && !json_line(content))
                    .map(|prefix| (i, prefix));
            }
        }
    }
    joined.then(|| out.concat())
}

/// `line`, the rest of the line before it (`previous`), joined to the line it continues
/// (`out[at]`, whose line end stays after it); the rest's own line stays, empty, with its line end.
fn join_rest(out: &mut Vec<String>, at: usize, wrap: Wrap, previous: &str, line: &str) {
    let target = &mut out[at];
    let end = target.trim_end_matches(['\n', '\r']).len();
    let eol = target.split_off(end);
    wrap.join(target, previous, line);
    target.push_str(&eol);
    let body = line.trim_end_matches(['\n', '\r']);
    out.push(line[body.len()..].to_string());
}

/// Whether some line of the text is quoted: `>` after at most three spaces at its start. Each `>`
/// looks back four bytes at most (a long line full of `>` costs one pass).
fn quotes_a_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'>', bytes).any(|at| {
        let spaces = bytes[at.saturating_sub(4)..at]
            .iter()
            .rev()
            .take_while(|b| **b == b' ')
            .count();
        let start = at - spaces;
        spaces <= 3 && (start == 0 || bytes[start - 1] == b'\n')
    })
}

/// What puts a line inside a quoted or indented block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prefix {
    /// `> ` (at most three spaces before it, as markdown allows).
    Quote,
    /// Four spaces or a tab.
    Indent,
}

fn block_prefix(line: &str) -> Option<Prefix> {
    let body = line.trim_start_matches(' ');
    if line.len() - body.len() <= 3 && body.starts_with('>') {
        Some(Prefix::Quote)
    } else if line.starts_with("    ") || line.starts_with('\t') {
        Some(Prefix::Indent)
    } else {
        None
    }
}

/// The text with the rows and headers of `get` and events tables that a hard wrap broke joined
/// again, or `None` when it has none. A header is continued by a line of column names that makes
/// it a longer header; a row that ends before the last column's start is continued by the lines
/// after it, as long as it is short of that column and the next line is the rest of a broken line
/// ([`Wrap::broke`]) and no row (it has fewer cells than the header) or header itself. The wrap
/// keeps all spaces but the one it broke at, so a row joined with one space is the row as kubectl
/// printed it, its cells under their columns again. Like [`rejoin`], the copy keeps one line per
/// line of the text: a joined row stands on its first line, the lines it took are left empty.
pub fn rejoin_tables(text: &str) -> Option<String> {
    let wrap = Wrap {
        widest: widest(crate::lines::split_inclusive(text))?,
    };
    let lines: Vec<&str> = crate::lines::split_inclusive(text).collect();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut table: Option<Table> = None;
    let mut i = 0;
    while i < lines.len() {
        let body = lines[i].trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            table = None;
            i += 1;
            continue;
        }
        let mut joined = body.to_string();
        let mut next = i + 1;
        // A header the wrap broke: its column names on the next lines.
        while next < lines.len() && wrap.broke(lines[next - 1], lines[next]) && is_header_rest(lines[next]) {
            let mut longer = joined.clone();
            wrap.join(&mut longer, lines[next - 1], lines[next]);
            let shorter = Table::of_header(&joined).map_or(0, |t| t.cells());
            if Table::of_header(&longer).is_none_or(|t| t.cells() <= shorter) {
                break;
            }
            joined = longer;
            next += 1;
        }
        if let Some(mut header) = Table::of_header(&joined) {
            header.unplaced |= next > i + 1;
            table = Some(header);
        } else if let Some(columns) = table.as_ref().filter(|t| t.starts_row(body)) {
            while columns.short(&joined)
                && next < lines.len()
                && wrap.broke(lines[next - 1], lines[next])
                && !columns.is_row(lines[next])
                && Table::of_header(lines[next]).is_none()
            {
                let (line, rest) = (lines[next - 1], lines[next]);
                let mut one = joined.clone();
                wrap.join(&mut one, line, rest);
                // The wrap keeps one space of a run it broke after the width: where one space
                // leaves the row short of a cell and two would not overflow it, the break was
                // between two cells (`kubelet, node-1` | `MountVolume.SetUp failed …`).
                let between_cells = !wrap.cut_in_word(line)
                    && !line.trim_end_matches(['\n', '\r']).ends_with(' ')
                    && cells(&one).len() < columns.cells()
                    && {
                        let mut two = joined.clone();
                        two.push(' ');
                        wrap.join(&mut two, line, rest);
                        cells(&two).len() <= columns.cells()
                    };
                if between_cells {
                    joined.push(' ');
                    wrap.join(&mut joined, line, rest);
                } else {
                    joined = one;
                }
                next += 1;
            }
            if next > i + 1 && !columns.fits(&joined) {
                joined = body.to_string();
                next = i + 1;
            }
        }
        if next > i + 1 {
            let copy = out.get_or_insert_with(|| String::with_capacity(text.len()));
            copy.extend(lines[copied..i].iter().copied());
            copy.push_str(&joined);
            copy.push_str(&lines[i][body.len()..]);
            // Each line taken stays, empty, with its line end.
            for taken in &lines[i + 1..next] {
                copy.push_str(&taken[taken.trim_end_matches(['\n', '\r']).len()..]);
            }
            copied = next;
        }
        i = next;
    }
    let mut copy = out?;
    copy.extend(lines[copied..].iter().copied());
    Some(copy)
}

/// The columns of a table's header, as far as rejoining its rows needs them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Table {
    /// Where each column starts (bytes from the line's start).
    starts: Vec<usize>,
    /// The first column's name: what a row's first cell holds.
    first: String,
    /// Its positions say nothing about the rows': cells are separated by tabs, or the header was
    /// itself joined (the wrap drops the spaces of a run that it broke after the width).
    unplaced: bool,
}

impl Table {
    /// The columns of a `get` or events table's header (padded with two or more spaces, or tabs).
    fn of_header(line: &str) -> Option<Table> {
        let line = line.trim_end();
        let trimmed = line.trim_start();
        if !(super::events_table::is_header(trimmed) || super::get_table::is_header(trimmed, None)) {
            return None;
        }
        let cells = cells(line);
        let starts: Vec<usize> = cells.iter().map(|(at, _)| *at).collect();
        (starts.len() >= 2).then_some(Table {
            starts,
            first: cells[0].1.to_ascii_uppercase(),
            unplaced: line.contains('\t'),
        })
    }

    /// A line whose first cell is what the first column holds (an age under `LAST SEEN`, `Normal`
    /// or `Warning` under describe's `Type`, a name under `NAME`): a row, not the rest of a
    /// message wrapped on the lines after its row (`container router in pod`, `"x" is forbidden`).
    fn starts_row(&self, line: &str) -> bool {
        let Some(word) = line.split_whitespace().next() else {
            return false;
        };
        match self.first.as_str() {
            "LAST SEEN" | "LASTSEEN" | "FIRST SEEN" | "FIRSTSEEN" | "AGE" => {
                word.starts_with('<') || super::events_table::parse_age(word).is_some()
            }
            "TYPE" => matches!(word, "Normal" | "Warning"),
            "NAME" | "NAMESPACE" => {
                word.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && word.chars().all(|c| {
                        c.is_ascii_lowercase()
                            || c.is_ascii_digit()
                            || matches!(c, '-' | '.' | '/' | ':' | '_')
                    })
            }
            _ => true,
        }
    }

    fn cells(&self) -> usize {
        self.starts.len()
    }

    /// A row with fewer cells than the header that ends before the last column: kubectl prints
    /// every cell, so its end was moved. (A cell left empty, a Pending claim's VOLUME, is padded:
    /// the row still reaches the last column.)
    fn short(&self, row: &str) -> bool {
        let row = row.trim_end();
        cells(row).len() < self.cells()
            && (self.unplaced
                || row.contains('\t')
                || self.starts.last().is_some_and(|last| row.len() <= *last))
    }

    /// A line with as many cells as the header: a row of its own, not the rest of one.
    fn is_row(&self, line: &str) -> bool {
        cells(line.trim_end()).len() >= self.cells()
    }

    /// A joined row is one row: its cells start under the header's columns, or (its spacing
    /// changed) it has no more cells than the header.
    fn fits(&self, row: &str) -> bool {
        let bytes = row.as_bytes();
        let aligned =
            !self.unplaced
                && self.starts.iter().skip(1).all(|at| {
                    *at >= bytes.len() || bytes.get(at.wrapping_sub(1)).is_some_and(|b| *b == b' ')
                });
        aligned || cells(row.trim_end()).len() <= self.cells()
    }
}

/// A line's cells, split at runs of two or more spaces or at tabs, with their byte offsets.
fn cells(line: &str) -> Vec<(usize, &str)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
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
            && !(bytes[at] == b'\t'
                || bytes[at] == b' ' && bytes.get(at + 1).is_none_or(|b| *b == b' ' || *b == b'\t'))
        {
            at += 1;
        }
        out.push((start, &line[start..at]));
    }
    out
}

/// The rest of a header: column names only (`RESTARTS   AGE`, `MESSAGE`, describe's `Message`).
fn is_header_rest(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty()
        && line.split_whitespace().all(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase())
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '/' | '.'))
        })
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
    fn the_rest_of_a_quoted_or_indented_line_is_joined_back_into_its_block() {
        // wild/17's error, quoted and then hard-wrapped at 76 columns: the rests lost the `> `.
        let text = "> Error from server (InternalError): Internal error occurred: failed\ncalling webhook \"check-ignore-label.gatekeeper.sh\": failed to call webhook:\nPost\n\"https://gatekeeper-webhook-service.gatekeeper-system.svc:443/v1/admitlabel?\ntimeout=3s\": dial tcp 10.112.0.99:8443: i/o timeout\n> ```\n";
        let joined = rejoin_broken_prefix(text).unwrap();
        assert_eq!(joined.lines().count(), text.lines().count());
        assert!(
            joined.starts_with("> Error from server (InternalError): Internal error occurred: failed calling webhook \"check-ignore-label.gatekeeper.sh\": failed to call webhook: Post \"https://gatekeeper-webhook-service.gatekeeper-system.svc:443/v1/admitlabel?timeout=3s\": dial tcp 10.112.0.99:8443: i/o timeout\n\n\n\n\n> ```"),
            "{joined}"
        );
        // Indented by 4, then wrapped: the same.
        let text = "    Client Version: version.Info{Major:\"1\", Minor:\"13\",\nGitVersion:\"v1.13.1\", GitCommit:\"eec55b9ba98609a46fee712359c7b5b365bdd920\",\n    The connection to the server localhost:8080 was refused - did you\nspecify the right host or port?\n";
        let joined = rejoin_broken_prefix(text).unwrap();
        assert!(
            joined.contains("was refused - did you specify the right host or port?\n"),
            "{joined}"
        );
        assert!(joined.contains("Minor:\"13\", GitVersion:"), "{joined}");
    }

    #[test]
    fn prose_after_a_block_and_keys_at_the_margin_stay_where_they_are() {
        // A reply under a quote, and YAML at the margin after an indented line, are not rests.
        let text = "> The pod web-7d9f stays in Pending and the scheduler says nothing about it at\nall.\nspec:\n    nodeName: worker-1 and a long comment that fills this line to the width x\nstatus: {}\n";
        let joined = rejoin_broken_prefix(text).unwrap();
        assert!(joined.contains("at all.\n\nspec:\n"), "{joined}");
        assert!(joined.ends_with("width x\nstatus: {}\n"), "{joined}");
        let text =
            "> short quoted line\nMy reply, which is a sentence of its own and not a rest of the line.\n";
        assert_eq!(rejoin_broken_prefix(text), None);
    }

    #[test]
    fn a_text_with_long_lines_was_not_wrapped() {
        let long = "x".repeat(120);
        let text = format!("key: {long}\nnot a key but fine\n");
        assert_eq!(rejoin(&text, Keys::Yaml), None);
    }
}
