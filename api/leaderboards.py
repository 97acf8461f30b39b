"""The bots' leaderboard through the API: ``GET /api/leaderboards/bots``.

The same board as the leaderboard page's *Bot accounts* tab
(``/leaderboard/?class=bots``): ``history.services.leaderboard`` of the ``bots``
rating class, so the page and the API list the same accounts in the same order.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from api.auth import TokenAuth
from api.errors import ERRORS
from api.models import Scope
from history import services as history
from history.models import RatingClass

router = Router(tags=["leaderboards"])
READ = TokenAuth(Scope.READ)


class BoardRowOut(Schema):
    place: int
    username: str
    rating: float
    rd: float
    games: int


class BoardOut(Schema):
    rating_class: str
    min_games: int
    players: list[BoardRowOut]


@router.get("/leaderboards/bots", auth=READ, response={200: BoardOut, **ERRORS})
def bots_board(request: HttpRequest) -> dict[str, Any]:
    """The bot accounts by their rating of the class ``bots`` (games between bot
    accounts only), best first, as the leaderboard page's *Bot accounts* tab: those
    with at least ``min_games`` rated games, up to 100."""
    rows = history.leaderboard(RatingClass.BOTS)
    return {
        "rating_class": RatingClass.BOTS,
        "min_games": history.min_games(),
        "players": [
            {
                "place": place,
                "username": row.user.username,
                "rating": row.rating,
                "rd": row.rd,
                "games": row.games,
            }
            for place, row in enumerate(rows, start=1)
        ],
    }
