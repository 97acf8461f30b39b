"""The narrowest phones (320 px wide), in Russian: no page runs past the screen.

Russian words are longer than English ones, and a select is as wide as its longest
option, so the lobby's forms and open tables, the filters over a player's games and the
table are read at 320 px; a spectator's report form is opened too, and a hand of six
lies in one row.
A person's reliability on a seat is read against its own background.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import RuleVariant
from history.seeding import play_match

from .test_play_now_browser import person

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

NARROW = {"viewport": {"width": 320, "height": 640}, "is_mobile": True, "has_touch": True}
PAGE_WIDTH = "() => document.documentElement.scrollWidth"
# WCAG's contrast ratio of the text colour of the element ``selector`` names to the
# colour behind it, read in one go (a push may swap the seats in meanwhile); null while
# the element is missing.
CONTRAST = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const light = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(el);
  const [a, b] = [light(rgb(style.color)), light(rgb(style.backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""
# The tops of the hand's cards, read in one go.
HAND_TOPS = """() => [...document.querySelectorAll("#table-hand .hand-card")].map(
  (card) => Math.round(card.getBoundingClientRect().top))"""


# Whether the element shows all its content (nothing cut off on its right).
UNCUT = """(selector) => {
  const el = document.querySelector(selector);
  return el.scrollWidth <= el.clientWidth + 0.5;
}"""


# Whether the element is laid out inside the screen's width. Read in one go, and waited
# for: the lobby socket's first push swaps the list in while the page is read.
ON_SCREEN = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
}"""


def test_the_lobby_and_a_table_fit_a_320_pixel_phone_in_russian(browser, live_server_url):
    pavel = get_user_model().objects.create(username="Pavel_Sergeyevich")
    match = services.create_match(pavel, RuleVariant.objects.get(slug="classic"), 2)
    shown = RuleVariant.objects.get(slug="transfer-trump-show")
    waiting = services.create_match(pavel, shown, 4, bots=["hard"])
    page, olga = person(browser, live_server_url, "Olga", "ru", NARROW)
    assert page.evaluate(PAGE_WIDTH) <= 320
    # Each open table's button to sit down is on the screen, not scrolled away.
    for table in (match, waiting):
        button = f'#open-tables tr[data-match="{table.pk}"] button'
        page.wait_for_function(ON_SCREEN, arg=button, timeout=5000)
    page.locator("form.create-table details summary").click()
    turn = page.locator('form.create-table select[name="turn_seconds"] option[value="15"]')
    assert turn.text_content() == "15 с"
    assert page.evaluate(PAGE_WIDTH) <= 320

    # The filters over a player's games: the variants' select is the widest field.
    page.goto(f"{live_server_url}/u/Olga/games/")
    assert page.locator('select[name="variant"]').is_visible()
    assert page.evaluate(PAGE_WIDTH) <= 320

    services.join_match(match, olga)
    page.goto(f"{live_server_url}/games/{match.pk}/")
    badge = "#table-seats .seat .reliability"
    page.locator(badge).wait_for()
    contrast = page.evaluate(CONTRAST, badge)
    assert contrast is not None and contrast >= 4.5, contrast
    assert page.evaluate(PAGE_WIDTH) <= 320
    # The dealt hand of six lies in one row.
    tops = page.evaluate(HAND_TOPS)
    assert len(tops) == 6 and len(set(tops)) == 1, tops
    # The player's line (the role's badge) is whole beside the hand's order control.
    me_line = "#table-hand .me"
    assert page.locator(f"{me_line} .badge").count() == 1
    assert page.evaluate(UNCUT, me_line), page.locator(me_line).inner_text()

    # A spectator's report form: its text box keeps inside the screen.
    watcher, _user = person(browser, live_server_url, "Vera", "ru", NARROW)
    watcher.goto(f"{live_server_url}/games/{match.pk}/")
    watcher.locator("details:has(textarea) summary").first.click()
    assert watcher.locator("textarea").first.is_visible()
    assert watcher.evaluate(PAGE_WIDTH) <= 320


# Each table of numbers on the page, whether it is wider than its box (and so scrolls).
TABLES_CUT = """() => [...document.querySelectorAll("table.data")].filter(
  (t) => t.scrollWidth > t.clientWidth).map((t) => t.dataset.testid || t.className)"""


def test_a_players_statistics_read_whole_on_a_320_pixel_phone_in_russian(browser, live_server_url):
    page, olga = person(browser, live_server_url, "Olga", "ru", NARROW)
    play_match([olga, "Boris"], "classic", seed=3)
    play_match([olga, "Boris", "Vera"], "transfer", seed=4)
    page.goto(f"{live_server_url}/u/Olga/")
    by_players = page.locator('[data-testid="stats-players"]')
    assert "2 игрока" in by_players.inner_text() and "3 игрока" in by_players.inner_text()
    # Each number is named beside it, as the table's heading is not shown.
    games = '[data-testid="stats-variant"] td[data-label="Партии"]'
    assert page.locator(games).first.inner_text() == "1"
    label = page.evaluate(
        "(s) => getComputedStyle(document.querySelector(s), '::before').content", games
    )
    assert label == '"Партии: "'
    assert page.evaluate(TABLES_CUT) == []
    assert page.evaluate(PAGE_WIDTH) <= 320
