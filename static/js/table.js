// The table page: card selection, sending actions over the socket, version-gap
// resync, turn countdowns.  The server renders everything; this only wires clicks.
(function () {
  "use strict";
  const page = document.getElementById("table-page");
  if (!page) return;
  const seat = page.dataset.seat;
  const actionForm = document.getElementById("action-form");
  const commandForm = document.getElementById("command-form");
  const phraseForm = document.getElementById("phrase-form");
  let lastVersion = null;
  let clockOffset = 0;
  let selected = null;
  let refocus = null;
  // One move at a time: until the server answers, more clicks send nothing.
  let inFlight = null;

  function currentVersion() {
    const el = document.getElementById("table-version");
    return el ? parseInt(el.dataset.version, 10) : null;
  }

  function sendAction(text) {
    if (inFlight) return;
    refocus = refocus || {};
    actionForm.elements.action.value = text;
    actionForm.elements.version.value = currentVersion();
    actionForm.requestSubmit();
    page.setAttribute("aria-busy", "true");
    inFlight = setTimeout(settled, 5000);
  }

  function settled() {
    clearTimeout(inFlight);
    inFlight = null;
    page.removeAttribute("aria-busy");
  }

  function sendCommand(type) {
    commandForm.elements.type.value = type;
    commandForm.requestSubmit();
  }

  function clearSelection() {
    selected = null;
    page.querySelectorAll(".hand-card.selected").forEach((b) => {
      b.classList.remove("selected");
      b.setAttribute("aria-pressed", "false");
    });
    page.querySelectorAll(".attack-target").forEach((b) => {
      b.disabled = true;
      b.classList.remove("can-beat");
    });
  }

  function select(button, moveFocus = true) {
    clearSelection();
    selected = button;
    button.classList.add("selected");
    button.setAttribute("aria-pressed", "true");
    const beats = (button.dataset.beats || "").split(" ").filter(Boolean);
    let first = null;
    page.querySelectorAll(".attack-target").forEach((b) => {
      if (beats.includes(b.dataset.attack)) {
        b.disabled = false;
        b.classList.add("can-beat");
        first = first || b;
      }
    });
    if (first && moveFocus) first.focus();
  }

  page.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || target.disabled || !page.contains(target)) return;
    const sendsMove = target.matches(".hand-card, .attack-target") || target.dataset.action;
    if (inFlight && sendsMove) return;
    // The second click of a double click is never a move of its own, even when the
    // answer to the first arrived in between and the card under the pointer changed.
    if (event.detail > 1 && sendsMove) return;
    if (target.classList.contains("hand-card")) {
      refocus = { card: target.dataset.card };
      const lead = target.dataset.lead;
      const beats = target.dataset.beats;
      const transfer = target.dataset.transfer;
      if (selected === target) {
        clearSelection();
      } else if (beats) {
        select(target);
      } else if (lead) {
        sendAction(lead);
      } else if (transfer) {
        sendAction(transfer);
      }
    } else if (target.classList.contains("attack-target") && selected) {
      refocus = { defended: true };
      sendAction(`${seat} defend ${target.dataset.attack} ${selected.dataset.card}`);
      clearSelection();
    } else if (target.dataset.action) {
      refocus = { action: true };
      sendAction(target.dataset.action);
    } else if (target.classList.contains("control-resign")) {
      if (window.confirm(target.dataset.confirm)) sendCommand("resign");
    } else if (target.classList.contains("control-rematch")) {
      sendCommand("rematch");
    } else if (target.classList.contains("control-hint")) {
      sendCommand("hint");
    } else if (target.dataset.phrase) {
      phraseForm.elements.phrase.value = target.dataset.phrase;
      phraseForm.requestSubmit();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") clearSelection();
  });

  // After a move, focus goes to the next thing to play, never to Resign: a stray
  // Enter must not open the resign dialog.  With nothing to play, the hand holds it.
  function restoreFocus() {
    if (!refocus) return;
    const wanted = refocus.card && page.querySelector(`.hand-card[data-card="${refocus.card}"]:not([disabled])`);
    const fallback = page.querySelector(
      ".hand-card:not([disabled]), #table-controls button[data-action], #table-controls .control-hint",
    );
    const target = wanted || fallback || document.getElementById("table-hand");
    if (target) target.focus({ preventScroll: true });
    refocus = null;
  }

  // After every push: check the version, keep the clock in step, show errors.
  document.body.addEventListener("htmx:wsAfterMessage", (event) => {
    const message = (event.detail && event.detail.message) || "";
    const refusal = message.includes('id="table-error"');
    if (inFlight && (refusal || message.includes('id="table-version"'))) settled();
    if (message.includes('id="table-chat"')) scrollChat();
    // A push replaced the cards: keep the chosen card chosen if it can still beat.
    const code = selected && selected.dataset.card;
    selected = null;
    if (code) {
      const again = page.querySelector(`.hand-card[data-card="${code}"]:not([disabled])`);
      if (again && again.dataset.beats) {
        select(again, false);
        refocus = null;
      }
    }
    const el = document.getElementById("table-version");
    if (el) {
      const version = parseInt(el.dataset.version, 10);
      if (el.dataset.now) clockOffset = parseInt(el.dataset.now, 10) - Date.now();
      // A version gap means a push was lost (at-most-once delivery): ask for it all.
      if (lastVersion !== null && version > lastVersion + 1) sendCommand("sync");
      lastVersion = lastVersion === null ? version : Math.max(lastVersion, version);
    }
    // A refusal is told by the push that carries it; the toast keeps its text after it
    // fades, and later pushes must not bring an old refusal back.
    const error = document.getElementById("table-error");
    if (refusal && error && error.textContent.trim()) {
      error.classList.add("visible");
      clearTimeout(error._timer);
      error._timer = setTimeout(() => error.classList.remove("visible"), 4000);
    }
    restoreFocus();
    fullInviteLinks();
    showResult();
    tick();
  });

  // A click on the invite link selects it, ready to copy.
  page.addEventListener("click", (event) => {
    if (event.target.matches("input[data-path]")) event.target.select();
  });

  // When the game ends, the result (the fool, Rematch, Replay) comes into view: on a
  // phone it lies below the table.
  let resultShown = Boolean(document.querySelector("#table-result:not(.is-hidden)"));
  function showResult() {
    const result = document.getElementById("table-result");
    const shown = Boolean(result && !result.classList.contains("is-hidden"));
    if (shown && !resultShown) result.scrollIntoView({ block: "start" });
    resultShown = shown;
  }

  const connection = document.getElementById("connection-state");
  document.body.addEventListener("htmx:wsOpen", () => {
    connection.dataset.state = "open";
    connection.textContent = connection.dataset.openText || "";
  });
  document.body.addEventListener("htmx:wsClose", () => {
    connection.dataset.state = "closed";
    connection.textContent = connection.dataset.closedText || "offline";
    lastVersion = null; // the reconnect brings a full render
    settled();
  });

  // Chat: a sent line leaves the input empty (Enter cannot send it twice), an empty
  // line is not sent, and the log follows new lines.
  const chatForm = document.getElementById("chat-form");
  if (chatForm) {
    chatForm.addEventListener("htmx:wsConfigSend", (event) => {
      if (!chatForm.elements.text.value.trim()) event.preventDefault();
    });
    chatForm.addEventListener("htmx:wsAfterSend", () => {
      chatForm.elements.text.value = "";
    });
  }
  function scrollChat() {
    const log = page.querySelector(".chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }
  scrollChat();

  // Invite links are rendered as paths (pushes have no request); show them whole.
  function fullInviteLinks() {
    page.querySelectorAll("input[data-path]").forEach((el) => {
      el.value = window.location.origin + el.dataset.path;
    });
  }
  fullInviteLinks();

  function tick() {
    const now = Date.now() + clockOffset;
    page.querySelectorAll(".countdown[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((parseInt(el.dataset.deadline, 10) - now) / 1000));
      // The template gives the unit in the viewer's language ("30 с").
      el.textContent = `${left} ${el.dataset.unit || "s"}`;
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 250);
  tick();
})();
