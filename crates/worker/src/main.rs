//! The worker's wasm glue: reads each job's inputs (bytes, or a `Blob` read here, off the page's main
//! thread), runs [`faultline_worker::job::run`], and posts each reply as bytes in a transferred
//! buffer. Trunk builds it from the app's index.html (`data-type="worker"`, no-modules target, with a
//! loader shim the page starts with `new Worker(...)`).
//!
//! A big List (`kubectl get -A -o json|yaml` of 4 MB or more) is read by several workers at once:
//! this worker cuts it at item boundaries, posts all parts but the first to reader workers it starts
//! from the same script and keeps, reads the first itself meanwhile, and merges the readers' items
//! in input order ([`faultline_worker::parts`]); whatever fails, it reads the input whole.
//!
//! A large file is read as a stream, each chunk copied into the text's buffer as it comes (see
//! `read_stream`); that read awaits, so messages are handled one at a time from a queue, in
//! the order they came.

#[cfg(target_arch = "wasm32")]
mod glue {
    use std::cell::{Cell, RefCell};
    use std::collections::VecDeque;

    use faultline_engine::ingest::split::{self, ListFormat, SPLIT_FROM};
    use faultline_engine::ingest::{text_from_bytes, Ingested};
    use faultline_engine::{Digests, Phase, Progress, Source};
    use faultline_worker::protocol::Unreadable;
    use faultline_worker::protocol::{self, Reply, Request, Timing};
    use faultline_worker::{job, looks_binary, parts};
    use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{
        Blob, DedicatedWorkerGlobalScope, Event, FileReaderSync, MessageEvent, ReadableStreamDefaultReader,
        Worker,
    };

    /// Files from this size on are read as a stream ([`read_stream`]); smaller ones at once.
    const STREAM_FROM: f64 = (1 << 20) as f64;

    thread_local! {
        /// The last analysis: its texts, for excerpts of inputs the page does not hold; its report's
        /// messages, for its texts in another language; and until the page asks for its secret scan
        /// (and after it, when it found secrets to redact), its reading of them.
        static LAST: RefCell<Option<job::Analysed>> = const { RefCell::new(None) };
        /// Messages not yet handled, oldest first, and whether they are being handled.
        static QUEUE: RefCell<(VecDeque<JsValue>, bool)> = const { RefCell::new((VecDeque::new(), false)) };
        /// The reader workers started so far (by the first big job), kept for the next ones:
        /// a reader loads and compiles the engine's wasm when it starts.
        static READERS: RefCell<Vec<Worker>> = const { RefCell::new(Vec::new()) };
        /// The parts posted to readers and not answered yet: by the id each message carries, the
        /// functions that resolve or reject the promise of its answer.
        static PENDING: RefCell<Vec<(u32, Function, Function)>> = const { RefCell::new(Vec::new()) };
        static NEXT_ID: Cell<u32> = const { Cell::new(1) };
    }

    /// How long the engine's worker waits for its readers' answers before it reads the input whole.
    const READERS_WAIT_MS: i32 = 30_000;

    /// The loader script a reader runs: this worker's own (static/engine-worker.js), beside it.
    const READER_URL: &str = "engine-worker.js";

    /// A parameter of this worker's URL (the page passes its own `readers` and `readers-fail`).
    fn parameter(name: &str) -> Option<String> {
        let search = scope().location().search();
        search
            .trim_start_matches('?')
            .split('&')
            .find_map(|p| p.strip_prefix(name)?.strip_prefix('=').map(str::to_string))
    }

    /// How many workers read a big List: `?readers=K` (at most 4; a benchmark may ask for more than
    /// the browser's cores, to show what that costs), else one. Reading in parts is opt-in: on the
    /// 2-core machines here 2 and 4 workers read the 1k-pod dumps 40 to 90 ms slower than one
    /// (README, "Benchmarks"): the checks and the merge stay on this worker, and encoding and
    /// decoding the parts' items costs about what the second core saves.
    fn workers_wanted() -> usize {
        parameter("readers")
            .and_then(|k| k.parse::<usize>().ok())
            .map_or(1, |k| k.clamp(1, 4))
    }

