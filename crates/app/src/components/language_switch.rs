use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lang: Lang,
    pub on_lang: Callback<Lang>,
}

/// English / 中文. The choice lives in the page only: nothing is stored.
#[function_component(LanguageSwitch)]
pub fn language_switch(props: &Props) -> Html {
    let t = use_texts();
    html! {
        <div class="language" role="group" aria-label={t.language_label}>
            { for Lang::ALL.into_iter().map(|lang| {
                let on_lang = props.on_lang.clone();
                let active = props.lang == lang;
                html! {
                    <button lang={lang.tag()} data-lang={lang.tag()} class={classes!("lang", active.then_some("active"))}
                        aria-pressed={active.to_string()} onclick={move |_| on_lang.emit(lang)}>
                        { crate::i18n::texts(lang).language_name }</button>
                }
            }) }
        </div>
    }
}
