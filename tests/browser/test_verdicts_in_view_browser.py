"""After an answer, the verdict and the way on ("Next") are in view without scrolling:
a puzzle and a mistake to learn from, Russian on a 390x844 phone and English on a
desktop.  Measured with getBoundingClientRect against the viewport."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from analysis.panel import hand_cards
from analysis.review import build_review
from durak.engine import Action
from puzzles.services import played_cards
from tests.analysis.conftest import IMMEDIATE
from tests.analysis.helpers import analysed_match
from tests.puzzles.helpers import puzzle_of, right_line, wrong_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SHOTS = "/tmp/shots-verdicts"

IN_VIEW = """el => {
  const box = el.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
    && box.left >= 0 && box.right <= window.innerWidth;
}"""


def signed_in(browser, live_server_url, user, language, device):
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale={"en": "en-US", "ru": "ru-RU"}[language], **device)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    return context, context.new_page()


def in_view(locator) -> bool:
    return locator.evaluate(IN_VIEW)


def tap(page, selector: str) -> None:
    """Tap as a player does: the control scrolled into view first, as a finger finds it."""
    target = page.locator(selector)
    target.scroll_into_view_if_needed()
    target.click()


@pytest.mark.parametrize(
    ("language", "device", "right"),
    [("ru", PHONE, False), ("en", DESKTOP, True)],
    ids=["ru-phone-wrong", "en-desktop-right"],
)
def test_the_puzzle_verdict_and_next_are_in_view_after_an_answer(
    browser, live_server_url, language, device, right
):
    puzzle = puzzle_of(moves=1)
    user = get_user_model().objects.create(username=f"solver-{language}")
    context, page = signed_in(browser, live_server_url, user, language, device)
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(live_server_url + reverse("puzzles:next"))
    move = right_line(puzzle.line)[0] if right else wrong_move(puzzle.line)
    cards = played_cards(Action.parse(move))
    if cards:
        tap(page, f'[data-testid=puzzle-card][value="{cards[0]}"]')
        if page.get_by_test_id("puzzle-ways").count():
            tap(page, f'[data-testid=puzzle-ways] [value="{move}"]')
    else:
        tap(page, f'[data-testid=puzzle-move][value="{move}"]')
    expect(page.get_by_test_id("puzzle-next")).to_be_visible()
    verdict = page.locator(".puzzle-good, .puzzle-bad").last
    page.wait_for_function(
        f"() => ({IN_VIEW})(document.querySelector('[data-testid=puzzle-next]'))"
    )
    assert in_view(verdict), "the verdict's words are out of view"
    assert in_view(page.get_by_test_id("puzzle-next"))
    page.screenshot(path=f"{SHOTS}/puzzle-{language}.png")
    assert not errors, errors
    context.close()


@pytest.fixture
def quick_analyses(settings, no_puzzle_search):
    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2


@pytest.mark.parametrize(
    ("language", "device"), [("ru", PHONE), ("en", DESKTOP)], ids=["ru-phone", "en-desktop"]
)
def test_the_learn_verdict_and_next_are_in_view_after_an_answer(
    browser, live_server_url, quick_analyses, language, device
):
    match, deal, row = analysed_match()
    names = ["anna", "boris"]
    review = build_review(row.result, names)
    seat = next(s for s in (0, 1) if review.mistakes_of(s))
    user = get_user_model().objects.get(username=names[seat])
    context, page = signed_in(browser, live_server_url, user, language, device)
    page.goto(live_server_url + reverse("analysis:learn", args=[match.pk, deal.number]))
    mistake = review.mistakes_of(seat)[0]
    cards = hand_cards(mistake.action)
    if cards:
        tap(page, f'[data-testid=learn-card][value="{cards[0]}"]')
        ways = [a for a in mistake.values if cards[0] in hand_cards(Action.parse(a))]
        if len(ways) > 1:
            tap(page, f'[data-testid=learn-ways] [value="{mistake.action}"]')
    else:
        tap(page, f'[data-testid=learn-move][value="{mistake.action}"]')
    verdict = page.locator(".learn-bad")
    expect(verdict).to_be_visible()
    # The way on: "Next mistake" where there is one, else back to the replay.
    way_on = page.locator("[data-testid=learn-feedback] .learn-actions a.button").last
    page.wait_for_function(
        f"() => ({IN_VIEW})(document.querySelector('[data-testid=learn-feedback] .learn-actions'))"
    )
    assert in_view(verdict) and in_view(way_on)
    assert in_view(page.get_by_test_id("learn-retry"))
    page.screenshot(path=f"{SHOTS}/learn-{language}.png")
    context.close()
