//! The page's side of the engine's Web Worker: starts it once the page has rendered and is idle, or
//! for the first job if that comes first (the built-in samples' reports are precomputed, so the
//! first render needs no worker and the page's first load stays small), has a new worker warm up
//! while it has no job, sends it each job [`State::pending`] names (and, once its report is shown,
//! asks for its secret scan), asks it for the texts of its last report when the page's language
//! changes ([`State::localize_request`]), turns its replies into actions, and terminates it to cancel
//! (the engine's call is synchronous: no message could interrupt it) — a fresh worker is started at
//! once.
//!
//! Warm-up (why: the worker's `job::warm`): a new worker is asked for [`WARM_STEPS`] small
//! analyses, one message at a time and only while it has no job. When the last step is done the
//! page's root element gets `data-engine="warm"`.

use std::cell::RefCell;
use std::rc::Rc;

use faultline_render::protocol::WARM_STEPS;
use faultline_render::protocol::{self, Reply, Request};
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::prelude::*;

use crate::files;
use crate::i18n::Lang;
use crate::replies::Assembly;
use crate::state::{Action, Failure, Input, State, Text};

/// The worker's loader script (static/engine-worker.js), beside index.html; relative, so the app
/// works under any path.
const WORKER_URL: &str = "engine-worker.js";

/// The worker's URL, with the page's `readers` and `readers-fail` parameters passed on: how many
/// workers read a big List at once (`?readers=1` reads it in the engine's worker alone; by default
/// the browser's cores, at most 4) and, for the browser test of the fallback, readers that fail.
fn worker_url() -> String {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let passed: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| p.starts_with("readers=") || p.starts_with("readers-fail="))
        .collect();
    if passed.is_empty() {
        WORKER_URL.to_string()
    } else {
        format!("{WORKER_URL}?{}", passed.join("&"))
    }
}

/// How long after its first render the page starts the worker, if no job has started it by then.
const WARM_AFTER_MS: u32 = 1_000;

/// A newer job supersedes a running one smaller than this without stopping the worker: the worker
/// takes the newer job once it is done with the older, whose replies the page ignores. A larger
/// one is stopped at once by terminating the worker; but a fresh worker compiles its wasm again and
/// starts in unoptimised code, which costs more than the rest of a small analysis (typing in the
/// paste area starts a job per edit).
const SUPERSEDE_IN_PLACE_BELOW: u64 = 1 << 20;

/// Lines either side of a large file's focused line that the input viewer shows.
pub const EXCERPT_CONTEXT: u32 = 40;

/// What the message handlers share with the page.
#[derive(Default)]
struct Shared {
    /// The job the worker is running, and the size of its inputs.
    running: Option<u64>,
    running_bytes: u64,
    /// For each input of that job, whether it was a file handle (its redacted copy becomes one too).
    file_inputs: Vec<bool>,
    assembly: Assembly,
    /// The worker stopped with an error; the next job starts a new one.
    dead: bool,
    /// Whether the warm-up continues: asked for, and no job sent since.
    warming: bool,
    /// The job whose report's texts the worker was asked for in another language.
    localizing: Option<u64>,
    /// The rules' documentation was asked for and has not come: a fresh worker is asked again.
    docs_wanted: bool,
}

type Handler<T> = Closure<dyn FnMut(T)>;

#[derive(Default)]
struct Bridge {
    worker: Option<(Worker, Handler<MessageEvent>, Handler<web_sys::Event>)>,
    shared: Rc<RefCell<Shared>>,
}

impl Bridge {
    fn ensure(&mut self, dispatch: &UseReducerDispatcher<State>) -> Option<&Worker> {
        if self.shared.borrow().dead {
            self.stop();
        }
        if self.worker.is_none() {
            self.worker = spawn(&self.shared, dispatch);
            if let Some((worker, _, _)) = self.worker.as_ref().filter(|_| self.shared.borrow().docs_wanted) {
                let _ = worker.post_message(&message(&Request::Docs));
            }
        }
        self.worker.as_ref().map(|(worker, _, _)| worker)
    }

