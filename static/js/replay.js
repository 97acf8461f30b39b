// Replay viewer: keyboard steps, auto-play, the seat selector, the evaluation
// graph and the review's highlights.  Every step is an htmx request for the
// #replay-step fragment; the buttons, links and graph columns carry the URLs.
(function () {
  "use strict";

  // A judged decision names the cards played and the better ones; outline them in
  // the deciding seat's hand (the replay board and "learn from your mistakes").
  function highlight() {
    document.querySelectorAll("[data-played-cards], [data-better-cards]").forEach(function (note) {
      const seat = note.dataset.noteSeat || note.dataset.seat;
      const hand = document.querySelector('[data-zone="hand-' + seat + '"]');
      if (!hand) return;
      [["playedCards", "is-played"], ["betterCards", "is-better"]].forEach(function (pair) {
        (note.dataset[pair[0]] || "").split(" ").forEach(function (code) {
          const card = code && hand.querySelector('[data-card="' + code + '"]');
          if (card) card.classList.add(pair[1]);
        });
      });
    });
  }
  document.body.addEventListener("htmx:afterSettle", highlight);
  highlight();

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

  // Scroll the move list itself, never the page: on a phone the list sits below the
  // board, and a step taken from the graph or the buttons must leave the board in view.
  function keepInView(item) {
    const box = item.closest(".replay-moves");
    if (!box) return;
    const outer = box.getBoundingClientRect();
    const inner = item.getBoundingClientRect();
    if (inner.top < outer.top || inner.bottom > outer.bottom) {
      box.scrollTop += inner.top - outer.top - outer.height / 2;
    }
  }

  function markCurrentMove() {
    const step = String(current());
    document.querySelectorAll("#move-list .move").forEach(function (item) {
      const on = item.dataset.step === step;
      item.classList.toggle("is-current", on);
      if (on) keepInView(item);
    });
    const hidden = root.querySelector("[data-step-input]");
    if (hidden) hidden.value = step;
    const graph = document.querySelector("[data-testid=eval-graph]");
    const cursor = graph && graph.querySelector("[data-graph-cursor]");
    if (cursor) {
      const x = Number(graph.dataset.x0) + Number(graph.dataset.dx) * Number(step);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    document.querySelectorAll("[data-graph-step]").forEach(function (column) {
      column.classList.toggle("is-current", column.dataset.graphStep === step);
    });
    showReadout(step);
  }

  // The graph read aloud under it: the step pointed at (a mouse, a finger sliding over
  // it), else the current one.  A column's title holds its move and every chance.
  function graphText(step) {
    const title = document.querySelector('[data-graph-step="' + step + '"] title');
    return title ? title.textContent : "";
  }
  function showReadout(step) {
    const readout = document.querySelector("[data-graph-readout]");
    if (readout) readout.textContent = graphText(step);
  }
  function stepAt(graph, clientX) {
    const box = graph.getBoundingClientRect();
    const width = Number((graph.getAttribute("viewBox") || "0 0 600 0").split(" ")[2]);
    const x = (clientX - box.left) * width / box.width;
    const step = Math.round((x - Number(graph.dataset.x0)) / Number(graph.dataset.dx));
    return Math.max(0, Math.min(last(), step));
  }
  ["pointermove", "pointerdown"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const graph = event.target.closest && event.target.closest("[data-testid=eval-graph]");
      if (graph) showReadout(stepAt(graph, event.clientX));
    });
  });
  document.addEventListener("pointerout", function (event) {
    const graph = event.target.closest && event.target.closest("[data-testid=eval-graph]");
    if (graph && !(event.relatedTarget && graph.contains(event.relatedTarget))) showReadout(current());
  });

  // A graph column is an SVG link, which htmx does not take over: swap the step here.
  document.addEventListener("click", function (event) {
    const column = event.target.closest && event.target.closest("[data-graph-step]");
    if (!column || !window.htmx) return;
    event.preventDefault();
    stop();
    const url = column.getAttribute("href");
    window.htmx.ajax("GET", url, { target: "#replay-step", swap: "outerHTML" }).then(function () {
      window.history.pushState({ htmx: true }, "", url);
    });
  });

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
