// Motion and sound at the table.
//
// Motion never holds a push back: the socket extension swaps each push in at once, and
// only then do the cards that changed place glide from where they were to where they
// now lie (first, last, invert, play).  A card that came from a seat, where it lay face
// down, starts at that seat's backs; a card gone from the felt glides as a stand-in to
// the discard pile or to the seat that took it, unless the deal ended (the result
// panel then comes into view, and nothing crosses it).  Only cards of the bout and the hand
// move: the trump under the talon stays where it lies.  Reduced motion, or a hidden
// page, moves nothing.
//
// Sound: a short chime when it becomes your turn, a thud when cards are taken, a
// phrase at game over.  Off until the player turns it on; the choice is remembered.
//
// The tab's title starts with "Your turn" while it is, so that a player reading another
// tab sees it without sound.
(function () {
  "use strict";
  const page = document.getElementById("table-page");
  if (!page) return;
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const MOVING = "#table-felt .bout .playing-card[data-card], #table-hand .playing-card[data-card]";
  const GLIDE = { duration: 320, easing: "ease-out" };
  let before = null;

  function animating() {
    return !reducedMotion.matches && document.visibilityState === "visible";
  }

  // ------------------------------------------------------------------ state
  function codes(root, selector) {
    return root ? Array.from(root.querySelectorAll(selector), (el) => el.dataset.card) : [];
  }

  function snapshot() {
    const felt = document.getElementById("table-felt");
    const discard = felt && felt.querySelector(".discard-area");
    const defender = page.querySelector("#table-seats .seat:has(.badge.defend)");
    const attacker = page.querySelector("#table-seats .seat:has(.badge.attack)")
      || page.querySelector("#table-seats .seat.acting:not(:has(.badge.defend))");
    return {
      table: codes(felt, ".bout [data-card]"),
      discard: discard ? parseInt(discard.dataset.count, 10) : 0,
      defender: defender ? defender.dataset.seat : (page.querySelector("#table-hand .badge.defend") ? "me" : null),
      attacker: attacker ? attacker.dataset.seat : null,
      myTurn: Boolean(page.querySelector("#table-hand .me.acting")),
      over: Boolean(page.querySelector("#table-result:not(.is-hidden)")),
    };
  }

  function seatBacks(seat) {
    return seat && seat !== "me" ? page.querySelector(`#table-seats .seat[data-seat="${seat}"] .backs`) : null;
  }

  // ------------------------------------------------------------------ motion
  // Where each moving card lies now, and a copy of it for a stand-in should it leave.
  function positions() {
    const cards = new Map();
    page.querySelectorAll(MOVING).forEach((el) => {
      // A glide still running ends here: the next one starts from the card's place.
      el.getAnimations().forEach((animation) => animation.finish());
      if (!cards.has(el.dataset.card)) cards.set(el.dataset.card, { box: el.getBoundingClientRect(), el: el.cloneNode(true) });
    });
    return cards;
  }

  function glide(el, from, to) {
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
    const scale = to.width ? from.width / to.width : 1;
    return el.animate(
      [
        { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
        { transformOrigin: "0 0", transform: "none" },
      ],
      GLIDE,
    );
  }

  // A stand-in for a card that left the felt: it lies where the card was and glides
  // to where the card went, then goes.
  function standIn(card, to) {
    const el = card.el;
    el.classList.add("card-ghost");
    el.removeAttribute("data-card");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
    el.setAttribute("aria-hidden", "true");
    el.style.position = "fixed";
    el.style.left = `${card.box.left}px`;
    el.style.top = `${card.box.top}px`;
    el.style.width = `${card.box.width}px`;
    el.style.height = `${card.box.height}px`;
    el.style.margin = "0";
    page.appendChild(el);
    const animation = el.animate(
      [
        { transform: "none" },
        { transform: `translate(${to.left - card.box.left}px, ${to.top - card.box.top}px)`, opacity: 0.4 },
      ],
      GLIDE,
    );
    const remove = () => el.remove();
    animation.finished.then(remove, remove);
  }

  function playMotion(state, cards) {
    const seen = new Set();
    page.querySelectorAll(MOVING).forEach((el) => {
      const code = el.dataset.card;
      if (seen.has(code)) return;
      seen.add(code);
      const to = el.getBoundingClientRect();
      const was = cards.get(code);
      if (was) {
        glide(el, was.box, to);
        return;
      }
      // New on the felt: it comes from the seat that played it.
      if (!el.closest("#table-felt")) return;
      const seat = el.closest(".defence") ? state.defender : state.attacker;
      const backs = seatBacks(seat);
      if (backs) glide(el, backs.getBoundingClientRect(), to);
    });
    const gone = state.table.filter((code) => !seen.has(code));
    if (!gone.length) return false;
    const now = snapshot();
    const discarded = now.discard > state.discard;
    // When the deal has just ended the result panel comes into view (on a phone the page
    // scrolls down to it): a stand-in gliding to the pile would cross it, so none goes.
    if (now.over) return !discarded;
    const target = discarded ? page.querySelector("#table-felt .discard-pile") : seatBacks(state.defender);
    if (target) {
      const to = target.getBoundingClientRect();
      gone.forEach((code) => cards.has(code) && standIn(cards.get(code), to));
    }
    return !discarded;
  }

  page.addEventListener("htmx:wsBeforeMessage", (event) => {
    if (typeof event.detail.message !== "string") return;
    before = { state: snapshot(), cards: animating() ? positions() : null };
  });

  const pageTitle = document.title;
  function showTurnInTitle() {
    document.title = snapshot().myTurn ? `${page.dataset.turnTitle} · ${pageTitle}` : pageTitle;
  }
  showTurnInTitle();

  // The extension has swapped the push in: now the cards glide over the new state.
  page.addEventListener("htmx:wsAfterMessage", () => {
    showTurnInTitle();
    if (!before) return;
    const { state, cards } = before;
    before = null;
    // The deal is over: a stand-in still on its way from the push before goes at once.
    if (snapshot().over) page.querySelectorAll(".card-ghost").forEach((el) => el.remove());
    let taken;
    if (cards) {
      taken = playMotion(state, cards);
    } else {
      const now = new Set(codes(page, "#table-felt [data-card], #table-hand [data-card]"));
      const gone = state.table.filter((code) => !now.has(code));
      taken = gone.length > 0 && snapshot().discard === state.discard;
    }
    sounds(state, { taken });
  });

  // ------------------------------------------------------------------ sound
  const toggle = document.getElementById("sound-toggle");
  const STORAGE_KEY = "durak-sound";
  let audio = null;

  function soundOn() {
    try {
      return window.localStorage.getItem(STORAGE_KEY) === "on";
    } catch (e) {
      return false;
    }
  }

  function showToggle() {
    if (!toggle) return;
    const on = soundOn();
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? toggle.dataset.onText : toggle.dataset.offText;
  }

  function context() {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      audio = new Context();
    }
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  // One short note: a sine (or a softer triangle) with a quick attack and decay.
  function note(ctx, frequency, start, length, type, volume) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    const t = ctx.currentTime + start;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(volume, t + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.05);
  }

  const SOUNDS = {
    turn: (ctx) => { note(ctx, 660, 0, 0.18, "sine", 0.2); note(ctx, 880, 0.12, 0.25, "sine", 0.2); },
    take: (ctx) => { note(ctx, 180, 0, 0.22, "triangle", 0.35); note(ctx, 120, 0.08, 0.3, "triangle", 0.3); },
    over: (ctx) => { [523, 659, 784, 1047].forEach((f, i) => note(ctx, f, i * 0.13, 0.35, "sine", 0.18)); },
  };

  function play(name) {
    if (!soundOn()) return;
    const ctx = context();
    if (ctx) SOUNDS[name](ctx);
    page.dataset.lastSound = name;
  }

  function sounds(state, moved) {
    const after = snapshot();
    if (after.over && !state.over) play("over");
    else if (moved.taken) play("take");
    else if (after.myTurn && !state.myTurn) play("turn");
  }

  if (toggle) {
    showToggle();
    toggle.addEventListener("click", () => {
      const on = !soundOn();
      try {
        window.localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
      } catch (e) {
        // Private mode without storage: the choice lasts for this page only.
      }
      showToggle();
      if (on) play("turn");
    });
  }
  // Browsers start audio only after a gesture: wake it on the first one.
  document.addEventListener("pointerdown", () => { if (soundOn()) context(); }, { once: true });
})();
