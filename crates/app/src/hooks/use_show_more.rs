use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// How many items of a long list to render: `page` at first, `page` more per click, back to `page`
/// when `key` changes (a new report). Rendering thousands of findings or secret hits at once would
/// hold the main thread for hundreds of milliseconds; a page of them takes a few.
#[hook]
pub fn use_show_more(key: usize, page: usize) -> (usize, Callback<()>) {
    use_show_more_staged(key, page, page)
}

/// [`use_show_more`] whose first page comes in two renders: `first` items when `key` changes, the rest
/// of the page in a task of its own right after. For lists whose items are heavy to render (finding
/// cards): a new report's first render stays one short task, and the page is complete a frame later.
#[hook]
pub fn use_show_more_staged(key: usize, first: usize, page: usize) -> (usize, Callback<()>) {
    let first = first.min(page);
    let shown = use_state(|| (key, first));
    let limit = if shown.0 == key { shown.1 } else { first };
    {
        let shown = shown.clone();
        use_effect_with(key, move |&key| {
            let rest = (first < page).then(|| {
                Timeout::new(0, move || {
                    if shown.0 != key || shown.1 < page {
                        shown.set((key, page));
                    }
                })
            });
            // A newer key before it fired: this one is no longer wanted.
            move || drop(rest)
        });
    }
    let more = {
        let shown = shown.clone();
        Callback::from(move |()| shown.set((key, limit.max(page) + page)))
    };
    (limit, more)
}
