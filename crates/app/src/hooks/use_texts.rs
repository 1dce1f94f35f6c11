use yew::prelude::*;

use crate::i18n::{texts, Lang, Texts};

/// The strings of the language the app provides as context (English when none is provided).
#[hook]
pub fn use_texts() -> &'static Texts {
    texts(use_context::<Lang>().unwrap_or(Lang::En))
}
