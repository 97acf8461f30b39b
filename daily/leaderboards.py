"""The leaderboard page (``/leaderboard/``, ``daily:leaderboard``): the rating board
beside boards a new site fills from its first games.

It shows the history app's rating board and week's boards with the puzzles' ratings
and the daily deal's streaks, so it is composed here, in the highest app it needs,
routed as ``daily:leaderboard``.  Every board is
one or two aggregate queries, whatever the number of players.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Max, Q
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from history import services as history
from history.boards import BOARD_ROWS, week_boards, week_start
from history.models import RatingClass
from puzzles.models import PuzzleRating

from . import services
from .models import DailyEntry


def puzzle_leaders(rows: int = BOARD_ROWS) -> list[PuzzleRating]:
    """The best puzzle ratings of players who tried a puzzle: one query."""
    return list(
        PuzzleRating.objects.filter(attempts__gt=0, user__is_active=True, user__is_guest=False)
        .select_related("user")
        .order_by("-rating", "rd", "user__username")[:rows]
    )


def daily_leaders(rows: int = BOARD_ROWS) -> list[dict]:
    """The players of the last seven days' daily deals, longest current streak first,
    with the days each has played in all: two queries.

    A streak is current while its player played today or yesterday (today's deal may
    still be ahead of them), as on the daily page.
    """
    today = services.today()
    recent = DailyEntry.objects.filter(
        aborted=False,
        daily__day__gte=today - timedelta(days=6),
        user__is_active=True,
        user__is_guest=False,
    )
    leaders = list(
        recent.values("user_id", "user__username")
        .annotate(
            streak=Coalesce(Max("streak", filter=Q(daily__day__gte=today - timedelta(days=1))), 0),
            days_this_week=Count("daily__day", distinct=True),
        )
        .order_by("-streak", "-days_this_week", "user__username")[:rows]
    )
    days_played = dict(
        DailyEntry.objects.filter(aborted=False, user_id__in=[r["user_id"] for r in leaders])
        .values("user_id")
        .annotate(days=Count("daily__day", distinct=True))
        .values_list("user_id", "days")
    )
    return [{**row, "days": days_played.get(row["user_id"], 0)} for row in leaders]


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    rating_class = request.GET.get("class", RatingClass.TWO_PLAYER)
    if rating_class not in RatingClass.values:
        rating_class = RatingClass.TWO_PLAYER
    return render(
        request,
        "daily/leaderboard.html",
        {
            "rating_class": rating_class,
            "classes": RatingClass.choices,
            "ratings": history.leaderboard(rating_class),
            "min_games": history.min_games(),
            "week": week_boards(),
            "week_start": week_start().date(),
            "puzzles": puzzle_leaders(),
            "daily": daily_leaders(),
        },
    )
