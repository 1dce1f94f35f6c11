use faultline_report::Finding;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::view_model;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub finding: Finding,
    pub rank: usize,
    /// The number shown: `2`, or `1.1` for a symptom listed under finding 1.
    pub label: String,
    /// For a symptom, the number of the finding that explains it.
    #[prop_or_default]
    pub symptom_of: Option<String>,
    /// Brought into view and outlined (opened from another view).
    #[prop_or_default]
    pub selected: bool,
    pub on_show_line: Callback<(String, u32)>,
    /// "Paste its output" of a next step: opens the input named after its command.
    #[prop_or_default]
    pub on_follow_up: Callback<String>,
}

/// One finding: boundary, summary, evidence with its source line, limits, and next commands.
#[function_component(FindingCard)]
pub fn finding_card(props: &Props) -> Html {
    let t = use_texts();
    let lang = use_context::<crate::i18n::Lang>().unwrap_or(crate::i18n::Lang::En);
    let node = use_node_ref();
    let copied = use_state(|| None::<usize>);
    // The rule's docs are rendered once opened: dozens of cards with seven sections each, all closed,
    // were most of a big report's first render. A button opens them, not a `<details>`: each
    // `<details>` builds a shadow root with its own style sheet in Chromium, about 1 ms a card.
    // The docs come from the engine's worker the first time a card or the rules page shows them.
    let docs_open = use_state(|| false);
    let docs = use_context::<crate::rule_docs::DocsContext>();
    let toggle_docs = {
        let (docs_open, docs) = (docs_open.clone(), docs.clone());
        Callback::from(move |_: MouseEvent| {
            if !*docs_open {
                if let Some(docs) = docs.as_ref().filter(|d| !d.loaded) {
                    docs.want.emit(());
                }
            }
            docs_open.set(!*docs_open)
        })
    };
    {
        let node = node.clone();
        use_effect_with(props.selected, move |selected| {
            if *selected {
                if let Some(element) = node.cast::<web_sys::Element>() {
                    element.scroll_into_view();
                }
            }
        });
    }
    let f = &props.finding;
    // Read again when they arrive: the docs context changes then.
    let sections = view_model::rule_docs(&f.rule, lang);
    let docs_id = format!("rule-docs-{}", props.rank);
    let severity = format!("{:?}", f.severity).to_lowercase();
    let evidence = f.evidence.iter().map(|e| {
        let on_show_line = props.on_show_line.clone();
        let (source, line) = (e.source.clone(), e.line);
        let label = (t.show_in_input)(&e.source, e.line);
        html! {
            <li>
                <button class="where link" translate="no" title={label.clone()} aria-label={label}
                    onclick={move |_| on_show_line.emit((source.to_string(), line))}>{ format!("{}:{}", e.source, e.line) }</button>
                <code class="path" translate="no">{ (t.evidence_label)(&e.path) }</code>
                <span class="value" translate="no">{ &e.value }</span>
            </li>
        }
    });
    let next = f.next_steps.iter().enumerate().map(|(i, s)| {
        let command = s.clone();
        let copied_state = copied.clone();
        let done = *copied == Some(i);
        let on_follow_up = props.on_follow_up.clone();
        let follow_up = s.clone();
        html! {
            <li>
                <code translate="no">{ super::command(s) }</code>
                <button class="copy" aria-label={(t.copy_aria)(s)}
                    onclick={move |_| { super::copy_text(&command); copied_state.set(Some(i)); }}>
                    { if done { t.copied } else { t.copy } }</button>
                <button class="paste-output" aria-label={(t.paste_its_output_aria)(s)}
                    onclick={move |_| on_follow_up.emit(follow_up.clone())}>{ t.paste_its_output }</button>
            </li>
        }
    });
    html! {
        <article ref={node} id={format!("finding-{}", props.rank)}
            class={classes!("finding", severity.clone(), props.selected.then_some("selected"), props.symptom_of.is_some().then_some("symptom"))}
            data-rule={f.rule.clone()} data-boundary={f.boundary.id()}>
            <header>
                <span class="rank">{ &props.label }</span>
                <span class={classes!("severity", severity.clone())}>{ (t.severity)(f.severity) }</span>
                <code class="rule" translate="no">{ &f.rule }</code>
                <span class="boundary" title={(t.boundary)(f.boundary)} translate="no">{ f.boundary.id() }</span>
                <span class="subject" translate="no">{ (t.object)(&f.subject) }</span>
            </header>
            if let Some(cause) = &props.symptom_of {
                <p class="symptom-of">{ (t.symptom_of)(cause) }</p>
            }
            <p class="summary" translate="no">{ super::prose(f.summary.as_str()) }</p>
            <p class={classes!("confidence", f.confidence.id())} data-confidence={f.confidence.id()}>
                <span class="confidence-level" title={t.confidence}>{ (t.confidence_level)(f.confidence) }</span>{ " " }
                <span class="confidence-note" translate="no">{ super::prose(f.confidence_note.as_str()) }</span></p>
            <h4>{ t.evidence }</h4>
            <ul class="evidence">{ for evidence }</ul>
            <h4>{ t.cannot_establish }</h4>
            <ul class="cannot" translate="no">{ for f.cannot_establish.iter().map(|c| html! { <li>{ super::prose(c.as_str()) }</li> }) }</ul>
            <h4>{ t.next_steps }</h4>
            <ul class="next">{ for next }</ul>
            <div class="rule-docs">
                <button type="button" class="rule-docs-toggle" onclick={toggle_docs}
                    aria-expanded={docs_open.to_string()} aria-controls={docs_id.clone()}>
                    { t.about_rule }{ " " }<span translate="no">{ &f.rule }</span></button>
                <div id={docs_id} hidden={!*docs_open}>
                if *docs_open && sections.is_none() {
                    <p class="muted docs-loading" role="status">{ t.docs_loading }</p>
                }
                { for sections.iter().flat_map(|s| s.iter()).filter(|_| *docs_open).map(|(title, blocks)| html! {
                    <section>
                        <h5>{ (t.doc_section)(title).map_or_else(|| title.clone(), str::to_string) }</h5>
                        { for blocks.iter().map(|block| match block {
                            view_model::DocBlock::Text(text) => html! { <p translate="no">{ super::prose(text) }</p> },
                            view_model::DocBlock::Code(code) => html! { <pre translate="no">{ code.clone() }</pre> },
                        }) }
                    </section>
                }) }
                </div>
            </div>
        </article>
    }
}
