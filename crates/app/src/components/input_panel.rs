use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::{read_as_text, FileReader};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::files;
use crate::hooks::use_file_reader::use_file_reader;
use crate::hooks::use_texts::use_texts;
use crate::state::input::LARGE_PASTE_CHARS;
use crate::state::{Input, Text};

/// A large paste shown under the paste box: its input's name, its size and its file's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargePaste {
    pub name: String,
    pub bytes: u64,
    pub id: u32,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub paste: AttrValue,
    pub on_paste: Callback<String>,
    /// The paste box's text after a paste (or a drop of text) into it, not typing.
    pub on_pasted: Callback<String>,
    /// Files are about to be read from a drop or the file pickers.
    pub on_files_arriving: Callback<()>,
    pub on_file: Callback<Input>,
    /// A paste too large for the box, as the browser's `Blob` of its text, and whether it went into
    /// the box's text (the box held text, not all of it selected) rather than over all of it.
    pub on_large_paste: Callback<(Text, bool)>,
    /// The large pastes among the inputs, each with "show" and "edit in the paste box".
    pub large_pastes: Vec<LargePaste>,
    /// "Edit it in the paste box": the paste's name and its text.
    pub on_edit_large: Callback<(String, String)>,
    pub on_show_line: Callback<(String, u32)>,
    pub on_unreadable: Callback<(String, faultline_render::protocol::Unreadable)>,
    /// "Open an example incident" (the default sample).
    pub on_example: Callback<()>,
    /// "What should I paste?".
    pub on_guide: Callback<()>,
    /// The example is what is open: "New here? Open an example incident" would open what is shown.
    #[prop_or_default]
    pub sample_open: bool,
}

