"""The daily deal's services: the day's deal, the one try, the board, the field, streaks.

Every change goes through here; views and receivers stay thin.  The game is made by
the games services (``create_match`` with the day's seed), so it is locked, played,
pushed and stored like any other table.
"""

from __future__ import annotations

import secrets
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import (
    Avg,
    Case,
    Count,
    F,
    IntegerField,
    Max,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.models import DealAnalysis
from analysis.review import game_accuracy
from analysis.services import start_analysis
from games.models import BotLevel, Deal, Match, Move, RuleVariant
from games.services import Refused, create_match, refuse_bot_account, start_match
from games.services.common import refuse_suspended

from .models import DailyDeal, DailyEntry

# ``create_match`` seats the player who opens a table in seat 0: everyone plays the
# day's deal from there.
PLAYER_SEAT = 0


def today() -> date:
    """The site's day (``TIME_ZONE``), whatever the reader's zone: a new deal starts at
    its midnight, for everyone at once."""
    return timezone.localdate(timezone=timezone.get_default_timezone())


def daily_variants() -> list[RuleVariant]:
    slugs = list(settings.DAILY_VARIANTS)
    found = {v.slug: v for v in RuleVariant.objects.filter(slug__in=slugs, is_active=True)}
    return [found[slug] for slug in slugs if slug in found]


def deal_of_the_day(variant: RuleVariant, day: date | None = None) -> DailyDeal:
    """The day's deal of ``variant``, made with a fresh seed by whoever asks first."""
    daily, _created = DailyDeal.objects.get_or_create(
        day=day or today(),
        variant=variant,
        defaults={"seed": secrets.token_hex(16), "players": 2, "bot_level": BotLevel.HARD},
    )
    return daily


def todays_deals() -> list[DailyDeal]:
    return [deal_of_the_day(variant) for variant in daily_variants()]


def start_daily(user: Any, daily: DailyDeal) -> DailyEntry:
    """Open ``user``'s one try at ``daily``: a private, unrated table against the bot.

    Refused (nothing written) for a suspended user, a day that is not
    today, or a second try; the database's unique constraint refuses a second try
    that races past the check. A try whose table was aborted does not count.
    """
    user = refuse_suspended(user)
    refuse_bot_account(user)  # the daily deal is played on the site's page
    if daily.day != today():
        raise Refused(_("This daily deal's day is over."), code="day_over")
    again = Refused(
        _("You have already played today's deal. A new one comes tomorrow."), code="played"
    )
    with transaction.atomic():
        if DailyEntry.objects.filter(daily=daily, user=user, aborted=False).exists():
            raise again
        match = create_match(
            user,
            daily.variant,
            daily.players,
            bots=[daily.bot_level] * (daily.players - 1),
            is_private=True,
            is_rated=False,
            seed=daily.seed,
        )
        try:
            with transaction.atomic():
                entry = DailyEntry.objects.create(
                    daily=daily, user=user, match=match, streak=streak_before(user, daily.day) + 1
                )
        except IntegrityError:
            raise again from None  # The table made above rolls back with this.
        if match.status == Match.Status.WAITING:
            start_match(match)
    return entry


def result_of(deal: Deal, seat: int) -> str:
    """Out first, not the fool, or the fool: how ``seat`` ended ``deal``."""
    result = deal.result or {}
    if deal.fool_seat == seat:
        return DailyEntry.Result.FOOL
    if deal.is_draw:
        return DailyEntry.Result.NOT_FOOL
    out = result.get("out_order") or []
    if result.get("winner") == seat or (out and out[0] == seat):
        return DailyEntry.Result.OUT_FIRST
    return DailyEntry.Result.NOT_FOOL


def record_finish(deal: Deal) -> None:
    """Store the result of a daily try whose deal just finished; queue its analysis.

    Called inside the move's transaction; the analysis is queued once it commits.
    """
    entry = DailyEntry.objects.filter(match_id=deal.match_id).select_related("user").first()
    if entry is None or entry.result:
        return
    entry.result = result_of(deal, PLAYER_SEAT)
    entry.result_rank = DailyEntry.RESULT_RANK[entry.result]
    think_ms = Move.objects.filter(deal=deal, seat=PLAYER_SEAT).aggregate(total=Sum("think_ms"))
    entry.think_seconds = (think_ms["total"] or 0) // 1000
    entry.finished_at = deal.finished_at or timezone.now()
    entry.save(update_fields=["result", "result_rank", "think_seconds", "finished_at"])
    transaction.on_commit(lambda: queue_analysis(deal, entry.user))


def record_abort(match: Match, by: Any | None) -> None:
    """A daily table stopped before its end by a moderator or the site gives the player
    the try back; one the player stopped themselves still counts.

    Called inside the abort's transaction.
    """
    entry = DailyEntry.objects.filter(match=match, result="", aborted=False).first()
    if entry is None or (by is not None and by.pk == entry.user_id):
        return
    entry.aborted = True
    entry.finished_at = match.finished_at or timezone.now()
    entry.save(update_fields=["aborted", "finished_at"])


def queue_analysis(deal: Deal, user: Any) -> None:
    """Ask for the post-game analysis the board's accuracy comes from."""
    # Over the player's analysis quota, the try ranks without an accuracy.
    with suppress(Refused):
        start_analysis(deal, user)


def refresh_accuracies(daily: DailyDeal) -> None:
    """Copy the player's accuracy from each finished analysis the board still lacks."""
    waiting = {
        entry.match.live_deal_id: entry
        for entry in DailyEntry.objects.filter(daily=daily, accuracy__isnull=True)
        .exclude(result="")
        .select_related("match")
    }
    done = DealAnalysis.objects.filter(
        deal_id__in=list(waiting), status=DealAnalysis.Status.DONE
    ).values_list("deal_id", "result")
    for deal_id, result in done:
        losses = [
            d["loss"] for d in (result or {}).get("decisions", []) if d["seat"] == PLAYER_SEAT
        ]
        accuracy = game_accuracy(losses)
        if accuracy is not None:
            DailyEntry.objects.filter(pk=waiting[deal_id].pk).update(accuracy=accuracy)


def board(daily: DailyDeal) -> QuerySet[DailyEntry]:
    """The day's finished tries, best first: result; then the games played out before
    those given up (resigned, or forfeited by running out of reconnect time), so giving
    up at once never beats playing the deal out; then accuracy (missing last); then the
    player's thinking time.

    Each row carries ``ending``: its deal's end reason ("normal", "resigned", "forfeit").
    """
    played_out = Deal.EndReason.NORMAL
    return (
        # A guest is on no board (accounts.guests).
        DailyEntry.objects.filter(daily=daily, aborted=False, user__is_guest=False)
        .exclude(result="")
        .select_related("user", "match")
        .annotate(
            ending=F("match__live_deal__end_reason"),
            given_up=Case(
                When(match__live_deal__end_reason=played_out, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
        )
        .order_by(
            "result_rank",
            "given_up",
            F("accuracy").desc(nulls_last=True),
            F("think_seconds").asc(nulls_last=True),
            "finished_at",
            "pk",
        )
    )


@dataclass(frozen=True)
class Field:
    """How everyone who played a day's deal did with its cards."""

    players: int
    shares: list[tuple[str, str, int]]  # (result, its label, percent of the players)
    average_accuracy: float | None
    average_seconds: float | None


def field_of(daily: DailyDeal) -> Field:
    finished = DailyEntry.objects.filter(daily=daily, aborted=False).exclude(result="")
    counts = dict(finished.values_list("result").annotate(n=Count("pk")).order_by())
    averages = finished.aggregate(accuracy=Avg("accuracy"), seconds=Avg("think_seconds"))
    total = sum(counts.values())
    shares = [
        (value, str(label), round(100 * counts.get(value, 0) / total) if total else 0)
        for value, label in DailyEntry.Result.choices
    ]
    return Field(total, shares, averages["accuracy"], averages["seconds"])


def streak_before(user: Any, day: date) -> int:
    """The streak ``user`` had on the day before ``day`` (0 if they did not play then)."""
    before = DailyEntry.objects.filter(
        user=user, aborted=False, daily__day=day - timedelta(days=1)
    ).aggregate(days=Max("streak"))
    return before["days"] or 0


def streak(user: Any, day: date | None = None) -> int:
    """Consecutive days up to ``day`` on which ``user`` played a daily deal; a streak
    still counts on a day not yet played."""
    day = day or today()
    played = set(
        DailyEntry.objects.filter(user=user, daily__day__lte=day, aborted=False)
        .values_list("daily__day", flat=True)
        .distinct()
    )
    if day not in played:
        day -= timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


def may_replay(match: Match, user: Any) -> bool:
    """Whether ``user`` may replay someone else's daily try: once the day is over, or
    once they finished that day's deal themselves (before, a replay shows the deck)."""
    entry = DailyEntry.objects.filter(match=match).select_related("daily").first()
    if entry is None:
        return False
    if entry.daily.day < today():
        return True
    return DailyEntry.objects.filter(daily=entry.daily, user=user).exclude(result="").exists()
