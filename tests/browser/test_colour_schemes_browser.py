"""Every text on the site's pages stays readable on a light ground and on the dark one a
device may ask for: at least WCAG AA contrast, measured in Chromium on what it drew."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import RuleVariant
from games.services import create_match, resign
from tests.browser.people import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# For every visible element with text of its own: its colour, the colour of the
# nearest ground behind it, and its size; the contrast is worked out in Python.
TEXTS = """() => {
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const ground = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.5)) return colour.slice(0, 3);
    }
    return rgba(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3);
  };
  const out = [];
  for (const el of document.querySelectorAll("main *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || parseFloat(style.opacity) < 0.6) continue;
    if (el.closest(".replay-board, .play-area, .button, button, select, .playing-card")) continue;
    out.push({
      text: el.textContent.trim().slice(0, 40),
      ink: rgba(style.color).slice(0, 3),
      ground: ground(el),
      size: parseFloat(style.fontSize),
      bold: parseInt(style.fontWeight, 10) >= 700,
    });
  }
  return out;
}"""


def luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(ink: list[float], ground: list[float]) -> float:
    high, low = sorted((luminance(ink), luminance(ground)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def unreadable(page) -> list[tuple[str, float]]:
    found = []
    for text in page.evaluate(TEXTS):
        large = text["size"] >= 24 or (text["size"] >= 18.66 and text["bold"])
        ratio = contrast(text["ink"], text["ground"])
        if ratio < (3.0 if large else 4.5):
            found.append((text["text"], round(ratio, 2)))
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_is_readable_on_either_ground(browser, live_server_url, django_user_model, scheme):
    player = django_user_model.objects.create_user(username="zoya", password="pw-zoya")
    other = django_user_model.objects.create_user(username="petr", password="pw-petr")
    classic = RuleVariant.objects.get(slug="classic")
    match = create_match(player, classic, 2, bots=["easy"])
    resign(match.pk, player)
    # A game in progress, so that the lobby and the page of games in progress list one.
    create_match(other, classic, 2, bots=["medium"])
    page = signed_in_page(browser, live_server_url, player, "ru", {**PHONE})
    page.emulate_media(color_scheme=scheme)
    urls = [
        "/",
        reverse("table:rules"),
        reverse("table:live"),
        reverse("accounts:profile", args=[player.username]),
        reverse("history:games", args=[player.username]),
        reverse("analysis:replay", args=[match.pk]),
        reverse("puzzles:next"),
    ]
    for url in urls:
        page.goto(live_server_url + url)
        paper = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        assert (paper == "rgb(20, 24, 28)") is (scheme == "dark"), (url, paper)
        assert not unreadable(page), (url, unreadable(page))
    page.context.close()
