// Every page's own small script.
(function () {
  "use strict";
  // The reader's time zone, for the server to show dates in the reader's clock
  // (accounts/time_zone.py); from the next page on, as a cookie is read with a request.
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    zone = "";
  }
  // Zone names ("Europe/Moscow") hold only characters a cookie may carry as they are.
  const saved = document.cookie.split("; ").find((pair) => pair.startsWith("tz="));
  if (/^[A-Za-z0-9_+\-/]+$/.test(zone) && saved !== `tz=${zone}`) {
    document.cookie = `tz=${zone}; path=/; max-age=31536000; SameSite=Lax`;
  }

  // A notice's "OK" (a friend declined an invite, pushed over a socket) closes it.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-dismiss]");
    if (button) button.parentElement.remove();
  });

  // "Share" (templates/includes/share.html): the device's share sheet where there is
  // one; else the box opens on links to the messengers, made for the address shared.
  const SHARE_TO = {
    telegram: (url, text) =>
      `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`,
    vk: (url, text) =>
      `https://vk.com/share.php?url=${encodeURIComponent(url)}&title=${encodeURIComponent(text)}`,
    whatsapp: (url, text) => `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
  };
  const sharedAddress = (box) =>
    box.dataset.sharePath
      ? new URL(box.dataset.sharePath, window.location.href).href
      : window.location.href;

  document.addEventListener("click", (event) => {
    const summary = event.target.closest && event.target.closest("[data-share] > summary");
    if (summary) {
      const box = summary.parentElement;
      const url = sharedAddress(box);
      const text = box.dataset.shareText || document.title;
      box.querySelectorAll("[data-share-to]").forEach((link) => {
        link.href = SHARE_TO[link.dataset.shareTo](url, text);
      });
      if (navigator.share && !box.open) {
        event.preventDefault();
        navigator.share({ title: document.title, text, url }).catch((error) => {
          if (error.name !== "AbortError") box.open = true; // no sheet after all: the links
        });
      }
      return;
    }
    const copy = event.target.closest && event.target.closest("[data-share-copy]");
    if (copy) {
      const url = sharedAddress(copy.closest("[data-share]"));
      const done = () => {
        copy.textContent = copy.dataset.copied;
      };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(url).then(done, () => window.prompt("", url));
      } else {
        window.prompt("", url);
      }
    }
  });

  // The service worker that makes the site installable and shows a page of its own
  // when the network is gone (durak_site/pwa.py).
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => {});
    });
  }
})();
