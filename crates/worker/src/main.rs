//! The worker's wasm glue: reads each job's inputs (bytes, or a `Blob` read here, off the page's main
//! thread), runs [`faultline_worker::job::run`], and posts each reply as bytes in a transferred
//! buffer. Trunk builds it from the app's index.html (`data-type="worker"`, no-modules target, with a
//! loader shim the page starts with `new Worker(...)`).
//!
//! A large file is read as a stream, each chunk copied into the text's buffer as it comes (see
//! `read_stream`); that read awaits, so messages are handled one at a time from a queue, in
//! the order they came.

#[cfg(target_arch = "wasm32")]
mod glue {
    use std::cell::RefCell;
    use std::collections::VecDeque;

    use faultline_engine::ingest::text_from_bytes;
    use faultline_engine::{Digests, Phase, Progress, Source};
    use faultline_worker::protocol::Unreadable;
    use faultline_worker::protocol::{self, Reply, Request, Timing};
    use faultline_worker::{job, looks_binary};
    use js_sys::{Array, Object, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{
        Blob, DedicatedWorkerGlobalScope, FileReaderSync, MessageEvent, ReadableStreamDefaultReader,
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
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    pub fn start() {
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
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
                let pending = job::analyse(
                    previous,
                    &job,
                    sources,
                    unreadable,
                    vec![files],
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
