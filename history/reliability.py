"""Reliability ("надёжность"): how surely a player finishes the games they start.

A score from 0 to 100 (docs/matchmaking.md gives the rules).  A player's finished
games with another person at the table count for them; a game they abandoned
(forfeited: they stayed away until their reconnect budget ran out and the server
resigned for them) counts against them.  Resigning is not abandoning: a player who
resigns is there, ends the game at once and keeps nobody waiting, so it costs
reliability nothing (the result and the rating already count it as a loss).  Games
against bots only count neither way: the score tells people whether a player will
finish a game with them, and leaving a bot mid-game leaves nobody waiting.
Every player starts as if with ``PRIOR`` finished games, so one early abandon does
not ruin a newcomer:

    reliability = round(100 * (finished - abandoned + PRIOR) / (finished + PRIOR))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef

from games.models import Move
from history.models import PlayerGame

PRIOR = 5
# Who made a seat's resign move when that counts as abandoning: the server, for a
# player whose reconnect budget ran out.  The player's own resign does not count.
ABANDON_SOURCES = (Move.Source.FORFEIT,)


def score(finished: int, abandoned: int) -> int:
    return round(100 * (finished - abandoned + PRIOR) / (finished + PRIOR))


def reliability_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The reliability of each of ``user_ids`` (two queries for all of them)."""
    ids = {i for i in user_ids if i is not None}
    if not ids:
        return {}
    with_a_person = PlayerGame.objects.filter(deal=OuterRef("deal")).exclude(user=OuterRef("user"))
    games = PlayerGame.objects.filter(Exists(with_a_person), user_id__in=ids)
    finished = dict(games.values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    forfeited = Move.objects.filter(
        deal=OuterRef("deal"),
        seat=OuterRef("seat"),
        action__endswith=" resign",
        source__in=ABANDON_SOURCES,
    )
    abandoned = dict(
        games.filter(Exists(forfeited))
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    return {i: score(finished.get(i, 0), abandoned.get(i, 0)) for i in ids}


def reliability(user: Any) -> int:
    return reliability_of([user.pk])[user.pk]


def store_reliability(user_ids: Iterable[int]) -> None:
    """Keep each player's current score on their user row, for the table's seats.

    The live table reads its seats' users in its one statement (games/table_sql.py)
    and the games app may not import this one, so the score it shows by each name
    is the one stored here whenever a finished game changes it.
    """
    users = get_user_model().objects
    for user_id, value in reliability_of(user_ids).items():
        users.filter(pk=user_id).exclude(reliability=value).update(reliability=value)
