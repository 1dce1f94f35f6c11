//! The differential diagnosis of the Findings view (issue 39): the command that decides between two
//! close causes, and what was considered and ruled out, each with the line that says so. A view of
//! the report's `decide` and `ruled_out`, nothing decided here.

use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use super::show_more::ShowMore;
use crate::hooks::use_show_more::use_show_more;
use crate::hooks::use_texts::use_texts;

/// How many of the ruled-out items are drawn at first, and how many more per click: a 10,000-Pod
/// dump's report rules out some 1,250 symptoms, and drawing them all (7,500 elements) held the main
/// thread for about 100 ms of page code and 110 ms of layout when the report arrived.
const PAGE: usize = 25;

#[derive(Properties, PartialEq)]
pub struct DecideProps {
    pub report: Rc<Report>,
    pub labels: Rc<Vec<String>>,
    /// "Paste its output": opens the input named after the command.
    #[prop_or_default]
    pub on_follow_up: Callback<String>,
}

/// "The command that decides": which findings it tells apart, the command (copy, paste its
/// output), and what each answer would mean.
#[function_component(Decide)]
pub fn decide(props: &DecideProps) -> Html {
    let t = use_texts();
    let Some(d) = &props.report.decide else {
        return html! {};
    };
    let label = |i: usize| {
        d.between
            .get(i)
            .and_then(|c| faultline_render::label_of(&props.report.findings, &props.labels, c))
            .unwrap_or("?")
            .to_string()
    };
    html! {
        <section class="decide" aria-labelledby="decide-title">
            <h3 id="decide-title">{ t.decide_title }</h3>
            <p>{ (t.decide_between)(&label(0), &label(1)) }</p>
            <super::command_row::CommandRow class="decide-command" command={AttrValue::from(d.command.clone())}
                on_follow_up={props.on_follow_up.clone()} />
            <dl>
                <dt>{ (t.decide_if_shown)(&label(d.tested)) }</dt>
                <dd class="if-shown" translate="no">{ super::prose(d.if_shown.as_str()) }</dd>
                <dt>{ t.decide_if_not }</dt>
                <dd class="if-not" translate="no">{ super::prose(d.if_not.as_str()) }</dd>
            </dl>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct RuledOutProps {
    pub report: Rc<Report>,
    pub on_show_line: Callback<(String, u32)>,
}

/// "Considered and ruled out": each loud signal that is not the cause and each boundary a line
/// shows working, with that line (a button that shows it in the input).
#[function_component(RuledOut)]
pub fn ruled_out(props: &RuledOutProps) -> Html {
    let t = use_texts();
    let (shown, on_more) = use_show_more(Rc::as_ptr(&props.report) as usize, PAGE);
    let total = props.report.ruled_out.len();
    if total == 0 {
        return html! {};
    }
    let items = props.report.ruled_out.iter().take(shown).map(|r| {
        let at = r.evidence.as_ref().map(|e| {
            let on_show_line = props.on_show_line.clone();
            let (source, line) = (e.source.clone(), e.line);
            let label = (t.show_in_input)(&e.source, e.line);
            html! { <>
                { " " }
                <button class="where link" translate="no" title={label.clone()} aria-label={label}
                    onclick={move |_| on_show_line.emit((source.to_string(), line))}>{ format!("{}:{}", e.source, e.line) }</button>
                <code class="path" translate="no">{ (t.evidence_label)(&e.path) }</code>
            </> }
        });
        html! {
            <li data-boundary={r.boundary.id()}>
                <span class="boundary" title={(t.boundary)(r.boundary)} translate="no">{ r.boundary.id() }</span>{ " " }
                <span class="because" translate="no">{ super::prose(r.because.as_str()) }</span>
                { for at }
            </li>
        }
    });
    html! {
        <section class="ruled-out" aria-labelledby="ruled-out-title">
            <h3 id="ruled-out-title">{ t.ruled_out_title }</h3>
            <p class="muted">{ t.ruled_out_intro }</p>
            <ul>{ for items }</ul>
            <ShowMore shown={shown.min(total)} {total} page={PAGE} {on_more} />
        </section>
    }
}
