use web_sys::{HtmlElement, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::state::Input;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The input shown and the line highlighted.
    pub input: Input,
    pub line: u32,
}

/// Lines shown either side of the highlighted one: enough context, and a 100 MB input stays cheap.
const CONTEXT: usize = 40;

/// An input's text around one line, with line numbers and that line highlighted.
#[function_component(InputViewer)]
pub fn input_viewer(props: &Props) -> Html {
    let t = use_texts();
    let mark = use_node_ref();
    let pre = use_node_ref();
    let section = use_node_ref();
    {
        let (mark, pre, section) = (mark.clone(), pre.clone(), section.clone());
        use_effect_with((props.input.name.clone(), props.line), move |_| {
            // Scroll the text to the line, then the page only as far as needed to show the viewer.
            if let (Some(pre), Some(mark)) = (pre.cast::<HtmlElement>(), mark.cast::<HtmlElement>()) {
                pre.set_scroll_top(mark.offset_top() - pre.client_height() / 2);
            }
            if let Some(section) = section.cast::<web_sys::Element>() {
                let options = ScrollIntoViewOptions::new();
                options.set_block(ScrollLogicalPosition::Nearest);
                section.scroll_into_view_with_scroll_into_view_options(&options);
            }
        });
    }
    let target = usize::try_from(props.line).unwrap_or(1).max(1);
    let first = target.saturating_sub(CONTEXT).max(1);
    let lines = props
        .input
        .text
        .lines()
        .enumerate()
        .skip(first - 1)
        .take(target + CONTEXT + 1 - first)
        .map(|(i, text)| {
            let number = i + 1;
            let here = number == target;
            html! {
                <div class={classes!("line", here.then_some("highlight"))} data-line={number.to_string()}
                    ref={if here { mark.clone() } else { NodeRef::default() }}>
                    <span class="number" aria-hidden="true">{ number }</span>
                    <span class="text">{ text }</span>
                </div>
            }
        });
    html! {
        <section class="input-viewer" ref={section} aria-label={t.show_input}>
            <h3>{ t.show_input }{ ": " }<span translate="no">{ format!("{}:{}", props.input.name, props.line) }</span></h3>
            <pre class="lines" ref={pre} translate="no">{ for lines }</pre>
        </section>
    }
}
