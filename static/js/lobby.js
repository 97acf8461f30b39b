// Create-table form: the players field follows the chosen variant's table sizes,
// and only the seats the chosen table size has are shown.
(function () {
  "use strict";
  const form = document.querySelector("form.create-table");
  if (!form) return;
  const players = form.elements.players;
  const variant = form.elements.variant;
  function bound() {
    const option = variant && variant.selectedOptions[0];
    if (!option || !option.dataset.maxPlayers) return;
    const low = parseInt(option.dataset.minPlayers, 10);
    const high = parseInt(option.dataset.maxPlayers, 10);
    players.min = low;
    players.max = high;
    const n = parseInt(players.value, 10);
    if (!(n >= low)) players.value = low;
    else if (n > high) players.value = high;
  }
  function update() {
    const n = parseInt(players.value, 10) || 2;
    form.querySelectorAll(".seat-choice").forEach((el) => {
      const number = parseInt(el.dataset.seat, 10);
      const active = number < n;
      el.hidden = !active;
      const select = el.querySelector("select");
      if (!active) select.value = "";
    });
    // The bots' speed matters only to a table with a bot.
    const speed = form.querySelector(".bot-speed");
    if (speed) {
      const seats = form.querySelectorAll(".seat-choice:not([hidden]) select");
      speed.hidden = !Array.from(seats).some((select) => select.value);
    }
  }
  players.addEventListener("input", update);
  form.addEventListener("change", (event) => {
    if (event.target.closest(".seat-choice")) update();
  });
  if (variant) {
    variant.addEventListener("change", () => {
      bound();
      update();
    });
  }
  bound();
  update();
})();

// "Play now": a seated seek's panel names its table, and the page goes there;
// a waiting seek counts down to the bot; bots are on by default for two players.
(function () {
  "use strict";
  function follow() {
    const ready = document.querySelector("#play-panel [data-go]");
    if (ready) window.location.assign(ready.dataset.go);
  }
  function countdown() {
    document.querySelectorAll("#play-panel [data-bot-at]").forEach((el) => {
      const left = Math.max(0, Math.ceil((parseInt(el.dataset.botAt, 10) - Date.now()) / 1000));
      const out = el.querySelector(".seek-countdown");
      if (out) out.textContent = "(" + left + ")";
    });
  }
  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (!form || !form.classList.contains("seek-form") || event.target.name !== "players") return;
    const bots = form.elements.allow_bots;
    if (bots && !bots.dataset.touched) bots.checked = event.target.value === "2";
  });
  document.addEventListener("click", (event) => {
    if (event.target.name === "allow_bots") event.target.dataset.touched = "1";
  });
  document.body.addEventListener("htmx:afterSettle", follow);
  document.body.addEventListener("htmx:oobAfterSwap", follow);
  // A panel swapped in counts down at once, not at the next whole second.
  document.body.addEventListener("htmx:afterSettle", countdown);
  document.body.addEventListener("htmx:oobAfterSwap", countdown);
  follow();
  countdown();
  setInterval(countdown, 1000);
})();

// The choices a variant's house rule bounds forbid are greyed out (disabled): the
// new-table form's house rules follow the chosen variant, the "Play now" form's
// table sizes and decks follow the chosen game and size.  On load and on every
// change; the server still checks every form, this only spares a refused one.
(function () {
  "use strict";
  function read(id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  const house = read("house-choices");
  // What each variant's "As in the variant" keeps, in words ("As in the variant (36)").
  const kept = read("house-kept");
  const seek = read("seek-choices");

  function boundHouseRules() {
    const form = document.querySelector("form.create-table");
    if (!form || !house || !form.elements.variant) return;
    const allowed = house[form.elements.variant.value];
    if (!allowed) return;
    const keeps = (kept && kept[form.elements.variant.value]) || {};
    Object.keys(allowed).forEach((name) => {
      const select = form.elements[name];
      if (!select || !select.options) return;
      Array.from(select.options).forEach((option) => {
        // "As in the variant" (an empty value) is always allowed.
        option.disabled = option.value !== "" && !allowed[name].includes(option.value);
        if (option.value === "" && keeps[name]) option.textContent = keeps[name];
      });
      const chosen = select.selectedOptions[0];
      if (chosen && chosen.disabled) select.value = "";
    });
  }

  function firstEnabled(items) {
    return Array.from(items).find((item) => !item.disabled);
  }

  function boundSeek() {
    const form = document.querySelector("#play-panel form.seek-form");
    if (!form || !seek) return;
    const games = form.querySelectorAll('input[name="mode"]');
    games.forEach((radio) => {
      const bySize = seek[radio.value] || {};
      radio.disabled = !Object.values(bySize).some((decks) => decks.length);
    });
    if (form.querySelector('input[name="mode"]:checked:disabled')) {
      const game = firstEnabled(games);
      if (game) game.checked = true;
    }
    const mode = form.querySelector('input[name="mode"]:checked');
    const bySize = mode && seek[mode.value];
    const players = form.elements.players;
    if (!bySize || !players || !players.options) return;
    Array.from(players.options).forEach((option) => {
      option.disabled = !(bySize[option.value] || []).length;
    });
    if (players.selectedOptions[0] && players.selectedOptions[0].disabled) {
      const size = firstEnabled(players.options);
      if (size) players.value = size.value;
    }
    const decks = bySize[players.value] || [];
    const radios = form.querySelectorAll('input[name="deck_size"]');
    radios.forEach((radio) => {
      radio.disabled = !decks.includes(parseInt(radio.value, 10));
    });
    const checked = form.querySelector('input[name="deck_size"]:checked');
    if (checked && checked.disabled) {
      const deck = firstEnabled(radios);
      if (deck) deck.checked = true;
    }
  }

  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (!form) return;
    if (form.classList.contains("create-table") && event.target.name === "variant") {
      boundHouseRules();
    } else if (form.classList.contains("seek-form")) {
      boundSeek();
    }
  });
  // The "Play now" panel is swapped in again (a cancelled seek, a refusal).
  document.body.addEventListener("htmx:afterSettle", boundSeek);
  document.body.addEventListener("htmx:oobAfterSwap", boundSeek);
  boundHouseRules();
  boundSeek();
})();
