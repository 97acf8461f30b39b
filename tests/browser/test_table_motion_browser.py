"""Motion at the table never holds a push back, and the page stays steady under pushes.

- Each push is on the page by the end of the task that received it; the glide plays
  over the new state afterwards.  The trump under the talon never moves.
- A push adds no listeners to the page.
- On a phone, a status line that changes between one and two lines moves no card.
"""

from __future__ import annotations

import pytest

from tests.browser.test_seats_browser import bout_played
from tests.browser.test_table_browser import PHONE, Player

# Bots that answer at once, on a bot worker process beside the server.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_bots"),
]


# Counts pushes whose version was not yet on the page when the task that received
# them ended, card glides on the felt and in the hand, and anything that animated
# the trump (an element in the talon, or a view-transition group named after it).
WATCH = """() => {
  window.watch = { pushes: 0, late: 0, glides: 0, trump: [] };
  document.addEventListener("htmx:wsBeforeMessage", (event) => {
    const found = /id="table-version"[^>]*data-version="(\\d+)"/.exec(event.detail.message || "");
    if (!found) return;
    queueMicrotask(() => {
      window.watch.pushes += 1;
      if (document.getElementById("table-version").dataset.version !== found[1]) window.watch.late += 1;
    });
  });
  const counted = new WeakSet();
  const look = () => {
    const trump = document.querySelector("#table-felt .talon .trump-card [data-card]");
    const code = trump && trump.dataset.card;
    for (const animation of document.getAnimations()) {
      const effect = animation.effect;
      const target = effect && effect.target;
      const pseudo = (effect && effect.pseudoElement) || "";
      if ((target && target.closest && target.closest(".talon-area"))
          || (code && pseudo.includes(`card-${code}`))) window.watch.trump.push(pseudo || target.className);
      if (!counted.has(animation) && target && target.matches && target.matches(".playing-card[data-card]")
          && target.closest("#table-felt, #table-hand")) {
        counted.add(animation);
        window.watch.glides += 1;
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# The height of the status line's text in lines, and where the oval starts on the page.
RECORD_LAYOUT = """() => {
  window.layout = [];
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const text = document.querySelector("#table-status .status-text");
    const lines = Math.round(text.getBoundingClientRect().height / parseFloat(getComputedStyle(text).lineHeight));
    const top = document.querySelector(".oval").getBoundingClientRect().top + window.scrollY;
    window.layout.push([lines, Math.round(top)]);
  });
}"""


def click_listeners(player: Player) -> int:
    """How many click listeners the table page holds, as DevTools lists them."""
    cdp = player.context.new_cdp_session(player.page)
    try:
        found = cdp.send(
            "Runtime.evaluate", {"expression": "document.getElementById('table-page')"}
        )
        listeners = cdp.send(
            "DOMDebugger.getEventListeners", {"objectId": found["result"]["objectId"]}
        )["listeners"]
        return sum(1 for listener in listeners if listener["type"] == "click")
    finally:
        cdp.detach()


def test_pushes_are_shown_at_once_and_glides_follow(browser, live_server_url):
    me = Player(browser, live_server_url, "Ника", "en", motion=True)
    match = me.create_table("classic", 2)
    listeners = click_listeners(me)
    me.page.evaluate(WATCH)
    for _ in range(200):
        if me.page.evaluate("() => window.watch.pushes") >= 12 and bout_played(match):
            break
        if not me.step():
            me.page.wait_for_timeout(60)
    watch = me.page.evaluate("() => window.watch")
    assert watch["pushes"] >= 12, watch
    assert watch["late"] == 0, watch
    assert watch["glides"] > 0, watch
    assert watch["trump"] == [], watch
    assert click_listeners(me) == listeners
    me.check_page()
    me.context.close()


def test_a_status_line_of_two_lines_moves_no_card_on_a_phone(browser, live_server_url):
    me = Player(browser, live_server_url, "Лев", "ru", viewport=PHONE)
    me.create_table("classic", 4)
    me.page.evaluate(RECORD_LAYOUT)
    seen: list[list[int]] = []
    for _ in range(400):
        seen = me.page.evaluate("() => window.layout")
        if {1, 2} <= {lines for lines, _ in seen} or me.page.locator(
            "#table-result:not(.is-hidden)"
        ).count():
            break
        if not me.step():
            me.page.wait_for_timeout(60)
    assert {1, 2} <= {lines for lines, _ in seen}, seen
    assert len({top for _, top in seen}) == 1, seen
    me.context.close()
