use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::hooks::use_file_reader::use_file_reader;
use crate::hooks::use_texts::use_texts;
use crate::state::Input;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub paste: AttrValue,
    pub on_paste: Callback<String>,
    pub on_file: Callback<Input>,
    pub on_unreadable: Callback<(String, String)>,
    /// "Open an example incident" (the default sample).
    pub on_example: Callback<()>,
    /// "What should I paste?".
    pub on_guide: Callback<()>,
}

/// The paste area, the drop zone and the file picker.
#[function_component(InputPanel)]
pub fn input_panel(props: &Props) -> Html {
    let t = use_texts();
    let read_files = use_file_reader(props.on_file.clone(), props.on_unreadable.clone());
    let dragging = use_state(|| false);
    let oninput = {
        let on_paste = props.on_paste.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                on_paste.emit(area.value());
            }
        })
    };
    let onchange = {
        let read_files = read_files.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
                if let Some(files) = input.files() {
                    read_files.emit(files);
                }
                input.set_value("");
            }
        })
    };
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let ondrop = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(files) = e.data_transfer().and_then(|d| d.files()) {
                read_files.emit(files);
            }
        })
    };
    html! {
        <div class={classes!("drop-zone", dragging.then_some("dragging"))} {ondragover} {ondragleave} {ondrop}>
            <label for="paste" class="label">{ t.paste_label }</label>
            <p class="paste-reads" id="paste-reads">{ super::prose(t.paste_reads) }</p>
            <textarea id="paste" spellcheck="false" autocomplete="off" value={props.paste.clone()} {oninput}
                placeholder={t.paste_placeholder} aria-describedby="paste-reads" />
            <div class="file-row">
                <span>{ t.drop_prefix }</span>
                <label class="file-button">{ t.choose_files }
                    <input type="file" multiple=true onchange={onchange.clone()} aria-label={t.choose_files_aria} />
                </label>
                <span>{ t.or }</span>
                <label class="file-button">{ t.a_folder }
                    <input type="file" webkitdirectory=true multiple=true {onchange}
                        aria-label={t.choose_folder_aria} />
                </label>
            </div>
            <p class="paste-help">{ t.example_before }
                <button type="button" class="link example" onclick={props.on_example.reform(|_: MouseEvent| ())}>{ t.example_link }</button>
                { " · " }
                <button type="button" class="link open-guide" onclick={props.on_guide.reform(|_: MouseEvent| ())}>{ t.guide_title }</button>
            </p>
        </div>
    }
}
