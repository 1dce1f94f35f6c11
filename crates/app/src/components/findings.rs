use std::rc::Rc;

use faultline_engine::Report;
use yew::prelude::*;

use super::finding_card::FindingCard;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
}

/// The findings, most likely root cause first.
#[function_component(Findings)]
pub fn findings(props: &Props) -> Html {
    let report = &props.report;
    let headline = match report.findings.first() {
        Some(top) => html! {
            <p class="headline">{ "The evidence points to the " }
                <strong class="boundary-name">{ top.boundary.title() }</strong>
                { " boundary " }<code>{ top.boundary.id() }</code>{ "." }</p>
        },
        None if report.inputs.is_empty() => {
            html! { <p class="headline muted">{ "Paste or drop kubectl output to start." }</p> }
        }
        None => html! { <p class="headline">{ "No findings: nothing in this input points to a fault." }</p> },
    };
    html! {
        <div class="findings">
            <h2>{ "Diagnosis" }</h2>
            { headline }
            { for report.findings.iter().enumerate().map(|(i, f)| html! { <FindingCard finding={f.clone()} rank={i + 1} /> }) }
        </div>
    }
}
