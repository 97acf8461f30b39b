"""This week's boards: who played most and won most, with people and against bots.

They fill the leaderboard page from a site's first game, long before anyone has
the rated games the rating board asks for.  Each board is one aggregate query on
``PlayerGame`` (its ``finished_at`` index picks the week's rows).

A win is a game the player was not the fool of (or, in a one-winner variant, won).
A game counts as with people when another person had a seat (a bot account is
not a person); otherwise it was against bots only, and counts on the bots' board
alone, so practice never crowds the people's boards.  Bot accounts are on none of
these boards: theirs is the rating board of their own class.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from history.models import PlayerGame

BOARD_ROWS = 10
WON = (PlayerGame.Result.SAFE, PlayerGame.Result.WINNER)


def week_start(now: datetime | None = None) -> datetime:
    """Monday 00:00 of the current week in the site's zone (``TIME_ZONE``), the same for
    everyone, as the daily deal's day is."""
    zone = timezone.get_default_timezone()
    today = timezone.localdate(now, timezone=zone)
    return datetime.combine(today - timedelta(days=today.weekday()), time.min, tzinfo=zone)


@dataclass(frozen=True)
class WeekBoards:
    most_games: list[dict]  # {"user__username", "games", "wins"}, most games first
    most_wins: list[dict]  # the same rows, most wins first (players with a win)
    against_bots: list[dict]  # the same, for games against bots only, most wins first


def _week_rows(since: datetime, *, with_people: bool) -> QuerySet:
    # A bot account is not a person: a game with one counts as against bots.
    other_person = PlayerGame.objects.filter(deal=OuterRef("deal"), user__is_bot=False).exclude(
        user=OuterRef("user")
    )
    # A guest is on no board (accounts.guests), nor a bot account (its board is its rating).
    games = PlayerGame.objects.filter(
        finished_at__gte=since, user__is_active=True, user__is_guest=False, user__is_bot=False
    )
    games = (
        games.filter(Exists(other_person)) if with_people else games.exclude(Exists(other_person))
    )
    return games.values("user__username").annotate(
        games=Count("id"), wins=Count("id", filter=Q(result__in=WON))
    )


def week_boards(now: datetime | None = None, rows: int = BOARD_ROWS) -> WeekBoards:
    """This week's boards, ``rows`` players each: three queries."""
    since = week_start(now)
    people = _week_rows(since, with_people=True)
    bots = _week_rows(since, with_people=False)
    return WeekBoards(
        most_games=list(people.order_by("-games", "-wins", "user__username")[:rows]),
        most_wins=list(
            people.filter(wins__gt=0).order_by("-wins", "games", "user__username")[:rows]
        ),
        against_bots=list(bots.order_by("-wins", "-games", "user__username")[:rows]),
    )
