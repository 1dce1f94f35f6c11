//! YAML reader: text -> one [`Node`] tree per document, each node with its line and column.
//!
//! Why saphyr-parser: it is maintained, YAML 1.2, and its event stream carries a position for every
//! node, which evidence needs ("status.phase is at line 88"). serde_yaml only reports positions for
//! errors. The README has the measurements behind the choice.
//!
//! The YAML parser stops at the first syntax error of a stream. To keep the promise that one bad
//! document does not lose the others, the text is first split at top-level `---` lines and each
//! document is parsed on its own, with its line numbers shifted back to the whole input's.

use crate::reading::Msg;
use faultline_report::hash::Map;

use saphyr_parser::{Event, Parser, ScalarStyle as YamlStyle, ScanError, Span};

use super::kubectl_yaml::{self, Fast};
use super::node::{Keys, MapEntry, Node, NodeValue, Pos, ScalarStyle, Text};
use super::{Reached, SKIPPED_KEY};

/// Deeper nesting than this is not something kubectl prints; refusing it keeps recursion (drop,
/// decoding) bounded on hostile input.
pub const MAX_DEPTH: usize = 256;

/// A parsed YAML document or the reason it could not be parsed.
#[derive(Debug)]
pub struct YamlDocument {
    /// The line where the document's text starts in the whole input (1-based).
    pub first_line: u32,
    pub result: Result<Option<Node>, ParseError>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub pos: Pos,
    /// Boxed: a message is large, and a parse result is returned on every value.
    pub message: Box<faultline_report::message::Message>,
}

/// Splits `text` into `---`-separated documents and parses each one. `first_line` is the line of the
/// text's start in the whole input, so positions are the input's.
pub fn parse_documents(text: &str, first_line: u32) -> Vec<YamlDocument> {
    parse_documents_observed(text, first_line, &mut |_| {})
}

/// [`parse_documents`], telling `reached` the offset after each document and after each item of a
/// top-level List read by the fast reader.
pub fn parse_documents_observed(text: &str, first_line: u32, reached: Reached<'_>) -> Vec<YamlDocument> {
    let mut docs = Vec::new();
    // One text's documents share their keys: a `---`-separated dump repeats them as a List does.
    let mut keys = Keys::for_text(text.len());
    for (first_line, chunk) in split_documents(text, first_line) {
        let base = chunk.as_ptr() as usize - text.as_ptr() as usize;
        docs.extend(parse_chunk(
            chunk,
            first_line,
            &mut |at| reached(base + at),
            &mut keys,
        ));
        reached(base + chunk.len());
    }
    docs
}

/// One `---`-separated chunk: kubectl's subset is read by the fast reader, anything else (and every
/// error) by the general parser.
fn parse_chunk(chunk: &str, first_line: u32, reached: Reached<'_>, keys: &mut Keys) -> Vec<YamlDocument> {
    let result = match kubectl_yaml::parse_observed(chunk, first_line, reached, keys) {
        Some(Fast::Document(root)) => Ok(Some(root)),
        Some(Fast::EmptyMarked) => Ok(None),
        Some(Fast::Nothing) => return Vec::new(),
        None => return parse_chunk_tolerating_redactions(chunk, first_line),
    };
    vec![YamlDocument { first_line, result }]
}

/// The general parser alone on one chunk, as [`parse_documents`] would use it when the fast reader
/// gives up: for tests and fuzzing that hold the fast reader to the same results.
#[cfg(any(test, feature = "test-support"))]
pub fn parse_chunk_generally(chunk: &str, first_line: u32) -> Vec<YamlDocument> {
    parse_chunk_tolerating_redactions(chunk, first_line)
}

/// Byte ranges of the documents: a new one starts at every line that begins with `---` followed by
/// nothing, a space or a tab. Lines are counted so positions can be shifted back.
pub fn split_documents(text: &str, first_line: u32) -> Vec<(u32, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = first_line;
    let mut offset = 0usize;
    for (line, raw) in (first_line..).zip(crate::lines::split_inclusive(text)) {
        if offset > start && is_document_marker(raw) {
            chunks.push((start_line, &text[start..offset]));
            start = offset;
            start_line = line;
        }
        offset += raw.len();
    }
    if start < text.len() || chunks.is_empty() {
        chunks.push((start_line, &text[start..]));
    }
    chunks
}

