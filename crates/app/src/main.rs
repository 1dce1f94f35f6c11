//! Faultline's web app: a thin Yew view over the engine's `Report`. The engine runs in a Web Worker
//! (`crates/worker`) loaded with the page; nothing is fetched after the page's own files load.

mod app;
mod components;
mod files;
mod guide;
mod hooks;
mod i18n;
mod replies;
mod route;
mod rule_docs;
mod samples;
mod state;
mod view_model;

fn main() {
    register_offline_cache();
    yew::Renderer::<app::App>::new().render();
}

/// Installs `sw.js`, which keeps the app's own files so the page opens and analyses offline. It
/// never sees user input (pasted text is never a request). Where service workers are unavailable
/// (a `file:` page, an old browser, a private window that forbids them) the app simply runs online.
fn register_offline_cache() {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return };
    let navigator = window.navigator();
    let Ok(container) = js_sys::Reflect::get(&navigator, &"serviceWorker".into()) else {
        return;
    };
    if container.is_undefined() {
        return;
    }
    let register = js_sys::Reflect::get(&container, &"register".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(register) = register {
        // A rejected registration (e.g. no secure context) leaves the app as it is.
        if let Ok(promise) = register.call1(&container, &"sw.js".into()) {
            if let Ok(promise) = promise.dyn_into::<js_sys::Promise>() {
                let ignore = wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(|_| {});
                let _ = promise.catch(&ignore);
                ignore.forget();
            }
        }
    }
}