    /// Starts readers until there are `count`. Each gets its handlers for good: an answer resolves
    /// the promise of its id; an error (its script does not load, its handler throws) is handled
    /// here — not passed on to this worker's scope and from there to the page — and rejects every
    /// promise pending, so the job reads its input whole. Each new reader first reads the warm-up
    /// dump's items twice (answers nobody waits for), so that the browser has compiled and begun
    /// to optimise the reader's code before the first big part comes.
    fn ensure_readers(count: usize) {
        READERS.with(|readers| {
            let mut readers = readers.borrow_mut();
            while readers.len() < count {
                let Ok(reader) = Worker::new(READER_URL) else {
                    break;
                };
                let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
                    let data = event.data();
                    let id = Reflect::get(&data, &"id".into()).ok().and_then(|v| v.as_f64());
                    let asked = PENDING.with(|p| {
                        let mut pending = p.borrow_mut();
                        let at = pending.iter().position(|(i, _, _)| Some(f64::from(*i)) == id)?;
                        Some(pending.swap_remove(at))
                    });
                    if let Some((_, resolve, _)) = asked {
                        let _ = resolve.call1(&JsValue::NULL, &data);
                    }
                });
                let on_error = Closure::<dyn FnMut(Event)>::new(|event: Event| {
                    event.prevent_default();
                    for (_, _, reject) in PENDING.with(|p| std::mem::take(&mut *p.borrow_mut())) {
                        let _ = reject.call1(&JsValue::NULL, &event);
                    }
                });
                reader.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                reader.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                // As long as the reader: one pair per reader started.
                on_message.forget();
                on_error.forget();
                let warm = &job::warm_sources(0)[0].text;
                if let Some(cut) = split::cut_list(warm, 1, 1.0) {
                    for part in &cut.parts {
                        for _ in 0..2 {
                            post_part(
                                &reader,
                                0,
                                &warm[part.range.clone()],
                                part.first_line,
                                cut.format,
                                false,
                            );
                        }
                    }
                }
                readers.push(reader);
            }
        });
    }

    /// Ends every reader: one failed, so all are started afresh when next wanted.
    fn end_readers() {
        READERS.with(|readers| {
            for reader in readers.borrow_mut().drain(..) {
                reader.terminate();
            }
        });
    }

    /// Posts one part to `reader` with the id its answer will carry.
    fn post_part(
        reader: &Worker,
        id: u32,
        part: &str,
        first_line: u32,
        format: ListFormat,
        fail: bool,
    ) -> bool {
        let bytes = Uint8Array::from(part.as_bytes());
        let message = Object::new();
        let _ = Reflect::set(&message, &"id".into(), &JsValue::from(id));
        let _ = Reflect::set(&message, &"part".into(), &bytes);
        let _ = Reflect::set(&message, &"firstLine".into(), &JsValue::from(first_line));
        let _ = Reflect::set(&message, &"format".into(), &JsValue::from(format.id()));
        let _ = Reflect::set(&message, &"fail".into(), &JsValue::from(fail));
        let transfer = Array::of1(&bytes.buffer());
        reader.post_message_with_transfer(&message, &transfer).is_ok()
    }

    /// Posts one part to `reader`; the promise resolves with the reader's answer, or rejects when
    /// a reader fails.
    fn ask(reader: &Worker, part: &str, first_line: u32, format: ListFormat, fail: bool) -> Promise {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1).max(1));
            id
        });
        let promise = Promise::new(&mut |resolve, reject| {
            PENDING.with(|p| p.borrow_mut().push((id, resolve, reject)));
        });
        if !post_part(reader, id, part, first_line, format, fail) {
            PENDING.with(|p| p.borrow_mut().retain(|(i, _, _)| *i != id));
            return Promise::reject(&JsValue::NULL);
        }
        promise
    }

    /// Whether the inputs were read in parts.
    enum InParts {
        /// No input to cut (small, not a List, one worker): not tried.
        NotTried,
        /// Tried, and something failed: read them whole.
        Failed,
        /// Read: the reading, and the steps it took.
        Read(Ingested, Vec<Timing>),
    }

    /// The reading of `sources` made with the readers ([`parts`]), if it can be made.
    async fn read_in_parts(sources: &[Source], workers: usize) -> InParts {
        match parts::plan(sources, workers, SPLIT_FROM) {
            Some(plan) => read_planned(sources, plan)
                .await
                .map_or(InParts::Failed, |(read, steps)| InParts::Read(read, steps)),
            None => InParts::NotTried,
        }
    }

    /// [`read_in_parts`] of a plan: the reading, and its steps, each named after the number of
    /// workers (`reading-2.post`): posting the parts (copying them out of wasm memory), checking
    /// the input, reading the first part, waiting for the readers, merging their items.
    async fn read_planned(sources: &[Source], plan: parts::Plan) -> Option<(Ingested, Vec<Timing>)> {
        let workers = plan.cut.parts.len();
        let mut steps = Vec::new();
        let mut since = js_sys::Date::now();
        let mut done = |step: &str| {
            let now = js_sys::Date::now();
            steps.push(Timing {
                step: format!("reading-{workers}.{step}"),
                ms: now - since,
            });
            since = now;
        };
        let readers: Vec<Worker> = READERS.with(|r| r.borrow().clone());
        let wanted = plan.cut.parts.len() - 1;
        if readers.len() < wanted {
            return None;
        }
        let fail = parameter("readers-fail").is_some_and(|v| v == "1");
        let asked: Vec<Promise> = parts::for_readers(&plan, sources)
            .zip(&readers)
            .map(|((text, line, format), reader)| ask(reader, text, line, format, fail))
            .collect();
        // A reader that neither answers nor fails would hold the job for ever: past this, it is
        // taken as failed (the parts of a 43 MB dump are read in a fraction of a second).
        let deadline = Promise::new(&mut |_, reject| {
            let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&reject, READERS_WAIT_MS);
        });
        let asked: Vec<Promise> = asked
            .into_iter()
            .map(|answer| Promise::race(&Array::of2(&answer, &deadline)))
            .collect();
        done("post");
        let checked = split::check(sources, &plan);
        done("check");
        let own = checked.and_then(|checked| parts::read_first(sources, &plan, checked));
        done("own");
        // Every reply is awaited, even when this worker's part failed: a reply left unread would
        // reach the next job's handler.
        let mut replies = Vec::with_capacity(asked.len());
        for promise in asked {
            let reply = JsFuture::from(promise).await.ok().and_then(|data| {
                Reflect::get(&data, &"items".into())
                    .ok()
                    .and_then(|v| bytes_of(&v))
            });
            replies.push(reply);
        }
        done("wait");
        if replies.iter().any(Option::is_none) {
            end_readers();
        }
        let merged = parts::merge(sources, &plan, own?, &replies, &mut |_, _| {})?;
        done("merge");
        Some((merged, steps))
    }

    /// A reader's side: reads the part in `data` and posts its items back (`items: null` when the
    /// part does not read cleanly). Asked to fail (the browser test of the fallback), it throws:
    /// the coordinator sees an error event, as when a reader crashes.
    fn read_part(data: &JsValue, part: &Uint8Array) {
        let number = |key: &str| Reflect::get(data, &key.into()).ok().and_then(|v| v.as_f64());
        if Reflect::get(data, &"fail".into()).ok().and_then(|v| v.as_bool()) == Some(true) {
            wasm_bindgen::throw_str("a reader asked to fail (readers-fail=1)");
        }
        let format = number("format").and_then(|f| ListFormat::from_id(f as u8));
        let first_line = number("firstLine").map(|l| l as u32);
        let items = String::from_utf8(part.to_vec())
            .ok()
            .zip(format.zip(first_line))
            .and_then(|(text, (format, first_line))| parts::read_for_coordinator(&text, first_line, format));
        let message = Object::new();
        let transfer = Array::new();
        if let Ok(id) = Reflect::get(data, &"id".into()) {
            let _ = Reflect::set(&message, &"id".into(), &id);
        }
        match items {
            Some(items) => {
                let items = Uint8Array::from(&items[..]);
                transfer.push(&items.buffer());
                let _ = Reflect::set(&message, &"items".into(), &items);
            }
            None => {
                let _ = Reflect::set(&message, &"items".into(), &JsValue::NULL);
            }
        }
        let _ = scope().post_message_with_transfer(&message, &transfer);
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    pub fn start() {
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
            // A reader's part: read at once, nothing else is asked of a reader.
            let data = event.data();
            if let Some(part) = Reflect::get(&data, &"part".into())
                .ok()
                .and_then(|v| v.dyn_into::<Uint8Array>().ok())
            {
                read_part(&data, &part);
                return;
            }
            let idle = QUEUE.with(|queue| {
                let mut queue = queue.borrow_mut();
                queue.0.push_back(event.data());
                !std::mem::replace(&mut queue.1, true)
            });
            if idle {
                wasm_bindgen_futures::spawn_local(drain());
            }
        });
        scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
        handler.forget();
    }

    /// Handles the queued messages in order, the ones that come meanwhile included.
    async fn drain() {
        while let Some(data) = QUEUE.with(|queue| {
            let mut queue = queue.borrow_mut();
            let next = queue.0.pop_front();
            queue.1 = next.is_some();
            next
        }) {
            on_message(&data).await;
        }
    }

    fn bytes_of(value: &JsValue) -> Option<Vec<u8>> {
        value.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec)
    }

    async fn on_message(data: &JsValue) {
        let request = Reflect::get(data, &"request".into())
            .ok()
            .and_then(|v| bytes_of(&v))
            .and_then(|b| serde_json::from_slice::<Request>(&b).ok());
        match request {
            Some(Request::Analyze(job)) => {
                // The previous texts go first: a big input should not be held twice. Unless this job
                // redacts: then they may be its inputs, already read ([`job::run_after`]).
                let previous = LAST.with(|last| last.borrow_mut().take()).filter(|_| job.redact);
                let inputs: Array = Reflect::get(data, &"inputs".into())
                    .ok()
                    .and_then(|v| v.dyn_into().ok())
                    .unwrap_or_default();
                let total: f64 = inputs
                    .iter()
                    .map(|v| match v.dyn_ref::<Blob>() {
                        Some(blob) => blob.size(),
                        None => v.dyn_ref::<Uint8Array>().map_or(0.0, |b| f64::from(b.length())),
                    })
                    .sum();
                let starting = Progress {
                    phase: Phase::Reading,
                    bytes_done: 0,
                    bytes_total: total as u64,
                    documents: 0,
                };
                post(job.id, &protocol::encode(&Reply::Progress(starting)), &[]);
                // Started now, the readers load while the files are read.
                let workers = workers_wanted();
                if total >= SPLIT_FROM as f64 && workers > 1 {
                    ensure_readers(workers - 1);
                }
                let started = js_sys::Date::now();
                let mut sources = Vec::new();
                let mut unreadable = Vec::new();
                for (name, value) in job.names.iter().zip(inputs.iter()) {
                    match read(&value).await {
                        Ok(text) if value.is_instance_of::<Blob>() && looks_binary(&text) => {
                            unreadable.push((name.clone(), Unreadable::Binary));
                        }
                        Ok(text) => sources.push(Source::new(name.clone(), text)),
                        Err(reason) => unreadable.push((name.clone(), reason)),
                    }
                }
                drop(inputs);
                let files = Timing {
                    step: "files".to_string(),
                    ms: js_sys::Date::now() - started,
                };
                // The browser hashes the texts on a thread of its own while the engine reads them.
                let digests = digests_started(&sources);
                let asked = match digests {
                    Some(_) => Digests::Caller,
                    None => Digests::Engine,
                };
                let mut timings = vec![files];
                let started = js_sys::Date::now();
                // Read in parts: that was the reading, in its steps. Not: the time it took before
                // giving up (`parts`).
                let read = match read_in_parts(&sources, workers).await {
                    InParts::Read(read, steps) => {
                        timings.extend(steps);
                        Some(read)
                    }
                    InParts::Failed => {
                        timings.push(Timing {
                            step: "parts".to_string(),
                            ms: js_sys::Date::now() - started,
                        });
                        None
                    }
                    InParts::NotTried => None,
                };
                let pending = job::analyse_read(
                    previous,
                    &job,
                    sources,
                    read,
                    unreadable,
                    timings,
                    &js_sys::Date::now,
                    asked,
                    &mut |bytes, texts| post(job.id, &bytes, &texts),
                );
                let hex = match digests.filter(|_| pending.needs_digests()) {
                    Some(digests) => digests_hex(digests).await,
                    None => Vec::new(),
                };
                let analysed = job::report(pending, hex, &mut |bytes, texts| {
                    post(job.id, &bytes, &texts);
                });
                LAST.with(|last| *last.borrow_mut() = Some(analysed));
            }
            Some(Request::Scan { id }) => LAST.with(|last| {
                if let Some(analysed) = last.borrow_mut().as_mut().filter(|a| a.id == id) {
                    job::scan(analysed, &js_sys::Date::now, &mut |bytes, texts| {
                        post(id, &bytes, &texts);
                    });
                }
            }),
            Some(Request::Excerpt { name, line, context }) => {
                let excerpt = LAST.with(|last| {
                    let last = last.borrow();
                    job::excerpt(
                        last.as_ref().map_or(&[], |a| &a.sources[..]),
                        &name,
                        line,
                        context,
                    )
                });
                post(0, &protocol::encode(&Reply::Excerpt(excerpt)), &[]);
            }
            Some(Request::Localize { id, lang }) => LAST.with(|last| {
                if let Some(analysed) = last.borrow().as_ref().filter(|a| a.id == id) {
                    job::localize(analysed, lang, &mut |bytes, texts| post(id, &bytes, &texts));
                }
            }),
            Some(Request::Warm { step }) => job::warm(step, &mut |bytes, texts| post(0, &bytes, &texts)),
            Some(Request::Docs) => post(0, &job::docs(), &[]),
            None => {}
        }
    }

    /// The SHA-256 of each source's text, asked of the browser's WebCrypto (`crypto.subtle.digest`),
    /// which copies the bytes at once and hashes them on a thread of its own; `None` where it is not
    /// there (a page served over plain HTTP from another host is not a secure context): the engine
    /// then hashes them itself.
    fn digests_started(sources: &[Source]) -> Option<Vec<js_sys::Promise>> {
        let subtle = scope().crypto().ok()?.subtle();
        sources
            .iter()
            .map(|source| {
                subtle
                    .digest_with_str_and_u8_array("SHA-256", source.text.as_bytes())
                    .ok()
            })
            .collect()
    }

    /// The digests of [`digests_started`] in lower-case hex, in order; an empty string for one that
    /// failed (the job then hashes that text itself).
    async fn digests_hex(digests: Vec<js_sys::Promise>) -> Vec<String> {
        let mut hex = Vec::with_capacity(digests.len());
        for digest in digests {
            let bytes = JsFuture::from(digest)
                .await
                .ok()
                .and_then(|buffer| buffer.dyn_into::<js_sys::ArrayBuffer>().ok())
                .map(|buffer| Uint8Array::new(&buffer).to_vec())
                .unwrap_or_default();
            hex.push(bytes.iter().map(|b| format!("{b:02x}")).collect());
        }
        hex
    }

    /// An input's text: bytes the page sent, or a file read here.
    async fn read(value: &JsValue) -> Result<String, Unreadable> {
        let bytes = match (bytes_of(value), value.dyn_ref::<Blob>()) {
            (Some(bytes), _) => bytes,
            (None, Some(blob)) if blob.size() >= STREAM_FROM => read_stream(blob).await?,
            (None, Some(blob)) => FileReaderSync::new()
                .and_then(|reader| reader.read_as_array_buffer(blob))
                .map(|buffer| Uint8Array::new(&buffer).to_vec())
                .map_err(|e| unreadable(&e))?,
            (None, None) => return Err(Unreadable::NotAFile),
        };
        Ok(text_from_bytes(bytes))
    }

    /// A large file's bytes, each chunk of its stream copied into their buffer as it comes. Read
    /// at once (`FileReaderSync`), the whole file is first a new buffer of the browser's and then
    /// copied into wasm memory: the worker holds it twice, and both are memory touched for the
    /// first time. In Chromium, a 416 MB dump was in a fresh wasm memory in 0.59–0.80 s this way,
    /// 0.91–1.15 s at once; and with the file's buffer gone, the rest of the analysis ran faster
    /// too: in `make bench` the same hour, 4.73 and 4.96 s to the report against 5.68 and 8.59 s
    /// read at once. A 43 MB dump takes the same either way.
    async fn read_stream(blob: &Blob) -> Result<Vec<u8>, Unreadable> {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(blob.size() as usize)
            .map_err(|_| Unreadable::TooLarge)?;
        let reader: ReadableStreamDefaultReader = blob.stream().get_reader().unchecked_into();
        loop {
            let step = JsFuture::from(reader.read()).await.map_err(|e| unreadable(&e))?;
            let done = Reflect::get(&step, &"done".into()).ok().and_then(|d| d.as_bool());
            let chunk = Reflect::get(&step, &"value".into())
                .ok()
                .and_then(|v| v.dyn_into::<Uint8Array>().ok());
            let Some(chunk) = chunk.filter(|_| done == Some(false)) else {
                break;
            };
            let at = bytes.len();
            bytes.resize(at + chunk.length() as usize, 0);
            chunk.copy_to(&mut bytes[at..]);
        }
        Ok(bytes)
    }

    fn unreadable(error: &JsValue) -> Unreadable {
        let why = error
            .as_string()
            .or_else(|| {
                Reflect::get(error, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
            })
            .unwrap_or_default();
        Unreadable::ReadFailed(why)
    }

    fn post(id: u64, reply: &[u8], texts: &[String]) {
        let message = Object::new();
        let transfer = Array::new();
        let reply = Uint8Array::from(reply);
        transfer.push(&reply.buffer());
        let copies = Array::new();
        for text in texts {
            let bytes = Uint8Array::from(text.as_bytes());
            transfer.push(&bytes.buffer());
            copies.push(&bytes);
        }
        let _ = Reflect::set(&message, &"id".into(), &JsValue::from_f64(id as f64));
        let _ = Reflect::set(&message, &"reply".into(), &reply);
        let _ = Reflect::set(&message, &"texts".into(), &copies);
        let _ = scope().post_message_with_transfer(&message, &transfer);
    }
}

fn main() {
    // Natively there is no worker to be: the binary exists for the wasm build only.
    #[cfg(target_arch = "wasm32")]
    glue::start();
}