fn is_document_marker(line: &str) -> bool {
    let line = line.trim_end_matches(['\n', '\r']);
    match line.strip_prefix("---") {
        Some(rest) => rest.is_empty() || rest.starts_with([' ', '\t']),
        None => false,
    }
}

/// Redacted values such as `podIP: *.*.*.*` or `token: ***` are, to YAML, aliases to anchors that
/// do not exist, and would lose the whole document. When the parser reports an unknown anchor, the
/// token is quoted in a private copy of the document and parsing is tried again. The user's text is
/// never changed; only columns after the token on that line shift, by the two quotes.
fn parse_chunk_tolerating_redactions(chunk: &str, first_line: u32) -> Vec<YamlDocument> {
    const MAX_QUOTED: usize = 256;
    let mut docs = parse_events(chunk, first_line);
    let mut patched: Option<String> = None;
    for _ in 0..MAX_QUOTED {
        let Some(err) = docs.last().and_then(|d| d.result.as_ref().err()) else {
            break;
        };
        if !err.message.to_string().contains("unknown anchor") {
            break;
        }
        let text = patched.get_or_insert_with(|| chunk.to_string());
        if !quote_token(text, err.pos.line - first_line, err.pos.column - 1) {
            break;
        }
        docs = parse_events(text, first_line);
    }
    let text = patched.as_deref().unwrap_or(chunk);
    salvage_cut_off(text, first_line, docs)
}

/// A document that ends inside an unclosed value (a paste cut mid-string) is read again without its
/// last lines — 1, 2, 4, … 64 of them — so what was complete is kept; the cut is reported.
fn salvage_cut_off(text: &str, first_line: u32, docs: Vec<YamlDocument>) -> Vec<YamlDocument> {
    let cut = match docs.last().map(|d| &d.result) {
        Some(Err(e))
            if {
                let words = e.message.to_string();
                words.contains("never closed") || words.contains("end of stream")
            } =>
        {
            e.clone()
        }
        _ => return docs,
    };
    let line_ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
    for drop in [1usize, 2, 4, 8, 16, 32, 64] {
        let Some(keep_lines) = line_ends.len().checked_sub(drop) else {
            break;
        };
        if keep_lines == 0 {
            break;
        }
        let prefix = &text[..line_ends[keep_lines - 1]];
        let mut salvaged = parse_events(prefix, first_line);
        if salvaged.iter().all(|d| d.result.is_ok())
            && salvaged.iter().any(|d| matches!(d.result, Ok(Some(_))))
        {
            let from = first_line + keep_lines as u32;
            salvaged.push(YamlDocument {
                first_line: from,
                result: Err(ParseError {
                    pos: cut.pos,
                    message: Msg::YamlReadUpTo {
                        error: cut.message.clone(),
                        last: from - 1,
                        from,
                        to: cut.pos.line.max(from),
                    }
                    .into_box(),
                }),
            });
            return salvaged;
        }
    }
    docs
}

/// Wraps the token at (0-based line, 0-based char column) in single quotes.
fn quote_token(text: &mut String, line: u32, column: u32) -> bool {
    let Some(line_start) = text
        .split_inclusive('\n')
        .take(line as usize)
        .map(str::len)
        .try_fold(0usize, |a, b| a.checked_add(b))
    else {
        return false;
    };
    let Some(rest) = text.get(line_start..) else {
        return false;
    };
    let Some((offset, _)) = rest.char_indices().nth(column as usize) else {
        return false;
    };
    let start = line_start + offset;
    if !text[start..].starts_with('*') {
        return false;
    }
    let len = text[start..]
        .find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | '}'))
        .unwrap_or(text.len() - start);
    let token = text[start..start + len].replace('\'', "''");
    text.replace_range(start..start + len, &format!("'{token}'"));
    true
}

