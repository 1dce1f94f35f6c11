use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// How many items of a long list to render: `page` at first, `page` more per click, back to `page`
/// when `key` changes (a new report). Rendering thousands of findings or secret hits at once would
/// hold the main thread for hundreds of milliseconds; a page of them takes a few.
#[hook]
pub fn use_show_more(key: usize, page: usize) -> (usize, Callback<()>) {
    use_show_more_staged(key, page, page)
}

/// [`use_show_more`] whose first page comes in stages: `step` items when `key` changes, then `step`
/// more in each task of its own, one stage a frame, until the page is complete. For lists whose items
/// are heavy to render (finding cards): each render, and the style and layout of the frame after it,
/// stays a short task, and the page is complete a few frames later.
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
                AfterNextFrame::new(move || {
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

/// Runs a function in a task of its own once the browser has drawn its next frame, so that the DOM
/// changes of the render before it are styled and laid out in that frame, alone. (A timer of 0 ms
/// often fired twice before a frame: two stages of cards were laid out in one frame.) Dropping it
/// cancels it; in a hidden tab it waits until the tab is shown.
struct AfterNextFrame {
    frame: Option<(i32, Closure<dyn FnMut()>)>,
    timeout: Rc<RefCell<Option<Timeout>>>,
}

impl AfterNextFrame {
    fn new(f: impl FnOnce() + 'static) -> Self {
        let timeout = Rc::new(RefCell::new(None));
        let mut f = Some(f);
        let slot = timeout.clone();
        // `requestAnimationFrame` runs just before the frame's style and layout; the timer after it
        // runs the function in the next task, once the frame is done.
        let closure = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                *slot.borrow_mut() = Some(Timeout::new(0, f));
            }
        });
        let frame = web_sys::window()
            .and_then(|w| w.request_animation_frame(closure.as_ref().unchecked_ref()).ok())
            .map(|id| (id, closure));
        Self { frame, timeout }
    }
}

impl Drop for AfterNextFrame {
    fn drop(&mut self) {
        if let (Some((id, _)), Some(window)) = (&self.frame, web_sys::window()) {
            let _ = window.cancel_animation_frame(*id);
        }
        self.timeout.borrow_mut().take();
    }
}
