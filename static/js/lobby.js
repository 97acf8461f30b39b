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
