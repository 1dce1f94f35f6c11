//! Report -> display strings, as plain functions tested natively (the components only lay them out).

pub mod diagram;
pub mod table;
pub mod timeline;

use faultline_engine::{rules, InputSummary};

use crate::i18n::Texts;

/// A block of a rule's documentation: a paragraph (source line breaks joined) or a code example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocBlock {
    Text(String),
    Code(String),
}

/// A rule's documentation as (section title, blocks), for rendering as text.
pub fn rule_docs(rule: &str) -> Option<Vec<(String, Vec<DocBlock>)>> {
    let docs = rules::find(rule)?.docs;
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
    Some(sections)
}

/// "1 document · Pod 1, Event 6", "2 documents · no objects", "container log: not analysed" (the
/// component lays out the two parts of [`input_count_parts`]; this joins them for the tests).
#[cfg(test)]
pub fn input_counts(input: &InputSummary, t: &Texts) -> String {
    match input_count_parts(input, t) {
        (text, None) => text,
        (documents, Some(kinds)) => format!("{documents} · {kinds}"),
    }
}

/// The counts in two parts: the UI's words, and the kinds with their numbers (data, never
/// translated); `None` for a container log.
pub fn input_count_parts(input: &InputSummary, t: &Texts) -> (String, Option<String>) {
    if input.format == "container-log" {
        return (t.container_log.to_string(), None);
    }
    let documents = (t.documents)(input.documents);
    let kinds: Vec<String> = input
        .kinds
        .iter()
        .map(|(kind, n)| format!("{kind} {n}"))
        .collect();
    if kinds.is_empty() {
        (format!("{documents} · {}", t.no_objects), None)
    } else {
        (documents, Some(kinds.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(format: &str, documents: usize, kinds: &[(&str, usize)]) -> InputSummary {
        InputSummary {
            source: "x".into(),
            format: format.into(),
            documents,
            objects: kinds.iter().map(|(_, n)| n).sum(),
            kinds: kinds.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
        }
    }

    #[test]
    fn every_rule_has_docs_to_show_in_sections() {
        for rule in rules::RULES {
            let sections = rule_docs(rule.id).unwrap();
            let titles: Vec<&str> = sections.iter().map(|(t, _)| t.as_str()).collect();
            assert_eq!(titles, rules::DOC_SECTIONS, "{}", rule.id);
            assert!(
                sections.iter().all(|(_, blocks)| !blocks.is_empty()),
                "{}: an empty section",
                rule.id
            );
            let (_, example) = sections.last().unwrap();
            assert!(
                example.iter().any(|b| matches!(b, DocBlock::Code(_))),
                "{}: the example is code",
                rule.id
            );
        }
        let sections = rule_docs("image-pull-failed").unwrap();
        let DocBlock::Text(first) = &sections[0].1[0] else {
            panic!("text first")
        };
        assert!(
            !first.contains('\n') && first.starts_with("A container or init container"),
            "{first}"
        );
        assert_eq!(rule_docs("no-such-rule"), None);
    }

    #[test]
    fn counts_read_naturally_in_both_languages() {
        let zh = crate::i18n::Lang::Zh.texts();
        assert_eq!(
            input_counts(&input("yaml", 2, &[("Pod", 1)]), zh),
            "2 个文档 · Pod 1"
        );
        assert_eq!(
            input_counts(&input("container-log", 0, &[]), zh),
            "容器日志：不分析"
        );
        let t = crate::i18n::Lang::En.texts();
        assert_eq!(
            input_counts(&input("yaml", 1, &[("Pod", 1)]), t),
            "1 document · Pod 1"
        );
        assert_eq!(
            input_counts(&input("mixed", 3, &[("Event", 6), ("Pod", 2)]), t),
            "3 documents · Event 6, Pod 2"
        );
        assert_eq!(
            input_counts(&input("unrecognized", 0, &[]), t),
            "0 documents · no objects"
        );
        assert_eq!(
            input_counts(&input("container-log", 0, &[]), t),
            "container log: not analysed"
        );
    }
}
