// Starts Faultline's analysis worker (crates/worker, built by Trunk as faultline-worker.js and
// faultline-worker_bg.wasm beside this file). The wasm loads asynchronously and only then installs the
// message handler, so messages that arrive meanwhile are kept here and handed over once it is ready.
'use strict';
importScripts('./faultline-worker.js');
const early = [];
self.onmessage = (event) => early.push(event);
wasm_bindgen({ module_or_path: './faultline-worker_bg.wasm' }).then(() => {
  for (const event of early.splice(0)) self.onmessage(event);
});
