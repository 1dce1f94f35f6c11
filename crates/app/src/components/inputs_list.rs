use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use super::show_more::ShowMore;
use crate::hooks::use_show_more::use_show_more;
use crate::hooks::use_texts::use_texts;

/// Inputs and errors listed at first, and per "show more" (a support bundle has hundreds of files,
/// a damaged dump can have thousands of errors).
const PAGE: usize = 100;
use crate::state::Input;
use crate::view_model;
use faultline_render::protocol::Timing;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub files: Vec<Input>,
    /// The inputs that are next steps' outputs (by name): marked as answering this incident.
    #[prop_or_default]
    pub follow_ups: Vec<String>,
    /// Files that could not be read: (name, why).
    pub unreadable: Vec<(String, faultline_render::protocol::Unreadable)>,
    pub report: Rc<Report>,
    /// How long each step of the analysis of `report` took in the worker (empty: not analysed there).
    #[prop_or_default]
    pub timings: Rc<Vec<Timing>>,
    pub on_remove: Callback<usize>,
    /// Show an input at a line in the input viewer.
    pub on_show_line: Callback<(String, u32)>,
}

/// Each input with its detected format and counts, and every error with its position.
#[function_component(InputsList)]
pub fn inputs_list(props: &Props) -> Html {
    let t = use_texts();
    let report = &props.report;
    let key = Rc::as_ptr(report) as usize;
    let (inputs_shown, on_more_inputs) = use_show_more(key, PAGE);
    let (errors_shown, on_more_errors) = use_show_more(key, PAGE);
    // Keyed by position, so "show more" adds rows without re-rendering those shown (see `Findings`).
    let rows = report.inputs.iter().take(inputs_shown).enumerate().map(|(n, input)| {
        let file_index = props.files.iter().position(|f| f.name == input.source);
        let remove = file_index.map(|i| {
            let on_remove = props.on_remove.clone();
            let label = (t.remove)(&input.source);
            html! { <button class="remove" aria-label={label} onclick={move |_| on_remove.emit(i)}>{ "×" }</button> }
        });
        let show = {
            let on_show_line = props.on_show_line.clone();
            let source = input.source.clone();
            move |_| on_show_line.emit((source.clone(), 1))
        };
        let (counts, kinds) = view_model::input_count_parts(input, t);
        let unread = view_model::unread_lines(report, &input.source);
        let follow_up = props.follow_ups.contains(&input.source);
        html! {
            <li key={n} class={classes!("input-row", follow_up.then_some("next-step-output"))}>
                if follow_up {
                    <span class="badge follow-up-badge" title={t.follow_up_badge_title}>{ t.follow_up_badge }</span>
                }
                <button class="source link" translate="no" onclick={show}>{ &input.source }</button>
                <span class="format" translate="no" data-format={input.format.clone()}>{ (t.input_format)(&input.format) }</span>
                <span class="counts">{ counts }
                    if let Some(kinds) = kinds { { " · " }<span translate="no">{ kinds }</span> }
                    if unread > 0 { { " · " }<span class="unread-count">{ (t.lines_not_read)(unread) }</span> }
                </span>
                { for remove }
            </li>
        }
    });
    let unreadable = props.unreadable.iter().map(|(name, reason)| {
        html! {
            <li class="input-error">
                <span class="where" translate="no">{ name }</span>
                <span class="message">{ (t.unreadable_reason)(reason) }</span>
            </li>
        }
    });
    // Files not in the report yet (their analysis runs, or was cancelled): listed, and removable.
    let waiting = props
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| report.inputs.iter().all(|i| i.source != f.name));
    let waiting = waiting.map(|(index, file)| {
        let on_remove = props.on_remove.clone();
        let label = (t.remove)(&file.name);
        html! {
            <li class="input-waiting">
                <span class="source" translate="no">{ &file.name }</span>
                <span class="counts muted">{ t.input_waiting }</span>
                <button class="remove" aria-label={label} onclick={move |_| on_remove.emit(index)}>{ "×" }</button>
            </li>
        }
    });
    let waiting: Vec<Html> = waiting.collect();
    let errors = report.errors.iter().take(errors_shown).enumerate().map(|(n, e)| {
        let show = {
            let on_show_line = props.on_show_line.clone();
            let (source, line) = (e.source.clone(), e.line);
            move |_| on_show_line.emit((source.clone(), line))
        };
        html! {
            <li key={n} class="input-error">
                <button class="where link" translate="no" onclick={show}>{ format!("{}:{}:{}", e.source, e.line, e.column) }</button>
                <span class="message" translate="no">{ e.message.as_str() }</span>
            </li>
        }
    });
    // The steps twice: `step=ms` pairs read by the Chromium benchmark, and "step 12 ms" on hover.
    let join =
        |each: fn(&Timing) -> String, sep: &str| props.timings.iter().map(each).collect::<Vec<_>>().join(sep);
    let steps = join(|s| format!("{}={:.0}", s.step, s.ms), " ");
    let breakdown = join(|s| format!("{} {:.0} ms", s.step, s.ms), " · ");
    // The time to the report, and the secret scan's after it.
    let (scan, to_report): (Vec<&Timing>, Vec<&Timing>) =
        props.timings.iter().partition(|s| s.step == "scanning");
    let seconds = |steps: Vec<&Timing>| steps.iter().map(|s| s.ms).sum::<f64>() / 1000.0;
    let scan = (!scan.is_empty()).then(|| seconds(scan));
    html! {
        <div class="inputs-list">
            if !waiting.is_empty() {
                <ul class="input-rows waiting">{ for waiting }</ul>
            }
            if report.inputs.is_empty() && props.files.is_empty() {
                <p class="muted">{ t.no_input_yet }</p>
            } else {
                <ul class="input-rows">{ for rows }</ul>
                <ShowMore shown={inputs_shown.min(report.inputs.len())} total={report.inputs.len()} page={PAGE}
                    on_more={on_more_inputs} />
            }
            if !props.timings.is_empty() {
                <p class="analysis-time muted" data-steps={steps} title={breakdown}>
                    { (t.analysed_in)(seconds(to_report), scan) }</p>
            }
            if !report.errors.is_empty() || !props.unreadable.is_empty() {
                <h3>{ t.input_problems }</h3>
                // The errors in a fragment of their own: Yew diffs a list by keys only when every item
                // of it has one (the unreadable files have none).
                <ul class="input-errors">{ for unreadable }<>{ for errors }</></ul>
                <ShowMore shown={errors_shown.min(report.errors.len())} total={report.errors.len()} page={PAGE}
                    on_more={on_more_errors} />
            }
        </div>
    }
}
