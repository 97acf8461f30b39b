"""Hints: asked for on a web process, searched on a bot worker, answered to the asker.

A request is checked and counted on the web process (cheap), then stored as a
``HintRequest``.  A bot worker (``manage.py bot_worker``) claims it under a lease,
runs the hard bot's search from the asking seat's knowledge alone, and stores the
answer.  After the commit the worker tells the asking socket through the channel
layer; the socket also looks for the answer in the database, which is how it
arrives when the layer is the embedded in-memory one (it reaches no other process).
A request over HTTP gets the answer's address and reads it from there.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ratelimit import count_one
from durak.bots import Budget, fast, get_bot, rebuild
from durak.engine import Action, Game, Knowledge
from games.conf import setting
from games.hint_rules import hint_refusal
from games.models import Match, Seat
from games.services import Refused

from .models import HintRequest

logger = logging.getLogger(__name__)

# Answered or abandoned requests are deleted after this long.
KEEP_FOR = timedelta(hours=1)


def request_hint(match_id: int, user: Any, channel_name: str = "") -> HintRequest:
    """Queue a hint for ``user``'s seat; raises Refused when it is not allowed.

    Every caller (the page's button over HTTP, any of the user's sockets) comes
    here, so the per-user limit holds across all of them.
    """
    take_hint_allowance(user)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Refused(_("There is no such table."), status=404)
    no_hints = hint_refusal(match)
    if no_hints is not None:
        raise Refused(no_hints, status=403)
    seat = Seat.objects.filter(match=match, user_id=user.pk).first()
    if seat is None:
        raise Refused(_("Only a player at this table may ask for a hint."), status=403)
    if match.status != Match.Status.PLAYING or not match.state:
        raise Refused(_("There is no game in progress."), status=409)
    game = Game.from_snapshot(match.state)
    if _nothing_to_suggest(game, seat.number):
        if game.is_over or seat.number not in game.to_act():
            raise Refused(_("It is not your turn."), status=409)
        # An attacker with nothing to throw in waits for the defender.
        raise Refused(_("You have nothing to play now; wait for the others."), status=409)
    return HintRequest.objects.create(
        match=match,
        user_id=user.pk,
        seat=seat.number,
        version=match.version,
        channel_name=channel_name,
        created_at=timezone.now(),
    )


def _nothing_to_suggest(game: Game, seat: int) -> bool:
    if game.is_over or seat not in game.to_act():
        return True
    return not game.legal_actions(seat)


def take_hint_allowance(user: Any) -> None:
    """Count one hint request of ``user``; refuse past GAMES_HINT_RATE.

    The counter lives in the cache (Redis in a cluster), so the user's sockets on
    every process and their HTTP requests share it.  The window opens at the first
    request (not on a clock boundary, which would let a burst straddle two windows)
    and the increment is atomic, so parallel requests cannot slip past it.
    """
    count, seconds = setting("GAMES_HINT_RATE")
    used = count_one(f"hints:{user.pk}", int(seconds))
    if used > count:
        raise Refused(_("You are asking for hints too fast; wait a moment."), status=429)


def answered_hint(hint_id: int, user_id: int) -> HintRequest | None:
    """The user's hint request once it has its answer (None before, or if not theirs)."""
    return HintRequest.objects.filter(
        pk=hint_id, user_id=user_id, answered_at__isnull=False
    ).first()


def hint_exists(hint_id: int, user_id: int) -> bool:
    return HintRequest.objects.filter(pk=hint_id, user_id=user_id).exists()


def render_hint(action: Action | None = None, error: str | None = None) -> str:
    """The hint as the table shows it: the same partial for the page and the socket."""
    return render_to_string("analysis/hint.html", {"action": action, "error": error})


def render_answer(hint: HintRequest) -> str:
    """The answered hint's partial, in the active language."""
    if not hint.action:
        return render_hint(error=answer_error())
    return render_hint(Action.parse(hint.action))


def answer_error() -> str:
    return _("The table changed before the hint was ready; ask again.")


# ------------------------------------------------------------ the bot worker's side


