//! JSON reader: text -> [`Node`] trees with line and column on every value.
//!
//! serde_json does not expose positions of values, only of errors, and evidence must point at the
//! line of `"reason": "ErrImagePull"`. This reader is small and strict (RFC 8259), and accepts several
//! top-level values one after another, which is what `kubectl cluster-info dump` prints. After a
//! syntax error it resumes at the next line that starts with `{`, so later values are not lost.

use super::node::{Key, Keys, MapEntry, Node, NodeValue, Pos, ScalarStyle, ScalarText, Text};
use super::segment::leading_spaces;
use super::yaml::{ParseError, MAX_DEPTH};
use super::Reached;
use crate::reading::Msg;

/// One top-level JSON value or the reason it could not be read.
#[derive(Debug)]
pub struct JsonDocument {
    pub first_line: u32,
    pub result: Result<Node, ParseError>,
    /// Set when the input ended inside this value: `result` holds everything complete before the
    /// cut, and this says where it was cut.
    pub cut_off: Option<ParseError>,
}

/// Reads every top-level value; `first_line` is the line of the text's start in the whole input.
pub fn parse_documents(text: &str, first_line: u32) -> Vec<JsonDocument> {
    parse_documents_observed(text, first_line, &mut |_| {})
}

/// [`parse_documents`], telling `reached` the offset after each document and after each item of a
/// top-level value's array (a List's `items`).
pub fn parse_documents_observed(text: &str, first_line: u32, reached: Reached<'_>) -> Vec<JsonDocument> {
    let mut reader = Reader::new(text, first_line, reached);
    let mut docs = Vec::new();
    loop {
        reader.skip_ws();
        if reader.at_end() {
            break;
        }
        let first_line = reader.line;
        match reader.value(0) {
            Ok(node) => {
                docs.push(JsonDocument {
                    first_line,
                    result: Ok(node),
                    cut_off: reader.cut.take(),
                });
                (reader.reached)(reader.at);
            }
            Err(err) => {
                docs.push(JsonDocument {
                    first_line,
                    result: Err(err),
                    cut_off: None,
                });
                if !reader.resync() {
                    break;
                }
            }
        }
    }
    docs
}

/// Why a container could not be read: a child failed (the container may keep what came before, if
/// the input was cut off), or its own syntax did.
enum Failure {
    Child(ParseError),
    Own(ParseError),
}

struct Reader<'a, 'r> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
    /// Column bookkeeping: the last offset whose character column was computed, on the current line.
    col_offset: usize,
    col_chars: u32,
    /// Where the input ended inside a value being read (see [`Reader::salvage`]).
    cut: Option<ParseError>,
    /// Members and items of the containers being read, nested ones above their parents', so each
    /// container is allocated once at its final size instead of growing.
    entries: Vec<MapEntry>,
    items: Vec<Node>,
    keys: Keys,
    reached: Reached<'r>,
    /// Brackets whose container is known not to balance ([`container_end`]).
    unbalanced: faultline_report::hash::Set<usize>,
}

