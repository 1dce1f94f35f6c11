use faultline_engine::Finding;
use yew::prelude::*;

use crate::view_model;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub finding: Finding,
    pub rank: usize,
}

/// One finding: boundary, summary, evidence with its source line, limits, and next commands.
#[function_component(FindingCard)]
pub fn finding_card(props: &Props) -> Html {
    let f = &props.finding;
    let severity = format!("{:?}", f.severity).to_lowercase();
    html! {
        <article class={classes!("finding", severity.clone())} data-rule={f.rule.clone()} data-boundary={f.boundary.id()}>
            <header>
                <span class="rank">{ props.rank }</span>
                <span class={classes!("severity", severity.clone())}>{ severity }</span>
                <code class="rule">{ &f.rule }</code>
                <span class="boundary">{ f.boundary.id() }</span>
                <span class="subject">{ f.subject.to_string() }</span>
            </header>
            <p class="summary">{ &f.summary }</p>
            <h4>{ "Evidence" }</h4>
            <ul class="evidence">
                { for f.evidence.iter().map(|e| html! {
                    <li>
                        <span class="where">{ format!("{}:{}", e.source, e.line) }</span>
                        <code class="path">{ &e.path }</code>
                        <span class="value">{ &e.value }</span>
                    </li>
                }) }
            </ul>
            <h4>{ "What this evidence cannot establish" }</h4>
            <ul class="cannot">{ for f.cannot_establish.iter().map(|c| html! { <li>{ c }</li> }) }</ul>
            <h4>{ "Next steps" }</h4>
            <ul class="next">{ for f.next_steps.iter().map(|s| html! { <li><code>{ s }</code></li> }) }</ul>
            if let Some(sections) = view_model::rule_docs(&f.rule) {
                <details class="rule-docs">
                    <summary>{ format!("About the rule {}", f.rule) }</summary>
                    { for sections.into_iter().map(|(title, blocks)| html! {
                        <section>
                            <h5>{ title }</h5>
                            { for blocks.into_iter().map(|block| match block {
                                view_model::DocBlock::Text(text) => html! { <p>{ text }</p> },
                                view_model::DocBlock::Code(code) => html! { <pre>{ code }</pre> },
                            }) }
                        </section>
                    }) }
                </details>
            }
        </article>
    }
}
