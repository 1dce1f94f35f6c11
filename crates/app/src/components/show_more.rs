use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub shown: usize,
    pub total: usize,
    /// How many one click adds.
    pub page: usize,
    pub on_more: Callback<()>,
}

/// "Show 100 more (2,140 not shown)" under a long list, while some of it is not rendered.
#[function_component(ShowMore)]
pub fn show_more(props: &Props) -> Html {
    let t = use_texts();
    if props.shown >= props.total {
        return html! {};
    }
    let hidden = props.total - props.shown;
    let onclick = props.on_more.reform(|_: MouseEvent| ());
    html! {
        <button class="show-more" {onclick}>{ (t.show_more)(props.page.min(hidden), hidden) }</button>
    }
}