fn parse_events(chunk: &str, first_line: u32) -> Vec<YamlDocument> {
    let mut builder = Builder::new(first_line, chunk.len());
    let mut parser = Parser::new_from_str(chunk);
    let mut docs = Vec::new();
    let mut doc_line = first_line;
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => {
                if let Event::DocumentStart(_) = event {
                    doc_line = builder.pos(&span).line;
                }
                match builder.push(event, span) {
                    Ok(Some(done)) => docs.push(YamlDocument {
                        first_line: doc_line,
                        result: Ok(done),
                    }),
                    Ok(None) => {}
                    Err(err) => {
                        docs.push(YamlDocument {
                            first_line: doc_line,
                            result: Err(err),
                        });
                        break;
                    }
                }
            }
            Some(Err(err)) => {
                let mut error = scan_error(&err, first_line);
                if err.marker().index() >= chunk.chars().count() {
                    error.message = Msg::YamlUnclosed { error: error.message }.into_box();
                }
                docs.push(YamlDocument {
                    first_line: doc_line,
                    result: Err(error),
                });
                break;
            }
        }
    }
    docs
}

fn scan_error(err: &ScanError, first_line: u32) -> ParseError {
    let marker = err.marker();
    ParseError {
        pos: Pos::new(first_line + marker.line() as u32 - 1, marker.col() as u32 + 1),
        message: Msg::YamlSyntax {
            detail: err.info().to_string(),
        }
        .into_box(),
    }
}

enum Frame {
    Seq {
        pos: Pos,
        items: Vec<Node>,
        anchor: usize,
    },
    Map {
        pos: Pos,
        entries: Vec<MapEntry>,
        pending_key: Option<(Text, Pos)>,
        anchor: usize,
    },
}

/// Turns parser events into a node tree, one document at a time.
struct Builder {
    first_line: u32,
    stack: Vec<Frame>,
    anchors: Map<usize, Node>,
    /// Nodes created so far in this chunk; aliases count the nodes they copy, so an alias bomb runs
    /// into the budget instead of into memory.
    nodes: usize,
    budget: usize,
    /// The document's root once its last event has been seen; `None` for an empty document.
    root: Option<Node>,
    keys: Keys,
}

impl Builder {
    fn new(first_line: u32, chunk_len: usize) -> Self {
        Self {
            first_line,
            stack: Vec::new(),
            anchors: Map::default(),
            nodes: 0,
            budget: chunk_len.max(4096) * 2,
            root: None,
            keys: Keys::for_text(chunk_len),
        }
    }

    fn pos(&self, span: &Span) -> Pos {
        Pos::new(
            self.first_line + span.start.line() as u32 - 1,
            span.start.col() as u32 + 1,
        )
    }

