//! The rules' page (`faultline rules`), generated from the rules' own documentation.

use std::fmt::Write;

use faultline_report::docs::RuleDoc;

use super::{words, Lang};

/// Every rule of `all` with its documentation, grouped by boundary, as Markdown (`faultline rules`): generated
/// from the rules' doc comments (or, for [`Lang::Zh`], their Chinese translations), never written by
/// hand. `sample_link` gives, for a rule id, where a live example of it can be opened (a deep link
/// into the app), if anywhere.
pub fn rules_markdown(all: &[RuleDoc], sample_link: &dyn Fn(&str) -> Option<String>, lang: Lang) -> String {
    use faultline_report::docs::{sections, DocBlock};
    use faultline_report::Boundary;
    let w = words(lang);
    let mut out = String::from(match lang {
        Lang::En => "# Faultline's rules\n\nEach rule names one condition Faultline recognises, the fault boundary it points to, and what its evidence cannot establish.\n\n",
        Lang::Zh => "# Faultline 的规则\n\n每条规则对应 Faultline 能识别的一种情况，说明它指向的故障边界，以及它的证据无法确定的内容。规则 ID、字段、原因、消息和命令保留英文原文，与集群中看到的一致。\n\n",
    });
    let sample = match lang {
        Lang::En => "Open a sample that triggers it",
        Lang::Zh => "打开一个触发此规则的示例",
    };
    for boundary in Boundary::ALL {
        let rules: Vec<_> = all.iter().filter(|r| r.boundary == boundary).collect();
        let _ = writeln!(out, "## {} (`{}`)\n", w.boundary_title(boundary), boundary.id());
        for rule in rules {
            let _ = writeln!(out, "### `{}`\n", rule.id);
            if let Some(link) = sample_link(rule.id) {
                let _ = writeln!(out, "[{sample}]({link})\n");
            }
            for (title, blocks) in sections(rule.docs_in(lang)) {
                let _ = writeln!(out, "**{title}**\n");
                for block in blocks {
                    match block {
                        DocBlock::Text(t) => {
                            let _ = writeln!(out, "{t}\n");
                        }
                        DocBlock::Code(c) => {
                            let _ = writeln!(out, "```\n{c}\n```\n");
                        }
                    }
                }
            }
        }
    }
    out
}
