// Motion and sound at the table.
//
// Motion: each push is swapped by htmx (htmx.swap) inside a view transition.  Every
// face-up card on the felt and in the hand is named after its code, so a card that is
// in another place after the push (hand to table, table to the taker's hand) glides
// there.  Cards that come from, or go to, places where they lie
// face down (another seat, the discard pile) get a stand-in card back named like them
// for the moment of the transition.  Reduced motion, or a browser without view
// transitions, leaves the swap to the socket extension as it is.
//
// Sound: a short chime when it becomes your turn, a thud when cards are taken, a
// phrase at game over.  Off until the player turns it on; the choice is remembered.
(function () {
  "use strict";
  const page = document.getElementById("table-page");
  if (!page) return;
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let queue = Promise.resolve();
  let before = null;

  function animating() {
    return Boolean(document.startViewTransition) && !reducedMotion.matches && document.visibilityState === "visible";
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
  function nameCards() {
    const seen = new Set();
    page.querySelectorAll("#table-felt .playing-card[data-card], #table-hand .playing-card[data-card]").forEach((el) => {
      const code = el.dataset.card;
      el.style.viewTransitionName = seen.has(code) ? "" : `card-${code}`;
      seen.add(code);
    });
  }

  function ghost(container, code) {
    const back = document.createElement("span");
    back.className = "playing-card back card-ghost";
    back.setAttribute("aria-hidden", "true");
    back.style.viewTransitionName = `card-${code}`;
    container.appendChild(back);
    return back;
  }

  // Cards about to land on the felt from a seat: they start as backs on that seat.
  function arrivals(message, state) {
    const incoming = document.createElement("template");
    incoming.innerHTML = message;
    const felt = incoming.content.getElementById("table-felt");
    if (!felt) return [];
    const present = new Set(codes(page, "#table-felt [data-card], #table-hand [data-card]"));
    const made = [];
    felt.querySelectorAll(".bout [data-card]").forEach((el) => {
      const code = el.dataset.card;
      if (present.has(code)) return;
      const seat = el.closest(".defence") ? state.defender : state.attacker;
      const backs = seatBacks(seat);
      if (backs) made.push(ghost(backs, code));
    });
    return made;
  }

  // Cards gone from the felt: to the discard pile if it grew, else to the one who took them.
  function departures(state) {
    const now = new Set(codes(page, "#table-felt [data-card], #table-hand [data-card]"));
    const gone = state.table.filter((code) => !now.has(code));
    if (!gone.length) return { taken: false, ghosts: [] };
    const discarded = snapshot().discard > state.discard;
    const target = discarded ? page.querySelector("#table-felt .discard-pile") : seatBacks(state.defender);
    const ghosts = target ? gone.map((code) => ghost(target, code)) : [];
    return { taken: !discarded, ghosts };
  }

  // The socket extension swaps every top-level element of a frame out of band;
  // htmx.swap does so only for those that say it.
  function outOfBand(message) {
    const incoming = document.createElement("template");
    incoming.innerHTML = message;
    for (const el of incoming.content.children) {
      if (!el.hasAttribute("hx-swap-oob")) el.setAttribute("hx-swap-oob", "true");
    }
    return incoming.innerHTML;
  }

  function transition(message) {
    return new Promise((resolve) => {
      const state = snapshot();
      const early = arrivals(message, state);
      nameCards();
      let moved = { taken: false, ghosts: [] };
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        resolve();
      };
      const swap = () => htmx.swap(page, outOfBand(message), { swapStyle: "none" }, {
        contextElement: page,
        afterSwapCallback() {
          early.forEach((el) => el.remove());
          nameCards();
          moved = departures(state);
        },
        afterSettleCallback() {
          // table.js and the sounds run as after any push.
          htmx.trigger(page, "htmx:wsAfterMessage", { message });
          sounds(state, moved);
        },
      });
      const view = document.startViewTransition(swap);
      // A newer push skips this animation (its swap still runs): that is no error.
      view.ready.catch(() => {});
      // The stand-ins only mark where cards land: gone once they have.
      // The next push waits for this glide to end, so a quick answer does not cut it
      // short; never for long, whatever happens to this one.
      const done = () => {
        moved.ghosts.forEach((el) => el.remove());
        finish();
      };
      view.finished.then(done, done);
      window.setTimeout(finish, 600);
    });
  }

  page.addEventListener("htmx:wsBeforeMessage", (event) => {
    const message = event.detail.message;
    if (typeof message !== "string" || !animating()) {
      before = snapshot();
      return;
    }
    event.preventDefault();
    queue = queue.then(() => transition(message));
  });

  // Pushes swapped by the socket extension itself still make their sounds.
  document.body.addEventListener("htmx:wsAfterMessage", (event) => {
    if (!before || event.target !== page) return;
    const state = before;
    before = null;
    const now = new Set(codes(page, "#table-felt [data-card], #table-hand [data-card]"));
    const gone = state.table.filter((code) => !now.has(code));
    sounds(state, { taken: gone.length > 0 && snapshot().discard === state.discard });
  });

  nameCards();

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
