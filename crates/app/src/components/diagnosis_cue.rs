use std::rc::Rc;

use faultline_report::Report;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
}

/// Under the paste box, a line that says what the diagnosis found and takes the reader to it: on a
/// phone the diagnosis is ~1,300 px below the paste (issue 40.4). Shown by CSS only where the page is
/// one column; absent until a report of some input exists.
#[function_component(DiagnosisCue)]
pub fn diagnosis_cue(props: &Props) -> Html {
    let t = use_texts();
    let report = &props.report;
    if report.inputs.is_empty() {
        return html! {};
    }
    let mut boundaries: Vec<_> = report.findings.iter().map(|f| f.boundary).collect();
    boundaries.sort_unstable();
    boundaries.dedup();
    let boundary = report.findings.first().map_or("", |f| (t.boundary)(f.boundary));
    let text = (t.diagnosis_cue)(report.findings.len(), boundaries.len(), boundary);
    let onclick = Callback::from(|_: MouseEvent| {
        if let Some(results) = gloo::utils::document()
            .get_element_by_id("results")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            results.scroll_into_view();
            let _ = results.focus();
        }
    });
    html! {
        <p class="diagnosis-cue">
            <button type="button" class="to-diagnosis" {onclick}>{ text }<span class="cue-arrow" aria-hidden="true">{ " ↓" }</span></button>
        </p>
    }
}
