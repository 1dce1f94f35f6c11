use faultline_report::docs::DocBlock;
use faultline_report::Boundary;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::i18n::Lang;
use crate::route::{self, View};
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
    // The documentation comes from the engine's worker, asked for when the page first shows.
    let docs = use_context::<crate::rule_docs::DocsContext>();
    {
        let docs = docs.clone();
        use_effect_with((), move |()| {
            if let Some(docs) = docs.filter(|d| !d.loaded) {
                docs.want.emit(());
            }
        });
    }
    let Some(all) = crate::rule_docs::all() else {
        return html! {
            <div class="rules-page">
                <h2>{ t.rules_title }</h2>
                <p class="muted docs-loading" role="status">{ t.docs_loading }</p>
            </div>
        };
    };
    // The index first: each boundary's rules, each with the first sentence of what it detects, a
    // button that brings its article into view (the location hash is the page's route, so no
    // `#rule-…` links), and each article a way back.
    let index = Boundary::ALL.into_iter().map(|boundary| {
        let rules = all.iter().filter(|r| r.boundary == boundary).map(|rule| {
            let summary =
                faultline_report::docs::first_sentence(rule.docs_in(props.lang)).unwrap_or_default();
            let id = rule.id;
            html! {
                <li>
                    <button type="button" class="link rule-jump" data-rule={id}
                        onclick={move |_: MouseEvent| bring_into_view(&format!("rule-{id}"))}>
                        <code translate="no">{ id }</code>
                    </button>
                    <span class="muted" translate="no">{ " " }{ super::prose(&summary) }</span>
                </li>
            }
        });
        html! {
            <li class="index-group" data-boundary={boundary.id()}>
                <strong>{ (t.boundary)(boundary) }</strong>
                <ul>{ for rules }</ul>
            </li>
        }
    });
    let to_index = Callback::from(|_: MouseEvent| bring_into_view("rules-index"));
    let groups = Boundary::ALL.into_iter().map(|boundary| {
        let rules = all.iter().filter(|r| r.boundary == boundary).map(|rule| {
            let link = samples::for_rule(rule.id).map(|s| route::format(Some(s.id), View::Findings));
            let sections = view_model::rule_docs(rule.id, props.lang).unwrap_or_default();
            html! {
                <article class="rule" id={format!("rule-{}", rule.id)} data-rule={rule.id}>
                    <h4 tabindex="-1"><code translate="no">{ rule.id }</code></h4>
                    <button type="button" class="link to-index" onclick={to_index.clone()}>{ t.rules_back_to_index }</button>
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
            <nav class="rules-index" id="rules-index" tabindex="-1" aria-label={t.rules_index}>
                <h3>{ t.rules_index }</h3>
                <ul>{ for index }</ul>
            </nav>
            { for groups }
        </div>
    }
}

/// Scrolls the element with `id` into view and puts the focus there (its heading, for an article).
fn bring_into_view(id: &str) {
    let Some(element) = gloo::utils::document().get_element_by_id(id) else {
        return;
    };
    element.scroll_into_view();
    let focus = element.query_selector("h4").ok().flatten().unwrap_or(element);
    if let Some(focus) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&focus) {
        let _ = focus.focus();
    }
}
