"""The game services: every change to a table goes through these functions.

Views and consumers stay thin and call these; each function owns its transaction.
The rules are the engine's: the match row holds the engine snapshot of the deal in
progress, so an action loads it (never replays), applies one action under the row
lock, writes the ``Move`` and the new snapshot, and bumps the version.  Viewers are
told only "match N changed, version V" after the commit; each socket then renders its
own viewer's table, so no hand ever travels in a group-wide message.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import live_cache, presence
from games.action_log import action_kind, log_refused_action
from games.compiled_queries import CompiledInsert, CompiledQuery, CompiledUpdate
from games.conf import setting
from games.engine import Action, Game, IllegalAction
from games.engine import Match as EngineMatch
from games.models import (
    BotLevel,
    ChatMessage,
    Deal,
    Match,
    Move,
    RuleVariant,
    Seat,
    ServerProcess,
    SocketPresence,
)
from games.signals import deal_finished, match_aborted
from moderation.notices import mute_notice, suspension_notice

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
MAX_ACTION_TEXT = 64


class ActionRefused(ValueError):
    """A request the rules or the table's state refuse; nothing was changed.

    ``message`` is shown to the player (translated); ``code`` is for programs.
    """

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class ActionOutcome:
    match_id: int
    version: int
    seq: int
    action: str
    is_over: bool


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


# --------------------------------------------------------------- fan-out


_collecting = threading.local()


@contextmanager
def collected_pushes() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Within this block (one thread), committed pushes are kept here, not sent.

    A consumer that calls a service from the database thread sends them itself once
    the call returns, on its event loop: the database thread then does not wait for
    the loop to take each push.  Only pushes of committed transactions are kept.
    """
    pushes: list[tuple[str, dict[str, Any]]] = []
    outer = getattr(_collecting, "pushes", None)
    _collecting.pushes = pushes
    try:
        yield pushes
    finally:
        _collecting.pushes = outer


def _group_send(group: str, message: dict[str, Any]) -> None:
    pushes = getattr(_collecting, "pushes", None)
    if pushes is not None:
        pushes.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # A push is best effort: clients resync on the next version.
        logger.exception("could not push to %s", group)


def notify_match_changed(
    match_id: int,
    version: int | None = None,
    *,
    what: str = "state",
    changes: dict[str, Any] | None = None,
) -> None:
    """After the commit, tell every socket of the match to re-render (``what``: state/chat/presence).

    ``changes`` are the match fields an action wrote (see ``live_cache.advance``): a
    process holding the previous version renders the new one from them without
    reading the database.  The message stays between server processes; what a
    browser receives is always rendered for its own viewer.
    """
    message = {"type": "match.changed", "match_id": match_id, "version": version, "what": what}
    if changes is not None:
        message["changes"] = changes
    transaction.on_commit(lambda: _group_send(group_name(match_id), message))


def notify_lobby_changed() -> None:
    transaction.on_commit(lambda: _group_send(LOBBY_GROUP, {"type": "lobby.changed"}))


# ------------------------------------------------------------- internals


def _lock(match_id: int, *, skip_locked: bool = False) -> Match | None:
    qs = Match.objects.select_for_update(
        skip_locked=skip_locked and connection.features.has_select_for_update_skip_locked
    )
    # Not .first(): its ORDER BY is one more clause to compile on every move.
    return next(iter(qs.filter(pk=match_id)), None)


def _locked_or_refuse(match: Match | int) -> Match:
    locked = _lock(match.pk if isinstance(match, Match) else int(match))
    if locked is None:
        raise ActionRefused(_("There is no such table."), code="not_found")
    return locked


# Seats of a match with the match locked and the users loaded, in one statement.
_SEATS_LOCKING_MATCH = CompiledQuery(
    lambda match_id: (
        Seat.objects.select_for_update(of=("match",))
        .select_related("match", "user")
        .filter(match_id=match_id)
        .order_by("number")
    )
)


