//! A rule's documentation (its doc comment, Markdown with `## ` sections) as blocks the app, the CLI
//! and the rules page lay out: paragraphs with their source line breaks joined, and code examples.

use crate::lang::Lang;
use crate::Boundary;

/// A rule's documentation, as the pages show it: the rule without its check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    pub id: &'static str,
    pub boundary: Boundary,
    /// The doc comment, in Markdown, with fixed `## ` sections.
    pub docs: &'static str,
    /// The same in Chinese.
    pub docs_zh: &'static str,
}

impl RuleDoc {
    /// The documentation in a language.
    pub fn docs_in(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.docs,
            Lang::Zh => self.docs_zh,
        }
    }
}

/// A block of a rule's documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocBlock {
    Text(String),
    Code(String),
}

/// The documentation as (section title, blocks), in the order written.
pub fn sections(docs: &str) -> Vec<(String, Vec<DocBlock>)> {
    let mut sections: Vec<(String, Vec<DocBlock>)> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let flush = |paragraph: &mut Vec<&str>, sections: &mut Vec<(String, Vec<DocBlock>)>| {
        if !paragraph.is_empty() {
            if let Some((_, blocks)) = sections.last_mut() {
                blocks.push(DocBlock::Text(paragraph.join(" ")));
            }
            paragraph.clear();
        }
    };
    for raw in docs.lines() {
        let line = raw.strip_prefix(' ').unwrap_or(raw);
        if let Some(lines) = code.as_mut() {
            if line.starts_with("```") {
                let text = lines.join("\n");
                if let Some((_, blocks)) = sections.last_mut() {
                    blocks.push(DocBlock::Code(text));
                }
                code = None;
            } else {
                lines.push(line);
            }
        } else if let Some(title) = line.strip_prefix("## ") {
            flush(&mut paragraph, &mut sections);
            sections.push((title.trim().to_string(), Vec::new()));
        } else if line.starts_with("```") {
            flush(&mut paragraph, &mut sections);
            code = Some(Vec::new());
        } else if line.trim().is_empty() {
            flush(&mut paragraph, &mut sections);
        } else {
            paragraph.push(line.trim());
        }
    }
    flush(&mut paragraph, &mut sections);
    sections
}

/// The first sentence of a rule's first section ("What it finds"): what the rules index shows
/// beside the rule's id, one sentence, never the paragraph (issue 40). A sentence ends at `.`, `!`
/// or `?` before a space (or at `。`), outside code spans and brackets, and not after an
/// abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`). A long one that defines, then lists (`An object
/// the admission refused …: Pod Security (…), a webhook (…), …`), is its definition: up to its colon.
pub fn first_sentence(docs: &str) -> Option<String> {
    const LONG: usize = 160;
    let text = sections(docs)
        .into_iter()
        .next()?
        .1
        .into_iter()
        .find_map(|block| match block {
            DocBlock::Text(text) => Some(text),
            DocBlock::Code(_) => None,
        })?;
    let (mut code, mut depth) = (false, 0usize);
    let mut colon: Option<(usize, &str)> = None;
    let mut end = text.len();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        match c {
            '`' => code = !code,
            '(' | '[' | '（' if !code => depth += 1,
            ')' | ']' | '）' if !code => depth = depth.saturating_sub(1),
            '：' if !code && depth == 0 => {
                colon.get_or_insert((at, "。"));
            }
            ':' if !code && depth == 0 && next.is_some_and(char::is_whitespace) => {
                colon.get_or_insert((at, "."));
            }
            '。' if !code && depth == 0 => {
                end = at + c.len_utf8();
                break;
            }
            '.' | '!' | '?' if !code && depth == 0 => {
                let word = text[..at].rsplit([' ', '(']).next().unwrap_or_default();
                let abbreviation = matches!(word, "e.g" | "i.e" | "etc" | "vs" | "cf" | "approx");
                if next.is_none_or(char::is_whitespace) && !abbreviation {
                    end = at + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let sentence = &text[..end];
    let long = |s: &str| s.chars().count() > if s.is_ascii() { LONG } else { LONG / 2 };
    let sentence = match colon.filter(|_| long(sentence)) {
        Some((at, stop)) => format!("{}{stop}", &text[..at]),
        None => sentence.to_string(),
    };
    // Still long: its asides in brackets go (`A node whose `Ready` condition is `False` (the
    // kubelet reports …) or `Unknown` (…).` is `… is `False` or `Unknown`.`).
    Some(if long(&sentence) {
        without_asides(&sentence)
    } else {
        sentence
    })
}

/// `text` without its bracketed asides (outside code spans), and the space before each.
fn without_asides(text: &str) -> String {
    let (mut out, mut code, mut depth) = (String::new(), false, 0usize);
    for c in text.chars() {
        match c {
            '`' if depth == 0 => {
                code = !code;
                out.push(c);
            }
            '(' | '（' if !code => {
                if depth == 0 {
                    out.truncate(out.trim_end().len());
                }
                depth += 1;
            }
            ')' | '）' if !code && depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_sentence_ends_at_its_full_stop_not_at_one_in_code_or_an_abbreviation() {
        let docs = "## What it finds\nA Pod whose `status.phase` is `Failed` (e.g. evicted, or\nits `spec.nodeName` gone). It matters. More.\n\n## Why it matters\nX.\n";
        assert_eq!(
            first_sentence(docs).as_deref(),
            Some("A Pod whose `status.phase` is `Failed` (e.g. evicted, or its `spec.nodeName` gone).")
        );
        let zh = "## 检测内容\n状态为 `Failed` 的 Pod。它很重要。\n";
        assert_eq!(first_sentence(zh).as_deref(), Some("状态为 `Failed` 的 Pod。"));
        let one = "## What it finds\nOne sentence, e.g. this one, without a stop\n";
        assert_eq!(
            first_sentence(one).as_deref(),
            Some("One sentence, e.g. this one, without a stop")
        );
        let listing = format!(
            "## What it finds\nAn object the admission refused: {}.\n",
            "a reason, ".repeat(20)
        );
        assert_eq!(
            first_sentence(&listing).as_deref(),
            Some("An object the admission refused.")
        );
        let aside = format!(
            "## What it finds\nA node whose `Ready` is `False` ({}) or `Unknown`.\n",
            "why, ".repeat(40)
        );
        assert_eq!(
            first_sentence(&aside).as_deref(),
            Some("A node whose `Ready` is `False` or `Unknown`.")
        );
    }

    #[test]
    fn a_doc_comment_reads_as_its_sections_with_code_for_the_example() {
        let docs = "## What it finds\nA first line\nand its second.\n\n## Example\n```yaml\na: 1\n```\n";
        assert_eq!(
            sections(docs),
            vec![
                (
                    "What it finds".to_string(),
                    vec![DocBlock::Text("A first line and its second.".into())]
                ),
                ("Example".to_string(), vec![DocBlock::Code("a: 1".into())]),
            ]
        );
    }
}
