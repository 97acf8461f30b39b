// Replay viewer: keyboard steps, auto-play and the seat selector.  Every step is
// an htmx request for the #replay-step fragment; the buttons carry the URLs.
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  if (!root) return;
  let timer = null;

  function stepBox() { return document.getElementById("replay-step"); }
  function current() { return Number(stepBox().dataset.step); }
  function last() { return Number(stepBox().dataset.last); }
  function go(name) {
    const link = stepBox().querySelector('[data-nav="' + name + '"]');
    if (link) link.click();
  }

  function markCurrentMove() {
    const step = String(current());
    document.querySelectorAll("#move-list .move").forEach(function (item) {
      const on = item.dataset.step === step;
      item.classList.toggle("is-current", on);
      if (on) item.scrollIntoView({ block: "nearest" });
    });
    const hidden = root.querySelector("[data-step-input]");
    if (hidden) hidden.value = step;
  }

  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    const button = root.querySelector("[data-autoplay]");
    button.setAttribute("aria-pressed", "false");
    button.textContent = button.dataset.playLabel || button.textContent;
  }

  function tick() {
    if (current() >= last()) { stop(); return; }
    go("next");
    timer = setTimeout(tick, Number(root.querySelector("[data-speed]").value));
  }

  root.querySelector("[data-autoplay]").addEventListener("click", function (event) {
    const button = event.currentTarget;
    if (timer) { stop(); return; }
    button.dataset.playLabel = button.dataset.playLabel || button.textContent;
    button.setAttribute("aria-pressed", "true");
    button.textContent = "\u275A\u275A";
    if (current() >= last()) go("first");
    timer = setTimeout(tick, Number(root.querySelector("[data-speed]").value));
  });

  root.querySelector("[data-seat-select]").addEventListener("change", function (event) {
    event.currentTarget.form.submit();
  });

  document.addEventListener("keydown", function (event) {
    const tag = (event.target.tagName || "").toLowerCase();
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (tag === "select" || tag === "textarea" || (tag === "input" && event.target.type !== "range")) return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    const name = keys[event.key];
    if (!name) return;
    event.preventDefault();
    stop();
    go(name);
  });

  document.body.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "replay-step" || event.target.closest && event.target.closest("#replay-step")) {
      markCurrentMove();
    }
  });
  markCurrentMove();
})();
