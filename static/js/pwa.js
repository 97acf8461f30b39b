// Registers the service worker that makes the site installable and shows a page of its
// own when the network is gone (durak_site/pwa.py).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}
