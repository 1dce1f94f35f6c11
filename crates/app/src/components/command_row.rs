//! A command the report asks for, with Copy and "Paste its output": the decider of two close causes
//! and the one paste an inconclusive report asks for.

use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub command: AttrValue,
    /// "Paste its output": opens the input named after the command.
    pub on_follow_up: Callback<String>,
    #[prop_or_default]
    pub class: Classes,
}

#[function_component(CommandRow)]
pub fn command_row(props: &Props) -> Html {
    let t = use_texts();
    let copied = use_state(|| false);
    let command = props.command.to_string();
    let copy = {
        let copied = copied.clone();
        let command = command.clone();
        Callback::from(move |_: MouseEvent| {
            super::copy_text(&command);
            copied.set(true);
        })
    };
    let follow_up = {
        let on_follow_up = props.on_follow_up.clone();
        let command = command.clone();
        Callback::from(move |_: MouseEvent| on_follow_up.emit(command.clone()))
    };
    html! {
        <p class={props.class.clone()}>
            <code translate="no">{ super::command(&command) }</code>
            <button class="copy" aria-label={(t.copy_aria)(&command)} onclick={copy}>
                { if *copied { t.copied } else { t.copy } }</button>
            <button class="paste-output" aria-label={(t.paste_its_output_aria)(&command)} onclick={follow_up}>
                { t.paste_its_output }</button>
        </p>
    }
}
