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
  }
  players.addEventListener("input", update);
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
  follow();
  countdown();
  setInterval(countdown, 1000);
})();
