"""A player solves a puzzle in Chromium and their puzzle rating goes up: Russian on a
phone, English on a desktop, from the site's navigation to the verdict."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from durak.engine import Action
from puzzles.models import PuzzleAttempt, PuzzleRating
from puzzles.services import played_cards
from tests.puzzles.helpers import puzzle_of, right_line

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
WORDS = {
    "en": {
        "nav": "Puzzles",
        "rating": "Your puzzle rating: 1500",
        "right": "Right!",
        "keep": "Keep going.",
    },
    "ru": {
        "nav": "Задачи",
        "rating": "Ваш рейтинг в задачах: 1500",
        "right": "Верно!",
        "keep": "Продолжайте.",
    },
}


@pytest.mark.parametrize(
    ("language", "device"), [("ru", PHONE), ("en", DESKTOP)], ids=["ru-phone", "en-desktop"]
)
def test_a_player_solves_a_puzzle_and_their_puzzle_rating_rises(
    browser, live_server_url, language, device
):
    # Two moves: the opponent's reply is played between them.
    puzzle = puzzle_of(moves=2)
    user = get_user_model().objects.create(username="solver")
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale={"en": "en-US", "ru": "ru-RU"}[language], **device)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    words = WORDS[language]

    page.goto(live_server_url + "/")
    page.get_by_role("link", name=words["nav"], exact=True).click()
    expect(page.get_by_test_id("puzzle-rating")).to_have_text(words["rating"])
    # The position is shown with both hands face up: every card is known.
    expect(page.locator('[data-zone="opponent-hand"] [data-card]').first).to_be_visible()
    for number, move in enumerate(right_line(puzzle.line)):
        if number:
            expect(page.get_by_test_id("puzzle-progress")).to_contain_text(words["keep"])
        step = puzzle.step_after(right_line(puzzle.line)[:number])
        cards = played_cards(Action.parse(move))
        # As at the table: the card from the hand, then which way if it goes several.
        target = page.locator(
            f'[data-testid=puzzle-card][value="{cards[0]}"]'
            if cards
            else f'[data-testid=puzzle-move][value="{move}"]'
        )
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None and box["x"] + box["width"] <= device["viewport"]["width"]
        # A hand-sized card or button, not a full-size card.
        assert box["height"] < 100
        target.click()
        if cards and sum(cards[0] in played_cards(Action.parse(o)) for o in step["options"]) > 1:
            page.get_by_test_id("puzzle-ways").locator(f'[value="{move}"]').click()

    verdict = page.get_by_test_id("puzzle-verdict")
    expect(verdict).to_contain_text(words["right"])
    expect(page.get_by_test_id("puzzle-answers")).to_be_visible()
    expect(page.get_by_test_id("rating-change")).to_have_text(re.compile(r"^\+[1-9]\d*$"))
    rating = PuzzleRating.objects.get(user=user)
    assert rating.rating > 1500
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text(str(round(rating.rating)))
    assert PuzzleAttempt.objects.get(user=user).is_solved is True
    assert not errors, errors
    context.close()
