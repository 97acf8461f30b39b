// The service worker: it answers a page load that cannot reach the server with the
// offline page it stored on install, and shows the push notifications a player asked
// for (notifications/). Everything else goes to the network untouched.
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

// A push (notifications/tasks.py) is JSON: title, body, the page to open, a tag. A page
// with that address in view already shows the news, so no notice is shown over it.
self.addEventListener("push", (event) => {
  let news = {};
  try {
    news = event.data ? event.data.json() : {};
  } catch (error) {
    news = {};
  }
  const target = new URL(news.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      if (windows.some((page) => page.url === target && page.visibilityState === "visible")) return null;
      return self.registration.showNotification(news.title || "", {
        body: news.body || "",
        tag: news.tag || undefined,
        icon: "{{ icon|escapejs }}",
        data: { url: target },
      });
    }),
  );
});

// Tapping the notice brings its page forward, or opens it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((page) => page.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
