// The race caller's service worker (served at /call/sw.js: its scope is the caller's pages). It
// keeps the page's static files (scripts, styles, the manifest, the catalogs) so that a phone at the
// table opens the caller at once and keeps drawing it when the network stutters; the table's state
// always comes from the server (its websocket), never from here.
const CACHE = "hippodrome-caller-v1";
const STATIC = /^\/(static\/|i18n\/)/;

self.addEventListener("install", (event) => { self.skipWaiting(); });

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// static files: the network first (a new version is taken at once), the cached copy when it fails
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !STATIC.test(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const answer = await fetch(event.request);
      if (answer.ok) cache.put(event.request, answer.clone());
      return answer;
    } catch (error) {
      const kept = await cache.match(event.request);
      if (kept) return kept;
      throw error;
    }
  })());
});
