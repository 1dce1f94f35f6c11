use std::rc::Rc;

use faultline_render::protocol::Excerpt;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
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
    /// Closes the viewer (its Back button, Esc): the page is where it was, focus back on what opened it.
    #[prop_or_default]
    pub on_close: Callback<()>,
}

/// Lines shown either side of the highlighted one: enough context, and a 100 MB input stays cheap.
const CONTEXT: usize = 40;

/// An input's text around one line, with line numbers and that line highlighted.
#[function_component(InputViewer)]
pub fn input_viewer(props: &Props) -> Html {
    let t = use_texts();
    let mark = use_node_ref();
    let pre = use_node_ref();
    {
        let (mark, pre) = (mark.clone(), pre.clone());
        // Again when a large file's lines arrive from the worker: the mark exists only then.
        let arrived = props.excerpt.as_ref().map(|e| (e.name.clone(), e.line));
        use_effect_with((props.input.name.clone(), props.line, arrived), move |_| {
            // The viewer is docked over the page (fixed): only its text scrolls, to the line; the page
            // stays where the reader was, at the finding whose evidence they opened.
            if let (Some(pre), Some(mark)) = (pre.cast::<HtmlElement>(), mark.cast::<HtmlElement>()) {
                pre.set_scroll_top(mark.offset_top() - pre.client_height() / 2);
            }
        });
    }
    // The viewer takes the focus when it opens (its lines: the arrow keys scroll them, Tab reaches
    // Back); what opened it gets the focus back when it closes, or the diagnosis if that is gone (a
    // re-rendered row). Esc closes it.
    {
        let on_close = props.on_close.clone();
        let pre = pre.clone();
        use_effect_with((), move |_| {
            let opener = gloo::utils::document()
                .active_element()
                .and_then(|e| e.dyn_into::<HtmlElement>().ok());
            if let Some(pre) = pre.cast::<HtmlElement>() {
                let _ = pre.focus();
            }
            let listener = web_sys::window().map(|window| {
                gloo::events::EventListener::new(&window, "keydown", move |e| {
                    if e.dyn_ref::<web_sys::KeyboardEvent>()
                        .is_some_and(|k| k.key() == "Escape")
                    {
                        on_close.emit(());
                    }
                })
            });
            move || {
                drop(listener);
                let back = opener.filter(|o| o.is_connected()).or_else(|| {
                    gloo::utils::document()
                        .get_element_by_id("results")
                        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                });
                if let Some(back) = back {
                    let _ = back.focus();
                }
            }
        });
    }
    let on_back = props.on_close.reform(|_: MouseEvent| ());
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
        <section class="input-viewer" aria-label={t.show_input}>
            <div class="viewer-head">
                <h3>{ t.show_input }{ ": " }<span translate="no">{ format!("{}:{}", props.input.name, props.line) }</span></h3>
                <button type="button" class="viewer-back" onclick={on_back} aria-keyshortcuts="Escape">{ t.viewer_back }</button>
            </div>
            if missing {
                <p class="muted excerpt-missing">{ if excerpt.is_some() { t.excerpt_gone } else { t.excerpt_loading } }</p>
            }
            <pre class="lines" ref={pre} translate="no" tabindex="0" aria-label={t.show_input}>{ for lines }</pre>
        </section>
    }
}