def _lock_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match, locked as by ``_lock``, and its seats with their users: one query.

    Every move takes this path, and one statement instead of two is one database
    round trip less while the process's other tables wait for the interpreter.
    """
    seats = _SEATS_LOCKING_MATCH.fetch(match_id)
    if not seats:
        return _locked_or_refuse(match_id), []
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match, seats


def _seats(match: Match) -> list[Seat]:
    # With the users: the pushes after this change render names from these rows.
    return list(Seat.objects.filter(match_id=match.pk).select_related("user").order_by("number"))


def load_game(match: Match) -> Game | None:
    """The engine state of the match's current (or last) deal, from its snapshot."""
    return Game.from_snapshot(match.state) if match.state else None


def _required(game: Game) -> list[int]:
    """Seats the game waits for: each has a safe default the timer may play."""
    if game.is_over:
        return []
    return [s for s in game.to_act() if game.default_action(s) is not None]


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def _bot_delay() -> timedelta:
    low, high = setting("GAMES_BOT_DELAY")
    return timedelta(seconds=random.uniform(low, high))


def _deadline(match: Match, seats: list[Seat], game: Game) -> datetime | None:
    """Turn timer, shortened for a required seat whose reconnect budget runs out first."""
    if game.is_over or match.turn_started_at is None:
        return None
    required = _required(game)
    deadline = match.turn_started_at + timedelta(seconds=match.turn_seconds)
    for seat in seats:
        if seat.number in required and seat.user_id and seat.disconnected_since:
            start = max(seat.disconnected_since, match.turn_started_at)
            deadline = min(deadline, start + timedelta(milliseconds=seat.reconnect_budget_ms))
    return deadline


def _schedule(match: Match, seats: list[Seat], game: Game, now: datetime) -> None:
    """A new turn starts now: set the timer and, if a bot may move, when it should."""
    match.turn_started_at = now
    match.turn_deadline = _deadline(match, seats, game)
    if game.is_over:
        match.bot_due_at = None
        return
    to_act = set(game.to_act())
    movers = {a.seat for a in game.legal_actions()} & to_act
    bots = [s for s in seats if s.is_bot and s.number in movers]
    match.bot_due_at = now + _bot_delay() if bots else None


def _charge_budgets(match: Match, seats: list[Seat], required: list[int], now: datetime) -> None:
    """Spend the reconnect budget of required seats that were away during this turn."""
    if match.turn_started_at is None:
        return
    for seat in seats:
        if seat.number in required and seat.user_id and seat.disconnected_since:
            spent = _ms(now - max(seat.disconnected_since, match.turn_started_at))
            if spent > 0:
                seat.reconnect_budget_ms = max(0, seat.reconnect_budget_ms - spent)
                seat.save(update_fields=["reconnect_budget_ms"])


_MATCH_FIELDS = [
    "state",
    "version",
    "move_count",
    "status",
    "turn_started_at",
    "turn_deadline",
    "bot_due_at",
    "finished_at",
]
# A move's two writes, with their SQL built once per connection (as the lock query).
_INSERT_MOVE = CompiledInsert(Move)
_SAVE_MATCH_AFTER_MOVE = CompiledUpdate(Match, _MATCH_FIELDS)


def _apply_locked(
    match: Match,
    seats: list[Seat],
    game: Game,
    action: Action,
    *,
    source: str,
    now: datetime,
    end_reason: str | None = None,
) -> ActionOutcome:
    """Apply one action to the locked match; raises IllegalAction before writing."""
    required = _required(game)
    game.apply(action)
    _charge_budgets(match, seats, required, now)
    think_ms = max(0, _ms(now - match.turn_started_at)) if match.turn_started_at else 0
    match.move_count += 1
    _INSERT_MOVE.insert(
        Move(
            match_id=match.pk,
            deal_id=match.live_deal_id,
            seq=match.move_count,
            seat=action.seat,
            action=str(action),
            source=source,
            think_ms=think_ms,
        )
    )
    match.version += 1
    match.state = game.snapshot()
    deal = None
    if game.is_over:
        if end_reason is None:
            end_reason = (
                Deal.EndReason.RESIGNED if action.kind == "resign" else Deal.EndReason.NORMAL
            )
        deal = _finish_deal(match, seats, game, end_reason, now)
    else:
        _schedule(match, seats, game, now)
    _SAVE_MATCH_AFTER_MOVE.save(match)
    if deal is not None:
        match.live_deal = deal
        deal_finished.send(sender=Deal, deal=deal)
    # Renders of this version in this process reuse these rows (state as of commit).
    transaction.on_commit(lambda: live_cache.remember(match, seats, game))
    changes = None if deal is not None else live_cache.changes_of(match, _MATCH_FIELDS)
    notify_match_changed(match.pk, match.version, changes=changes)
    return ActionOutcome(match.pk, match.version, match.move_count, str(action), game.is_over)


