use std::rc::Rc;

use faultline_worker::protocol::Excerpt;
use web_sys::{HtmlElement, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::state::{Input, Text};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The input shown and the line highlighted.
    pub input: Input,
    pub line: u32,
    /// For a large file (whose text the page does not hold): its lines around `line`, from the worker.
    #[prop_or_default]
    pub excerpt: Option<Rc<Excerpt>>,
    /// The line ranges of this input the report lists as not read: shaded.
    #[prop_or_default]
    pub unread: Vec<(u32, u32)>,
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
    // A large file's lines come from the worker: the ones it sent for this line, if they are here.
    let excerpt = props
        .excerpt
        .as_ref()
        .filter(|e| e.name == props.input.name && e.line == props.line);
    let numbered: Vec<(usize, &str)> = match (&props.input.text, excerpt) {
        (Text::Inline(text), _) => text
            .lines()
            .enumerate()
            .skip(first - 1)
            .take(target + CONTEXT + 1 - first)
            .collect(),
        (Text::File { .. }, Some(excerpt)) => excerpt
            .lines
            .iter()
            .enumerate()
            .map(|(i, line)| (i + excerpt.first as usize - 1, line.as_str()))
            .collect(),
        (Text::File { .. }, None) => Vec::new(),
    };
    let missing = matches!(props.input.text, Text::File { .. }) && numbered.is_empty();
    let lines = numbered.into_iter().map(|(i, text)| {
        let number = i + 1;
        let here = number == target;
        let unread = props
            .unread
            .iter()
            .any(|(from, to)| (*from as usize..=*to as usize).contains(&number));
        html! {
            <div class={classes!("line", here.then_some("highlight"), unread.then_some("unread"))} data-line={number.to_string()}
                title={unread.then_some(t.unread_line)}
                ref={if here { mark.clone() } else { NodeRef::default() }}>
                <span class="number" aria-hidden="true">{ number }</span>
                <span class="text">{ text }</span>
            </div>
        }
    });
    html! {
        <section class="input-viewer" ref={section} aria-label={t.show_input}>
            <h3>{ t.show_input }{ ": " }<span translate="no">{ format!("{}:{}", props.input.name, props.line) }</span></h3>
            if missing {
                <p class="muted excerpt-missing">{ if excerpt.is_some() { t.excerpt_gone } else { t.excerpt_loading } }</p>
            }
            <pre class="lines" ref={pre} translate="no">{ for lines }</pre>
        </section>
    }
}