    /// Consumes one event; returns `Some(document)` when a document ends.
    fn push(&mut self, event: Event<'_>, span: Span) -> Result<Option<Option<Node>>, ParseError> {
        let pos = self.pos(&span);
        match event {
            Event::DocumentStart(_) => {
                self.stack.clear();
                self.anchors.clear();
                self.root = None;
            }
            // An explicit `---` with nothing after it parses as a null root: an empty document.
            Event::DocumentEnd => return Ok(Some(self.root.take().filter(|r| r.value != NodeValue::Null))),
            Event::Scalar(text, style, anchor, _tag) => {
                let value = match style {
                    YamlStyle::Plain if is_null(&text) => NodeValue::Null,
                    YamlStyle::Plain => NodeValue::scalar_in(&text, ScalarStyle::Plain, &mut self.keys),
                    _ => NodeValue::scalar_in(&text, ScalarStyle::Quoted, &mut self.keys),
                };
                self.count(1, pos)?;
                self.complete(Node::new(value, pos), anchor)?;
            }
            Event::SequenceStart(anchor, _) => {
                self.open(pos)?;
                self.stack.push(Frame::Seq {
                    pos,
                    items: Vec::new(),
                    anchor,
                });
            }
            Event::MappingStart(anchor, _) => {
                self.open(pos)?;
                self.stack.push(Frame::Map {
                    pos,
                    entries: Vec::new(),
                    pending_key: None,
                    anchor,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Frame::Seq { pos, items, anchor }) => {
                        (Node::new(NodeValue::Seq(items.into()), pos), anchor)
                    }
                    Some(Frame::Map {
                        pos, entries, anchor, ..
                    }) => (Node::new(NodeValue::Map(entries.into()), pos), anchor),
                    None => {
                        return Err(ParseError {
                            pos,
                            message: Msg::YamlUnbalanced {}.into_box(),
                        })
                    }
                };
                self.complete(node.0, node.1)?;
            }
            Event::Alias(id) => {
                let Some(target) = self.anchors.get(&id) else {
                    return Err(ParseError {
                        pos,
                        message: Msg::YamlUnknownAnchor {}.into_box(),
                    });
                };
                let copy = Node {
                    pos,
                    ..target.clone()
                };
                self.count(copy.size(), pos)?;
                self.complete(copy, 0)?;
            }
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
        Ok(None)
    }

    fn open(&mut self, pos: Pos) -> Result<(), ParseError> {
        self.count(1, pos)?;
        if self.stack.len() >= MAX_DEPTH {
            return Err(ParseError {
                pos,
                message: Msg::TooDeep { max: MAX_DEPTH }.into_box(),
            });
        }
        Ok(())
    }

    fn count(&mut self, n: usize, pos: Pos) -> Result<(), ParseError> {
        self.nodes += n;
        if self.nodes > self.budget {
            return Err(ParseError {
                pos,
                message: Msg::AliasBomb {}.into_box(),
            });
        }
        Ok(())
    }

    fn complete(&mut self, node: Node, anchor: usize) -> Result<(), ParseError> {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, pending_key, ..
            }) => match pending_key.take() {
                None => {
                    let key = match &node.value {
                        NodeValue::Null => Text::default(),
                        value => Text::from(value.as_str().unwrap_or("<complex key>")),
                    };
                    *pending_key = Some((key, node.pos));
                }
                // Dropped as the fast reader drops it, so both give the same tree.
                Some((key, _)) if key == SKIPPED_KEY => {}
                Some((key, key_pos)) => entries.push(MapEntry {
                    key: self.keys.get(&key),
                    key_pos,
                    value: node,
                }),
            },
        }
        Ok(())
    }
}

