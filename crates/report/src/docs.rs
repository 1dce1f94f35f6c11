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

#[cfg(test)]
mod tests {
    use super::*;

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
