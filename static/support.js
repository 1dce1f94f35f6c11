// Runs before the app's wasm loads. The app and its engine worker are WebAssembly built with SIMD
// (.cargo/config.toml); a browser without it cannot compile them, and the page would stay blank. So
// this checks a 29-byte module that returns a SIMD vector and, if the browser cannot compile it, says
// on the page what is missing (in Chinese for a zh* browser language), instead of a blank page.
(function () {
  'use strict';
  // (module (func (result v128) i32.const 0 i8x16.splat))
  var probe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
    10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
  var supported = false;
  try {
    supported = typeof WebAssembly === 'object' && WebAssembly.validate(probe);
  } catch (e) {
    supported = false;
  }
  if (supported) return;
  document.documentElement.setAttribute('data-unsupported', 'wasm-simd');
  var zh = /^zh/i.test(navigator.language || '');
  var text = zh
    ? 'Faultline 无法在此浏览器中运行：它需要支持 SIMD 的 WebAssembly（Chrome 和 Edge 91 及以上、Firefox 89 及以上、Safari 16.4 及以上均支持）。没有任何内容被发送到别处。'
    : 'Faultline cannot run in this browser: it needs WebAssembly with SIMD, which Chrome and Edge 91 or later, Firefox 89 or later and Safari 16.4 or later have. Nothing was sent anywhere.';
  function say() {
    var p = document.createElement('p');
    p.className = 'unsupported';
    p.setAttribute('role', 'alert');
    p.textContent = text;
    document.body.insertBefore(p, document.body.firstChild);
  }
  if (document.body) say();
  else document.addEventListener('DOMContentLoaded', say);
})();