def claim_hint(now: datetime | None = None) -> HintRequest | None:
    """Claim the oldest unanswered hint request for this worker, or None.

    As with bot moves: ``SKIP LOCKED`` on PostgreSQL, the write lock on SQLite, and a
    lease after which a request whose worker died is claimed again.
    """
    now = now or timezone.now()
    fresh = now - timedelta(seconds=setting("GAMES_HINT_EXPIRES_SECONDS"))
    waiting = HintRequest.objects.filter(answered_at__isnull=True, created_at__gte=fresh).exclude(
        claimed_until__gt=now
    )
    if not waiting.exists():  # A read: on SQLite the claim's transaction takes the write lock.
        return None
    skip_locked = connection.features.has_select_for_update_skip_locked
    lease = now + timedelta(seconds=setting("GAMES_HINT_LEASE_SECONDS"))
    with transaction.atomic():
        first = waiting.select_for_update(skip_locked=skip_locked).order_by("created_at")[:1]
        for hint in first:
            claimed = HintRequest.objects.filter(
                pk=hint.pk, claimed_until=hint.claimed_until, answered_at__isnull=True
            ).update(claimed_until=lease)
            if claimed:
                hint.claimed_until = lease
                return hint
    return None


def answer_hint(
    hint: HintRequest,
    rng: random.Random | None = None,
    *,
    stop: Callable[[], bool] | None = None,
) -> bool:
    """Search the claimed hint's answer, store it, and tell the asking socket.

    ``stop`` (a stopping worker's word) ends the search early; the hint is then left
    unanswered, for the caller to give back, and False is returned."""
    match = Match.objects.get(pk=hint.match_id)
    action = ""
    if match.version == hint.version and match.status == Match.Status.PLAYING and match.state:
        game = Game.from_snapshot(match.state)

        def told_to_stop() -> bool:
            return stop is not None and stop()

        def table_moved_on() -> bool:
            return not Match.objects.filter(
                pk=match.pk, version=hint.version, status=Match.Status.PLAYING
            ).exists()

        def search_is_moot() -> bool:
            return told_to_stop() or table_moved_on()

        if not _nothing_to_suggest(game, hint.seat):
            # The bot sees only what this seat may know, never the real deal.
            found = suggest(game.knowledge(hint.seat), rng or random.Random(), search_is_moot)
            if told_to_stop():
                return False
            # A search cut short because the table moved on answers "ask again".
            action = "" if table_moved_on() else str(found)
    with transaction.atomic():
        answered = HintRequest.objects.filter(pk=hint.pk, answered_at__isnull=True).update(
            action=action, answered_at=timezone.now()
        )
        if answered and hint.channel_name:
            message = {"type": "hint.answered", "hint_id": hint.pk}
            transaction.on_commit(lambda: _tell(hint.channel_name, message))
    HintRequest.objects.filter(created_at__lt=timezone.now() - KEEP_FOR).delete()
    return True


def suggest(
    knowledge: Knowledge, rng: random.Random, stop: Callable[[], bool] | None = None
) -> Action:
    """The hard bot's move for the seat, at ``GAMES_HINT_PLAYOUTS`` playouts; ``stop``
    may end the search early (see ``Budget.stop``)."""
    budget = Budget(
        iterations=setting("GAMES_HINT_PLAYOUTS"),
        stop=stop,
        cpu_seconds=setting("GAMES_SEARCH_CPU_SECONDS"),
    )
    action = get_bot("hard").choose_action(knowledge, rng, budget)
    if action is None:
        # The search would wait for the defender here; suggest the seat's safest move.
        game = rebuild(knowledge)
        acts = fast.legal(game, knowledge.seat)
        action = fast.medium_move(game, knowledge.seat, acts, random.Random(0))
    return action


def answer_next_hint(now: datetime | None = None) -> bool:
    """Claim and answer one waiting hint; False when none waits."""
    hint = claim_hint(now)
    if hint is None:
        return False
    answer_hint(hint)
    return True


def _tell(channel_name: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.send)(channel_name, message)
    except Exception:  # The socket also looks for the answer in the database.
        logger.warning("could not tell %s of its hint", channel_name)
