use faultline_report::{Boundary, Severity};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::view_model::summary::Filter;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub filter: Filter,
    /// The namespaces and kinds the findings name (the filter's menus).
    pub namespaces: Vec<String>,
    pub kinds: Vec<String>,
    /// Findings the filter keeps, and all of them.
    pub shown: usize,
    pub total: usize,
    pub on_filter: Callback<Filter>,
}

/// The filter every view shares: boundary, severity, namespace, kind and words to find. `/` anywhere
/// outside a text field puts the caret in its search box.
#[function_component(FilterBar)]
pub fn filter_bar(props: &Props) -> Html {
    let t = use_texts();
    let search = use_node_ref();
    {
        let search = search.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                // Not passive: the `/` must not be typed into the box it opens.
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(&window, "keydown", options, move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if e.key() != "/" || e.ctrl_key() || e.meta_key() || e.alt_key() {
                        return;
                    }
                    let typing = super::typing_in_field(e);
                    if typing {
                        return;
                    }
                    if let Some(input) = search.cast::<HtmlInputElement>() {
                        e.prevent_default();
                        let _ = input.focus();
                        input.select();
                    }
                })
            });
            move || drop(listener)
        });
    }
    let change = |set: fn(&mut Filter, String)| {
        let filter = props.filter.clone();
        let on_filter = props.on_filter.clone();
        Callback::from(move |value: String| {
            let mut next = filter.clone();
            set(&mut next, value);
            on_filter.emit(next);
        })
    };
    let select = |label: &'static str,
                  class: &'static str,
                  data: bool,
                  current: Option<String>,
                  options: Vec<(String, String)>,
                  on: Callback<String>| {
        let onchange = Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                on.emit(select.value());
            }
        });
        html! {
            <label class={classes!("filter", class)}>{ label }
                <select {onchange}>
                    <option value="" selected={current.is_none()}>{ t.filter_all }</option>
                    { for options.into_iter().map(|(value, text)| {
                        let selected = current.as_deref() == Some(value.as_str());
                        html! { <option {selected} value={value}
                            translate={if data { "no" } else { "yes" }}>{ text }</option> }
                    }) }
                </select>
            </label>
        }
    };
    let f = &props.filter;
    let boundaries = Boundary::ALL
        .iter()
        .map(|b| (b.id().to_string(), (t.boundary)(*b).to_string()))
        .collect();
    let severities = [Severity::Error, Severity::Warning, Severity::Info]
        .iter()
        .map(|s| (format!("{s:?}").to_lowercase(), (t.severity)(*s).to_string()))
        .collect();
    let names = |list: &[String]| list.iter().map(|n| (n.clone(), n.clone())).collect();
    let on_boundary = change(|f, v| f.boundary = Boundary::ALL.iter().copied().find(|b| b.id() == v));
    let on_severity = change(|f, v| {
        f.severity = [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .find(|s| format!("{s:?}").to_lowercase() == v)
    });
    let on_namespace = change(|f, v| f.namespace = (!v.is_empty()).then_some(v));
    let on_kind = change(|f, v| f.kind = (!v.is_empty()).then_some(v));
    let on_text = {
        let on = change(|f, v| f.text = v);
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                on.emit(input.value());
            }
        })
    };
    let on_clear = {
        let on_filter = props.on_filter.clone();
        Callback::from(move |_: MouseEvent| on_filter.emit(Filter::default()))
    };
    html! {
        <div class="filter-bar" role="search" aria-label={t.filter_aria}>
            <label class="filter search">
                <span class="visually-hidden">{ t.search_label }</span>
                <input type="search" id="search" ref={search} value={f.text.clone()} oninput={on_text}
                    placeholder={t.search_placeholder} aria-keyshortcuts="/" />
            </label>
            { select(t.filter_boundary, "f-boundary", false, f.boundary.map(|b| b.id().to_string()), boundaries, on_boundary) }
            { select(t.filter_severity, "f-severity", false, f.severity.map(|s| format!("{s:?}").to_lowercase()), severities, on_severity) }
            { select(t.filter_namespace, "f-namespace", true, f.namespace.clone(), names(&props.namespaces), on_namespace) }
            { select(t.filter_kind, "f-kind", true, f.kind.clone(), names(&props.kinds), on_kind) }
            <span class="filter-count" aria-live="polite">{ (t.findings_shown)(props.shown, props.total) }</span>
            if !f.is_empty() {
                <button type="button" class="clear-filter" onclick={on_clear}>{ t.clear_filter }</button>
            }
        </div>
    }
}

use wasm_bindgen::JsCast;
