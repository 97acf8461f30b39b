"""Figures for the statistics dashboard.

``figures`` runs six aggregate queries whatever the number of games; the
Python that follows only adds up their grouped rows (a few hundred at most),
so the page stays fast with a large history.
A "game" is one ``Deal``; it counts as played once it is finished.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, DateField, F, FloatField, Func, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.formats import number_format

from games.models import BotLevel, Deal, Move, RuleVariant, Seat

DAYS = 30

FINISHED = Q(status=Deal.Status.FINISHED)


class SecondsBetween(Func):
    """Seconds from the first datetime to the second, in the database's own
    arithmetic: Django's portable version calls back into Python for every row
    on SQLite, which is what made a large average slow."""

    arity = 2
    output_field = FloatField()

    def as_sql(self, compiler, connection, **extra):
        (start, start_params), (end, end_params) = (
            compiler.compile(e) for e in self.get_source_expressions()
        )
        params = [*start_params, *end_params]
        if connection.vendor == "postgresql":
            return f"EXTRACT(EPOCH FROM ({end} - {start}))", params
        if connection.vendor == "sqlite":
            return f"((julianday({end}) - julianday({start})) * 86400.0)", params
        raise NotImplementedError(f"SecondsBetween has no SQL for {connection.vendor}")


class UTCDate(Func):
    """The UTC calendar day of a datetime, by SQLite's own ``date()``.

    ``TruncDate`` converts time zones in Python, one call per row on SQLite;
    when the site's zone is UTC there is nothing to convert."""

    function = "date"
    output_field = DateField()


def _day(field: str) -> Func:
    if connection.vendor == "sqlite" and timezone.get_current_timezone_name() == "UTC":
        return UTCDate(field)
    return TruncDate(field)


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

    @property
    def text(self) -> str:
        """The rate as a person reads it, in the active language: 48.6% (17/35), or —."""
        value = self.value
        if value is None:
            return "—"
        percent = number_format(round(value * 100, 1), 1)
        return f"{percent}% ({self.part}/{self.whole})"


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


def window(now: datetime.datetime, days: int = DAYS) -> dict:
    """The last ``days`` calendar days (site time zone, today included), day by day:
    games finished, and games ended any way with a move played by the turn timer."""
    today = timezone.localdate(now)
    first = today - datetime.timedelta(days=days - 1)
    start = timezone.make_aware(datetime.datetime.combine(first, datetime.time.min))
    # Only the time range is in WHERE, so the finished_at index picks the rows;
    # the status goes into the counts.
    rows = (
        Deal.objects.filter(finished_at__gte=start, finished_at__lte=now)
        .annotate(day=_day("finished_at"))
        .values("day")
        .annotate(finished=Count("id", filter=FINISHED), ended=Count("id"))
        .order_by()
        .values_list("day", "finished", "ended")
    )
    by_day = {day: (finished, ended) for day, finished, ended in rows}
    # A join from the window's games to their moves, not EXISTS per game:
    # PostgreSQL answers EXISTS inside an aggregate by hashing every timed-out
    # move ever played, while the join walks only the window's games.
    timed_out = Move.objects.filter(
        source=Move.Source.TIMEOUT, deal__finished_at__gte=start, deal__finished_at__lte=now
    ).aggregate(games=Count("deal_id", distinct=True))["games"]
    return {
        "days": [
            (day, by_day.get(day, (0, 0))[0])
            for day in (first + datetime.timedelta(n) for n in range(days))
        ],
        "ended": sum(ended for _, ended in by_day.values()),
        "timed_out": timed_out,
    }


def active_players(now: datetime.datetime) -> tuple[int, int]:
    """Distinct users who sat in a game that ended in the last 7 and 30 days."""
    week, month = now - datetime.timedelta(days=7), now - datetime.timedelta(days=30)

    def ended_since(since: datetime.datetime):
        return Deal.objects.filter(finished_at__gte=since, finished_at__lte=now).values("match_id")

    # Driven from the recent games (by the finished_at index), not from every seat.
    figures = Seat.objects.filter(user__isnull=False, match_id__in=ended_since(month)).aggregate(
        week=Count("user", distinct=True, filter=Q(match_id__in=ended_since(week))),
        month=Count("user", distinct=True),
    )
    return figures["week"], figures["month"]


