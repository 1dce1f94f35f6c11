use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The next step's command: the input's name.
    pub command: AttrValue,
    /// The text pasted so far.
    pub text: AttrValue,
    pub on_edit: Callback<String>,
    pub on_close: Callback<()>,
}

/// The input for a next step's output, named after its command; focused when it opens.
#[function_component(FollowUpInput)]
pub fn follow_up_input(props: &Props) -> Html {
    let t = use_texts();
    let area = use_node_ref();
    {
        let area = area.clone();
        use_effect_with(props.command.clone(), move |_| {
            if let Some(element) = area.cast::<HtmlTextAreaElement>() {
                element.scroll_into_view();
                let _ = element.focus();
            }
        });
    }
    let oninput = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                on_edit.emit(area.value());
            }
        })
    };
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="follow-up">
            <label for="follow-up" class="label">{ t.output_of }<code translate="no">{ props.command.clone() }</code></label>
            <textarea id="follow-up" ref={area} spellcheck="false" autocomplete="off" value={props.text.clone()} {oninput}
                placeholder={t.follow_up_placeholder} />
            <button type="button" class="follow-up-done" onclick={on_close}>{ t.follow_up_done }</button>
        </div>
    }
}
