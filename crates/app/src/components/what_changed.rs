use std::rc::Rc;

use faultline_render::changes::Change;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub changes: Rc<Vec<Change>>,
}

/// What the newest evidence changed: the engine's comparison of the report before it and now.
#[function_component(WhatChanged)]
pub fn what_changed(props: &Props) -> Html {
    let t = use_texts();
    let lines = faultline_render::changes::render(&props.changes, t.lang());
    let kinds: Vec<&str> = if props.changes.is_empty() {
        vec!["nothing"]
    } else {
        props.changes.iter().map(|c| c.kind.id()).collect()
    };
    html! {
        <div class="what-changed" role="status">
            <strong>{ t.what_changed }</strong>
            <ul translate="no">{ for lines.iter().zip(kinds).map(|(line, kind)| html! { <li data-change={kind}>{ line }</li> }) }</ul>
        </div>
    }
}
