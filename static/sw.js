// Faultline's offline cache. It keeps only the app's own files (the page, its script, its wasm, its
// styles, the engine worker's script and wasm), so the app opens and analyses with no network at all.
// It never sees user input: pasted text stays in the page and is never a request. It handles only GET requests to its own origin and
// scope; everything else passes through untouched.
'use strict';

// Both filled in by the build (scripts/sw-manifest.mjs): this build's id, which names the cache (the
// engine worker's files keep their names from build to build, so each build needs its own cache), and
// every file of the build — the page's and the engine worker's, which the page loads only once idle
// after its first render but which must be here before the network is gone.
const CACHE = 'faultline-app-' + 'BUILD_ID';
const FILES = /* FILES */ [];

async function precache() {
  const cache = await caches.open(CACHE);
  const index = new URL('./', self.registration.scope).href;
  const urls = [index, ...FILES.filter((f) => f !== 'index.html').map((f) => new URL(f, index).href)];
  await Promise.all(urls.map(async (url) => {
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
  // A file never changes within one build (one cache): the cache first.
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
});
