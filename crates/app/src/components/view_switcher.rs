use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::route::View;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: View,
    pub on_view: Callback<View>,
}

/// Tabs for the views; the arrow keys move between them.
#[function_component(ViewSwitcher)]
pub fn view_switcher(props: &Props) -> Html {
    let t = use_texts();
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
                _ => return,
            };
            e.prevent_default();
            on_view.emit(View::ALL[next]);
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
