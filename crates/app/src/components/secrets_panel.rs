use std::rc::Rc;

use faultline_render::protocol::Secret;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::show_more::ShowMore;
use crate::hooks::use_show_more::use_show_more;
use crate::hooks::use_texts::use_texts;

/// Hits listed at first, and per "show more": a big dump can hold thousands.
const PAGE: usize = 100;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub secrets: Rc<Vec<Secret>>,
    /// The worker is still looking for secrets (the report is already shown).
    #[prop_or_default]
    pub scanning: bool,
    /// Input names, in the order the hits' `input` indexes refer to.
    pub inputs: Vec<String>,
    pub include_network: bool,
    /// Whether "Undo redaction" is offered (the originals are kept until the next edit).
    pub can_undo: bool,
    pub on_redact: Callback<()>,
    pub on_undo: Callback<()>,
    pub on_include_network: Callback<bool>,
}

/// What secrets the input holds — kind, input and line, never the value — and one action that
/// replaces them with tokens.
#[function_component(SecretsPanel)]
pub fn secrets_panel(props: &Props) -> Html {
    let t = use_texts();
    let count = props.secrets.len();
    let (shown, on_more) = use_show_more(Rc::as_ptr(&props.secrets) as usize, PAGE);
    let onchange = {
        let on_include_network = props.on_include_network.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
                on_include_network.emit(input.checked());
            }
        })
    };
    let on_redact = props.on_redact.reform(|_: MouseEvent| ());
    let on_undo = props.on_undo.reform(|_: MouseEvent| ());
    // Keyed, so "show more" adds rows without re-rendering those shown (see `Findings`).
    let rows = props.secrets.iter().take(shown).enumerate().map(|(i, hit)| {
        let input = props.inputs.get(hit.input).map_or("?", String::as_str);
        html! {
            <li key={i} class="secret-hit" data-kind={hit.kind.clone()} data-rule={hit.rule.clone()}>
                <span class="where" translate="no">{ format!("{input}:{}", hit.line) }</span>
                <span class="kind">{ (t.secret_kind)(&hit.kind) }</span>
                // A token names the rule that found it (`github-pat`), any other hit its kind.
                <code class="kind-id" translate="no">{ hit.rule.as_deref().unwrap_or(&hit.kind) }</code>
                <span class="preview" translate="no">{ &hit.preview }</span>
            </li>
        }
    });
    let summary = match count {
        _ if props.scanning => t.secrets_scanning.to_string(),
        0 if props.can_undo => t.secrets_all_redacted.to_string(),
        0 => t.secrets_none.to_string(),
        n => (t.secrets_found)(n),
    };
    html! {
        <section class={classes!("secrets", (count > 0).then_some("found"))} aria-label={t.secrets_aria}
            aria-busy={props.scanning.to_string()}>
            <h2>{ t.secrets_title }</h2>
            <p class="secrets-summary">{ summary }</p>
            if count > 0 {
                <ul class="secret-hits">{ for rows }</ul>
                <ShowMore shown={shown.min(count)} total={count} page={PAGE} {on_more} />
            }
            <div class="secrets-actions">
                <button class="redact" disabled={count == 0 || props.scanning} onclick={on_redact}>{ t.redact }</button>
                if props.can_undo {
                    <button class="undo-redaction" onclick={on_undo}>{ t.undo_redaction }</button>
                }
                <label class="include-network">
                    <input type="checkbox" checked={props.include_network} {onchange} />
                    { t.include_network }
                </label>
            </div>
        </section>
    }
}