impl<'a, 'r> Reader<'a, 'r> {
    fn new(text: &'a str, first_line: u32, reached: Reached<'r>) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            at: 0,
            line: first_line,
            line_start: 0,
            col_offset: 0,
            col_chars: 0,
            cut: None,
            entries: Vec::new(),
            items: Vec::new(),
            keys: Keys::for_text(text.len()),
            reached,
            unbalanced: Default::default(),
        }
    }

    fn at_end(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The position of the current byte, counting columns in characters. Positions are asked for in
    /// increasing order, so the count continues from the last one: linear even on one long line.
    fn pos(&mut self) -> Pos {
        if self.col_offset < self.line_start || self.col_offset > self.at {
            self.col_offset = self.line_start;
            self.col_chars = 0;
        }
        self.col_chars += crate::lines::chars(&self.bytes[self.col_offset..self.at]) as u32;
        self.col_offset = self.at;
        Pos::new(self.line, self.col_chars + 1)
    }

    fn error(&mut self, message: impl Into<faultline_report::message::Message>) -> ParseError {
        ParseError {
            pos: self.pos(),
            message: Box::new(message.into()),
        }
    }

    /// Steps over whitespace. Pretty-printed JSON is about half indentation, so runs of spaces go
    /// eight bytes at a time.
    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' => self.at += leading_spaces(&self.bytes[self.at..]),
                b'\t' | b'\r' => self.at += 1,
                b'\n' => {
                    self.at += 1;
                    self.line += 1;
                    self.line_start = self.at;
                }
                _ => break,
            }
        }
    }

    /// Skips to the next line that starts with `{`; false when there is none.
    fn resync(&mut self) -> bool {
        while let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.at;
                if self.peek() == Some(b'{') {
                    return true;
                }
            }
        }
        false
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        self.skip_ws();
        if depth >= MAX_DEPTH {
            return Err(self.error(Msg::TooDeep { max: MAX_DEPTH }));
        }
        let pos = self.pos();
        match self.peek() {
            None => Err(self.error(Msg::JsonCutHere {})),
            Some(b'{') => self.object(depth, pos),
            Some(b'[') => self.array(depth, pos),
            Some(b'"') => {
                let text = self.scalar_text()?;
                let value = NodeValue::scalar_in(text.as_str(), ScalarStyle::Quoted, &mut self.keys);
                Ok(Node::new(value, pos))
            }
            Some(b't') => self.literal("true", pos),
            Some(b'f') => self.literal("false", pos),
            Some(b'n') => {
                self.expect_word("null")?;
                Ok(Node::new(NodeValue::Null, pos))
            }
            Some(b'-' | b'0'..=b'9') => self.number(pos),
            Some(_) => {
                let found = self.text[self.at..].chars().next().unwrap_or(' ');
                Err(self.error(Msg::JsonExpectedValue {
                    found: format!("{found:?}"),
                }))
            }
        }
    }

    fn literal(&mut self, word: &'static str, pos: Pos) -> Result<Node, ParseError> {
        self.expect_word(word)?;
        Ok(Node::new(NodeValue::scalar(word, ScalarStyle::Plain), pos))
    }

    fn expect_word(&mut self, word: &'static str) -> Result<(), ParseError> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.error(Msg::JsonExpectedWord { word }))
        }
    }

    fn number(&mut self, pos: Pos) -> Result<Node, ParseError> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        let text = &self.text[start..self.at];
        if text.parse::<f64>().is_err() {
            return Err(ParseError {
                pos,
                message: Msg::JsonMalformedNumber {
                    text: format!("{text:?}"),
                }
                .into_box(),
            });
        }
        Ok(Node::new(NodeValue::scalar(text, ScalarStyle::Plain), pos))
    }

    fn object(&mut self, depth: usize, pos: Pos) -> Result<Node, ParseError> {
        let base = self.entries.len();
        let result = self.members(depth);
        let map = NodeValue::Map(self.entries.drain(base..).collect());
        match result {
            Ok(()) => Ok(Node::new(map, pos)),
            Err(Failure::Child(e)) => self.salvage(e, map, pos),
            Err(Failure::Own(e)) => Err(e),
        }
    }

    /// The members of an object, onto `self.entries`.
    fn members(&mut self, depth: usize) -> Result<(), Failure> {
        self.at += 1;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(Failure::Own(self.error(Msg::JsonExpectedKey {})));
            }
            let key_pos = self.pos();
            let key = self.key().map_err(Failure::Own)?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(Failure::Own(self.error(Msg::JsonExpectedColon {
                    key: format!("{key:?}"),
                })));
            }
            self.at += 1;
            if key == super::SKIPPED_KEY && self.skip_container() {
                if !self.after_member(b'}').map_err(Failure::Own)? {
                    return Ok(());
                }
                continue;
            }
            let value = self.value(depth + 1).map_err(Failure::Child)?;
            self.entries.push(MapEntry { key, key_pos, value });
            if self.cut.is_some() || !self.after_member(b'}').map_err(Failure::Own)? {
                return Ok(());
            }
        }
    }

    /// After a member: true when another follows (`,`), false at the closing `close`.
    fn after_member(&mut self, close: u8) -> Result<bool, ParseError> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.at += 1;
                Ok(false)
            }
            None => Err(self.error(Msg::JsonObjectCut {})),
            Some(_) => Err(self.error(Msg::JsonObjectSeparator {})),
        }
    }

    /// Steps over an array or object without building it (`metadata.managedFields`, which no rule
    /// reads and which is close to half of a `kubectl get -o json` dump). Only brackets and strings
    /// are followed; when they do not balance, nothing is consumed and false is returned, so the
    /// value is read normally and its error reported where it is.
    fn skip_container(&mut self) -> bool {
        self.skip_ws();
        let Some(end) = container_end(self.bytes, self.at, &mut self.unbalanced) else {
            return false;
        };
        // Lines are counted once the end is known: a fast count over the whole stretch, not a
        // test of every byte on the way.
        let stretch = &self.bytes[self.at..end];
        let newlines = memchr::memchr_iter(b'\n', stretch).count();
        if let Some(last) = memchr::memrchr(b'\n', stretch) {
            self.line += newlines as u32;
            self.line_start = self.at + last + 1;
        }
        self.at = end;
        true
    }

    /// A child failed. If the input simply ended (a cut-off paste), keep the container with the
    /// children completed so far, drop the incomplete one, and remember where the cut is; every
    /// enclosing container then closes too. Any other error propagates.
    fn salvage(&mut self, error: ParseError, partial: NodeValue, pos: Pos) -> Result<Node, ParseError> {
        if self.cut.is_none() && !self.at_end() {
            return Err(error);
        }
        self.cut.get_or_insert(error);
        Ok(Node::new(partial, pos))
    }

    fn array(&mut self, depth: usize, pos: Pos) -> Result<Node, ParseError> {
        let base = self.items.len();
        let result = self.elements(depth);
        let seq = NodeValue::Seq(self.items.drain(base..).collect());
        match result {
            Ok(()) => Ok(Node::new(seq, pos)),
            Err(Failure::Child(e)) => self.salvage(e, seq, pos),
            Err(Failure::Own(e)) => Err(e),
        }
    }

    /// The elements of an array, onto `self.items`.
    fn elements(&mut self, depth: usize) -> Result<(), Failure> {
        self.at += 1;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            let item = self.value(depth + 1).map_err(Failure::Child)?;
            self.items.push(item);
            if depth == 1 {
                (self.reached)(self.at);
            }
            if self.cut.is_some() {
                return Ok(());
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                None => return Err(Failure::Own(self.error(Msg::JsonArrayCut {}))),
                Some(_) => return Err(Failure::Own(self.error(Msg::JsonArraySeparator {}))),
            }
        }
    }

    /// A member's key: [`Reader::string`], each distinct key made once ([`Keys`]), and one without
    /// an escape (all but a few) taken from the text as it is.
    fn key(&mut self) -> Result<Key, ParseError> {
        let quote = self.at;
        if let Some(plain) = self.unescaped() {
            return Ok(self.keys.get(plain));
        }
        self.at = quote;
        let key = self.string()?;
        Ok(self.keys.get(&key))
    }

    /// The string at `self.at` (its opening quote) when it has no escape, `self.at` then past its
    /// closing quote; otherwise `None`, `self.at` at the first escape or control character.
    fn unescaped(&mut self) -> Option<&'a str> {
        self.at += 1;
        let start = self.at;
        self.skip_unescaped();
        if self.peek() != Some(b'"') {
            return None;
        }
        self.at += 1;
        Some(&self.text[start..self.at - 1])
    }

    fn string(&mut self) -> Result<Text, ParseError> {
        // Most strings have no escape: made at their exact size in one step, not grown.
        Ok(match self.scalar_text()? {
            ScalarText::Slice(text) => Text::from(text),
            ScalarText::Built(text) => text,
        })
    }

    /// The string at the reader: its slice of the text when it has no escape.
    fn scalar_text(&mut self) -> Result<ScalarText<'a>, ParseError> {
        let start = self.at + 1;
        if let Some(plain) = self.unescaped() {
            return Ok(ScalarText::Slice(plain));
        }
        let mut out = Text::from(&self.text[start..self.at]);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(ScalarText::Built(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                Some(b'\n' | b'\r') => match self.wrapped_string_break() {
                    Some(joint) => out.push_str(joint),
                    None => return Err(self.error(Msg::JsonLineBreakInString {})),
                },
                Some(_) => return Err(self.error(Msg::JsonControlCharacter {})),
                None => return Err(self.error(Msg::JsonStringCut {})),
            }
            let run = self.at;
            self.skip_unescaped();
            out.push_str(&self.text[run..self.at]);
        }
    }

    /// A line break inside a string where a mail client hard-wrapped a long line (the string goes on
    /// at the left margin of the next line, where pretty-printed JSON never starts a line with text):
    /// steps over it and returns what joins the two pieces — the space the wrap took, unless the line
    /// held no space to break at. `None` for a line break that is not a wrap (an unclosed quote).
    fn wrapped_string_break(&mut self) -> Option<&'static str> {
        let rest = &self.bytes[self.at..];
        let eol = match rest {
            [b'\r', b'\n', ..] => 2,
            [b'\n', ..] => 1,
            _ => return None,
        };
        let line = &self.bytes[self.line_start..self.at];
        let next = &rest[eol..];
        let next_line = &next[..memchr::memchr(b'\n', next).unwrap_or(next.len())];
        // The narrowest wrap in use is 72 columns: the line plus the next one's first word did not
        // fit in it.
        let first_word = next_line.split(|b| *b == b' ').next().unwrap_or_default();
        let full = crate::lines::chars(line) + 1 + crate::lines::chars(first_word) > 72;
        let at_margin = next_line.first().is_some_and(|b| !b.is_ascii_whitespace());
        if !full || !at_margin {
            return None;
        }
        self.at += eol;
        self.line += 1;
        self.line_start = self.at;
        let spaced = line.iter().skip_while(|b| **b == b' ').any(|b| *b == b' ');
        Some(if spaced { " " } else { "" })
    }

    /// Steps over a string's characters up to its closing quote, an escape or a control character.
    fn skip_unescaped(&mut self) {
        while let Some(b) = self.peek() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            self.at += 1;
        }
    }

    fn escape(&mut self, out: &mut Text) -> Result<(), ParseError> {
        // A wrap that cut between the backslash and the character it escapes (`…{\` / `"command…`):
        // the escape goes on at the next line's margin. Nothing was taken there, a space after a
        // backslash being no escape.
        if matches!(self.peek(), Some(b'\n' | b'\r')) && self.wrapped_string_break().is_none() {
            return Err(self.error(Msg::JsonLineBreakInString {}));
        }
        let Some(b) = self.peek() else {
            return Err(self.error(Msg::JsonEscapeCut {}));
        };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                if (0xD800..0xDC00).contains(&high) && self.text[self.at..].starts_with("\\u") {
                    self.at += 2;
                    let low = self.hex4()?;
                    let code = 0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    char::from_u32(code).unwrap_or('\u{FFFD}')
                } else {
                    char::from_u32(high).unwrap_or('\u{FFFD}')
                }
            }
            _ => return Err(self.error(Msg::JsonInvalidEscape {})),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match digits {
            Some(v) => {
                self.at += 4;
                Ok(v)
            }
            None => Err(self.error(Msg::JsonInvalidUnicodeEscape {})),
        }
    }
}

