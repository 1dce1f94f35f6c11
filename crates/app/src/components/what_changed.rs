use std::rc::Rc;

use faultline_render::changes::Change;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub changes: Rc<Vec<Change>>,
}

/// What the newest evidence changed: the engine's comparison of the report before it and now, capped
/// to what a person reads (counts, the first few, "and N more").
#[function_component(WhatChanged)]
pub fn what_changed(props: &Props) -> Html {
    let t = use_texts();
    let lines = faultline_render::changes::lines(&props.changes, t.lang());
    html! {
        <div class="what-changed" role="status">
            <strong>{ t.what_changed }</strong>
            <ul translate="no">{ for lines.iter().map(|line| html! { <li data-change={line.kind}>{ &line.text }</li> }) }</ul>
        </div>
    }
}
