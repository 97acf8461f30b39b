"""The review and "play on from here" in Chromium, on a phone in Russian and on a desktop
in English: a player opens the review of an analysed game, reads the moves of a judged
step with their chances, plays on from that step against the hard bot and finishes
the game at a live table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from analysis.models import PlayOn
from analysis.review import build_review
from games.models import Deal, Match, Move
from tests.analysis.conftest import IMMEDIATE
from tests.analysis.helpers import analysed_match
from tests.browser.moves import click_a_legal_move
from tests.browser.test_table_browser import LATIN_ALLOWED, NEWER_VERSION_OR_ERROR, PAGE_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["anna", "boris"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture(autouse=True)
def quick(settings, fast_bots, no_puzzle_search):
    # Set before the server process forks, so it inherits them.
    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2


def _open(browser, url: str, username: str, lang: str, device: dict):
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    context = browser.new_context(
        locale="ru-RU" if lang == "ru" else "en-US", reduced_motion="reduce", **device
    )
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url},
            {"name": "django_language", "value": lang, "url": url},
        ]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Console errors include what the Content-Security-Policy refuses (an inline style).
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    return context, page, errors


def _no_english(page) -> None:
    # A noscript fallback is markup, not text, while scripts run; key names stay Latin.
    texts = [t for t in page.evaluate(PAGE_WORDS).split("\n") if not t.lstrip().startswith("<")]
    words = set(re.findall(r"[A-Za-z]{2,}", "\n".join(texts)))
    assert not words - LATIN_ALLOWED - set(NAMES) - {"Home", "End"}, sorted(words)


def _one_move(page) -> bool:
    """One legal move, as a careful player makes it; False when there is none."""
    before = int(page.get_attribute("#table-version", "data-version"))
    if not click_a_legal_move(page):
        return False
    try:
        page.wait_for_function(NEWER_VERSION_OR_ERROR, arg=before)
    except PlaywrightTimeout:
        return False  # A bot moved between looking and clicking.
    return True


@pytest.mark.parametrize(
    "lang, device", [("ru", PHONE), ("en", DESKTOP)], ids=["ru-phone", "en-desktop"]
)
def test_review_the_alternatives_then_play_on_from_a_step_to_the_end(
    lang, device, browser, live_server_url, tmp_path
):
    match, deal, row = analysed_match()
    review = build_review(row.result, NAMES)
    # A judged step after the first move, so the new table starts mid-game.
    decision = next(d for d in review.judged if d.step > 5)
    seat = decision.seat
    context, page, errors = _open(browser, live_server_url, NAMES[seat], lang, device)
    page.goto(f"{live_server_url}/games/{match.pk}/replay/?deal=1&step={decision.step}")

    # The judged step: its best moves in words, each with the chance it keeps.
    options = page.get_by_test_id("step-option")
    expect(options.first).to_be_visible()
    assert options.count() == min(3, len(decision.values)) + (
        decision.action not in [a for a, _v in decision.ranked()[:3]]
    )
    best = decision.ranked()[0][1]
    expect(options.first).to_contain_text(f"{best:.0f}%")
    played = "сыграно" if lang == "ru" else "played"
    expect(page.locator("[data-testid=step-option].is-played")).to_contain_text(played)
    # The chance at this step sits beside the controls.
    chances = row.result["chances"][decision.step]
    chance = page.get_by_test_id("replay-chance")
    for number, name in enumerate(NAMES):
        expect(chance).to_contain_text(f"{name} {chances[number]:.0f}%")
    # The better move is in the move list itself.
    judged_move = page.locator(f'#move-list .move[data-step="{decision.move + 1}"] .move-better')
    expect(judged_move).to_contain_text("лучше:" if lang == "ru" else "better:")
    # The graph reads out the step a finger or the pointer is on.
    graph = page.get_by_test_id("eval-graph")
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    if device is PHONE:
        page.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    else:
        page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    readout = page.get_by_test_id("graph-readout")
    expect(readout).to_contain_text("%")
    expect(readout).to_contain_text(NAMES[0])
    if lang == "ru":
        _no_english(page)
    page.goto(f"{live_server_url}/games/{match.pk}/replay/?deal=1&step={decision.step}")
    page.get_by_test_id("step-options").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"review-{lang}.png"), full_page=True)

    # Play on from here: a live table at exactly that position, against the hard bot.
    page.get_by_test_id("play-on-button").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    new = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert PlayOn.objects.get(match=new).step == decision.step
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")
    page.screenshot(path=str(tmp_path / f"play-on-{lang}.png"), full_page=True)
    for _ in range(600):
        if page.locator("#table-result:not(.is-hidden)").count():
            break
        if not _one_move(page):
            page.wait_for_timeout(60)  # The bot is thinking.
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#table-result")).to_be_visible()
    if lang == "ru":
        _no_english(page)
    new_deal = Deal.objects.get(match=new)
    assert new_deal.status == Deal.Status.FINISHED
    bots = Move.objects.filter(deal=new_deal, seq__gt=decision.step, source=Move.Source.BOT)
    assert bots.exists(), "the bot never moved"
    page.screenshot(path=str(tmp_path / f"play-on-end-{lang}.png"), full_page=True)

    # The result panel leads to the new game's review, which says where it came from.
    page.get_by_test_id("result-review").click()
    origin = page.get_by_test_id("played-on-from")
    expect(origin).to_contain_text(f"{match.pk}")
    expect(origin).to_contain_text(f"{decision.step}")
    assert not errors, errors
    context.close()
