//! Whether the page is as narrow as a phone, followed as the window changes.

use yew::prelude::*;

/// The CSS breakpoint of a phone (`@media (max-width: 600px)` in style.css): under it the object map
/// and the architecture are lists, the drawings' text would be 4–5 px.
const NARROW: &str = "(max-width: 600px)";

fn narrow_query() -> Option<web_sys::MediaQueryList> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()?.match_media(NARROW).ok().flatten()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = NARROW;
        None
    }
}

/// Whether the page is as narrow as a phone. A view renders only one of its list and its drawing:
/// a 3,000-Pod map stays a few thousand elements.
#[hook]
pub fn use_narrow() -> bool {
    let narrow = use_state(|| narrow_query().is_some_and(|q| q.matches()));
    {
        let narrow = narrow.clone();
        use_effect_with((), move |_| {
            let listener = narrow_query().map(|query| {
                gloo::events::EventListener::new(&query.clone(), "change", move |_| {
                    narrow.set(query.matches());
                })
            });
            move || drop(listener)
        });
    }
    *narrow
}
