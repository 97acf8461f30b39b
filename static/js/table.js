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

  function beatsOf(button) {
    return (button.dataset.beats || "").split(" ").filter(Boolean);
  }

  // The one legal beat, as [hand card, attack card], when there is exactly one.
  function onlyBeat() {
    const found = [];
    page.querySelectorAll("#table-hand .hand-card:not([disabled])").forEach((b) => {
      beatsOf(b).forEach((attack) => found.push([b, attack]));
    });
    return found.length === 1 ? found[0] : null;
  }

  // The same move the two taps send; the server checks it like any other.
  function beat(attack, card) {
    refocus = { defended: true };
    sendAction(`${seat} defend ${attack} ${card}`);
    clearSelection();
  }

  function select(button, moveFocus = true) {
    clearSelection();
    selected = button;
    button.classList.add("selected");
    button.setAttribute("aria-pressed", "true");
    const beats = beatsOf(button);
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
    if (target && target.classList.contains("hand-sort")) {
      chooseOrder(target.dataset.order);
      return;
    }
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
      const only = beats && onlyBeat();
      if (selected === target) {
        clearSelection();
      } else if (only && only[0] === target) {
        // Only one card can beat, and only one attack card: one tap beats.
        beat(only[1], target.dataset.card);
      } else if (beats) {
        select(target);
      } else if (lead) {
        sendAction(lead);
      } else if (transfer) {
        sendAction(transfer);
      }
    } else if (target.classList.contains("attack-target") && selected) {
      beat(target.dataset.attack, selected.dataset.card);
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
    if (event.key === "Escape") {
      endDrag(null);
      clearSelection();
    }
  });

  // ------------------------------------------------------------------ the hand's order
  // By suit (the server's order: plain suits, then trumps) or by rank (trumps still
  // last), as the player chose.  The choice is this device's, kept like the sound's;
  // the server sends each card's place by rank, so the page only sorts by it.
  const ORDER_KEY = "durak-hand-order";
  let order = "suit";
  try {
    order = window.localStorage.getItem(ORDER_KEY) === "rank" ? "rank" : "suit";
  } catch (e) {
    // No storage: the server's order.
  }

  function layOutHand() {
    page.querySelectorAll("#table-hand .hand-sort").forEach((b) => {
      b.setAttribute("aria-pressed", b.dataset.order === order ? "true" : "false");
    });
    const hand = page.querySelector("#table-hand .hand");
    if (!hand) return;
    const place = order === "rank" ? "rankPlace" : "suitPlace";
    const cards = Array.from(hand.children);
    const sorted = cards.slice().sort((a, b) => Number(a.dataset[place]) - Number(b.dataset[place]));
    if (sorted.some((li, i) => li !== cards[i])) sorted.forEach((li) => hand.appendChild(li));
  }

  function chooseOrder(chosen) {
    order = chosen === "rank" ? "rank" : "suit";
    try {
      window.localStorage.setItem(ORDER_KEY, order);
    } catch (e) {
      // Private mode without storage: the order lasts for this page only.
    }
    layOutHand();
  }
  layOutHand();
  // Each push's hand is laid out as soon as it is swapped in, before the cards glide
  // (table-effects.js) and before the page is painted.
  document.body.addEventListener("htmx:oobAfterSwap", layOutHand);

  // ------------------------------------------------------------------ dragging
  // A card that can beat may be dragged onto the attack card, with a mouse, a pen or a
  // finger (Pointer Events cover them all); the drop sends the move two taps send.  A
  // press that moves less than DRAG_FROM pixels stays a tap.
  const DRAG_FROM = 8;
  let press = null;
  let dropped = false;

  function dropTarget(x, y) {
    const hit = document.elementFromPoint(x, y);
    const pair = hit && hit.closest("#table-felt .pair");
    const target = pair && pair.querySelector(".attack-target");
    return target && press && beatsOf(press.button).includes(target.dataset.attack) ? target : null;
  }

  function hover(target) {
    if (press.over === target) return;
    if (press.over) press.over.classList.remove("drop-over");
    if (target) target.classList.add("drop-over");
    press.over = target;
  }

  function startDrag() {
    const card = press.button.querySelector(".playing-card");
    const box = card.getBoundingClientRect();
    const ghost = card.cloneNode(true);
    ghost.classList.add("drag-card");
    ghost.removeAttribute("data-card");
    ghost.removeAttribute("role");
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.left = `${box.left}px`;
    ghost.style.top = `${box.top}px`;
    ghost.style.width = `${box.width}px`;
    ghost.style.height = `${box.height}px`;
    page.appendChild(ghost);
    press.ghost = ghost;
    press.button.classList.add("dragging");
    select(press.button, false);
    try {
      press.button.setPointerCapture(press.id);
    } catch (e) {
      // The pointer is already gone: its pointerup or cancel ends the drag.
    }
  }

  // The press ends: dropped at (x, y), or called off when ``at`` is null.
  function endDrag(at) {
    if (!press) return;
    const { button, ghost } = press;
    const target = at && ghost ? dropTarget(at.x, at.y) : null;
    if (press.over) press.over.classList.remove("drop-over");
    press = null;
    if (!ghost) return; // a tap: the click that follows selects or beats
    ghost.remove();
    button.classList.remove("dragging");
    // A mouse's drag ends in a click on the card, in this same task: it must not
    // choose the card again.  (A finger's drag makes no click.)
    dropped = true;
    setTimeout(() => {
      dropped = false;
    }, 0);
    if (target && !inFlight) beat(target.dataset.attack, button.dataset.card);
    else clearSelection();
  }

  page.addEventListener("pointerdown", (event) => {
    dropped = false;
    if (press || inFlight || !event.isPrimary || event.button !== 0) return;
    const button = event.target.closest("#table-hand .hand-card");
    if (!button || button.disabled || !beatsOf(button).length) return;
    press = { button, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null, over: null };
  });
  // The pointer may leave the table while it drags: the document hears it.
  document.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.ghost) {
      if (Math.hypot(dx, dy) < DRAG_FROM) return;
      startDrag();
    }
    press.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    hover(dropTarget(event.clientX, event.clientY));
  });
  document.addEventListener("pointerup", (event) => {
    if (press && event.pointerId === press.id) endDrag({ x: event.clientX, y: event.clientY });
  });
  document.addEventListener("pointercancel", (event) => {
    if (press && event.pointerId === press.id) endDrag(null);
  });
  page.addEventListener(
    "click",
    (event) => {
      if (dropped) {
        dropped = false;
        event.stopImmediatePropagation();
        event.preventDefault();
      }
    },
    true,
  );

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
    // A push replaced the cards: a card being dragged goes on if it can still beat.
    if (press) {
      const again = page.querySelector(`.hand-card[data-card="${press.button.dataset.card}"]:not([disabled])`);
      if (again && beatsOf(again).length) {
        press.button = again;
        press.over = null;
        if (press.ghost) again.classList.add("dragging");
      } else {
        endDrag(null);
      }
    }
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

  // «More» (a phone, once the game started): the header's secondary tools open over the table
  // and close on a second tap or a tap elsewhere, so the table below never moves.
  const moreToggle = document.getElementById("table-more-toggle");
  const setMore = (open) => moreToggle.setAttribute("aria-expanded", String(open));
  moreToggle.addEventListener("click", () => {
    setMore(moreToggle.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest && !event.target.closest("#table-more, #table-more-toggle")) setMore(false);
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