def _finish_deal(
    match: Match, seats: list[Seat], game: Game, end_reason: str, now: datetime
) -> Deal:
    result = game.result or {}
    deal = Deal.objects.get(pk=match.live_deal_id)
    deal.status = Deal.Status.FINISHED
    deal.result = result
    deal.fool_seat = result.get("fool")
    deal.fool_team = result.get("fool_team")
    deal.winner_seat = result.get("winner")
    deal.is_draw = bool(result.get("draw"))
    deal.epaulettes = result.get("epaulettes") or 0
    deal.end_reason = end_reason
    deal.move_count = Move.objects.filter(deal=deal).count()
    deal.finished_at = now
    deal.save()
    if deal.fool_seat is not None:
        losers = [deal.fool_seat]
    elif deal.fool_team is not None:
        losers = [s.number for s in seats if s.team == deal.fool_team]
    else:
        losers = []
    for seat in seats:
        if seat.number in losers:
            seat.fools += 1
    if losers:
        Seat.objects.filter(match_id=match.pk, number__in=losers).update(fools=F("fools") + 1)
    match.status = Match.Status.FINISHED
    match.finished_at = now
    match.turn_deadline = None
    match.bot_due_at = None
    return deal


def _new_deal(match: Match, seats: list[Seat], game: Game, now: datetime) -> Deal:
    number = Deal.objects.filter(match_id=match.pk).count() + 1
    deal = Deal.objects.create(
        match=match,
        number=number,
        rules=match.rules,
        deck=game.deck,
        dealer=game.dealer,
        first_attacker=game.first_attacker,
        first_attacker_by=game.first_attacker_by,
    )
    for seat in seats:
        seat.reconnect_budget_ms = match.reconnect_seconds * 1000
        # A player who never opened the table counts as away from the first turn.
        if seat.user_id and seat.connections == 0:
            seat.disconnected_since = seat.disconnected_since or now
        else:
            seat.disconnected_since = None
        seat.save(update_fields=["reconnect_budget_ms", "disconnected_since"])
    match.live_deal = deal
    match.state = game.snapshot()
    match.status = Match.Status.PLAYING
    match.started_at = match.started_at or now
    match.finished_at = None
    match.version += 1
    _schedule(match, seats, game, now)
    match.save()
    notify_match_changed(match.pk, match.version)
    notify_lobby_changed()
    return deal


def _seat_of(seats: list[Seat], who: Any) -> Seat | None:
    if isinstance(who, Seat):
        return next((s for s in seats if s.pk == who.pk), None)
    if isinstance(who, int):  # Server-side callers (bots, timers) name the seat number.
        return seats[who] if 0 <= who < len(seats) else None
    user_id = getattr(who, "pk", None)
    if user_id is None:
        return None
    return next((s for s in seats if s.user_id == user_id), None)


def _refuse_suspended(user: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise ActionRefused(_("Log in to play."), code="anonymous")
    if user.is_suspended:
        raise ActionRefused(suspension_notice(user), code="suspended")


# ------------------------------------------------------- creating tables


def create_match(
    creator: Any,
    variant: RuleVariant,
    players: int,
    *,
    is_private: bool = False,
    bots: Sequence[str] = (),
) -> Match:
    """Open a table with the creator in seat 0.

    ``bots`` gives a level (or "" for a human) for seats 1, 2, ... in order; seats
    not named wait for players.  The table starts by itself once every seat is taken.
    """
    _refuse_suspended(creator)
    if not variant.is_active:
        raise ActionRefused(_("This variant is not available."), code="variant")
    if not isinstance(players, int) or not variant.min_players <= players <= variant.max_players:
        raise ActionRefused(
            _("This variant is played by %(low)d to %(high)d players.")
            % {"low": variant.min_players, "high": variant.max_players},
            code="players",
        )
    try:
        rules = variant.rules_for(players)
    except ValueError as error:
        raise ActionRefused(str(error), code="rules") from None
    levels = list(bots)
    if len(levels) > players - 1:
        raise ActionRefused(_("There are more bots than free seats."), code="bots")
    if any(level and level not in BotLevel.values for level in levels):
        raise ActionRefused(_("Unknown bot level."), code="bots")
    teams = rules.team_of
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            players=players,
            rules=rules.to_dict(),
            creator=creator,
            is_private=is_private,
            is_rated=not any(levels) or variant.rated_with_bots,
            turn_seconds=variant.turn_seconds,
            reconnect_seconds=variant.reconnect_seconds,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                number=number,
                team=teams[number] if teams else None,
                user=creator if number == 0 else None,
                bot_level=levels[number - 1] if 0 < number <= len(levels) else "",
                reconnect_budget_ms=match.reconnect_seconds * 1000,
            )
            for number in range(players)
        )
        seats = _seats(match)
        if all(s.user_id or s.bot_level for s in seats) and setting("GAMES_AUTO_START"):
            _new_deal(match, seats, Game.new(rules, secrets.SystemRandom()), timezone.now())
        notify_lobby_changed()
    return match