/// The offset just past the array or object that starts at `start`, following only brackets and
/// strings; `None` when there is no container there or it does not balance (a mismatched bracket, a
/// line break inside a string, the end of the text). Every bracket still open where a container
/// fails to balance fails too, at the same place: they go into `unbalanced`, so that a paste of many
/// `"managedFields": [` never closed is followed to its end once, not once for each (quadratic).
fn container_end(
    bytes: &[u8],
    start: usize,
    unbalanced: &mut faultline_report::hash::Set<usize>,
) -> Option<usize> {
    if !matches!(bytes.get(start), Some(b'[' | b'{')) || unbalanced.contains(&start) {
        return None;
    }
    let mut open: Vec<(u8, usize)> = Vec::new();
    let end = balance(bytes, start, &mut open);
    if end.is_none() {
        unbalanced.extend(open.iter().map(|&(_, at)| at));
    }
    end
}

fn balance(bytes: &[u8], start: usize, open: &mut Vec<(u8, usize)>) -> Option<usize> {
    let mut at = start;
    loop {
        let b = *bytes.get(at)?;
        at += 1;
        match b {
            b'"' => loop {
                // Inside a string only a quote, a backslash or a line break matters.
                let found = memchr::memchr3(b'"', b'\\', b'\n', bytes.get(at..)?)?;
                let c = bytes[at + found];
                at += found + 1;
                match c {
                    b'"' => break,
                    b'\\' => at += 1,
                    _ => return None,
                }
            },
            b'[' | b'{' => open.push((b, at - 1)),
            b']' | b'}' => {
                let opener = if b == b']' { b'[' } else { b'{' };
                if open.last().map(|&(o, _)| o) != Some(opener) {
                    return None;
                }
                open.pop();
                if open.is_empty() {
                    return Some(at);
                }
            }
            b' ' => at += leading_spaces(&bytes[at..]),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_fields_are_stepped_over_and_later_positions_stay_right() {
        let text = "{\"metadata\": {\"name\": \"a\", \"managedFields\": [\n  {\"f:x\": {\"k:{\\\"a]\\\"}\": {}}},\n  {}\n], \"uid\": \"u\"},\n\"kind\": \"Pod\"}\n";
        let root = parse_documents(text, 1).remove(0).result.unwrap();
        let metadata = root.get("metadata").unwrap();
        assert!(metadata.get("managedFields").is_none());
        assert_eq!(metadata.get("uid").unwrap().as_str(), Some("u"));
        assert_eq!(root.locate("kind").unwrap().0, Pos::new(5, 1));
        assert_eq!(root.locate("metadata.uid").unwrap().0, Pos::new(4, 4));
        // Unbalanced: read normally, so the error is where it is.
        let bad = "{\"managedFields\": [{\"a\": 1]}\n";
        let err = parse_documents(bad, 1).remove(0).result.unwrap_err();
        assert_eq!(err.pos, Pos::new(1, 27), "{err:?}");
    }

    #[test]
    fn pretty_printed_managed_fields_keep_the_lines_and_columns_after_them() {
        // As `kubectl get -o json` prints it: deep indentation, keys with brackets and quotes.
        let text = concat!(
            "{\n",
            "    \"metadata\": {\n",
            "        \"managedFields\": [\n",
            "            {\n",
            "                \"fieldsV1\": {\n",
            "                    \"f:status\": {\n",
            "                        \"k:{\\\"type\\\":\\\"Ready\\\"}\": {\n",
            "                            \".\": {}\n",
            "                        }\n",
            "                    }\n",
            "                },\n",
            "                \"manager\": \"kubelet\"\n",
            "            }\n",
            "        ],        \"name\": \"web-0\"\n",
            "    }\n",
            "}\n",
        );
        let root = parse_documents(text, 1).remove(0).result.unwrap();
        assert!(root.locate("metadata.managedFields").is_none());
        assert_eq!(root.locate("metadata.name").unwrap().0, Pos::new(14, 19));
        // A line break inside a string: not skipped, so the reader reports it where it is.
        let broken = "{\"managedFields\": [{\"a\": \"x\ny\"}]}\n";
        let err = parse_documents(broken, 1).remove(0).result.unwrap_err();
        assert_eq!(err.pos, Pos::new(1, 28), "{err:?}");
        assert!(err.message.to_string().contains("line break"), "{err:?}");
        // Cut off inside the skipped value: the object is salvaged up to there.
        let cut = "{\"kind\": \"Pod\", \"managedFields\": [{\"a\": \"b\"},\n  {\"c\":";
        let doc = parse_documents(cut, 1).remove(0);
        assert_eq!(doc.result.unwrap().get("kind").unwrap().as_str(), Some("Pod"));
        assert!(doc.cut_off.is_some());
    }

    #[test]
    fn values_keep_their_lines_and_columns() {
        let text = "{\n  \"kind\": \"Pod\",\n  \"status\": {\"phase\": \"Pending\", \"n\": 3}\n}\n";
        let docs = parse_documents(text, 1);
        let root = docs[0].result.as_ref().unwrap();
        assert_eq!(root.locate("kind").unwrap().0, Pos::new(2, 3));
        let (pos, node) = root.locate("status.phase").unwrap();
        assert_eq!(pos, Pos::new(3, 14));
        assert_eq!(node.as_str(), Some("Pending"));
        assert_eq!(root.get("status").unwrap().get("n").unwrap().as_str(), Some("3"));
    }

    #[test]
    fn a_string_hard_wrapped_by_a_mail_client_is_read_across_the_wrap() {
        let text = "{\n  \"message\": \"Back-off pulling image \\\"registry.example.com/shop/web:1.4.2\\\": not\nfound in the registry\",\n  \"reason\": \"Failed\"\n}\n";
        let docs = parse_documents(text, 1);
        let node = docs[0].result.as_ref().unwrap();
        let message = node.get("message").and_then(Node::as_str).unwrap();
        assert!(
            message.ends_with("web:1.4.2\": not found in the registry"),
            "{message}"
        );
        assert_eq!(node.get("reason").unwrap().pos.line, 4);
        // A wrap between a backslash and the quote it escapes, in a line with no space to break at
        // (the last-applied annotation of real/troubleshoot's pod list, wrapped at 76 columns).
        let text = "{\"a\":\n\"{\\\"apiVersion\\\":\\\"v1\\\",\\\"metadata\\\":{\\\"annotations\\\":{},\\\"name\\\":\\\"init-demo\\\"},{\\\n\"command\\\":[]}\"}\n";
        let docs = parse_documents(text, 1);
        let node = docs[0].result.as_ref().unwrap();
        assert_eq!(
            node.get("a").and_then(Node::as_str),
            Some("{\"apiVersion\":\"v1\",\"metadata\":{\"annotations\":{},\"name\":\"init-demo\"},{\"command\":[]}")
        );
        // An unclosed quote before an indented line is still an error, where it is.
        let broken =
            "{\n  \"name\": \"web-7d9f-with-a-long-name-that-fills-the-line-to-the-wrap,\n  \"x\": 1\n}\n";
        let err = parse_documents(broken, 1)[0].result.as_ref().unwrap_err().clone();
        assert_eq!(err.pos.line, 2);
    }

    #[test]
    fn escapes_and_unicode() {
        let docs = parse_documents(r#"{"m": "a\"b\\c\n\u00e9\ud83d\ude00", "k": "é", "x": "y"}"#, 1);
        let root = docs[0].result.as_ref().unwrap();
        assert_eq!(root.get("m").unwrap().as_str(), Some("a\"b\\c\né😀"));
        // Columns count characters: "é" is one.
        assert_eq!(root.locate("x").unwrap().0.column, 48);
    }

    #[test]
    fn concatenated_values_and_recovery_after_an_error() {
        let text = "{\"kind\": \"List\"}\n{\"kind\": \"Pod\", oops}\n{\"kind\": \"Event\"}\n";
        let docs = parse_documents(text, 1);
        assert_eq!(docs.len(), 3);
        assert!(docs[0].result.is_ok());
        let err = docs[1].result.as_ref().unwrap_err();
        assert_eq!(err.pos, Pos::new(2, 17));
        assert_eq!(
            docs[2].result.as_ref().unwrap().get("kind").unwrap().as_str(),
            Some("Event")
        );
    }

    #[test]
    fn cut_off_input_keeps_what_was_complete_and_says_where() {
        let docs = parse_documents(
            "{\"kind\": \"List\", \"items\": [\n  {\"a\": 1},\n  {\"b\": {\"c\": \"unfini",
            1,
        );
        let root = docs[0].result.as_ref().unwrap();
        assert_eq!(root.get("kind").unwrap().as_str(), Some("List"));
        let items = root.get("items").unwrap().items();
        assert_eq!(items[0].get("a").unwrap().as_str(), Some("1"));
        // The item being read when the input ended keeps only its complete fields.
        assert_eq!(items[1].get("b").map(|b| b.get("c").is_none()), Some(true));
        let cut = docs[0].cut_off.as_ref().unwrap();
        assert!(cut.message.to_string().contains("end of input"), "{cut:?}");
        assert_eq!(cut.pos.line, 3);
        // A real syntax error is not a cut: the document is reported as broken.
        let docs = parse_documents("{\"a\": [1, 2 3]}", 1);
        assert!(docs[0].result.is_err());
    }

    #[test]
    fn deep_nesting_is_refused() {
        let docs = parse_documents(&"[".repeat(100_000), 1);
        assert!(docs[0]
            .result
            .as_ref()
            .unwrap_err()
            .message
            .to_string()
            .contains("nesting"));
    }
}