/// The paste area, the drop zone and the file picker.
#[function_component(InputPanel)]
pub fn input_panel(props: &Props) -> Html {
    let t = use_texts();
    let read_files = use_file_reader(props.on_file.clone(), props.on_unreadable.clone());
    let dragging = use_state(|| false);
    // A paste over LARGE_PASTE_CHARS: its text is taken as the browser holds it (a JS string, never
    // copied into the page's memory), made a `Blob` and kept like a large dropped file; the browser
    // does not insert it into the box.
    let onpaste = {
        let on_large_paste = props.on_large_paste.clone();
        Callback::from(move |e: Event| {
            let Some(data) = e
                .dyn_ref::<web_sys::ClipboardEvent>()
                .and_then(|e| e.clipboard_data())
            else {
                return;
            };
            let Some(text) = clipboard_text(&data) else { return };
            if text.length() <= LARGE_PASTE_CHARS {
                return;
            }
            let parts = js_sys::Array::of1(&text);
            let Ok(blob) = web_sys::Blob::new_with_str_sequence(&parts) else {
                return;
            };
            e.prevent_default();
            // Into the box's text: it holds some, and not all of it is selected (Ctrl+A, Ctrl+V
            // replaces it: a new incident).
            let into_text = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
                .is_some_and(|area| {
                    let length = area.value().encode_utf16().count() as u32;
                    let start = area.selection_start().ok().flatten().unwrap_or(0);
                    let end = area.selection_end().ok().flatten().unwrap_or(0);
                    !(area.value().trim().is_empty() || start == 0 && end >= length)
                });
            let bytes = blob.size() as u64;
            let text = Text::File {
                id: files::keep(blob),
                bytes,
            };
            // In a task of its own: the page's update does not lengthen the paste's (the copy of
            // the text into the `Blob` is most of it: ~25 ms for 5 MB).
            let on_large_paste = on_large_paste.clone();
            gloo::timers::callback::Timeout::new(0, move || on_large_paste.emit((text, into_text))).forget();
        })
    };
    // "Edit it in the paste box": the text read from the paste's `Blob` (the reader kept alive here).
    let edit_reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let large = props.large_pastes.iter().map(|paste| {
        let show = {
            let on_show_line = props.on_show_line.clone();
            let name = paste.name.clone();
            Callback::from(move |_: MouseEvent| on_show_line.emit((name.clone(), 1)))
        };
        let edit = {
            let on_edit = props.on_edit_large.clone();
            let (name, id) = (paste.name.clone(), paste.id);
            let edit_reader = edit_reader.clone();
            Callback::from(move |_: MouseEvent| {
                let Some(blob) = files::get(id) else { return };
                let on_edit = on_edit.clone();
                let name = name.clone();
                let reader = read_as_text(&gloo::file::Blob::from(blob), move |text| {
                    if let Ok(text) = text {
                        on_edit.emit((name, text));
                    }
                });
                *edit_reader.borrow_mut() = Some(reader);
            })
        };
        // As the progress counts them (MiB), so the two say the same size.
        let mb = paste.bytes as f64 / (1024.0 * 1024.0);
        html! {
            <p class="large-paste" role="status" data-input={paste.name.clone()}>
                { (t.large_paste_kept)(&paste.name, mb) }
                <button type="button" class="link show-large" onclick={show}>{ t.large_paste_show }</button>
                { " · " }
                <button type="button" class="link edit-large" onclick={edit}>{ t.large_paste_edit }</button>
            </p>
        }
    });
    // A paste is told from typing by the event's `inputType`: a paste over the box's text is a new
    // incident (`state::investigation`), typing over it only when most of it is gone.
    let oninput = {
        let on_paste = props.on_paste.clone();
        let on_pasted = props.on_pasted.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                // Read as a property: a script's plain `Event("input")` has no `inputType`.
                let kind = js_sys::Reflect::get(&e, &"inputType".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                match kind.as_str() {
                    "insertFromPaste" | "insertFromDrop" | "insertFromPasteAsQuotation" => {
                        on_pasted.emit(area.value())
                    }
                    _ => on_paste.emit(area.value()),
                }
            }
        })
    };
    let onchange = {
        let read_files = read_files.clone();
        let on_files_arriving = props.on_files_arriving.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
                if let Some(files) = input.files().filter(|f| f.length() > 0) {
                    on_files_arriving.emit(());
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
        let on_files_arriving = props.on_files_arriving.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(files) = e
                .data_transfer()
                .and_then(|d| d.files())
                .filter(|f| f.length() > 0)
            {
                on_files_arriving.emit(());
                read_files.emit(files);
            }
        })
    };
    html! {
        <div class={classes!("drop-zone", dragging.then_some("dragging"))} {ondragover} {ondragleave} {ondrop}>
            <label for="paste" class="label">{ t.paste_label }</label>
            <p class="paste-reads" id="paste-reads">{ super::prose(t.paste_reads) }</p>
            <textarea id="paste" spellcheck="false" autocomplete="off" value={props.paste.clone()} {oninput} {onpaste}
                placeholder={t.paste_placeholder} aria-describedby="paste-reads" />
            { for large }
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
            <p class="paste-help">
                if !props.sample_open {
                    { t.example_before }
                    <button type="button" class="link example" onclick={props.on_example.reform(|_: MouseEvent| ())}>{ t.example_link }</button>
                    { " · " }
                }
                <button type="button" class="link open-guide" onclick={props.on_guide.reform(|_: MouseEvent| ())}>{ t.guide_title }</button>
            </p>
        </div>
    }
}

/// The clipboard's plain text as the JS string the browser holds (`DataTransfer.getData`), without
/// copying it into wasm memory as `web_sys`'s `get_data` would.
fn clipboard_text(data: &web_sys::DataTransfer) -> Option<js_sys::JsString> {
    let get = js_sys::Reflect::get(data, &JsValue::from_str("getData")).ok()?;
    let get = get.dyn_into::<js_sys::Function>().ok()?;
    get.call1(data, &JsValue::from_str("text/plain"))
        .ok()?
        .dyn_into()
        .ok()
}
