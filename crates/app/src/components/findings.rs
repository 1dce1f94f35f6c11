use std::rc::Rc;

use faultline_engine::Report;
use yew::prelude::*;

use super::finding_card::FindingCard;
use super::show_more::ShowMore;
use crate::hooks::use_show_more::use_show_more_staged;
use crate::hooks::use_texts::use_texts;

/// Findings rendered at first, and per "show more": a 10k-pod dump can have thousands.
const PAGE: usize = 25;
/// Findings per render while a new report's first page comes in: three in its first render, three more
/// a frame after (25 cards at once took 50–110 ms in Chromium; six a frame, 25–45 ms, up to 77 ms in a
/// fresh tab, where text is shaped for the first time).
const STAGE: usize = 3;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    /// The finding to bring into view (from the boundary table or the diagram).
    #[prop_or_default]
    pub selected: Option<usize>,
    pub on_show_line: Callback<(String, u32)>,
    #[prop_or_default]
    pub on_follow_up: Callback<String>,
    /// Opens "What should I paste?" (at a symptom).
    #[prop_or_default]
    pub on_guide: Callback<Option<&'static str>>,
}

/// The findings, most likely root cause first.
#[function_component(Findings)]
pub fn findings(props: &Props) -> Html {
    let t = use_texts();
    let report = &props.report;
    let (limit, on_more) = use_show_more_staged(Rc::as_ptr(report) as usize, STAGE, PAGE);
    // A finding picked elsewhere (the table, the diagram) is always rendered.
    let shown = limit
        .max(props.selected.map_or(0, |i| i + 1))
        .min(report.findings.len());
    let labels = faultline_engine::render::labels(&report.findings);
    // Each finding's index by (rule, subject), for naming a symptom's cause without a search per card.
    let index: std::collections::HashMap<(&str, &faultline_engine::ObjectRef), usize> = report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| ((f.rule.as_str(), &f.subject), i))
        .rev()
        .collect();
    let verdict =
        faultline_engine::render::verdict_sentence(report, faultline_engine::render::words(t.lang()));
    // The headline names the diagnosis: an error or warning, never an info note.
    let headline = match report.diagnosis() {
        Some(top) => html! {
            <p class="headline">{ t.headline_before }
                <strong class="boundary-name">{ (t.boundary)(top.boundary) }</strong>
                { t.headline_after }<code translate="no">{ top.boundary.id() }</code>{ t.headline_end }</p>
        },
        None if report.inputs.is_empty() => {
            let on_guide = props.on_guide.reform(|_: MouseEvent| None);
            html! { <>
                <p class="headline muted">{ t.paste_to_start }</p>
                <p><button type="button" class="link open-guide" onclick={on_guide}>{ t.guide_title }</button></p>
            </> }
        }
        // No finding of weight (none, or info notes only): the verdict says whether the input was
        // read and shows no fault, or could not be read enough to judge (and where).
        None => {
            html! { <p class="headline verdict">{ verdict.clone().unwrap_or_else(|| t.no_findings.to_string()) }</p> }
        }
    };
    // Inconclusive: what was not read, and the symptom of "What should I paste?" that fits.
    let inconclusive = crate::guide::matching(report).map(|entry| {
        let on_guide = props.on_guide.reform(move |_: MouseEvent| Some(entry));
        let unread = report.unread.iter().map(|u| {
            let on_show_line = props.on_show_line.clone();
            let (source, line) = (u.source.clone(), u.line);
            html! {
                <li>
                    <button class="where link" translate="no" onclick={move |_| on_show_line.emit((source.clone(), line))}>
                        { (t.unread_range)(&u.source, u.line, u.end_line) }</button>
                    { " " }<span translate="no">{ &u.reason }</span>
                </li>
            }
        });
        let errors = report.errors.iter().map(|e| html! {
            <li><span translate="no">{ format!("{}:{} ", e.source, e.line) }</span><span translate="no">{ &e.message }</span></li>
        });
        html! {
            <div class="inconclusive" data-entry={entry}>
                if !report.unread.is_empty() || !report.errors.is_empty() {
                    <h3>{ t.unread_title }</h3>
                    <ul class="unread-list">{ for unread }{ for errors }</ul>
                }
                <p>{ t.inconclusive_offer }{ " " }
                    <button type="button" class="link open-guide" onclick={on_guide}>{ t.guide_title }{ " — " }{ (t.guide_symptom)(entry) }</button></p>
            </div>
        }
    });
    // Busy while the first page's cards still come in, stage by stage.
    let staging = limit < PAGE && limit < report.findings.len();
    html! {
        <div class="findings" aria-busy={staging.to_string()}>
            <h2>{ t.diagnosis }</h2>
            { headline }
            { for inconclusive }
            // The cards in a fragment of their own: Yew diffs a list by keys only when every item of it
            // has one (the heading before them has none).
            <>{ for report.findings.iter().zip(labels).take(shown).enumerate().map(|(i, (f, label))| {
                // A symptom names its cause by the cause's number (the report lists it just before).
                let cause = f.explained_by.as_ref().and_then(|c| index.get(&(c.rule.as_str(), &c.subject)).copied());
                let symptom_of = cause.map(|c| label.rsplit_once('.').map_or((c + 1).to_string(), |(parent, _)| parent.to_string()));
                // Keyed: Yew matches unkeyed children from the end, so each stage that appended cards
                // re-rendered every card already shown with another finding, and the browser restyled
                // and laid out the whole list again (40-100 ms a stage in a fresh tab).
                html! {
                    <FindingCard key={i} finding={f.clone()} rank={i + 1} {label} {symptom_of} selected={props.selected == Some(i)}
                        on_show_line={props.on_show_line.clone()} on_follow_up={props.on_follow_up.clone()} />
                }
            }) }</>
            // Not while the first page comes in: the rest of it is on its way, not a click away.
            if limit >= PAGE {
                <ShowMore {shown} total={report.findings.len()} page={PAGE} {on_more} />
            }
        </div>
    }
}
