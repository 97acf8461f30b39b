"""The background turns: timed-out turns and bot moves, played by any process's ticker."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import bot_runner
from games.conf import setting
from games.engine import Action
from games.models import Deal, Match, Move
from games.services import clock
from games.services.common import ActionOutcome, ActionRefused, load_game, load_seats, lock_match
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
    with transaction.atomic():
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
        if now >= match.turn_started_at + timedelta(seconds=match.turn_seconds):
            for number in required:
                action = None if game.is_over else game.default_action(number)
                if action is not None:
                    apply_locked(match, seats, game, action, source=Move.Source.TIMEOUT, now=now)
            return 1
        # The deadline moved (someone came back): store the new one.
        match.turn_deadline = clock.deadline(match, seats, game)
        match.save(update_fields=["turn_deadline"])
        return 0


def due_bot_matches(now: datetime | None = None, limit: int = 50) -> list[int]:
    now = now or timezone.now()
    return list(
        Match.objects.filter(status=Match.Status.PLAYING, bot_due_at__lte=now)
        .order_by("bot_due_at")
        .values_list("pk", flat=True)[:limit]
    )


def run_bot_turn(match_id: int, now: datetime | None = None) -> ActionOutcome | None:
    """Claim the match's due bot move, compute it outside any lock, then apply it.

    The claim pushes ``bot_due_at`` forward (a lease), so one process computes; the
    action is applied at the version it was computed for, so a duplicate loses.
    """
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id).only("bot_due_at").first()
    if match is None or match.bot_due_at is None or match.bot_due_at > now:
        return None
    lease = now + timedelta(seconds=setting("GAMES_BOT_LEASE_SECONDS"))
    claimed = Match.objects.filter(
        pk=match_id, bot_due_at=match.bot_due_at, status=Match.Status.PLAYING
    ).update(bot_due_at=lease)
    if not claimed:
        return None
    match = Match.objects.get(pk=match_id)
    game = load_game(match)
    seats = load_seats(match_id)
    to_act = set(game.to_act())
    for seat in seats:
        if not seat.is_bot or seat.number not in to_act:
            continue
        action = bot_runner.choose_action(
            game.copy(), seat.number, seat.bot_level, seconds=setting("GAMES_BOT_BUDGET_SECONDS")
        )
        if action is None:
            continue
        try:
            return apply_action(
                match_id, seat.number, str(action), version=match.version, source=Move.Source.BOT
            )
        except ActionRefused:
            return None  # The table moved on; the new state schedules the bot again.
    # Every bot waits (e.g. for the defender): nothing to do until the next action.
    Match.objects.filter(pk=match_id, bot_due_at=lease).update(bot_due_at=None)
    return None
