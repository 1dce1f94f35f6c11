use std::rc::Rc;

use faultline_engine::Report;
use yew::prelude::*;

use crate::state::Input;
use crate::view_model;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub files: Vec<Input>,
    /// Files that could not be read: (name, why).
    pub unreadable: Vec<(String, String)>,
    pub report: Rc<Report>,
    pub on_remove: Callback<usize>,
}

/// Each input with its detected format and counts, and every error with its position.
#[function_component(InputsList)]
pub fn inputs_list(props: &Props) -> Html {
    let report = &props.report;
    let rows = report.inputs.iter().map(|input| {
        let file_index = props.files.iter().position(|f| f.name == input.source);
        let remove = file_index.map(|i| {
            let on_remove = props.on_remove.clone();
            let label = format!("Remove {}", input.source);
            html! { <button class="remove" aria-label={label} onclick={move |_| on_remove.emit(i)}>{ "×" }</button> }
        });
        html! {
            <li class="input-row">
                <span class="source">{ &input.source }</span>
                <span class="format">{ &input.format }</span>
                <span class="counts">{ view_model::input_counts(input) }</span>
                { for remove }
            </li>
        }
    });
    let unreadable = props.unreadable.iter().map(|(name, reason)| {
        html! {
            <li class="input-error">
                <span class="where">{ name }</span>
                <span class="message">{ reason }</span>
            </li>
        }
    });
    let errors = report.errors.iter().map(|e| {
        html! {
            <li class="input-error">
                <span class="where">{ format!("{}:{}:{}", e.source, e.line, e.column) }</span>
                <span class="message">{ &e.message }</span>
            </li>
        }
    });
    html! {
        <div class="inputs-list">
            if report.inputs.is_empty() {
                <p class="muted">{ "No input yet." }</p>
            } else {
                <ul class="input-rows">{ for rows }</ul>
            }
            if !report.errors.is_empty() || !props.unreadable.is_empty() {
                <h3>{ "Input problems" }</h3>
                <ul class="input-errors">{ for unreadable }{ for errors }</ul>
            }
        </div>
    }
}
