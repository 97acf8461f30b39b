// Create-table form: show only the seats the chosen table size has.
(function () {
  "use strict";
  const form = document.querySelector("form.create-table");
  if (!form) return;
  const players = form.elements.players;
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
  update();
})();
