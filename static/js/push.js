// The opt-in to push notifications (templates/notifications/opt_in.html): hidden until
// this browser proves it can take pushes; the browser asks the player's permission
// only when they press the button.
(function () {
  "use strict";
  const box = document.querySelector("[data-push-opt-in]");
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "1";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return;
  }
  const button = box.querySelector("button");
  const error = box.querySelector("[data-push-error]");
  let registration = null;

  const csrfToken = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || "";
    } catch (problem) {
      return "";
    }
  };
  const post = (url, body) =>
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    }).then((response) =>
      response.json().then((answer) => {
        if (!response.ok) throw Object.assign(new Error(answer.error), { fromSite: true });
        return answer;
      }),
    );
  // The site's public key, base64url, as the bytes PushManager.subscribe takes.
  const keyBytes = (text) => {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const show = (state) => {
    button.dataset.state = state;
    button.setAttribute("aria-pressed", state === "on" ? "true" : "false");
    button.textContent = button.dataset[`${state}Text`];
    button.disabled = state === "blocked";
  };
  // The site's refusals are in the reader's language; the browser's own are not.
  const fail = (problem) => {
    if (error) error.textContent = problem.fromSite ? problem.message : button.dataset.failedText;
  };

  navigator.serviceWorker.ready
    .then((ready) => {
      registration = ready;
      return ready.pushManager.getSubscription();
    })
    .then((subscription) => {
      if (Notification.permission === "denied") show("blocked");
      else show(subscription ? "on" : "off");
      box.hidden = false;
      // The server forgets a subscription its push service calls gone: tell it again.
      if (subscription) post(box.dataset.subscribeUrl, subscription.toJSON()).catch(() => {});
    })
    .catch(() => {});

  const turnOn = () =>
    Notification.requestPermission().then((permission) => {
      if (permission !== "granted") {
        show(permission === "denied" ? "blocked" : "off");
        return null;
      }
      return registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) })
        .then((made) =>
          post(box.dataset.subscribeUrl, made.toJSON()).then(
            () => show("on"),
            (problem) => made.unsubscribe().then(() => Promise.reject(problem)),
          ),
        );
    });
  const turnOff = (subscription) =>
    subscription
      .unsubscribe()
      .then(() => post(box.dataset.unsubscribeUrl, { endpoint: subscription.endpoint }))
      .then(() => show("off"));

  // A table left open in the background still gets the moves over its socket, so the
  // server sends it no push: the page itself shows the notice when the turn becomes
  // the player's, if this browser has pushes on.
  const table = document.getElementById("table-page");
  const pageTitle = document.title;
  if (table) {
    const myTurn = () => Boolean(table.querySelector("#table-hand .me.acting"));
    let wasMine = myTurn();
    table.addEventListener("htmx:wsAfterMessage", () => {
      const mine = myTurn();
      const news = mine && !wasMine && document.visibilityState === "hidden";
      wasMine = mine;
      if (!news || !registration || Notification.permission !== "granted") return;
      registration.pushManager.getSubscription().then((subscription) => {
        if (!subscription) return null;
        return registration.showNotification(table.dataset.turnTitle, {
          body: pageTitle,
          tag: `turn-${table.dataset.match}`,
          data: { url: window.location.href },
        });
      });
    });
  }

  button.addEventListener("click", () => {
    if (!registration) return;
    button.disabled = true;
    if (error) error.textContent = "";
    registration.pushManager
      .getSubscription()
      .then((subscription) => (subscription ? turnOff(subscription) : turnOn()))
      .catch(fail)
      .finally(() => {
        button.disabled = button.dataset.state === "blocked";
      });
  });
})();
