use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use super::show_more::ShowMore;
use crate::hooks::use_show_more::use_show_more;
use crate::hooks::use_texts::use_texts;
use crate::view_model::table;

/// Items per list in a row at first, and per "show more" (all rows together): with thousands of
/// findings a boundary's symptoms and next commands run into the thousands.
const PAGE: usize = 20;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    /// Open the findings view at a finding.
    pub on_show_finding: Callback<usize>,
    pub on_show_line: Callback<(String, u32)>,
    /// The filter every view shares: only the findings it keeps fill the rows.
    #[prop_or_default]
    pub filter: crate::view_model::summary::Filter,
}

/// The article's fault-boundary table, one row per boundary, filled with this input's evidence. On a
/// phone each row is a card (CSS): each cell carries its column's name in `data-label`, shown above it.
#[function_component(BoundaryTable)]
pub fn boundary_table(props: &Props) -> Html {
    let t = use_texts();
    let rows = use_memo(
        (props.report.clone(), props.filter.clone()),
        |(report, filter)| table::rows(report, filter),
    );
    // Findings by the numbers the findings view shows (`1.1` for a symptom of finding 1).
    let labels = use_memo(props.report.clone(), |report| {
        faultline_render::labels(&report.findings)
    });
    let (limit, on_more) = use_show_more(Rc::as_ptr(&props.report) as usize, PAGE);
    let longest = rows
        .iter()
        .map(|r| {
            r.symptoms
                .len()
                .max(r.cannot_establish.len())
                .max(r.next_steps.len())
        })
        .max()
        .unwrap_or(0);
    let finding_link = |index: usize| {
        let on_show_finding = props.on_show_finding.clone();
        html! {
            <button class="link finding-link" onclick={move |_| on_show_finding.emit(index)}>
                { (t.finding_link)(labels.get(index).map_or("", String::as_str)) }</button>
        }
    };
    let body = rows.iter().map(|row| {
        let id = row.boundary.id();
        if !row.has_evidence() {
            return html! {
                <tr class="boundary-row quiet" data-boundary={id}>
                    <th scope="row">{ (t.boundary)(row.boundary) }<br /><code translate="no">{ id }</code></th>
                    <td class="symptoms" data-label={t.col_symptoms}><span class="no-evidence">{ t.no_evidence }</span></td>
                    <td class="first-evidence muted" data-label={t.col_first_evidence}>{ "—" }</td>
                    <td class="cannot muted" data-label={t.col_cannot}>{ (t.article_limits)(row.boundary) }</td>
                    <td class="next muted" data-label={t.col_next}>{ (t.where_to_look)(row.boundary) }</td>
                </tr>
            };
        }
        let worst = row.symptoms.iter().map(|s| s.severity).max();
        let severity = worst.map(|s| format!("{s:?}").to_lowercase());
        // Keyed by position, so "show more" adds items without re-rendering those shown (see `Findings`).
        let symptoms = row.symptoms.iter().take(limit).enumerate().map(|(n, s)| {
            html! {
                <li key={n} class="symptom">
                    <span class={classes!("severity", format!("{:?}", s.severity).to_lowercase())}>
                        { (t.severity)(s.severity) }</span>{ " " }
                    <code translate="no">{ &s.rule }</code>{ " " }
                    <span class="subject" translate="no">{ (t.object)(&s.subject) }</span>{ " " }
                    { finding_link(s.finding) }
                </li>
            }
        });
        let first = row.first_evidence.as_ref().map(|(finding, e)| {
            let on_show_line = props.on_show_line.clone();
            let (source, line) = (e.source.clone(), e.line);
            html! {
                <>
                    <button class="link where" translate="no" aria-label={(t.show_in_input)(&e.source, e.line)}
                        onclick={move |_| on_show_line.emit((source.to_string(), line))}>
                        { format!("{}:{}", e.source, e.line) }</button>
                    <code class="path" translate="no">{ (t.evidence_label)(&e.path) }</code>
                    <span class="value" translate="no">{ &e.value }</span>
                    <span class="via">{ finding_link(*finding) }</span>
                </>
            }
        });
        html! {
            <tr class={classes!("boundary-row", "evidenced", severity)} data-boundary={id}>
                <th scope="row">{ (t.boundary)(row.boundary) }<br /><code translate="no">{ id }</code></th>
                <td class="symptoms" data-label={t.col_symptoms}><ul>{ for symptoms }</ul></td>
                <td class="first-evidence" data-label={t.col_first_evidence}>{ for first }</td>
                <td class="cannot" data-label={t.col_cannot}><ul translate="no">{ for row.cannot_establish.iter().take(limit).enumerate().map(|(n, c)| html! { <li key={n}>{ super::prose(c) }</li> }) }</ul></td>
                <td class="next" data-label={t.col_next}><ul>{ for row.next_steps.iter().take(limit).enumerate().map(|(n, c)| html! { <li key={n}><code translate="no">{ super::command(c) }</code></li> }) }</ul></td>
            </tr>
        }
    });
    html! {
        <div class="boundary-table-wrap">
            <table class="boundary-table">
                <caption>{ t.table_caption }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ t.col_boundary }</th>
                        <th scope="col">{ t.col_symptoms }</th>
                        <th scope="col">{ t.col_first_evidence }</th>
                        <th scope="col">{ t.col_cannot }</th>
                        <th scope="col">{ t.col_next }</th>
                    </tr>
                </thead>
                <tbody>{ for body }</tbody>
            </table>
            <ShowMore shown={limit.min(longest)} total={longest} page={PAGE} {on_more} />
        </div>
    }
}
