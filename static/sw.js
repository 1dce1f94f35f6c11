// Faultline's offline cache. It keeps only the app's own files (the page, its script, its wasm, its
// styles), so the app opens and analyses with no network at all. It never sees user input: pasted
// text stays in the page and is never a request. It handles only GET requests to its own origin and
// scope; everything else passes through untouched.
'use strict';

const CACHE = 'faultline-app-v1';

// The page and the files it names (Trunk gives them content hashes), fetched once at install.
async function precache() {
  const cache = await caches.open(CACHE);
  const index = new URL('./', self.registration.scope).href;
  const response = await fetch(index, { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(index, response);
  const names = new Set();
  for (const match of html.matchAll(/(?:href|src)="([^"#?]+)"/g)) {
    const url = new URL(match[1], index);
    if (url.origin === self.location.origin && url.href.startsWith(self.registration.scope)) names.add(url.href);
  }
  // The wasm module is loaded by the JS glue, not named in the HTML: its name follows the glue's.
  for (const name of [...names]) {
    if (name.endsWith('.js')) names.add(name.replace(/\.js$/, '_bg.wasm'));
  }
  names.delete(new URL('sw.js', index).href);
  await Promise.all([...names].map(async (url) => {
    const r = await fetch(url, { cache: 'no-cache' });
    if (r.ok) await cache.put(url, r);
  }));
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !request.url.startsWith(self.registration.scope)) {
    return;
  }
  // The page: the network when there is one (to pick up a new release), else the cached copy.
  if (request.mode === 'navigate') {
    const index = new URL('./', self.registration.scope).href;
    event.respondWith(
      fetch(request).then((r) => {
        if (r.ok) {
          const copy = r.clone();
          caches.open(CACHE).then((c) => c.put(index, copy));
        }
        return r;
      }).catch(() => caches.match(index))
    );
    return;
  }
  // Hashed files never change under one name: the cache first.
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
});
