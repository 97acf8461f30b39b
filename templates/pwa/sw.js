// The service worker: it answers a page load that cannot reach the server with the
// offline page it stored on install. Everything else goes to the network untouched.
// The cache's name changes with the stylesheet's hashed address, so a new release
// replaces what an old worker stored.
const CACHE = "offline:{{ stylesheet|escapejs }}";
const OFFLINE = "{{ offline_url|escapejs }}";
const STORED = [OFFLINE, "{{ stylesheet|escapejs }}"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(STORED)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});
