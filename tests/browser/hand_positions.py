"""Where the player's hand lies on the page, read from the DOM after every push.

A state is read by the page itself at the end of each push (every piece swapped in,
before anything else runs), in page coordinates, so that a scroll is no move.  The
hand's own row (``ul.hand``), its head line (``You`` and the order control), its
frame, and each card's slot (the ``li``: a chosen card lifts inside it by a
transform, which is the player's own doing, not the page moving) are read, and so
are the felt and the number of pairs on it.

What "the hand moves" means, checked by ``hand_moves``:

- the frame, the head line and the row never move by more than 2 px, whatever the
  table holds;
- a card that stays in the hand never moves up or down by more than 2 px;
- while the set of cards in the hand is the same, no card moves sideways by more
  than 2 px either.  When a card leaves or arrives, the cards close up or make room
  sideways, as a fanned hand does: that reflow is expected, and only then allowed.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

TOLERANCE_PX = 2

RECORD = """() => {
  const read = () => {
    const y = window.scrollY;
    const x = window.scrollX;
    const box = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left + x, top: r.top + y, height: r.height };
    };
    const row = document.querySelector("#table-hand .hand");
    const cards = {};
    if (row) {
      for (const li of row.children) cards[li.querySelector("[data-card]").dataset.card] = box(li);
    }
    return {
      version: parseInt(document.getElementById("table-version").dataset.version, 10),
      frame: box(document.getElementById("table-hand")),
      head: box(document.querySelector("#table-hand .hand-head")),
      row: box(row),
      felt: box(document.getElementById("table-felt")),
      pairs: document.querySelectorAll("#table-felt .pair").length,
      order: row ? [...row.querySelectorAll("[data-card]")].map((el) => el.dataset.card) : [],
      cards,
    };
  };
  window.handStates = [read()];
  document.body.addEventListener("htmx:wsAfterMessage", () => window.handStates.push(read()));
}"""


def record_hand(page: Page) -> None:
    """From now on, the page keeps the hand's place after every push."""
    page.evaluate(RECORD)


def hand_states(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("() => window.handStates")


def hand_moves(states: list[dict[str, Any]]) -> list[str]:
    """Each move of the hand between two states in a row beyond the tolerance, in words."""
    moves = []
    for before, after in zip(states, states[1:], strict=False):
        where = f"v{before['version']}->v{after['version']}"
        for part in ("frame", "head", "row", "felt"):
            if before[part] is None or after[part] is None:
                continue
            shift = after[part]["top"] - before[part]["top"]
            if abs(shift) > TOLERANCE_PX:
                moves.append(f"{where}: the {part} moved {shift:+.1f} px down")
        if before["felt"] and after["felt"]:
            grown = after["felt"]["height"] - before["felt"]["height"]
            if abs(grown) > TOLERANCE_PX:
                moves.append(f"{where}: the felt grew {grown:+.1f} px")
        same_cards = set(before["cards"]) == set(after["cards"])
        for code in set(before["cards"]) & set(after["cards"]):
            was, now = before["cards"][code], after["cards"][code]
            down = now["top"] - was["top"]
            across = now["left"] - was["left"]
            if abs(down) > TOLERANCE_PX:
                moves.append(f"{where}: {code} moved {down:+.1f} px down")
            if same_cards and abs(across) > TOLERANCE_PX:
                moves.append(f"{where}: {code} moved {across:+.1f} px across, the hand unchanged")
    return moves
