use yew::prelude::*;

/// How many items of a long list to render: `page` at first, `page` more per click, back to `page`
/// when `key` changes (a new report). Rendering thousands of findings or secret hits at once would
/// hold the main thread for hundreds of milliseconds; a page of them takes a few.
#[hook]
pub fn use_show_more(key: usize, page: usize) -> (usize, Callback<()>) {
    let shown = use_state(|| (key, page));
    let limit = if shown.0 == key { shown.1 } else { page };
    let more = {
        let shown = shown.clone();
        Callback::from(move |()| shown.set((key, limit + page)))
    };
    (limit, more)
}
