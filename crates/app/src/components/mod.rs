pub mod analysis_status;
pub mod boundary_table;
pub mod command_row;
pub mod diagnosis_cue;
pub mod diagram;
pub mod differential;
pub mod export_menu;
pub mod filter_bar;
pub mod finding_card;
pub mod findings;
pub mod follow_up;
#[cfg(test)]
mod html_snapshots;
pub mod input_panel;
pub mod input_viewer;
pub mod inputs_list;
pub mod language_switch;
pub mod object_map;
pub mod paste_guide;
pub mod rules_page;
pub mod sample_menu;
pub mod secrets_panel;
pub mod show_more;
pub mod summary;
pub mod timeline;
pub mod view_switcher;
pub mod what_changed;

use yew::prelude::*;

/// Whether a key press goes to a text field, a menu or an editable element: the page's own keys
/// (`/`, the view numbers) leave it alone there.
pub fn typing_in_field(e: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.has_attribute("contenteditable")
        })
}

/// A name that, when it does not fit, is cut in its middle by the layout, not at its end: its last
/// [`view_model::name_tail`] characters never shrink (the generated suffix that tells the Pods of one
/// workload apart), the rest ends in an ellipsis where the width runs out (CSS `.middle-cut`). The
/// text read, copied and found is the whole name; `title` shows it whole on hover.
pub fn middle_cut(text: &str) -> Html {
    let (head, tail) = crate::view_model::name_tail(text);
    html! {
        <span class="middle-cut" title={text.to_string()}>
            <span class="head">{ head }</span><span class="tail">{ tail }</span>
        </span>
    }
}

/// A command laid out to wrap only at its spaces: each word is kept whole (a browser would break
/// `exp-runtime` after its hyphen, or a jsonpath after a brace), except a word longer than a line,
/// which may break anywhere. The text is the command's, spaces included (a selection copies it).
pub fn command(text: &str) -> Html {
    /// Longer than this many characters a word may not fit a narrow box: it wraps where it must.
    const WHOLE: usize = 64;
    let words = text.split(' ').enumerate().map(|(i, word)| {
        let class = (word.chars().count() <= WHOLE).then_some("w");
        html! { <>{ if i > 0 { " " } else { "" } }<span {class}>{ placeholders(word) }</span></> }
    });
    html! { <>{ for words }</> }
}

/// A word of a command with its placeholders (`'<namespace>'`, `'<name>'`, `'<node>'`: a name the
/// input does not state, issue 40) marked as what to fill in; the command is selected and copied
/// as it is, placeholders included.
fn placeholders(word: &str) -> Html {
    let mut parts = Vec::new();
    let mut rest = word;
    while let Some(start) = rest.find("'<") {
        let Some(len) = rest[start..].find(">'") else {
            break;
        };
        let end = start + len + 2;
        parts.push(html! { { &rest[..start] } });
        parts.push(html! { <span class="placeholder">{ &rest[start..end] }</span> });
        rest = &rest[end..];
    }
    parts.push(html! { { rest } });
    html! { <>{ for parts }</> }
}

/// Documentation prose with its `code spans` shown as code (the rest stays text: nothing in it is
/// ever parsed as HTML).
pub fn prose(text: &str) -> Html {
    let parts = text.split('`').enumerate().map(|(i, part)| {
        if i % 2 == 1 {
            html! { <code translate="no">{ part }</code> }
        } else {
            html! { { part } }
        }
    });
    html! { <>{ for parts }</> }
}

/// Copies text with the asynchronous Clipboard API, looked up at run time: it needs a secure
/// context, and where it is missing the text stays selectable. True when the copy was started.
pub fn copy_text(text: &str) -> bool {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return false;
    };
    let write = js_sys::Reflect::get(&clipboard, &"writeText".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    write.is_some_and(|write| write.call1(&clipboard, &text.into()).is_ok())
}
