"""'Play bots' beside "Play now": the same game at once, bots in every other seat."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, Seat
from matchmaking.models import Seek

from .conftest import client_for, make_user

pytestmark = pytest.mark.django_db

FORM = {"mode": "perevodnoy", "players": "3", "deck_size": "36", "speed": "fast", "is_rated": "on"}


def play_bots(user, level: str, **changes: str):
    data = {**FORM, **changes, "practice": "1", "practice_level": level}
    return client_for(user).post(reverse("matchmaking:play"), data, HTTP_HX_REQUEST="true")


def test_the_game_asked_for_starts_at_once_with_bots_of_the_chosen_level():
    player = make_user()
    response = play_bots(player, "hard")
    match = Match.objects.get(creator=player)
    assert response["HX-Redirect"] == reverse("table:table", args=[match.pk])
    assert match.status == Match.Status.PLAYING and match.live_deal is not None
    rules = match.engine_rules
    assert (rules.mode, rules.players, rules.deck_size) == ("perevodnoy", 3, 36)
    assert match.turn_seconds == 15
    levels = list(
        Seat.objects.filter(match=match).order_by("number").values_list("bot_level", flat=True)
    )
    assert levels == ["", "hard", "hard"]
    # A standard variant rates no game with bots, and no search was made.
    assert not match.is_rated
    assert not Seek.objects.filter(user=player).exists()


@pytest.mark.parametrize(
    ("level", "changes", "message"),
    [
        ("grandmaster", {}, "Unknown bot level."),
        ("easy", {"deck_size": "24", "players": "6"}, "not enough for 6 players"),
    ],
)
def test_a_refused_game_says_why_in_the_panel_and_makes_no_table(level, changes, message):
    player = make_user()
    response = play_bots(player, level, **changes)
    assert response.status_code == 200 and message in response.content.decode()
    assert not Match.objects.filter(creator=player).exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Or at once, against bots:", "Play bots"]),
        ("ru", ["Или сразу с ботами:", "Играть с ботами"]),
    ],
)
def test_the_panel_offers_it_in_each_language(language, words):
    page = client_for(make_user(), language).get("/").content.decode()
    for word in words:
        assert word in page
    assert 'name="practice_level"' in page
