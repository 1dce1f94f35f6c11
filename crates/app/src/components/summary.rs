use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::view_model::summary::{Filter, Summary};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    pub summary: Rc<Summary>,
    /// Each finding's number as the findings view shows it (`2`, `1.1`).
    pub labels: Rc<Vec<String>>,
    pub filter: Filter,
    pub on_filter: Callback<Filter>,
    pub on_show_finding: Callback<usize>,
}

/// A big incident's overview, above its findings: the independent faults, each boundary with its
/// count and its most severe root cause (a click away), and the rules by count. Every count is a link
/// that narrows the report to it.
#[function_component(SummaryPanel)]
pub fn summary_panel(props: &Props) -> Html {
    let t = use_texts();
    let s = &props.summary;
    let boundaries = s.boundaries.iter().map(|b| {
        let top = &props.report.findings[b.top];
        let by_boundary = {
            let on_filter = props.on_filter.clone();
            let filter = Filter { boundary: Some(b.boundary), ..props.filter.clone() };
            Callback::from(move |_: MouseEvent| on_filter.emit(filter.clone()))
        };
        let show_top = props.on_show_finding.reform({
            let i = b.top;
            move |_: MouseEvent| i
        });
        let label = props.labels.get(b.top).cloned().unwrap_or_default();
        html! {
            <li class="summary-boundary" data-boundary={b.boundary.id()}>
                <button type="button" class="link boundary-filter" onclick={by_boundary}>
                    <strong>{ (t.boundary)(b.boundary) }</strong></button>
                { " " }<span class="muted">{ (t.boundary_faults)(b.faults, b.findings) }</span>
                <button type="button" class="top-cause" onclick={show_top}>
                    <span class="rank">{ label }</span>{ " " }
                    <span class={classes!("severity", format!("{:?}", top.severity).to_lowercase())}>{ (t.severity)(top.severity) }</span>{ " " }
                    <code translate="no">{ &top.rule }</code>{ " " }
                    <span class="subject" translate="no">{ (t.object)(&top.subject) }</span>
                    <span class="top-summary" translate="no">{ top.summary.as_str() }</span>
                </button>
            </li>
        }
    });
    let rules = s.rules.iter().map(|(rule, n)| {
        let on_filter = props.on_filter.clone();
        let filter = Filter {
            text: rule.clone(),
            ..props.filter.clone()
        };
        let onclick = Callback::from(move |_: MouseEvent| on_filter.emit(filter.clone()));
        html! {
            <li><button type="button" class="rule-count" {onclick}>
                <code translate="no">{ rule }</code>{ " " }<span class="count">{ n }</span></button></li>
        }
    });
    html! {
        <section class="incident-summary" aria-label={t.summary_aria}>
            <p class="summary-faults"><strong>{ (t.faults_count)(s.faults, s.boundaries.len()) }</strong></p>
            <ul class="summary-boundaries">{ for boundaries }</ul>
            <div class="summary-rules"><span class="muted">{ t.by_rule }</span>
                <ul>{ for rules }</ul></div>
        </section>
    }
}
