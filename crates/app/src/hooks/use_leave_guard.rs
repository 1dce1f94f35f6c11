use gloo::events::{EventListener, EventListenerOptions};
use yew::prelude::*;

/// While `active`, leaving or reloading the page asks first (the browser's own "Leave site?" dialog):
/// nothing is saved anywhere, so the input would be lost.
#[hook]
pub fn use_leave_guard(active: bool) {
    use_effect_with(active, |active| {
        let listener = active.then(|| {
            let window = gloo::utils::window();
            EventListener::new_with_options(
                &window,
                "beforeunload",
                EventListenerOptions::enable_prevent_default(),
                |event| {
                    event.prevent_default();
                    // Older browsers show the dialog only when returnValue is set.
                    let _ = js_sys::Reflect::set(event, &"returnValue".into(), &"".into());
                },
            )
        });
        move || drop(listener)
    });
}
