// Starts Faultline's analysis worker (crates/worker, built by Trunk as faultline-worker.js and
// faultline-worker_bg.wasm beside this file). The wasm loads asynchronously and only then installs the
// message handler, so messages that arrive meanwhile are kept here and handed over once it is ready.
'use strict';
importScripts('./faultline-worker.js');
const early = [];
self.onmessage = (event) => early.push(event);
// An exception a kept message throws is thrown again in a task of its own: this worker's error (an
// `error` event where it was started, which is how the engine's worker learns that a reader it
// started failed), not a rejected promise nobody sees. A wasm that does not load is such an error
// too. The kept messages are still handled at once, in order, before any later one.
const rethrow = (error) => setTimeout(() => { throw error; });
wasm_bindgen({ module_or_path: './faultline-worker_bg.wasm' }).then(() => {
  for (const event of early.splice(0)) {
    try {
      self.onmessage(event);
    } catch (error) {
      rethrow(error);
    }
  }
}, rethrow);
