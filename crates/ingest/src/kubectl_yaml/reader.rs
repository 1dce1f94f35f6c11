//! The line-by-line reader of kubectl's YAML subset: block mappings and sequences, plain, quoted
//! and literal scalars, and `managedFields` stepped over.

use std::ops::Range;

use super::lexical::*;
use crate::node::{Key, Keys, MapEntry, Node, NodeValue, Pos, ScalarStyle, ScalarText, Text};
use crate::segment::leading_spaces;
use crate::yaml::{is_null, MAX_DEPTH};
use crate::{Reached, SKIPPED_KEY};

/// One line of the chunk: where it starts and ends (without the line break), its indentation and
/// its number in the whole input.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    start: usize,
    end: usize,
    indent: usize,
    number: u32,
}

pub(super) struct Reader<'a, 'r> {
    text: &'a str,
    bytes: &'a [u8],
    /// Offset of the next line not yet consumed.
    at: usize,
    /// Its line number.
    number: u32,
    /// The next line, once measured (every line is looked at several times before it is consumed).
    next: Option<Line>,
    /// Entries and items of the collections being read, nested ones above their parents', so that
    /// each collection is allocated once at its final size.
    entries: Vec<MapEntry>,
    items: Vec<Node>,
    keys: &'r mut Keys,
    /// Each value stepped over: from its key's colon to the end of its last line.
    pub(super) skipped: Vec<Range<usize>>,
    reached: Reached<'r>,
}

