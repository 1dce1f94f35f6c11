use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::route::View;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: View,
    pub on_view: Callback<View>,
}

/// Puts the focus on a view's tab (the roving tab stop: the selected tab is the one Tab reaches).
fn focus_tab(view: View) {
    if let Some(tab) = gloo::utils::document()
        .get_element_by_id(&format!("tab-{}", view.id()))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = tab.focus();
    }
}

/// Tabs for the views: the arrow keys, Home and End move between them and the focus follows; the
/// number keys 1–6 anywhere outside a text field open a view, as in k9s.
#[function_component(ViewSwitcher)]
pub fn view_switcher(props: &Props) -> Html {
    let t = use_texts();
    {
        let on_view = props.on_view.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                gloo::events::EventListener::new(&window, "keydown", move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
                        return;
                    }
                    let typing = super::typing_in_field(e);
                    let digit = e
                        .key()
                        .parse::<usize>()
                        .ok()
                        .filter(|d| (1..=View::ALL.len()).contains(d));
                    if let (false, Some(d)) = (typing, digit) {
                        on_view.emit(View::ALL[d - 1]);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let label = |view: View| match view {
        View::Findings => t.view_findings,
        View::Diagram => t.view_diagram,
        View::Timeline => t.view_timeline,
        View::Table => t.view_table,
        View::Map => t.view_map,
        View::Rules => t.view_rules,
    };
    let onkeydown = {
        let (on_view, view) = (props.on_view.clone(), props.view);
        Callback::from(move |e: KeyboardEvent| {
            let at = View::ALL.iter().position(|v| *v == view).unwrap_or(0);
            let n = View::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (at + 1) % n,
                "ArrowLeft" => (at + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            on_view.emit(View::ALL[next]);
            focus_tab(View::ALL[next]);
        })
    };
    html! {
        <nav class="views" role="tablist" aria-label={t.views_aria} {onkeydown}>
            { for View::ALL.into_iter().map(|view| {
                let on_view = props.on_view.clone();
                let selected = props.view == view;
                html! {
                    <button role="tab" id={format!("tab-{}", view.id())} data-view={view.id()}
                        class={classes!("view-tab", selected.then_some("active"))}
                        aria-selected={selected.to_string()} tabindex={if selected { "0" } else { "-1" }}
                        onclick={move |_| on_view.emit(view)}>{ label(view) }</button>
                }
            }) }
        </nav>
    }
}