def history() -> dict:
    """One pass over every game, grouped by (variant, table size, fool's seat):
    a few hundred rows at most, from which the all-time figures are summed."""
    decided = FINISHED & Q(first_attacker__isnull=False, fool_seat__isnull=False)
    rows = (
        Deal.objects.values("match__variant_id", "match__players", "fool_seat")
        .annotate(
            games=Count("id", filter=FINISHED),
            moves=Sum("move_count", filter=FINISHED),
            seconds=Sum(
                SecondsBetween("started_at", "finished_at"),
                filter=FINISHED & Q(finished_at__isnull=False),
            ),
            timed=Count("id", filter=FINISHED & Q(finished_at__isnull=False)),
            # A game tells about the first attacker's luck when it has a fool;
            # draws and one-winner games have none.
            decided=Count("id", filter=decided),
            first_attacker_fool=Count("id", filter=decided & Q(fool_seat=F("first_attacker"))),
            draws=Count("id", filter=FINISHED & Q(is_draw=True)),
            aborted=Count(
                "id", filter=Q(status=Deal.Status.ABORTED) | Q(end_reason=Deal.EndReason.ABORTED)
            ),
            resigned=Count("id", filter=Q(end_reason=Deal.EndReason.RESIGNED)),
            forfeit=Count("id", filter=Q(end_reason=Deal.EndReason.FORFEIT)),
        )
        .order_by()
    )
    totals: dict[str, float] = {}
    per_variant: dict[int, int] = {}
    played: dict[int, int] = {}
    fools: dict[int, int] = {}
    for row in rows:
        for key in ("games", "moves", "seconds", "timed", "decided", "first_attacker_fool",
                    "draws", "aborted", "resigned", "forfeit"):  # fmt: skip
            totals[key] = totals.get(key, 0) + (row[key] or 0)
        variant, games = row["match__variant_id"], row["games"]
        per_variant[variant] = per_variant.get(variant, 0) + games
        for seat in range(row["match__players"]):
            played[seat] = played.get(seat, 0) + games
        if row["fool_seat"] is not None:
            fools[row["fool_seat"]] = fools.get(row["fool_seat"], 0) + games
    totals["per_variant"] = per_variant
    totals["fool_by_seat"] = [
        Rate(str(seat + 1), fools.get(seat, 0), played[seat])
        for seat in sorted(played)
        if played[seat]
    ]
    return totals


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


def figures(now: datetime.datetime | None = None) -> Figures:
    """All the dashboard's figures, in six queries whatever the history's size."""
    now = now or timezone.now()
    totals = history()
    recent = window(now)
    active_7, active_30 = active_players(now)
    variants = RuleVariant.objects.order_by("ordering", "name").values_list(
        "pk", "name", "is_active"
    )
    per_variant = sorted(
        ((name, totals["per_variant"].get(pk, 0), active) for pk, name, active in variants),
        key=lambda row: -row[1],
    )
    games = int(totals.get("games", 0))
    timed = totals.get("timed", 0)
    return Figures(
        days=recent["days"],
        active_7=active_7,
        active_30=active_30,
        per_variant=per_variant,
        games=games,
        avg_moves=totals["moves"] / games if games else None,
        avg_duration=datetime.timedelta(seconds=float(totals["seconds"]) / timed)
        if timed
        else None,
        first_attacker=Rate(
            "",
            int(totals.get("decided", 0) - totals.get("first_attacker_fool", 0)),
            int(totals.get("decided", 0)),
        ),
        draws=int(totals.get("draws", 0)),
        fool_by_seat=totals["fool_by_seat"],
        bot_fool=bot_fool_rate(),
        aborted=int(totals.get("aborted", 0)),
        resigned=int(totals.get("resigned", 0)),
        forfeit=int(totals.get("forfeit", 0)),
        timed_out_30=recent["timed_out"],
        games_30=recent["ended"],
    )
