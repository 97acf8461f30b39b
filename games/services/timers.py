"""The background turns: timed-out turns (any web process's ticker) and bot moves
(the bot workers, ``manage.py bot_worker``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db import connection
from django.db.models import F, OuterRef, Subquery
from django.utils import timezone

from durak.engine import Action
from games import bot_runner
from games.conf import setting
from games.models import Deal, Match, Move
from games.services import clock
from games.services.common import (
    ActionOutcome,
    Refused,
    load_game,
    load_seats,
    lock_match,
    table_transaction,
)
from games.services.play import apply_action, apply_locked

logger = logging.getLogger(__name__)


def expire_deadlines(now: datetime | None = None) -> int:
    """Play the timed-out turns of every match whose deadline passed; returns how many.

    Any process may call this: each match is claimed under its row lock (skipping rows
    another process holds) and the deadline is checked again under the lock.
    """
    now = now or timezone.now()
    due = list(
        Match.objects.filter(status=Match.Status.PLAYING, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:200]
    )
    handled = 0
    for match_id in due:
        try:
            handled += _expire_one(match_id, now)
        except Exception:
            logger.exception("turn timer of match %s failed", match_id)
    return handled


def _expire_one(match_id: int, now: datetime) -> int:
    with table_transaction():
        match = lock_match(match_id, skip_locked=True)
        if (
            match is None
            or match.status != Match.Status.PLAYING
            or match.turn_deadline is None
            or match.turn_deadline > now
        ):
            return 0
        seats = load_seats(match.pk)
        game = load_game(match)
        required = clock.required_seats(game)
        for seat, since in clock.away_this_turn(match, seats, required):
            if now >= clock.budget_runs_out_at(seat, since):
                apply_locked(
                    match,
                    seats,
                    game,
                    Action(seat.number, "resign"),
                    source=Move.Source.FORFEIT,
                    now=now,
                    end_reason=Deal.EndReason.FORFEIT,
                )
                return 1
        # Only the seats whose own turn ran out (a berserker's ends before the others').
        ends = clock.seat_deadlines(match, seats, game)
        timed_out = [number for number in required if number in ends and now >= ends[number]]
        if timed_out:
            for number in timed_out:
                action = None if game.is_over else game.default_action(number)
                if action is not None:
                    apply_locked(match, seats, game, action, source=Move.Source.TIMEOUT, now=now)
            return 1
        # The deadline moved (someone came back): store the new one.
        match.turn_deadline = clock.deadline(match, seats, game)
        match.save(update_fields=["turn_deadline"])
        return 0


class BotClaim(NamedTuple):
    """A bot turn a worker holds: until ``lease`` no other worker takes it, and its
    move may land from ``due_at`` (the bot's delay, like a person's pause)."""

    match_id: int
    lease: datetime
    due_at: datetime


class PreparedBotMove(NamedTuple):
    """A bot's move searched ahead of its due time, for the table at ``version``."""

    claim: BotClaim
    seat: int
    action: str
    version: int


def claim_due_bot_turn(
    now: datetime | None = None, *, ahead: timedelta = timedelta(0)
) -> BotClaim | None:
    """Claim a bot move due by ``now + ahead`` for this worker, or None.

    The bots' searches are shared fairly between people: of the due moves, the worker
    takes one at a table of the creator whose tables it served longest ago (never
    served first), the earliest due of those.  One person's many tables thus take
    turns with everyone else's instead of filling the queue.

    A worker claims ahead of the due time so that it searches while the bot "thinks":
    the move then lands at its due time instead of a search later.  The claim moves
    ``bot_due_at`` to the end of a lease: a worker that dies before the move lands
    loses nothing, for the move is due again when the lease runs out.
    ``SKIP LOCKED`` lets PostgreSQL workers pass over rows another worker is
    claiming; on SQLite the write lock serialises the claims.  The update names the
    old due time too, so a claim that lost a race claims nothing.
    """
    now = now or timezone.now()
    due = Match.objects.filter(status=Match.Status.PLAYING, bot_due_at__lte=now + ahead)
    if not due.exists():  # A read: on SQLite the claim's transaction takes the write lock.
        return None
    skip_locked = connection.features.has_select_for_update_skip_locked
    creator_served_at = (
        Match.objects.filter(creator=OuterRef("creator"), bot_claimed_at__isnull=False)
        .order_by("-bot_claimed_at")
        .values("bot_claimed_at")[:1]
    )
    with table_transaction():
        first = (
            due.select_for_update(skip_locked=skip_locked)
            .annotate(creator_served_at=Subquery(creator_served_at))
            .order_by(F("creator_served_at").asc(nulls_first=True), "bot_due_at")
            .values_list("pk", "bot_due_at")[:1]
        )
        for match_id, due_at in first:
            lease = max(now, due_at) + timedelta(seconds=setting("GAMES_BOT_LEASE_SECONDS"))
            claimed = Match.objects.filter(pk=match_id, bot_due_at=due_at).update(
                bot_due_at=lease, bot_claimed_at=now
            )
            if claimed:
                return BotClaim(match_id, lease, due_at)
    return None


