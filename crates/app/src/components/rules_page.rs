use faultline_engine::rules::docs::DocBlock;
use faultline_engine::Boundary;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::i18n::Lang;
use crate::route::{self, View};
use crate::rule_docs::RULE_DOCS;
use crate::{samples, view_model};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lang: Lang,
}

/// Every rule, grouped by boundary, with its documentation (generated from the rules, never written
/// by hand) and a link that opens a sample making it fire.
#[function_component(RulesPage)]
pub fn rules_page(props: &Props) -> Html {
    let t = use_texts();
    let groups = Boundary::ALL.into_iter().map(|boundary| {
        let rules = RULE_DOCS.iter().filter(|r| r.boundary == boundary.id()).map(|rule| {
            let link = samples::for_rule(rule.id).map(|s| route::format(Some(s.id), View::Findings));
            let sections = view_model::rule_docs(rule.id, props.lang).unwrap_or_default();
            html! {
                <article class="rule" id={format!("rule-{}", rule.id)} data-rule={rule.id}>
                    <h4><code translate="no">{ rule.id }</code></h4>
                    if let Some(href) = link {
                        <p><a class="open-sample" href={href}>{ t.open_rule_sample }</a></p>
                    }
                    { for sections.iter().map(|(title, blocks)| html! {
                        <section>
                            <h5>{ (t.doc_section)(title).map_or_else(|| title.clone(), str::to_string) }</h5>
                            { for blocks.iter().map(|block| match block {
                                DocBlock::Text(text) => html! { <p translate="no">{ super::prose(text) }</p> },
                                DocBlock::Code(code) => html! { <pre translate="no">{ code.clone() }</pre> },
                            }) }
                        </section>
                    }) }
                </article>
            }
        });
        html! {
            <section class="rule-group" data-boundary={boundary.id()}>
                <h3>{ (t.boundary)(boundary) }{ " " }<code translate="no">{ boundary.id() }</code></h3>
                { for rules }
            </section>
        }
    });
    html! {
        <div class="rules-page">
            <h2>{ t.rules_title }</h2>
            <p class="muted">{ t.rules_intro }</p>
            { for groups }
        </div>
    }
}
