use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// How many items of a long list to render: `page` at first, `page` more per click, back to `page`
/// when `key` changes (a new report). Rendering thousands of findings or secret hits at once would
/// hold the main thread for hundreds of milliseconds; a page of them takes a few.
#[hook]
pub fn use_show_more(key: usize, page: usize) -> (usize, Callback<()>) {
    use_show_more_staged(key, page, page)
}

/// [`use_show_more`] whose first page comes in stages: `step` items when `key` changes, then `step`
/// more in each task of its own until the page is complete. For lists whose items are heavy to render
/// (finding cards): each render, and the style and layout after it, stays a short task, and the page
/// is complete a few frames later.
#[hook]
pub fn use_show_more_staged(key: usize, step: usize, page: usize) -> (usize, Callback<()>) {
    let step = step.clamp(1, page.max(1));
    let shown = use_state(|| (key, step));
    let limit = if shown.0 == key { shown.1 } else { step };
    {
        let shown = shown.clone();
        use_effect_with((key, limit), move |&(key, limit)| {
            let next = (limit < page).then(|| {
                let target = (limit + step).min(page);
                Timeout::new(0, move || {
                    // A click on "show more" may have gone further meanwhile.
                    if shown.0 != key || shown.1 < target {
                        shown.set((key, target));
                    }
                })
            });
            // A newer key or stage before it fired: this one is no longer wanted.
            move || drop(next)
        });
    }
    let more = {
        let shown = shown.clone();
        Callback::from(move |()| shown.set((key, limit.max(page) + page)))
    };
    (limit, more)
}