def run_due_bot_turn(now: datetime | None = None) -> tuple[int, ActionOutcome | None] | None:
    """Claim the earliest due bot move and play it: ``(match id, outcome)``, or None."""
    claim = claim_due_bot_turn(now)
    if claim is None:
        return None
    return claim.match_id, play_claimed_bot_turn(claim.match_id, claim.lease)


def run_bot_turn(match_id: int, now: datetime | None = None) -> ActionOutcome | None:
    """Claim this match's due bot move, if it is due, and play it."""
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id).only("bot_due_at").first()
    if match is None or match.bot_due_at is None or match.bot_due_at > now:
        return None
    lease = now + timedelta(seconds=setting("GAMES_BOT_LEASE_SECONDS"))
    claimed = Match.objects.filter(
        pk=match_id, bot_due_at=match.bot_due_at, status=Match.Status.PLAYING
    ).update(bot_due_at=lease, bot_claimed_at=now)
    if not claimed:
        return None
    return play_claimed_bot_turn(match_id, lease)


def play_claimed_bot_turn(match_id: int, lease: datetime) -> ActionOutcome | None:
    """Search the claimed move and apply it now (see ``prepare_bot_move``)."""
    prepared = prepare_bot_move(BotClaim(match_id, lease, lease))
    return None if prepared is None else play_prepared_bot_move(prepared)


def prepare_bot_move(
    claim: BotClaim, stop: Callable[[], bool] | None = None
) -> PreparedBotMove | None:
    """Search the claimed turn's move outside any lock; None when no bot is to act.

    The move is applied later at the version it was searched for, so if the table
    moved on meanwhile (a person threw in, or the lease ran out and another worker
    played the turn) it is refused as stale: a bot never moves twice.  ``stop`` (a
    stopping worker's word) ends the search early; the claim is then left as it is,
    for the caller to give back.
    """
    match = Match.objects.get(pk=claim.match_id)
    if match.bot_due_at != claim.lease:
        return None  # The lease ran out before this worker read the table: not ours now.
    game = load_game(match)
    seats = load_seats(claim.match_id)
    to_act = set(game.to_act()) if game is not None else set()

    def told_to_stop() -> bool:
        return stop is not None and stop()

    def turn_moved_on() -> bool:
        """The table ended, moved on, or another worker holds the turn now."""
        return not Match.objects.filter(
            pk=claim.match_id,
            status=Match.Status.PLAYING,
            version=match.version,
            bot_due_at=claim.lease,
        ).exists()

    def search_is_moot() -> bool:
        return told_to_stop() or turn_moved_on()

    for seat in seats:
        if not seat.is_bot or seat.number not in to_act:
            continue
        action = bot_runner.choose_action(
            game.copy(), seat.number, seat.bot_level, seed=match.seed, stop=search_is_moot
        )
        if told_to_stop():
            return None  # Cut short: the caller gives the turn back.
        if action is not None and turn_moved_on():
            return None  # Dropped: whoever holds the turn now plays it.
        if action is not None:
            return PreparedBotMove(claim, seat.number, str(action), match.version)
    # Every bot waits (e.g. for the defender): nothing to do until the next action.
    Match.objects.filter(pk=claim.match_id, bot_due_at=claim.lease).update(bot_due_at=None)
    return None


def play_prepared_bot_move(prepared: PreparedBotMove) -> ActionOutcome | None:
    """Apply a searched bot move at its version; None if the table moved on."""
    try:
        return apply_action(
            prepared.claim.match_id,
            prepared.seat,
            prepared.action,
            version=prepared.version,
            source=Move.Source.BOT,
        )
    except Refused:
        return None  # The table moved on; the new state schedules the bot again.