    /// Terminates the worker, whatever it is doing, and forgets its job.
    fn stop(&mut self) {
        if let Some((worker, _, _)) = self.worker.take() {
            // Its handlers are dropped here, but a terminated worker can still fire: terminated
            // inside `importScripts`, Chromium reports that the script failed to load. That
            // error is this worker's, not the next job's, and calling a dropped handler would
            // throw; so it gets a handler of its own that only keeps it from the page.
            worker.set_onmessage(None);
            worker.set_onerror(Some(ignore_error().unchecked_ref()));
            worker.terminate();
            // The next worker starts cold.
            mark_warm(false);
        }
        let mut shared = self.shared.borrow_mut();
        shared.running = None;
        shared.dead = false;
        shared.warming = false;
        shared.localizing = None;
        shared.assembly = Assembly::default();
    }

    /// Starts the worker if it is not running, and its warm-up if it has no job.
    fn warm_up(&mut self, dispatch: &UseReducerDispatcher<State>) {
        let fresh = self.worker.is_none() || self.shared.borrow().dead;
        if !fresh || self.shared.borrow().running.is_some() {
            return;
        }
        if let Some(worker) = self.ensure(dispatch).cloned() {
            self.shared.borrow_mut().warming = true;
            let _ = worker.post_message(&message(&Request::Warm { step: 0 }));
        }
    }

    fn submit(&mut self, state: &State, dispatch: &UseReducerDispatcher<State>) {
        let Some((job, inputs)) = state.job() else {
            return;
        };
        let running = {
            let shared = self.shared.borrow();
            shared.running.map(|_| shared.running_bytes)
        };
        if running.is_some_and(|bytes| bytes >= SUPERSEDE_IN_PLACE_BELOW) {
            // A newer job supersedes the running one.
            self.stop();
        }
        let id = job.id;
        let message = Object::new();
        let transfer = Array::new();
        let request = Uint8Array::from(
            serde_json::to_vec(&Request::Analyze(job))
                .unwrap_or_default()
                .as_slice(),
        );
        transfer.push(&request.buffer());
        let values = Array::new();
        for input in &inputs {
            match &input.text {
                Text::Inline(text) => {
                    let bytes = Uint8Array::from(text.as_bytes());
                    transfer.push(&bytes.buffer());
                    values.push(&bytes);
                }
                Text::File { id, .. } => {
                    match files::get(*id) {
                        Some(blob) => values.push(&blob),
                        None => values.push(&Uint8Array::new_with_length(0)),
                    };
                }
            }
        }
        let _ = Reflect::set(&message, &"request".into(), &request);
        let _ = Reflect::set(&message, &"inputs".into(), &values);
        {
            let mut shared = self.shared.borrow_mut();
            shared.running = Some(id);
            shared.running_bytes = inputs.iter().map(|i| i.text.len()).sum();
            shared.warming = false;
            shared.file_inputs = inputs
                .iter()
                .map(|i| matches!(i.text, Text::File { .. }))
                .collect();
            shared.assembly = Assembly::default();
        }
        let posted = self
            .ensure(dispatch)
            .map(|worker| worker.post_message_with_transfer(&message, &transfer));
        if !matches!(posted, Some(Ok(()))) {
            self.shared.borrow_mut().running = None;
            dispatch.dispatch(Action::AnalysisFailed {
                id,
                failure: Failure::NotStarted,
            });
        }
    }

    /// Asks the worker for job `id`'s secret scan (its report is shown).
    fn scan(&mut self, id: u64) {
        if self.shared.borrow().running != Some(id) {
            return;
        }
        if let Some((worker, _, _)) = &self.worker {
            let _ = worker.post_message(&message(&Request::Scan { id }));
        }
    }

    /// Asks the worker for job `id`'s report's texts in `lang`. A worker that is not running has not
    /// got it (a fresh one after a cancel): nothing is asked, and the report stays as it is.
    fn localize(&mut self, id: u64, lang: Lang) {
        if self.shared.borrow().dead {
            return;
        }
        if let Some((worker, _, _)) = &self.worker {
            let mut shared = self.shared.borrow_mut();
            shared.localizing = Some(id);
            shared.assembly.expect_texts();
            let _ = worker.post_message(&message(&Request::Localize { id, lang }));
        }
    }

    /// Asks the worker for the rules' documentation (starting it if it is not running).
    fn docs(&mut self, dispatch: &UseReducerDispatcher<State>) {
        let fresh = self.worker.is_none() || self.shared.borrow().dead;
        self.shared.borrow_mut().docs_wanted = true;
        // A worker started now is asked by `ensure`.
        if let Some(worker) = self.ensure(dispatch).filter(|_| !fresh) {
            let _ = worker.post_message(&message(&Request::Docs));
        }
    }

