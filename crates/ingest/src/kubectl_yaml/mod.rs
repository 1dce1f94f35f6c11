//! A fast reader for the YAML that kubectl prints, straight into [`Node`] trees.
//!
//! `kubectl get -o yaml` writes a narrow, regular subset of YAML: block mappings and sequences
//! (sequences under a key at the key's own indentation), two-space indentation, plain scalars, single
//! and double quotes (folded over several lines when long), `|` block scalars, and only empty flow
//! collections (`{}`, `[]`). This reader handles exactly that subset line by line, without an event
//! stream or a tokenizer, and steps over `metadata.managedFields` without building it (see
//! [`super::SKIPPED_KEY`]).
//!
//! It never reports an error. Anything outside the subset — anchors, aliases, tags, flow collections
//! with content, comments after values, folded `>` scalars, bad indentation, syntax errors — makes it
//! give up on the document, which is then read by the general parser ([`super::yaml`]), so the result
//! and every error message are those of a full YAML 1.2 parser. For the documents it accepts it
//! produces the very tree the general parser does, positions included; a test over the corpus and a
//! fuzz target hold it to that.

use std::ops::Range;

use super::node::{Keys, Node};
use super::Reached;

/// What the fast reader made of one document (the text between two `---` lines).
#[derive(Debug, PartialEq)]
pub enum Fast {
    /// The document's root.
    Document(Node),
    /// Only comments and blank lines, after an explicit `---`.
    EmptyMarked,
    /// Only comments and blank lines, without a `---`: no document at all.
    Nothing,
}

/// Reads one document, or returns `None` when it is not in the subset (the general parser then reads
/// it). `first_line` is the line of the chunk's start in the whole input.
pub fn parse(chunk: &str, first_line: u32) -> Option<Fast> {
    read(chunk, first_line, &mut |_| {}, &mut Keys::default()).map(|(fast, _)| fast)
}

/// [`parse`], telling `reached` the offset after each item of a top-level List, its map keys made
/// with `keys` (shared by every document of one text).
pub fn parse_observed(chunk: &str, first_line: u32, reached: Reached<'_>, keys: &mut Keys) -> Option<Fast> {
    read(chunk, first_line, reached, keys).map(|(fast, _)| fast)
}

/// [`parse`], with where the skipped values are in `chunk` (from their key's colon to the end of
/// their last line).
fn read(
    chunk: &str,
    first_line: u32,
    reached: Reached<'_>,
    keys: &mut Keys,
) -> Option<(Fast, Vec<Range<usize>>)> {
    // A lone carriage return is a line break to YAML, and a byte-order mark is skipped: both are
    // left to the general parser, which this reader would otherwise disagree with on lines.
    if lone_carriage_return(chunk) || has_byte_order_mark(chunk) {
        return None;
    }
    let mut reader = Reader::new(chunk, first_line, reached, keys);
    let marked = reader.document_start()?;
    let Some(line) = reader.content_line() else {
        let empty = if marked { Fast::EmptyMarked } else { Fast::Nothing };
        return Some((empty, Vec::new()));
    };
    let root = reader.block_node(&line, 0)?;
    // Everything must have been read: a line left over is an indentation this reader does not follow.
    if reader.content_line().is_some() {
        return None;
    }
    Some((Fast::Document(root), reader.skipped))
}

/// Reads a chunk with both readers and says how they differ, if they do: `None` when the fast reader
/// gave up or gave exactly the general parser's result. For the differential test and fuzz target.
///
/// One difference is by design: a skipped value's syntax is checked only as far as its indentation.
/// Where the general parser fails because of what is inside one (an error inside it, on the line
/// after it, or at the end of the document for a bracket it opens and never closes), the fast reader
/// may still read the document. It must then give what the general parser gives for the document
/// with the skipped values taken out: nothing a rule reads is lost that way.
#[cfg(any(test, feature = "test-support"))]
pub fn disagreement(chunk: &str, first_line: u32) -> Option<String> {
    let (fast, skipped) = read(chunk, first_line, &mut |_| {}, &mut Keys::default())?;
    let general = read_generally(chunk, first_line);
    if agrees(&fast, &general)
        || (!skipped.is_empty()
            && agrees(
                &fast,
                &read_generally(&without_skipped(chunk, &skipped), first_line),
            ))
    {
        return None;
    }
    Some(format!("fast reader: {fast:?}\ngeneral parser: {general:?}"))
}

#[cfg(any(test, feature = "test-support"))]
type GeneralResult = Result<Option<Node>, super::yaml::ParseError>;

#[cfg(any(test, feature = "test-support"))]
fn read_generally(chunk: &str, first_line: u32) -> Vec<GeneralResult> {
    super::yaml::parse_chunk_generally(chunk, first_line)
        .into_iter()
        .map(|d| d.result)
        .collect()
}

#[cfg(any(test, feature = "test-support"))]
fn agrees(fast: &Fast, general: &[GeneralResult]) -> bool {
    match fast {
        Fast::Document(root) => matches!(general, [Ok(Some(g))] if g == root),
        Fast::EmptyMarked => matches!(general, [Ok(None)]),
        Fast::Nothing => general.is_empty(),
    }
}

/// `chunk` with each skipped value replaced by `[]`, keeping its line breaks so that every other
/// line keeps its number.
#[cfg(any(test, feature = "test-support"))]
fn without_skipped(chunk: &str, skipped: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(chunk.len());
    let mut at = 0;
    for range in skipped {
        out.push_str(&chunk[at..=range.start]);
        out.push_str(" []");
        out.extend(chunk[range.clone()].chars().filter(|c| matches!(c, '\r' | '\n')));
        at = range.end;
    }
    out.push_str(&chunk[at..]);
    out
}

mod lexical;
mod reader;

use lexical::{has_byte_order_mark, lone_carriage_return};
use reader::Reader;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_and_lone_carriage_returns_are_found_anywhere() {
        for (text, bom, lone_cr) in [
            ("kind: Pod\n", false, false),
            ("\u{feff}kind: Pod\n", true, false),
            ("kind: Pod\nname: a\u{feff}\n", true, false),
            // Other characters that start with the same byte (U+F000..U+FFFF) are not one.
            ("name: \u{fe00}\u{fefe}\u{ffff}", false, false),
            ("kind: Pod\r\nname: a\r\n", false, false),
            ("kind: Pod\rname: a\n", false, true),
            ("kind: Pod\r", false, true),
        ] {
            assert_eq!(has_byte_order_mark(text), text.contains('\u{feff}'), "{text:?}");
            assert_eq!(has_byte_order_mark(text), bom, "{text:?}");
            assert_eq!(lone_carriage_return(text), lone_cr, "{text:?}");
        }
    }
}
