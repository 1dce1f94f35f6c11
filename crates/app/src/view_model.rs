//! Report -> display strings, as plain functions tested natively (the components only lay them out).

pub mod diagram;
pub mod map;
pub mod summary;
pub mod table;
pub mod timeline;

use faultline_report::InputSummary;

use crate::i18n::Lang;

use crate::i18n::Texts;

pub use faultline_report::docs::DocBlock;

/// A rule's documentation as (section title, blocks).
pub type Sections = std::rc::Rc<Vec<(String, Vec<DocBlock>)>>;

/// A rule's documentation in a language as (section title, blocks), for rendering as text. Parsed
/// once per rule and language: every finding card shows its rule's docs, and a big dump has
/// thousands of findings of a few rules.
pub fn rule_docs(rule: &str, lang: Lang) -> Option<Sections> {
    type Parsed = Sections;
    thread_local! {
        static PARSED: std::cell::RefCell<std::collections::HashMap<(&'static str, Lang), Parsed>> =
            std::cell::RefCell::default();
    }
    let rule = crate::rule_docs::find(rule)?;
    Some(PARSED.with(|parsed| {
        parsed
            .borrow_mut()
            .entry((rule.id, lang))
            .or_insert_with(|| std::rc::Rc::new(faultline_report::docs::sections(rule.docs_in(lang))))
            .clone()
    }))
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

/// A name cut to `max` characters in its middle, `pricing-int…7jw2f98rjl-x2k4q`: the end is what
/// tells the Pods of one workload apart (the generated suffixes), the start which workload they are.
/// A DNS name (`ip-10-0-0-18.ec2.internal`) keeps its first label, the part that tells nodes apart.
pub fn short_name(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max || max < 3 {
        return text.to_string();
    }
    if let Some((host, _)) = text.split_once('.') {
        if !host.is_empty() && host.chars().count() < max {
            return format!("{host}…");
        }
    }
    let tail = (max - 1) / 2 + (max - 1) % 2;
    let head = max - 1 - tail;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// A name cut in its middle ([`short_name`]) to fit `em` widths of a bold sans-serif font: names are
/// cut by their width, not their length (`ip-10-0-0-18.ec2.internal` is narrower than a Pod name of
/// as many characters, and 29 characters of a Pod's ran past its box, issue 40.7). The widths are
/// DejaVu Sans Bold's, the widest of the usual system fonts.
pub fn fit_name(text: &str, em: f64) -> String {
    fn width(c: char) -> f64 {
        match c {
            'i' | 'j' | 'l' | 'I' | '|' | '\'' => 0.343,
            '.' | ',' | ':' | ';' => 0.38,
            '-' | 'f' | 't' | '(' | ')' | '/' => 0.48,
            'r' => 0.494,
            'c' | 'z' | 's' => 0.6,
            'm' | 'M' | 'W' => 1.05,
            'w' => 0.925,
            '…' => 1.0,
            c if c.is_ascii_uppercase() => 0.8,
            c if c.is_ascii() => 0.72,
            // CJK and other wide glyphs: a full em.
            _ => 1.0,
        }
    }
    let fits = |s: &str| s.chars().map(width).sum::<f64>() <= em;
    let count = text.chars().count();
    (3..=count)
        .rev()
        .map(|max| short_name(text, max))
        .find(|s| fits(s))
        .unwrap_or_else(|| short_name(text, 3))
}

/// A name split before its last characters for [`crate::components::middle_cut`]: the tail is the
/// last 16 characters (a ReplicaSet hash and a Pod suffix, `7jw2f98rjl-x2k4q`), at most half the name,
/// and starts after a `-` or a space when one is near, so it reads as a unit.
pub fn name_tail(text: &str) -> (&str, &str) {
    const TAIL: usize = 16;
    let count = text.chars().count();
    let keep = TAIL.min(count / 2);
    let Some((at, _)) = text.char_indices().nth(count - keep) else {
        return (text, "");
    };
    // Move the cut to just after a separator within the first 4 characters of the tail.
    let near = text[at..]
        .char_indices()
        .take(4)
        .find(|(_, c)| *c == '-' || *c == ' ')
        .map_or(at, |(i, c)| at + i + c.len_utf8());
    let cut = if near < text.len() { near } else { at };
    text.split_at(cut)
}

/// How many lines of the input named `source` the report lists as not read.
pub fn unread_lines(report: &faultline_report::Report, source: &str) -> u32 {
    report
        .unread
        .iter()
        .filter(|u| u.source == source)
        .map(|u| u.end_line.saturating_sub(u.line) + 1)
        .sum()
}

/// The line ranges of the input named `source` that were not read.
pub fn unread_ranges(report: &faultline_report::Report, source: &str) -> Vec<(u32, u32)> {
    report
        .unread
        .iter()
        .filter(|u| u.source == source)
        .map(|u| (u.line, u.end_line))
        .collect()
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

    #[test]
    fn a_name_is_cut_by_its_width_not_its_length() {
        // A node's DNS name of 25 characters fits whole; a Pod name of 29 loses its middle, and
        // keeps its end (the suffix that tells the Pods apart).
        assert_eq!(
            fit_name("ip-10-0-0-22.ec2.internal", 16.4),
            "ip-10-0-0-22.ec2.internal"
        );
        let pod = fit_name("batch-runner-6c8m4482zb-vqmh5", 16.4);
        assert!(pod.contains('…') && pod.ends_with("-vqmh5"), "{pod}");
        assert!(pod.chars().count() < 29);
        // Wide letters take more room than narrow ones of the same count.
        assert!(
            fit_name("mmmmmmmmmmmmmmmmmmmm", 16.4).chars().count()
                < fit_name("iiiiiiiiiiiiiiiiiiii", 16.4).chars().count()
        );
        assert_eq!(fit_name("web", 16.4), "web");
    }

    fn input(format: &str, documents: usize, kinds: &[(&str, usize)]) -> InputSummary {
        InputSummary {
            source: "x".into(),
            format: format.into(),
            documents,
            objects: kinds.iter().map(|(_, n)| n).sum(),
            kinds: kinds.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
            sha256: String::new(),
        }
    }

    #[test]
    fn every_rule_has_docs_to_show_in_sections_in_both_languages() {
        // None before the worker has sent them.
        assert_eq!(rule_docs("image-pull-failed", Lang::En), None);
        crate::rule_docs::install_from_engine();
        for lang in Lang::ALL {
            for rule in faultline_engine::rules::RULES {
                let sections = rule_docs(rule.id, lang).unwrap();
                let titles: Vec<&str> = sections.iter().map(|(t, _)| t.as_str()).collect();
                assert_eq!(
                    titles,
                    faultline_engine::rules::Rule::doc_sections(lang),
                    "{}",
                    rule.id
                );
                let (_, example) = sections.last().unwrap();
                assert!(
                    example.iter().any(|b| matches!(b, DocBlock::Code(_))),
                    "{}",
                    rule.id
                );
            }
        }
        let sections = rule_docs("image-pull-failed", Lang::En).unwrap();
        let DocBlock::Text(first) = &sections[0].1[0] else {
            panic!("text first")
        };
        assert!(
            !first.contains('\n') && first.starts_with("A container or init container"),
            "{first}"
        );
        assert_eq!(rule_docs("no-such-rule", Lang::Zh), None);
    }

    #[test]
    fn long_names_lose_their_middle_and_keep_the_suffix_that_tells_pods_apart() {
        let name = "pricing-internal-7jw2f98rjl-x2k4q";
        let short = short_name(name, 21);
        assert_eq!(short.chars().count(), 21);
        assert_eq!(short, "pricing-in…8rjl-x2k4q");
        assert!(short.ends_with("-x2k4q") && short.starts_with("pricing-"));
        assert_eq!(short_name("web-1", 21), "web-1");
        assert_eq!(short_name("ip-10-0-0-18.ec2.internal", 16), "ip-10-0-0-18…");
        // Characters, not bytes: a Chinese name is cut between characters.
        assert_eq!(short_name("一二三四五六七八九十", 5), "一二…九十");
    }

    #[test]
    fn counts_read_naturally_in_both_languages() {
        let zh = crate::i18n::texts(crate::i18n::Lang::Zh);
        assert_eq!(
            input_counts(&input("yaml", 2, &[("Pod", 1)]), zh),
            "2 个文档 · Pod 1"
        );
        assert_eq!(
            input_counts(&input("container-log", 0, &[]), zh),
            "容器日志：不分析"
        );
        let t = crate::i18n::texts(crate::i18n::Lang::En);
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

#[cfg(test)]
mod name_tail_tests {
    use super::name_tail;

    #[test]
    fn the_tail_keeps_the_suffixes_that_tell_pods_apart() {
        let (head, tail) = name_tail("Pod pricing-internal-7jw2f98rjl-x2k4q");
        assert_eq!(tail, "7jw2f98rjl-x2k4q");
        assert_eq!(format!("{head}{tail}"), "Pod pricing-internal-7jw2f98rjl-x2k4q");
        // A short name: half of it at most; nothing lost.
        assert_eq!(name_tail("Pod web"), ("Pod ", "web"));
        assert_eq!(name_tail("x"), ("x", ""));
        // Multi-byte names split at a character.
        let (head, tail) = name_tail("Pod 订单服务-7d9f8c6b5-abcde");
        assert_eq!(format!("{head}{tail}"), "Pod 订单服务-7d9f8c6b5-abcde");
        assert!(tail.ends_with("abcde"));
    }
}