def join_match(match: Match | int, user: Any, *, token: str | None = None) -> Seat:
    """Sit ``user`` at the first free seat (private tables need the invite token)."""
    _refuse_suspended(user)
    with transaction.atomic():
        locked = _locked_or_refuse(match)
        seats = _seats(locked)
        mine = _seat_of(seats, user)
        if mine is not None:
            return mine
        if locked.status != Match.Status.WAITING:
            raise ActionRefused(_("This table has already started."), code="started")
        if locked.is_private and token != locked.invite_token:
            raise ActionRefused(
                _("This table is private: join it with its invite link."), code="private"
            )
        free = next((s for s in seats if not s.user_id and not s.bot_level), None)
        if free is None:
            raise ActionRefused(_("This table is full."), code="full")
        free.user = user
        free.save(update_fields=["user"])
        locked.version += 1
        locked.save(update_fields=["version"])
        notify_match_changed(locked.pk, locked.version)
        notify_lobby_changed()
        if setting("GAMES_AUTO_START") and all(s.user_id or s.bot_level for s in seats):
            rules = locked.engine_rules
            _new_deal(locked, seats, Game.new(rules, secrets.SystemRandom()), timezone.now())
        return free


def leave_match(match: Match | int, user: Any) -> None:
    """Give up a seat before the start; the creator leaving closes the table."""
    with transaction.atomic():
        locked = _locked_or_refuse(match)
        seats = _seats(locked)
        mine = _seat_of(seats, user)
        if mine is None:
            raise ActionRefused(_("You have no seat at this table."), code="not_seated")
        if locked.status != Match.Status.WAITING:
            raise ActionRefused(
                _("The game has started: resign instead of leaving."), code="started"
            )
        if locked.creator_id == user.pk:
            _abort_locked(locked, _("The creator left the table."), user)
            return
        mine.user = None
        mine.save(update_fields=["user"])
        locked.version += 1
        locked.save(update_fields=["version"])
        notify_match_changed(locked.pk, locked.version)
        notify_lobby_changed()


def start_match(match: Match | int, by: Any | None = None) -> Deal:
    """Deal the first game; ``by`` must be the creator (None: the server itself)."""
    with transaction.atomic():
        locked = _locked_or_refuse(match)
        if by is not None and locked.creator_id != by.pk:
            raise ActionRefused(_("Only the creator can start the table."), code="not_creator")
        if locked.status != Match.Status.WAITING:
            raise ActionRefused(_("This table has already started."), code="started")
        seats = _seats(locked)
        if not all(s.user_id or s.bot_level for s in seats):
            raise ActionRefused(_("Wait until every seat is taken."), code="not_full")
        game = Game.new(locked.engine_rules, secrets.SystemRandom())
        return _new_deal(locked, seats, game, timezone.now())


