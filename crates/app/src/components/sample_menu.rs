use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::samples::{self, SAMPLES};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The sample shown, if the inputs are still a sample's.
    pub current: Option<&'static str>,
    pub on_sample: Callback<&'static str>,
    /// Asked first (the user's own input would be replaced), when set.
    #[prop_or_default]
    pub confirm: Option<&'static str>,
}

/// Whether the user agrees to lose their input for a sample (asked only when `confirm` is set).
pub fn confirmed(confirm: Option<&'static str>) -> bool {
    match confirm {
        None => true,
        Some(question) => {
            web_sys::window().is_some_and(|w| w.confirm_with_message(question).unwrap_or(false))
        }
    }
}

/// The built-in sample incidents, as a menu.
#[function_component(SampleMenu)]
pub fn sample_menu(props: &Props) -> Html {
    let t = use_texts();
    let onchange = {
        let on_sample = props.on_sample.clone();
        let (confirm, current) = (props.confirm, props.current);
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                if let Some(sample) = samples::find(&select.value()) {
                    if confirmed(confirm) {
                        on_sample.emit(sample.id);
                    } else {
                        // Not confirmed: the menu shows what is still on the page.
                        select.set_value(current.unwrap_or(""));
                    }
                }
            }
        })
    };
    html! {
        <label class="sample-menu">{ t.sample_label }
            <select id="sample" {onchange}>
                if props.current.is_none() {
                    <option value="" selected=true>{ t.sample_none }</option>
                }
                { for SAMPLES.iter().map(|s| html! {
                    <option value={s.id} selected={props.current == Some(s.id)}>{ (t.sample_title)(s.id) }</option>
                }) }
            </select>
        </label>
    }
}