/// A plain scalar YAML 1.2 reads as null (both readers use this).
pub(super) fn is_null(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_root(text: &str) -> Node {
        let docs = parse_documents(text, 1);
        assert_eq!(docs.len(), 1, "{docs:?}");
        docs.into_iter().next().unwrap().result.unwrap().unwrap()
    }

    #[test]
    fn positions_point_at_keys_and_values() {
        let root = only_root("apiVersion: v1\nkind: Pod\nstatus:\n  phase: Pending\n  conditions:\n  - type: Ready\n    status: \"False\"\n");
        let (pos, node) = root.locate("status.phase").unwrap();
        assert_eq!(pos, Pos::new(4, 3));
        assert_eq!(node.as_str(), Some("Pending"));
        let (pos, node) = root.locate("status.conditions[0].status").unwrap();
        assert_eq!(pos, Pos::new(7, 5));
        assert_eq!(node.value, NodeValue::scalar("False", ScalarStyle::Quoted));
    }

    #[test]
    fn a_broken_document_does_not_hide_the_next_one() {
        let text = "kind: Pod\nmetadata:\n  name: a\n---\nkind: Pod\nmetadata: [unclosed\n---\nkind: Pod\nmetadata:\n  name: c\n";
        let docs = parse_documents(text, 1);
        assert_eq!(docs.len(), 4, "{docs:?}");
        assert!(docs[0].result.is_ok());
        // The broken document keeps its complete first line and reports the rest.
        let partial = docs[1].result.as_ref().unwrap().as_ref().unwrap();
        assert_eq!(partial.get("kind").unwrap().as_str(), Some("Pod"));
        let err = docs[2].result.as_ref().unwrap_err();
        assert!(err.pos.line >= 6, "{err:?}");
        assert!(
            err.message.to_string().contains("never closed"),
            "the document ends at the next `---`: {err:?}"
        );
        let third = docs[3].result.as_ref().unwrap().as_ref().unwrap();
        assert_eq!(third.locate("metadata.name").unwrap().0.line, 10);
    }

    #[test]
    fn an_error_at_the_end_says_the_document_was_not_closed() {
        let docs = parse_documents("apiVersion: v1\nkind: Pod\nmetadata: [unclosed\n", 1);
        assert!(docs[0].result.is_ok(), "the complete lines are kept");
        let err = docs[1].result.as_ref().unwrap_err();
        assert!(
            err.message.to_string().contains("never closed")
                && err.message.to_string().contains("read up to line 2"),
            "{err:?}"
        );
    }

    #[test]
    fn redactions_that_look_like_aliases_are_read_as_text() {
        let text = "kind: Pod\nstatus:\n  hostIP: *.*.*.*\n  podIP: ***\n  phase: Running\n";
        let docs = parse_documents(text, 1);
        let root = docs[0].result.as_ref().unwrap().as_ref().unwrap();
        assert_eq!(root.locate("status.hostIP").unwrap().1.as_str(), Some("*.*.*.*"));
        assert_eq!(root.locate("status.podIP").unwrap().1.as_str(), Some("***"));
        assert_eq!(root.locate("status.phase").unwrap().0.line, 5);
        // A real alias still works.
        let docs = parse_documents("a: &x 1\nb: *x\n", 1);
        assert_eq!(
            docs[0]
                .result
                .as_ref()
                .unwrap()
                .as_ref()
                .unwrap()
                .get("b")
                .unwrap()
                .as_str(),
            Some("1")
        );
    }

    #[test]
    fn a_cut_off_document_keeps_its_complete_lines() {
        let text =
            "kind: Pod\nmetadata:\n  name: web\nstatus:\n  phase: Pending\n  message: 'the node was low on\n";
        let docs = parse_documents(text, 1);
        assert_eq!(docs.len(), 2, "{docs:?}");
        let root = docs[0].result.as_ref().unwrap().as_ref().unwrap();
        assert_eq!(root.locate("status.phase").unwrap().1.as_str(), Some("Pending"));
        let cut = docs[1].result.as_ref().unwrap_err();
        assert!(cut.message.to_string().contains("read up to line 5"), "{cut:?}");
    }

    #[test]
    fn null_and_empty_documents() {
        let docs = parse_documents("---\n# only a comment\n---\nkind: Pod\n", 1);
        let roots: Vec<_> = docs
            .iter()
            .filter_map(|d| d.result.as_ref().ok().cloned().flatten())
            .collect();
        assert_eq!(roots.len(), 1);
        assert_eq!(roots[0].get("kind").and_then(Node::as_str), Some("Pod"));
        assert_eq!(only_root("a: ~\n").get("a").unwrap().value, NodeValue::Null);
    }

    #[test]
    fn an_alias_bomb_is_refused_not_expanded() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for name in 'b'..='k' {
            text.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
            prev = name;
        }
        let docs = parse_documents(&text, 1);
        let err = docs[0].result.as_ref().unwrap_err();
        assert!(err.message.to_string().contains("alias bomb"), "{err:?}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "[".repeat(10_000);
        let docs = parse_documents(&text, 1);
        let err = docs[0].result.as_ref().unwrap_err();
        assert!(
            err.message.to_string().contains("nesting") || err.message.to_string().contains("recursion"),
            "{err:?}"
        );
    }

    #[test]
    fn crlf_line_ends_keep_line_numbers() {
        let root = only_root("kind: Pod\r\nmetadata:\r\n  name: web\r\n");
        assert_eq!(root.locate("metadata.name").unwrap().0.line, 3);
        assert_eq!(
            root.get("metadata").unwrap().get("name").unwrap().as_str(),
            Some("web")
        );
    }
}
