use yew::prelude::*;

use crate::guide::ENTRIES;
use crate::hooks::use_texts::use_texts;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The symptom to open at (the inconclusive verdict's match); `None`: the first one.
    pub entry: Option<&'static str>,
    pub on_close: Callback<()>,
}

/// "What should I paste?": for each common symptom, the commands to run, each copyable.
#[function_component(PasteGuide)]
pub fn paste_guide(props: &Props) -> Html {
    let t = use_texts();
    let open = use_state(|| props.entry.unwrap_or(ENTRIES[0].id));
    {
        let open = open.clone();
        use_effect_with(props.entry, move |entry| {
            if let Some(entry) = entry {
                open.set(entry);
            }
        });
    }
    let copied = use_state(|| None::<String>);
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            if let Some(element) = node.cast::<web_sys::HtmlElement>() {
                element.scroll_into_view();
                let _ = element.focus();
            }
        });
    }
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section class="paste-guide" aria-labelledby="paste-guide-title" ref={node} tabindex="-1">
            <header>
                <h2 id="paste-guide-title">{ t.guide_title }</h2>
                <button type="button" class="close" onclick={on_close}>{ t.guide_close }</button>
            </header>
            <p class="guide-intro">{ t.guide_intro }</p>
            <p class="guide-redact">{ super::prose(t.guide_redact) }</p>
            <div class="guide-symptoms" role="tablist">
                { for ENTRIES.iter().map(|e| {
                    let selected = *open == e.id;
                    let onclick = { let open = open.clone(); let id = e.id; Callback::from(move |_: MouseEvent| open.set(id)) };
                    html! {
                        <button type="button" role="tab" class={classes!("symptom", selected.then_some("on"))}
                            data-entry={e.id} aria-selected={selected.to_string()} {onclick}>{ (t.guide_symptom)(e.id) }</button>
                    }
                }) }
            </div>
            { for ENTRIES.iter().filter(|e| e.id == *open).map(|e| html! {
                <div class="guide-entry" role="tabpanel" data-entry={e.id}>
                    <p>{ (t.guide_collects)(e.id) }</p>
                    <ol class="guide-commands">
                        { for e.commands.iter().map(|command| {
                            let done = copied.as_deref() == Some(*command);
                            let onclick = {
                                let copied = copied.clone();
                                let command = command.to_string();
                                Callback::from(move |_: MouseEvent| { super::copy_text(&command); copied.set(Some(command.clone())); })
                            };
                            html! {
                                <li>
                                    <code translate="no">{ *command }</code>
                                    <button type="button" class="copy" aria-label={(t.copy_aria)(command)} {onclick}>
                                        { if done { t.copied } else { t.copy } }</button>
                                </li>
                            }
                        }) }
                    </ol>
                </div>
            }) }
        </section>
    }
}