def start_next_deal(match: Match | int, by: Any | None = None) -> Deal:
    """The rematch: the next game of the match, dealt by the previous fool."""
    with transaction.atomic():
        locked = _locked_or_refuse(match)
        seats = _seats(locked)
        if by is not None and _seat_of(seats, by) is None:
            raise ActionRefused(
                _("Only players at the table can start a rematch."), code="not_seated"
            )
        if locked.status != Match.Status.FINISHED:
            raise ActionRefused(_("The game is not over yet."), code="not_over")
        previous = load_game(locked)
        rules = locked.engine_rules
        if previous is None or not previous.is_over:
            raise ActionRefused(_("The game is not over yet."), code="not_over")
        series = EngineMatch(rules)
        series.games = [previous]
        dealer, lead = series.next_deal()
        game = Game.new(rules, secrets.SystemRandom(), dealer=dealer, first_attacker=lead)
        return _new_deal(locked, seats, game, timezone.now())


# ----------------------------------------------------------------- actions


def apply_action(
    match_id: int,
    user_or_seat: Any,
    action_text: str,
    *,
    version: int | str | None,
    source: str = Move.Source.PLAYER,
    now: datetime | None = None,
) -> ActionOutcome:
    """Apply one action for a user (or, server-side, a seat number) at ``version``.

    The version must equal the match's: a stale or repeated message is refused and
    changes nothing.  Raises ActionRefused with a message for the player.
    """
    user_id = getattr(user_or_seat, "pk", None) if not isinstance(user_or_seat, int) else None
    seat_no = None
    try:
        if not isinstance(action_text, str) or len(action_text) > MAX_ACTION_TEXT:
            raise ActionRefused(_("That is not a move."), code="malformed")
        try:
            action = Action.parse(action_text)
        except IllegalAction:
            raise ActionRefused(_("That is not a move."), code="malformed") from None
        try:
            expected = int(version)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ActionRefused(_("The move carries no table version."), code="malformed") from None
        now = now or timezone.now()
        with transaction.atomic():
            match, seats = _lock_with_seats(match_id)
            if match.status != Match.Status.PLAYING:
                raise ActionRefused(_("No game is in progress at this table."), code="not_playing")
            if expected != match.version:
                raise ActionRefused(
                    _("The table changed before your move arrived; please try again."),
                    code="stale",
                )
            seat = _seat_of(seats, user_or_seat)
            if seat is None:
                raise ActionRefused(_("You have no seat at this table."), code="not_seated")
            seat_no = seat.number
            if action.seat != seat.number:
                raise ActionRefused(_("You can only move for your own seat."), code="forged_seat")
            game = load_game(match)
            # A swap or a resignation may come at any time; everything else in turn.
            if action.kind not in ("swap", "resign") and seat.number not in game.to_act():
                raise ActionRefused(_("It is not your turn."), code="not_your_turn")
            try:
                return _apply_locked(match, seats, game, action, source=source, now=now)
            except IllegalAction as error:
                raise ActionRefused(
                    _("That move is not allowed: %(reason)s") % {"reason": _reason(error)},
                    code="illegal",
                ) from None
    except ActionRefused as refused:
        log_refused_action(match_id, user_id, seat_no, action_kind(action_text), refused.code)
        raise


def _reason(error: IllegalAction) -> str:
    from games.refusal_reasons import refusal_reason

    # The engine names its reason with a code, worded here in the player's language.
    worded = refusal_reason(getattr(error, "code", None))
    if worded is not None:
        return worded
    # An unknown code: the engine's English text, less the action it prefixes (the
    # player knows it).
    text = str(error)
    return text.split(": ", 1)[1] if ": " in text else text


def resign(match_id: int, user: Any) -> ActionOutcome:
    """The user gives up the game in progress and becomes its fool."""
    with transaction.atomic():
        match = _locked_or_refuse(match_id)
        if match.status != Match.Status.PLAYING:
            raise ActionRefused(_("No game is in progress at this table."), code="not_playing")
        seats = _seats(match)
        seat = _seat_of(seats, user)
        if seat is None:
            raise ActionRefused(_("You have no seat at this table."), code="not_seated")
        game = load_game(match)
        try:
            return _apply_locked(
                match,
                seats,
                game,
                Action(seat.number, "resign"),
                source=Move.Source.PLAYER,
                now=timezone.now(),
                end_reason=Deal.EndReason.RESIGNED,
            )
        except IllegalAction:
            raise ActionRefused(_("You are already out of this game."), code="illegal") from None


