use std::rc::Rc;

use faultline_render::{export, export_name, ExportFormat};
use faultline_report::Report;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    pub lang: Lang,
    /// The analysis ran on the redacted copy: every export says so at its top.
    pub redacted: bool,
}

/// Saves text as a file: a Blob behind an object URL, clicked through a temporary link. Nothing is
/// sent anywhere; the browser writes the file.
fn download(name: &str, mime: &str, text: &str) {
    let blob = gloo::file::Blob::new_with_options(text, Some(mime));
    let url = gloo::file::ObjectUrl::from(blob);
    let document = gloo::utils::document();
    let Ok(link) = document.create_element("a") else {
        return;
    };
    let _ = link.set_attribute("href", &url);
    let _ = link.set_attribute("download", name);
    if let Ok(link) = link.dyn_into::<web_sys::HtmlElement>() {
        link.click();
    }
    // The URL is revoked when `url` drops, after the click has started the download.
}

/// Take the diagnosis elsewhere: Markdown for chat and tickets (copied or saved), a self-contained
/// HTML report, or the JSON report.
#[function_component(ExportMenu)]
pub fn export_menu(props: &Props) -> Html {
    let t = use_texts();
    let copied = use_state(|| false);
    let render = {
        let report = props.report.clone();
        let (lang, redacted) = (props.lang, props.redacted);
        // The export's moment from the browser's clock (the engine has none), to the second.
        move |format: ExportFormat| {
            let now = String::from(js_sys::Date::new_0().to_iso_string());
            let now = match now.get(..19) {
                Some(seconds) => format!("{seconds}Z"),
                None => now,
            };
            export(&report, format, lang, redacted, Some(&now))
        }
    };
    let on_copy = {
        let render = render.clone();
        let copied = copied.clone();
        // Markdown is written, not serialised: it cannot fail, but an error copies nothing.
        Callback::from(move |_: MouseEvent| {
            copied.set(render(ExportFormat::Markdown).is_ok_and(|text| super::copy_text(&text)))
        })
    };
    let save = |format: ExportFormat| {
        let render = render.clone();
        let report = props.report.clone();
        Callback::from(move |_: MouseEvent| {
            // `faultline-<subject>-<capture date>.md`: one incident's file told from another's.
            let name = export_name(&report, format);
            // A report that cannot be serialised saves nothing, rather than an empty file.
            if let Ok(text) = render(format) {
                download(&name, format.mime(), &text);
            }
        })
    };
    let disabled = props.report.inputs.is_empty();
    html! {
        <div class="export" role="group" aria-label={t.export_label}>
            <span class="label">{ t.export_label }</span>
            <button class="export-copy-md" {disabled} onclick={on_copy}>
                { if *copied { t.copied } else { t.copy_markdown } }</button>
            <button class="export-md" {disabled} onclick={save(ExportFormat::Markdown)}>{ "Markdown" }</button>
            <button class="export-html" {disabled} onclick={save(ExportFormat::Html)}>{ "HTML" }</button>
            <button class="export-json" {disabled} onclick={save(ExportFormat::Json)}>{ "JSON" }</button>
            if props.redacted {
                <span class="export-note">{ t.export_redacted }</span>
            }
        </div>
    }
}