    fn excerpt(&mut self, name: &str, line: u32, dispatch: &UseReducerDispatcher<State>) {
        let request = Request::Excerpt {
            name: name.to_string(),
            line,
            context: EXCERPT_CONTEXT,
        };
        if let Some(worker) = self.ensure(dispatch) {
            let _ = worker.post_message(&message(&request));
        }
    }
}

/// Sets or clears the page's `data-engine="warm"`: whether the current worker has warmed up.
fn mark_warm(warm: bool) {
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = if warm {
            root.set_attribute("data-engine", "warm")
        } else {
            root.remove_attribute("data-engine")
        };
    }
}

/// An error handler that cancels the error (a page error otherwise) and does nothing else, owned by
/// JavaScript: it lives as long as the terminated worker that may call it.
fn ignore_error() -> JsValue {
    Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| event.prevent_default()).into_js_value()
}

/// A request without inputs, as the worker reads it: its JSON bytes under `request`.
fn message(request: &Request) -> Object {
    let message = Object::new();
    let bytes = Uint8Array::from(serde_json::to_vec(request).unwrap_or_default().as_slice());
    let _ = Reflect::set(&message, &"request".into(), &bytes);
    message
}

/// A redacted copy's bytes as a text like the original's: a file handle for a file handle (the page
/// still never holds a large text), else text.
fn text_of(bytes: &JsValue, file: bool) -> Text {
    let Some(bytes) = bytes.dyn_ref::<Uint8Array>() else {
        return Text::from("");
    };
    if file {
        let parts = Array::of1(bytes);
        if let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence(&parts) {
            let size = blob.size() as u64;
            return Text::File {
                id: files::keep(blob),
                bytes: size,
            };
        }
    }
    Text::from(faultline_report::input::text_from_bytes(bytes.to_vec()))
}

fn spawn(
    shared: &Rc<RefCell<Shared>>,
    dispatch: &UseReducerDispatcher<State>,
) -> Option<(Worker, Handler<MessageEvent>, Handler<web_sys::Event>)> {
    let worker = Worker::new(&worker_url()).ok()?;
    let on_message = {
        let (shared, dispatch, to_worker) = (shared.clone(), dispatch.clone(), worker.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let id = Reflect::get(&data, &"id".into())
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as u64;
            let Some(bytes) = Reflect::get(&data, &"reply".into())
                .ok()
                .and_then(|v| v.dyn_into::<Uint8Array>().ok())
            else {
                return;
            };
            let Ok(reply) = protocol::decode(&bytes.to_vec()) else {
                return;
            };
            if let Reply::Docs(json) = &reply {
                // Installed here, once; a second copy (asked again of a fresh worker) is dropped.
                let arrived = crate::rule_docs::install(json);
                shared.borrow_mut().docs_wanted = false;
                if arrived {
                    dispatch.dispatch(Action::DocsArrived);
                }
                return;
            }
            if let Reply::Warmed(warmed) = &reply {
                let next = warmed.step + 1;
                let mut shared = shared.borrow_mut();
                if !shared.warming || shared.running.is_some() {
                    return;
                }
                if next < WARM_STEPS {
                    let _ = to_worker.post_message(&message(&Request::Warm { step: next }));
                } else {
                    shared.warming = false;
                    mark_warm(true);
                }
                return;
            }
            let action = {
                let mut shared = shared.borrow_mut();
                let expected = match reply {
                    Reply::Excerpt(_) => true,
                    Reply::Texts(_) | Reply::Localized => shared.localizing == Some(id),
                    _ => shared.running == Some(id),
                };
                if !expected {
                    // A superseded job's reply, already in flight; or a warm-up step's report part
                    // (id 0, never a job's): decoded, which is what it was sent for, and dropped.
                    return;
                }
                let texts: Vec<Text> = Reflect::get(&data, &"texts".into())
                    .ok()
                    .and_then(|v| v.dyn_into::<Array>().ok())
                    .map(|texts| {
                        texts
                            .iter()
                            .enumerate()
                            .map(|(i, t)| text_of(&t, shared.file_inputs.get(i).copied().unwrap_or(false)))
                            .collect()
                    })
                    .unwrap_or_default();
                let action = shared.assembly.take(id, reply, texts);
                match action {
                    Some(Action::Scanned { .. }) => shared.running = None,
                    Some(Action::Localized { .. }) => shared.localizing = None,
                    _ => {}
                }
                action
            };
            // Dispatched with nothing borrowed: the reducer and render may run at once.
            if let Some(action) = action {
                dispatch.dispatch(action);
            }
        })
    };
    let on_error = {
        let (shared, dispatch) = (shared.clone(), dispatch.clone());
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            // Handled here: the page reports it on each input, it is not an uncaught page error.
            event.prevent_default();
            let failure = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|m| !m.is_empty())
                .map_or(Failure::Stopped, Failure::Error);
            let running = {
                let mut shared = shared.borrow_mut();
                shared.dead = true;
                shared.localizing = None;
                shared.running.take()
            };
            if let Some(id) = running {
                dispatch.dispatch(Action::AnalysisFailed { id, failure });
            }
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some((worker, on_message, on_error))
}

