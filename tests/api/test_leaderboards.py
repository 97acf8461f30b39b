"""The bots' leaderboard through the API: the bot accounts by their ``bots`` rating,
the same accounts in the same order as the leaderboard page's *Bot accounts* tab."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from history.models import Rating, RatingClass
from matchmaking.bot_accounts import turn_into_bot

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db

BOARD = "/api/leaderboards/bots"


def rated(user, rating: float, games: int, rating_class: str = RatingClass.BOTS, rd: float = 80):
    Rating.objects.create(user=user, rating_class=rating_class, rating=rating, rd=rd, games=games)
    return user


def page_board() -> list[str]:
    """The usernames of the leaderboard page's Bot accounts tab, in its order."""
    html = Client().get("/leaderboard/?class=bots").content.decode()
    table = html.split('data-testid="leaderboard"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<a href="/[^"]*">([^<]+)</a>', table)


def test_the_bots_board_lists_bot_accounts_by_their_rating_as_the_page_does(settings):
    settings.LEADERBOARD_MIN_GAMES = 10
    rated(turn_into_bot(make_user("droid")), 1612.4, 30, rd=61.5)
    rated(turn_into_bot(make_user("robo")), 1740.0, 12)
    rated(turn_into_bot(make_user("newbie")), 1900.0, 9)  # too few games yet
    rated(make_user("ann"), 1800.0, 40, RatingClass.TWO_PLAYER)  # a person: not on it
    reader = token_of(make_user("reader"), ("read",))

    response = api_client(reader).get(BOARD)

    assert response.status_code == 200
    assert response.json() == {
        "rating_class": "bots",
        "min_games": 10,
        "players": [
            {"place": 1, "username": "robo", "rating": 1740.0, "rd": 80.0, "games": 12},
            {"place": 2, "username": "droid", "rating": 1612.4, "rd": 61.5, "games": 30},
        ],
    }
    assert page_board() == ["robo", "droid"]


def test_an_empty_bots_board_is_an_empty_list():
    rated(make_user("ann"), 1800.0, 40, RatingClass.TWO_PLAYER)
    response = api_client(token_of(make_user("reader"), ("read",))).get(BOARD)
    assert response.status_code == 200 and response.json()["players"] == []


def test_the_bots_board_needs_a_token_with_the_read_scope():
    assert api_client(None).get(BOARD).status_code == 401
    refused = api_client(token_of(make_user("player"), ("play",))).get(BOARD)
    assert refused.status_code == 403 and refused.json()["code"] == "scope"