impl<'a, 'r> Reader<'a, 'r> {
    pub(super) fn new(text: &'a str, first_line: u32, reached: Reached<'r>, keys: &'r mut Keys) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            at: 0,
            number: first_line,
            next: None,
            entries: Vec::new(),
            items: Vec::new(),
            keys,
            skipped: Vec::new(),
            reached,
        }
    }

    /// The next line, not consumed. `None` at the end of the chunk.
    fn peek(&mut self) -> Option<Line> {
        if let Some(line) = self.next.filter(|l| l.start == self.at) {
            return Some(line);
        }
        if self.at >= self.bytes.len() {
            return None;
        }
        let len = crate::lines::newline(&self.bytes[self.at..]).unwrap_or(self.bytes.len() - self.at);
        let mut end = self.at + len;
        if end > self.at && self.bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let indent = leading_spaces(&self.bytes[self.at..end]);
        let line = Line {
            start: self.at,
            end,
            indent,
            number: self.number,
        };
        self.next = Some(line);
        Some(line)
    }

    fn consume(&mut self, line: &Line) {
        self.at = line.end;
        if self.bytes.get(self.at) == Some(&b'\r') {
            self.at += 1;
        }
        if self.bytes.get(self.at) == Some(&b'\n') {
            self.at += 1;
        }
        self.number = line.number + 1;
    }

    fn body(&self, line: &Line) -> &'a str {
        &self.text[line.start + line.indent..line.end]
    }

    /// Whether a line holds nothing: blank, or a comment. A tab in the indentation is not in the
    /// subset, so such a line counts as content and makes the reader give up where it is used.
    fn is_blank(&self, line: &Line) -> bool {
        let body = self.body(line);
        body.is_empty() || body.starts_with('#') || body.bytes().all(|b| b == b' ')
    }

    /// Skips blank and comment lines; returns the next content line without consuming it.
    pub(super) fn content_line(&mut self) -> Option<Line> {
        while let Some(line) = self.peek() {
            if !self.is_blank(&line) {
                return Some(line);
            }
            self.consume(&line);
        }
        None
    }

    /// Reads an optional `---` line; `None` when the marker line carries anything else, or when the
    /// chunk holds a directive or a `...` line (left to the general parser).
    pub(super) fn document_start(&mut self) -> Option<bool> {
        let Some(line) = self.content_line() else {
            return Some(false);
        };
        let body = self.body(&line);
        if line.indent == 0 && body.starts_with("---") {
            if !body[3..].trim_end().is_empty() {
                return None;
            }
            self.consume(&line);
            return Some(true);
        }
        if line.indent == 0 && (body.starts_with('%') || body.starts_with("...")) {
            return None;
        }
        Some(false)
    }

    /// 1-based line and character column of a byte offset on a line.
    fn pos(&self, line: &Line, offset: usize) -> Pos {
        let chars = crate::lines::chars(&self.bytes[line.start..offset]);
        Pos::new(line.number, chars as u32 + 1)
    }

    /// A block node starting at `line` (a content line, not consumed): a sequence when it starts with
    /// `- `, else a mapping. Scalars at the root are left to the general parser.
    pub(super) fn block_node(&mut self, line: &Line, depth: usize) -> Option<Node> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let body = self.body(line);
        if is_entry(body) {
            // A sequence at the start of a block begins at its first dash.
            let pos = self.pos(line, line.start + line.indent);
            self.block_seq(line.indent, pos, depth)
        } else {
            self.block_map(line.indent, None, depth)
        }
    }

    /// A block mapping whose keys are at `indent`. `first` is a key already found on a line that is
    /// not at that indentation's start (the `key: v` after `- `): (line, offset of the key).
    fn block_map(&mut self, indent: usize, first: Option<(Line, usize)>, depth: usize) -> Option<Node> {
        let base = self.entries.len();
        let mut map_pos = None;
        let mut next = first;
        loop {
            let (line, key_at) = match next.take() {
                Some(found) => found,
                None => {
                    let Some(line) = self.content_line() else {
                        break;
                    };
                    if line.indent < indent {
                        break;
                    }
                    if line.indent > indent || is_entry(self.body(&line)) {
                        // Deeper than a key can be, or a dash where a key belongs: the general
                        // parser decides whether that is an error.
                        if line.indent > indent {
                            return None;
                        }
                        break;
                    }
                    (line, line.start + line.indent)
                }
            };
            let key_pos = self.pos(&line, key_at);
            map_pos.get_or_insert(key_pos);
            let (key, colon) = self.key(&line, key_at)?;
            self.consume(&line);
            if key == SKIPPED_KEY {
                self.skip_value(&line, colon, indent);
                continue;
            }
            let value = self.value(&line, colon, indent, depth + 1)?;
            self.entries.push(MapEntry { key, key_pos, value });
        }
        let entries = self.entries.drain(base..).collect();
        Some(Node::new(NodeValue::Map(entries), map_pos?))
    }

    /// The key of a `key: value` line starting at `at`, and the offset of its colon.
    fn key(&mut self, line: &Line, at: usize) -> Option<(Key, usize)> {
        let text = self.text;
        let rest = &text[at..line.end];
        let first = *rest.as_bytes().first()?;
        if first == b'"' || first == b'\'' {
            // A quoted key on one line, followed directly by `:`.
            let (text, len) = single_line_quoted(rest)?;
            let after = &rest[len..];
            if !(after == ":" || after.starts_with(": ")) {
                return None;
            }
            return Some((self.keys.get(&text), at + len));
        }
        if starts_with_indicator(rest) {
            return None;
        }
        let colon = match colon_space(rest.as_bytes()) {
            Some(i) => i,
            None if rest.ends_with(':') => rest.len() - 1,
            None => return None,
        };
        let key = &rest[..colon];
        if key.ends_with(' ') || !plain_line_ok(key) {
            return None;
        }
        let key = if is_null(key) { "" } else { key };
        Some((self.keys.get(key), at + colon))
    }

    /// The value after a key's colon (at `colon` on `line`, already consumed). `parent` is the
    /// indentation of the mapping holding it.
    fn value(&mut self, line: &Line, colon: usize, parent: usize, depth: usize) -> Option<Node> {
        let after = colon + 1;
        let rest = &self.text[after..line.end];
        let trimmed = rest.trim_start_matches(' ');
        if trimmed.is_empty() {
            return self.value_below(line, colon, parent, depth);
        }
        if !rest.starts_with(' ') {
            return None;
        }
        let at = line.end - trimmed.len();
        let pos = self.pos(line, at);
        self.inline_value(line, at, trimmed, pos, parent)
    }

    /// A value that starts on the next lines: a nested block, a sequence at the key's indentation
    /// (kubectl's style), or nothing (null, placed at the colon as the general parser places it).
    fn value_below(&mut self, line: &Line, colon: usize, parent: usize, depth: usize) -> Option<Node> {
        let null = Node::new(NodeValue::Null, self.pos(line, colon));
        let Some(next) = self.content_line() else {
            return Some(null);
        };
        if depth >= MAX_DEPTH {
            return None;
        }
        if next.indent > parent {
            return self.block_node(&next, depth);
        }
        if next.indent == parent && is_entry(self.body(&next)) {
            // An indentless sequence starts where its first item's content starts.
            let dash = next.start + next.indent;
            let after_dash = &self.text[dash + 1..next.end];
            let content = dash + 1 + after_dash.len() - after_dash.trim_start_matches(' ').len();
            let pos = self.pos(&next, content);
            return self.block_seq(parent, pos, depth);
        }
        Some(null)
    }

    /// A block sequence whose dashes are at `indent`.
    fn block_seq(&mut self, indent: usize, pos: Pos, depth: usize) -> Option<Node> {
        let base = self.items.len();
        while let Some(line) = self.content_line() {
            if depth == 1 && self.items.len() > base {
                // Another item of a top-level List is done.
                (self.reached)(self.at);
            }
            if line.indent != indent || !is_entry(self.body(&line)) {
                if line.indent > indent {
                    return None;
                }
                break;
            }
            let dash = line.start + line.indent;
            let rest = &self.text[dash + 1..line.end];
            let content = rest.trim_start_matches(' ');
            if content.is_empty() {
                // `-` alone: the item is the block below, more indented.
                self.consume(&line);
                let next = self.content_line()?;
                if next.indent <= indent || depth + 1 >= MAX_DEPTH {
                    return None;
                }
                let item = self.block_node(&next, depth + 1)?;
                self.items.push(item);
                continue;
            }
            let at = line.end - content.len();
            if is_entry(content) {
                return None;
            }
            if self.key(&line, at).is_some() {
                // `- key: value`: a mapping whose keys line up with this first one.
                let column = at - line.start;
                if depth + 1 >= MAX_DEPTH {
                    return None;
                }
                let item = self.block_map(column, Some((line, at)), depth + 1)?;
                self.items.push(item);
                continue;
            }
            self.consume(&line);
            let item_pos = self.pos(&line, at);
            let item = self.inline_value(&line, at, content, item_pos, indent)?;
            self.items.push(item);
        }
        let items = self.items.drain(base..).collect();
        Some(Node::new(NodeValue::Seq(items), pos))
    }

    /// A value written on the line it starts on (`line`, already consumed), from offset `at`:
    /// a quoted or plain scalar (possibly continued on more indented lines), a `|` block scalar, or
    /// an empty flow collection. `parent` is the indentation of the collection holding it.
    fn inline_value(
        &mut self,
        line: &Line,
        at: usize,
        text: &'a str,
        pos: Pos,
        parent: usize,
    ) -> Option<Node> {
        let value = match text.as_bytes()[0] {
            b'\'' | b'"' => {
                let scalar = self.quoted(line, at, parent)?;
                NodeValue::scalar_in(&scalar, ScalarStyle::Quoted, self.keys)
            }
            b'|' => return self.literal(text, parent),
            b'{' | b'[' => {
                let value = match text.trim_end_matches(' ') {
                    "{}" => NodeValue::Map(Box::default()),
                    "[]" => NodeValue::Seq(Box::default()),
                    _ => return None,
                };
                return Some(Node::new(value, pos));
            }
            _ => {
                let scalar = self.plain(text, parent)?;
                let scalar = scalar.as_str();
                if is_null(scalar) {
                    NodeValue::Null
                } else {
                    NodeValue::scalar_in(scalar, ScalarStyle::Plain, self.keys)
                }
            }
        };
        Some(Node::new(value, pos))
    }

    /// A plain scalar: this line's text, and more indented lines after it folded in.
    fn plain(&mut self, first: &'a str, parent: usize) -> Option<ScalarText<'a>> {
        if starts_with_indicator(first) || !plain_line_ok(first) {
            return None;
        }
        let first = first.trim_end_matches(' ');
        // Made only when a line continues the scalar: most are a slice of their line.
        let mut folded: Option<Text> = None;
        let mut breaks = 0;
        while let Some(line) = self.peek() {
            let body = self.body(&line);
            if body.trim_end_matches(' ').is_empty() {
                breaks += 1;
                self.consume(&line);
                continue;
            }
            if line.indent <= parent {
                break;
            }
            if body.starts_with('#') || starts_with_indicator(body) || !plain_line_ok(body) {
                return None;
            }
            let out = folded.get_or_insert_with(|| Text::from(first));
            push_fold(out, breaks);
            breaks = 0;
            out.push_str(body.trim_end_matches(' '));
            self.consume(&line);
        }
        Some(match folded {
            Some(folded) => ScalarText::Built(folded),
            None => ScalarText::Slice(first),
        })
    }

    /// A single- or double-quoted scalar starting at `at` on `line` (already consumed), possibly
    /// folded over more lines indented deeper than `parent`.
    fn quoted(&mut self, line: &Line, at: usize, parent: usize) -> Option<Text> {
        let quote = self.bytes[at];
        let mut out = Text::default();
        // The part of `out` that folding may not trim (escaped spaces).
        let mut kept = 0;
        let mut current = *line;
        let mut i = at + 1;
        loop {
            // Read to the end of the current line or the closing quote.
            while i < current.end {
                let b = self.bytes[i];
                if b == quote {
                    if quote == b'\'' && self.bytes.get(i + 1) == Some(&b'\'') && i + 1 < current.end {
                        out.push('\'');
                        kept = out.len();
                        i += 2;
                        continue;
                    }
                    // Closed: only spaces may follow on the line.
                    if !self.text[i + 1..current.end].trim_end_matches(' ').is_empty() {
                        return None;
                    }
                    return Some(out);
                }
                if quote == b'"' && b == b'\\' {
                    if i + 1 == current.end {
                        // An escaped line break: the lines join without a space.
                        let next = self.continuation(parent)?;
                        out.truncate(out.len().max(kept));
                        kept = out.len();
                        current = next.0;
                        i = next.1;
                        continue;
                    }
                    let (c, len) = escape(&self.text[i + 1..current.end])?;
                    out.push(c);
                    kept = out.len();
                    i += 1 + len;
                    continue;
                }
                let run_end = self.bytes[i..current.end]
                    .iter()
                    .position(|&c| c == quote || (quote == b'"' && c == b'\\'))
                    .map_or(current.end, |p| i + p);
                out.push_str(&self.text[i..run_end]);
                i = run_end;
            }
            // A line break inside the quotes folds: trailing spaces go, blank lines become breaks.
            let trimmed = out.trim_end_matches([' ', '\t']).len().max(kept);
            out.truncate(trimmed);
            let mut breaks = 0;
            let next = loop {
                let next = self.peek()?;
                self.consume(&next);
                if self.text[next.start..next.end]
                    .trim_matches([' ', '\t'])
                    .is_empty()
                {
                    breaks += 1;
                    continue;
                }
                break next;
            };
            if next.indent <= parent || self.bytes.get(next.start + next.indent) == Some(&b'\t') {
                return None;
            }
            push_fold(&mut out, breaks);
            current = next;
            i = next.start + next.indent;
        }
    }

    /// The next non-blank line for an escaped line break in double quotes, with the offset its text
    /// starts at.
    fn continuation(&mut self, parent: usize) -> Option<(Line, usize)> {
        let next = self.peek()?;
        self.consume(&next);
        if next.indent <= parent || self.body(&next).is_empty() {
            return None;
        }
        Some((next, next.start + next.indent))
    }

    /// A `|` block scalar: the lines after the header, indented deeper than `parent`.
    fn literal(&mut self, header: &str, parent: usize) -> Option<Node> {
        let chomp = match header.trim_end_matches(' ') {
            "|" => Chomp::Clip,
            "|-" => Chomp::Strip,
            "|+" => Chomp::Keep,
            _ => return None,
        };
        let mut lines: Vec<&str> = Vec::new();
        let mut leading_blank = 0;
        let mut content: Option<(usize, Pos)> = None;
        let mut trailing_blank = 0;
        while let Some(line) = self.peek() {
            let raw = &self.text[line.start..line.end];
            let blank = raw.bytes().all(|b| b == b' ');
            match content {
                None if blank => {
                    leading_blank += 1;
                    self.consume(&line);
                }
                None => {
                    if line.indent <= parent || raw.as_bytes()[line.indent] == b'\t' {
                        // An empty block scalar: left to the general parser.
                        return None;
                    }
                    if leading_blank > 0 && self.max_leading_spaces(line.start, leading_blank) > line.indent {
                        return None;
                    }
                    content = Some((line.indent, Pos::new(line.number, line.indent as u32 + 1)));
                    lines.push(&raw[line.indent..]);
                    self.consume(&line);
                }
                Some((indent, _)) => {
                    // A line of at most `indent` spaces and a line break is an empty line (chomped
                    // at the end); spaces beyond the indentation, or without a break, are content.
                    let broken = line.end < self.text.len();
                    if blank && (raw.len() < indent || (raw.len() == indent && broken)) {
                        trailing_blank += 1;
                    } else if line.indent >= indent {
                        lines.extend(std::iter::repeat_n("", trailing_blank));
                        trailing_blank = 0;
                        lines.push(&raw[indent..]);
                    } else {
                        break;
                    }
                    self.consume(&line);
                }
            }
        }
        let (_, pos) = content?;
        let mut out = "\n".repeat(leading_blank);
        out.push_str(&lines.join("\n"));
        match chomp {
            Chomp::Strip => {}
            Chomp::Clip => out.push('\n'),
            Chomp::Keep => out.push_str(&"\n".repeat(1 + trailing_blank)),
        }
        Some(Node::new(
            NodeValue::scalar_in(&out, ScalarStyle::Quoted, self.keys),
            pos,
        ))
    }

    /// The most spaces on the `count` blank lines that end just before `end`.
    fn max_leading_spaces(&self, end: usize, count: usize) -> usize {
        self.text[..end]
            .lines()
            .rev()
            .take(count)
            .map(|l| l.trim_end_matches('\r').len())
            .max()
            .unwrap_or(0)
    }

    /// Steps over the value of a skipped key at `indent`: the rest of its line, then every line
    /// indented deeper, and sequence entries at the key's own indentation.
    fn skip_value(&mut self, key_line: &Line, colon: usize, indent: usize) {
        let mut end = key_line.end;
        while let Some(line) = self.peek() {
            let body = self.body(&line);
            let blank = body.trim_end_matches(' ').is_empty();
            if blank || line.indent > indent || (line.indent == indent && is_entry(body)) {
                self.consume(&line);
                end = line.end;
            } else {
                break;
            }
        }
        self.skipped.push(colon..end);
    }
}
