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

  // The service worker that makes the site installable and shows a page of its own
  // when the network is gone (durak_site/pwa.py).
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => {});
    });
  }
})();