# ------------------------------------------------------- timers and bots


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
        match = _lock(match_id, skip_locked=True)
        if (
            match is None
            or match.status != Match.Status.PLAYING
            or match.turn_deadline is None
            or match.turn_deadline > now
        ):
            return 0
        seats = _seats(match)
        game = load_game(match)
        required = _required(game)
        for seat in seats:
            if seat.number in required and seat.user_id and seat.disconnected_since:
                start = max(seat.disconnected_since, match.turn_started_at)
                if seat.reconnect_budget_ms - _ms(now - start) <= 0:
                    _apply_locked(
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
                    _apply_locked(match, seats, game, action, source=Move.Source.TIMEOUT, now=now)
            return 1
        # The deadline moved (someone came back): store the new one.
        match.turn_deadline = _deadline(match, seats, game)
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
    from games import bot_runner

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
    seats = _seats(match)
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


# -------------------------------------------------- connections (reconnect)


def seat_connected(match_id: int, user: Any, channel_name: str | None = None) -> int | None:
    """A socket of ``user`` opened; returns their seat number (None: a spectator).

    With ``channel_name`` the socket is recorded as held by this process, so it is
    released if the process dies without closing it; a socket already recorded is
    not counted twice.
    """
    now = timezone.now()
    if channel_name is not None:
        # Before the socket's row: a socket of an unregistered process looks orphaned.
        presence.register(now)
    with transaction.atomic():
        match = _lock(match_id)
        if match is None:
            return None
        seats = _seats(match)
        seat = _seat_of(seats, user)
        if seat is None:
            return None
        if channel_name is not None:
            _, created = SocketPresence.objects.get_or_create(
                channel_name=channel_name,
                defaults={"seat": seat, "server": presence.server_name(), "opened_at": now},
            )
            if not created:
                return seat.number
        was_away = seat.disconnected_since is not None
        game = load_game(match) if match.status == Match.Status.PLAYING and was_away else None
        if game is not None:
            _charge_budgets(match, [seat], _required(game), now)
        seat.connections = F("connections") + 1
        seat.disconnected_since = None
        seat.last_seen = now
        seat.save(update_fields=["connections", "disconnected_since", "last_seen"])
        seat.refresh_from_db(fields=["connections"])
        if game is not None:
            # The budget spent so far is charged; from here the turn timer counts again.
            match.turn_deadline = _deadline(match, seats, game)
            match.save(update_fields=["turn_deadline"])
        if was_away:
            notify_match_changed(match.pk, match.version, what="presence")
        return seat.number


def seat_disconnected(match_id: int, user: Any, channel_name: str | None = None) -> None:
    """A socket of ``user`` closed (``channel_name``: only if it is still recorded)."""
    with transaction.atomic():
        match = _lock(match_id)
        if match is None:
            return
        seats = _seats(match)
        seat = _seat_of(seats, user)
        if seat is None:
            return
        if channel_name is not None:
            gone, _ = SocketPresence.objects.filter(channel_name=channel_name).delete()
            if not gone:
                return
        _socket_closed(match, seats, seat, timezone.now())


def _socket_closed(match: Match, seats: list[Seat], seat: Seat, since: datetime) -> None:
    seat.connections = max(0, seat.connections - 1)
    seat.last_seen = since
    if seat.connections == 0:
        seat.disconnected_since = since
    seat.save(update_fields=["connections", "disconnected_since", "last_seen"])
    if seat.connections == 0:
        if match.status == Match.Status.PLAYING:
            game = load_game(match)
            match.turn_deadline = _deadline(match, seats, game)
            match.save(update_fields=["turn_deadline"])
        notify_match_changed(match.pk, match.version, what="presence")


def release_dead_servers(now: datetime | None = None) -> int:
    """Close the sockets of server processes that stopped beating; returns how many.

    A dead process's seats count as away from its last beat.  Any process may call
    this: each socket is released under its match's row lock, exactly once.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=presence.timeout_seconds())
    released = 0
    for server in ServerProcess.objects.filter(last_beat__lt=cutoff):
        for presence_id, match_id in SocketPresence.objects.filter(server=server.name).values_list(
            "pk", "seat__match_id"
        ):
            released += _release_socket(presence_id, match_id, since=server.last_beat)
        ServerProcess.objects.filter(pk=server.pk, last_beat=server.last_beat).delete()
    # Sockets of a process whose row is gone altogether (released half-way, say).
    orphans = SocketPresence.objects.filter(opened_at__lt=cutoff).exclude(
        server__in=ServerProcess.objects.values("name")
    )
    for presence_id, match_id in orphans.values_list("pk", "seat__match_id"):
        released += _release_socket(presence_id, match_id, since=cutoff)
    return released


def _release_socket(presence_id: int, match_id: int, *, since: datetime) -> int:
    with transaction.atomic():
        match = _lock(match_id)
        row = SocketPresence.objects.filter(pk=presence_id).first()
        if match is None or row is None:
            return 0
        row.delete()
        seats = _seats(match)
        seat = next((s for s in seats if s.pk == row.seat_id), None)
        if seat is None:
            return 0
        _socket_closed(match, seats, seat, since)
        return 1


# ------------------------------------------------------------------ chat


def post_chat(match_id: int, user: Any, text: Any) -> ChatMessage:
    """Store a chat line: players' channel for seated users, spectators' otherwise."""
    _refuse_suspended(user)
    if user.is_muted:
        raise ActionRefused(mute_notice(user), code="muted")
    if not isinstance(text, str) or not text.strip():
        raise ActionRefused(_("Write a message first."), code="empty")
    text = " ".join(text.split())
    limit = setting("GAMES_CHAT_MAX_LENGTH")
    if len(text) > limit:
        raise ActionRefused(
            _("A message may hold at most %(limit)d characters.") % {"limit": limit},
            code="too_long",
        )
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise ActionRefused(_("There is no such table."), code="not_found")
    seated = Seat.objects.filter(match=match, user=user).exists()
    if not seated and match.is_private:
        raise ActionRefused(_("You cannot chat at this table."), code="private")
    count, seconds = setting("GAMES_CHAT_RATE")
    recent = ChatMessage.objects.filter(
        user=user, created_at__gte=timezone.now() - timedelta(seconds=seconds)
    ).count()
    if recent >= count:
        raise ActionRefused(_("You are sending messages too fast; wait a moment."), code="rate")
    channel = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
    message = ChatMessage.objects.create(match=match, user=user, channel=channel, text=text)
    notify_match_changed(match.pk, match.version, what="chat")
    return message


def visible_chat(match: Match, *, seated: bool, limit: int = 50) -> list[ChatMessage]:
    """Chat a viewer may read: players see the spectators' channel once the game ends."""
    qs = ChatMessage.objects.filter(match=match, is_hidden=False).select_related("user")
    if seated and match.status == Match.Status.PLAYING:
        qs = qs.filter(channel=ChatMessage.Channel.PLAYERS)
    return list(reversed(qs.order_by("-created_at", "-pk")[:limit]))


def hide_chat_messages(message_ids: Sequence[int], by: Any) -> int:
    """Moderation: hide messages; open tables drop them at once."""
    now = timezone.now()
    with transaction.atomic():
        qs = ChatMessage.objects.filter(pk__in=list(message_ids), is_hidden=False)
        match_ids = set(qs.values_list("match_id", flat=True))
        hidden = qs.update(is_hidden=True, hidden_by=by, hidden_at=now)
        for match_id in match_ids:
            notify_match_changed(match_id, None, what="chat")
    return hidden


# ------------------------------------------------------------ moderation


def abort_match(match: Match | int, reason: str, by: Any | None = None) -> Match:
    """Stop a table for good: nothing in it is rated; seats see it live."""
    with transaction.atomic():
        locked = _locked_or_refuse(match)
        if locked.status != Match.Status.ABORTED:
            _abort_locked(locked, reason, by)
        return locked


def _abort_locked(match: Match, reason: str, by: Any | None) -> None:
    now = timezone.now()
    Deal.objects.filter(match=match, status=Deal.Status.PLAYING).update(
        status=Deal.Status.ABORTED, end_reason=Deal.EndReason.ABORTED, finished_at=now
    )
    match.status = Match.Status.ABORTED
    match.is_rated = False
    match.abort_reason = reason
    match.finished_at = now
    match.turn_deadline = None
    match.bot_due_at = None
    match.version += 1
    match.save()
    match_aborted.send(sender=Match, match=match, reason=reason, by=by)
    notify_match_changed(match.pk, match.version)
    notify_lobby_changed()