/// Runs the engine's worker for `state`: loads it and warms it up once the page is idle (or for the
/// first job), follows [`State::pending`] (a new job is sent, a cancelled one terminated), asks for
/// excerpts of large files the viewer shows, and lets the file registry drop files nothing refers to.
#[hook]
pub fn use_engine_worker(state: &UseReducerHandle<State>) {
    let bridge = use_mut_ref(Bridge::default);
    {
        let (bridge, state_now, dispatch) = (bridge.clone(), state.clone(), state.dispatcher());
        use_effect_with(state.pending.as_ref().map(|p| p.id), move |pending| {
            let mut bridge = bridge.borrow_mut();
            match pending {
                Some(_) => bridge.submit(&state_now, &dispatch),
                None if bridge.shared.borrow().running.is_some() => {
                    // Cancelled: stop at once and have a fresh worker ready, warming up.
                    bridge.stop();
                    bridge.warm_up(&dispatch);
                }
                None => {}
            }
        });
    }
    {
        // Once the page has rendered and is idle: the worker, warming up.
        let (bridge, dispatch) = (bridge.clone(), state.dispatcher());
        use_effect_with((), move |()| {
            let timeout = gloo::timers::callback::Timeout::new(WARM_AFTER_MS, move || {
                bridge.borrow_mut().warm_up(&dispatch);
            });
            move || drop(timeout)
        });
    }
    {
        // Once the report is on screen, the secret scan: asked for a task after the render (the
        // findings' second stage is due then too), so the scan does not share the CPU with it.
        let bridge = bridge.clone();
        let scanning = state.pending.as_ref().filter(|p| p.reported).map(|p| p.id);
        use_effect_with(scanning, move |scanning| {
            let timeout = scanning
                .map(|id| gloo::timers::callback::Timeout::new(0, move || bridge.borrow_mut().scan(id)));
            move || drop(timeout)
        });
    }
    {
        // The report in another language: its texts, from the worker that made it.
        let bridge = bridge.clone();
        use_effect_with(state.localize_request(), move |request| {
            if let Some((id, lang)) = *request {
                bridge.borrow_mut().localize(id, lang);
            }
        });
    }
    {
        let (bridge, dispatch) = (bridge.clone(), state.dispatcher());
        let large = state.focus.clone().filter(|(source, _)| {
            state
                .files
                .iter()
                .any(|f| f.name == *source && matches!(f.text, Text::File { .. }))
        });
        use_effect_with(large, move |large| {
            if let Some((source, line)) = large {
                bridge.borrow_mut().excerpt(source, *line, &dispatch);
            }
        });
    }
    {
        // The rules' documentation, once a view asks for it.
        let (bridge, dispatch) = (bridge.clone(), state.dispatcher());
        use_effect_with(state.docs_wanted && !state.docs_loaded, move |wanted| {
            if *wanted {
                bridge.borrow_mut().docs(&dispatch);
            }
        });
    }
    use_effect_with(state.file_ids(), |ids| files::retain(ids));
}

/// The input the viewer shows for a focused line, with the text it can show.
pub fn viewed_input(state: &State) -> Option<(Input, u32)> {
    let (source, line) = state.focus.as_ref()?;
    let input = state.inputs().into_iter().find(|i| &i.name == source)?;
    Some((input, *line))
}
