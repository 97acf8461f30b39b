"""Figures for the statistics dashboard.

Every figure is one aggregate query (``figures`` runs a fixed number of them
whatever the number of games), so the page stays fast with a large history.
A "game" is one ``Deal``; it counts as played once it is finished.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import (
    Avg,
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
)
from django.db.models.functions import TruncDate
from django.utils import timezone

from games.models import BotLevel, Deal, Move, RuleVariant, Seat

DAYS = 30

FINISHED = Q(status=Deal.Status.FINISHED)


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass
class Rate:
    label: str
    part: int
    whole: int

    @property
    def value(self) -> float | None:
        return _rate(self.part, self.whole)


@dataclass
class Figures:
    days: list[tuple[datetime.date, int]] = field(default_factory=list)
    active_7: int = 0
    active_30: int = 0
    per_variant: list[tuple[str, int, bool]] = field(default_factory=list)
    games: int = 0
    avg_moves: float | None = None
    avg_duration: datetime.timedelta | None = None
    first_attacker: Rate = field(default_factory=lambda: Rate("", 0, 0))
    draws: int = 0
    fool_by_seat: list[Rate] = field(default_factory=list)
    bot_fool: list[Rate] = field(default_factory=list)
    aborted: int = 0
    resigned: int = 0
    forfeit: int = 0
    timed_out_30: int = 0
    games_30: int = 0

    @property
    def avg_minutes(self) -> float | None:
        if self.avg_duration is None:
            return None
        return self.avg_duration.total_seconds() / 60


def games_per_day(now: datetime.datetime, days: int = DAYS) -> list[tuple[datetime.date, int]]:
    """Finished games per calendar day (site time zone), oldest first, empty days as 0."""
    today = timezone.localdate(now)
    first = today - datetime.timedelta(days=days - 1)
    start = timezone.make_aware(datetime.datetime.combine(first, datetime.time.min))
    counts = dict(
        Deal.objects.filter(FINISHED, finished_at__gte=start, finished_at__lte=now)
        .annotate(day=TruncDate("finished_at"))
        .values("day")
        .annotate(n=Count("id"))
        .values_list("day", "n")
    )
    return [
        (day, counts.get(day, 0)) for day in (first + datetime.timedelta(n) for n in range(days))
    ]


def active_players(now: datetime.datetime) -> tuple[int, int]:
    """Distinct users who sat in a game that ended in the last 7 and 30 days."""
    week, month = now - datetime.timedelta(days=7), now - datetime.timedelta(days=30)
    figures = Seat.objects.filter(
        user__isnull=False,
        match__deals__finished_at__gte=month,
        match__deals__finished_at__lte=now,
    ).aggregate(
        week=Count("user", distinct=True, filter=Q(match__deals__finished_at__gte=week)),
        month=Count("user", distinct=True),
    )
    return figures["week"], figures["month"]


def games_per_variant() -> list[tuple[str, int, bool]]:
    rows = (
        RuleVariant.objects.annotate(
            games=Count("matches__deals", filter=Q(matches__deals__status=Deal.Status.FINISHED))
        )
        .order_by("-games", "ordering", "name")
        .values_list("name", "games", "is_active")
    )
    return list(rows)


def deal_totals() -> dict:
    """Averages, first-attacker results and the ways games ended, in one pass."""
    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    # A game "decides" the first attacker's luck when it has both a first
    # attacker and a fool; draws and one-winner games have no fool.
    decided = FINISHED & Q(first_attacker__isnull=False, fool_seat__isnull=False)
    return Deal.objects.aggregate(
        games=Count("id", filter=FINISHED),
        avg_moves=Avg("move_count", filter=FINISHED),
        avg_duration=Avg(duration, filter=FINISHED & Q(finished_at__isnull=False)),
        decided=Count("id", filter=decided),
        first_attacker_fool=Count("id", filter=decided & Q(fool_seat=F("first_attacker"))),
        draws=Count("id", filter=FINISHED & Q(is_draw=True)),
        aborted=Count(
            "id", filter=Q(status=Deal.Status.ABORTED) | Q(end_reason=Deal.EndReason.ABORTED)
        ),
        resigned=Count("id", filter=Q(end_reason=Deal.EndReason.RESIGNED)),
        forfeit=Count("id", filter=Q(end_reason=Deal.EndReason.FORFEIT)),
    )


def fool_rate_by_seat() -> list[Rate]:
    """For each seat number: finished games in which that seat was the fool,
    out of finished games at tables that had that seat."""
    rows = (
        Deal.objects.filter(FINISHED)
        .values("match__players", "fool_seat")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("match__players", "fool_seat", "n")
    )
    # At most (players x seats) rows, whatever the number of games.
    played: dict[int, int] = {}
    fools: dict[int, int] = {}
    for players, fool_seat, n in rows:
        for seat in range(players):
            played[seat] = played.get(seat, 0) + n
        if fool_seat is not None:
            fools[fool_seat] = fools.get(fool_seat, 0) + n
    return [Rate(str(seat + 1), fools.get(seat, 0), played[seat]) for seat in sorted(played)]


def bot_fool_rate() -> list[Rate]:
    """For each bot level: finished games in which a bot of that level was the fool,
    out of finished games a bot of that level sat in."""
    finished = Q(match__deals__status=Deal.Status.FINISHED)
    rows = dict(
        (level, (games, fools))
        for level, games, fools in Seat.objects.exclude(bot_level="")
        .values("bot_level")
        .annotate(
            games=Count("match__deals", filter=finished),
            fools=Count("match__deals", filter=finished & Q(match__deals__fool_seat=F("number"))),
        )
        .order_by()
        .values_list("bot_level", "games", "fools")
    )
    return [
        Rate(str(label), rows[level][1], rows[level][0])
        for level, label in BotLevel.choices
        if level in rows
    ]


def recent_timeouts(now: datetime.datetime, days: int = DAYS) -> dict:
    """Games that ended in the last ``days`` days, and how many of them had a
    move played by the turn timer."""
    since = now - datetime.timedelta(days=days)
    timed_out = Exists(Move.objects.filter(deal=OuterRef("pk"), source=Move.Source.TIMEOUT))
    return Deal.objects.filter(finished_at__gte=since, finished_at__lte=now).aggregate(
        games=Count("id"), timed_out=Count("id", filter=timed_out)
    )


def figures(now: datetime.datetime | None = None) -> Figures:
    """All the dashboard's figures: seven queries."""
    now = now or timezone.now()
    totals = deal_totals()
    active_7, active_30 = active_players(now)
    timeouts = recent_timeouts(now)
    return Figures(
        days=games_per_day(now),
        active_7=active_7,
        active_30=active_30,
        per_variant=games_per_variant(),
        games=totals["games"],
        avg_moves=totals["avg_moves"],
        avg_duration=totals["avg_duration"],
        first_attacker=Rate(
            "", totals["decided"] - totals["first_attacker_fool"], totals["decided"]
        ),
        draws=totals["draws"],
        fool_by_seat=fool_rate_by_seat(),
        bot_fool=bot_fool_rate(),
        aborted=totals["aborted"],
        resigned=totals["resigned"],
        forfeit=totals["forfeit"],
        timed_out_30=timeouts["timed_out"],
        games_30=timeouts["games"],
    )
