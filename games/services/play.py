"""Playing a deal: apply an action, resign, and start or finish a deal."""

from __future__ import annotations

from datetime import datetime

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from durak.engine import Action, Game, IllegalAction
from games import table_sql
from games.action_log import action_kind, log_refused_action
from games.models import Deal, Match, Move, Seat
from games.refusal_reasons import refusal_reason
from games.services import clock
from games.services.common import (
    ActionOutcome,
    Refused,
    load_game,
    notify_lobby_changed,
    notify_match_changed,
    notify_seats_changed,
    notify_turn_started,
    refuse_if_suspended,
    seat_of,
    table_transaction,
)
from games.signals import deal_finished
from games.table_sql import table_rows

MAX_ACTION_TEXT = 64


def lock_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match, locked, and its seats with their users."""
    try:
        return table_rows(match_id, lock=True)
    except Match.DoesNotExist:
        raise Refused(_("There is no such table."), code="not_found") from None


def apply_action(
    match_id: int,
    user_or_seat: object,
    action_text: str,
    *,
    version: int | str | None,
    source: str = Move.Source.PLAYER,
    now: datetime | None = None,
) -> ActionOutcome:
    """Apply one action for a user (or, server-side, a seat number) at ``version``.

    The version must equal the match's: a stale or repeated message is refused and
    changes nothing.  Raises Refused with a message for the player.
    """
    user_id = getattr(user_or_seat, "pk", None) if not isinstance(user_or_seat, int) else None
    seat_no = None
    try:
        if not isinstance(action_text, str) or len(action_text) > MAX_ACTION_TEXT:
            raise Refused(_("That is not a move."), code="malformed")
        try:
            action = Action.parse(action_text)
        except (IllegalAction, ValueError, OverflowError):
            # Whatever the notation's parser makes of hostile text, it is no move.
            raise Refused(_("That is not a move."), code="malformed") from None
        expected = _version_number(version)
        now = now or timezone.now()
        with table_transaction():
            match, seats = lock_with_seats(match_id)
            if match.status != Match.Status.PLAYING:
                raise Refused(_("No game is in progress at this table."), code="not_playing")
            if expected != match.version:
                if expected == match.version - 1 and last_move_was(match, action):
                    # A double click: the first one already played this very move.
                    raise Refused(_("That move is already played."), code="repeated")
                raise Refused(
                    _("The table changed before your move arrived; please try again."),
                    code="stale",
                )
            seat = seat_of(seats, user_or_seat)
            if seat is None:
                raise Refused(_("You have no seat at this table."), code="not_seated")
            seat_no = seat.number
            if seat.user is not None and not isinstance(user_or_seat, int):
                refuse_if_suspended(seat.user)  # loaded with the lock: current
            if action.seat != seat.number:
                raise Refused(_("You can only move for your own seat."), code="forged_seat")
            game = load_game(match)
            # A swap or a resignation may come at any time; everything else in turn.
            if action.kind not in ("swap", "resign") and seat.number not in game.to_act():
                raise Refused(_("It is not your turn."), code="not_your_turn")
            try:
                return apply_locked(match, seats, game, action, source=source, now=now)
            except IllegalAction as error:
                raise Refused(
                    _("That move is not allowed: %(reason)s") % {"reason": _reason(error)},
                    code="illegal",
                ) from None
    except Refused as refused:
        log_refused_action(match_id, user_id, seat_no, action_kind(action_text), refused.code)
        raise


def _version_number(version: object) -> int:
    """The table version a move names: a whole number (as JSON or text), nothing else."""
    if isinstance(version, bool) or not isinstance(version, (int, str)):
        # Floats included: 1e400 is infinity, and 3.7 names no version.
        raise Refused(_("The move carries no table version."), code="malformed")
    if isinstance(version, str) and not (version.isascii() and version.isdigit()):
        raise Refused(_("The move carries no table version."), code="malformed")
    if isinstance(version, str) and len(version) > 19:
        raise Refused(_("The move carries no table version."), code="malformed")
    return int(version)


def last_move_was(match: Match, action: Action) -> bool:
    last = Move.objects.filter(match=match).order_by("-seq").values_list("action", flat=True)
    return last.first() == str(action)


def _reason(error: IllegalAction) -> str:
    # The engine names its reason with a code, worded here in the player's language.
    worded = refusal_reason(getattr(error, "code", None))
    if worded is not None:
        return worded
    # An unknown code: the engine's English text, less the action it prefixes (the
    # player knows it).
    text = str(error)
    return text.split(": ", 1)[1] if ": " in text else text


def resign(match_id: int, user: object) -> ActionOutcome:
    """The user gives up the game in progress and becomes its fool."""
    with table_transaction():
        match, seats = lock_with_seats(match_id)
        if match.status != Match.Status.PLAYING:
            raise Refused(_("No game is in progress at this table."), code="not_playing")
        seat = seat_of(seats, user)
        if seat is None:
            raise Refused(_("You have no seat at this table."), code="not_seated")
        refuse_if_suspended(seat.user)
        game = load_game(match)
        try:
            return apply_locked(
                match,
                seats,
                game,
                Action(seat.number, "resign"),
                source=Move.Source.PLAYER,
                now=timezone.now(),
                end_reason=Deal.EndReason.RESIGNED,
            )
        except IllegalAction:
            raise Refused(_("You are already out of this game."), code="illegal") from None


_MATCH_FIELDS_A_MOVE_WRITES = [
    "state",
    "version",
    "move_count",
    "status",
    "turn_started_at",
    "turn_deadline",
    "bot_due_at",
    "finished_at",
]


def apply_locked(
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
    required = clock.required_seats(game)
    game.apply(action)
    clock.charge_budgets(match, seats, required, now)
    think_ms = max(0, clock.ms(now - match.turn_started_at)) if match.turn_started_at else 0
    match.move_count += 1
    table_sql.insert(
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
        clock.schedule(match, seats, game, now)
        # Only a turn that starts with this move: not every throw-in while one waits.
        notify_turn_started(match.pk, seats, set(clock.required_seats(game)) - set(required))
    table_sql.update_fields(match, _MATCH_FIELDS_A_MOVE_WRITES)
    if deal is not None:
        match.live_deal = deal
        deal_finished.send(sender=Deal, deal=deal)
    notify_match_changed(match.pk, match.version)
    return ActionOutcome(
        match.pk,
        match.version,
        match.move_count,
        str(action),
        game.is_over,
        table=None if game.is_over else (match, seats, game),
    )


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
    notify_seats_changed(seat.user_id for seat in seats)
    # The lobby counts the tables playing and lists the games in progress.
    notify_lobby_changed()
    match.finished_at = now
    match.turn_deadline = None
    match.bot_due_at = None
    return deal


def record_deal(match: Match, game: Game) -> Deal:
    """The ``Deal`` row of ``game``, numbered after the match's earlier deals."""
    return Deal.objects.create(
        match=match,
        number=Deal.objects.filter(match_id=match.pk).count() + 1,
        rules=match.rules,
        deck=game.deck,
        dealer=game.dealer,
        first_attacker=game.first_attacker,
        first_attacker_by=game.first_attacker_by,
    )


def new_deal(match: Match, seats: list[Seat], game: Game, now: datetime) -> Deal:
    """Start ``game`` as the match's next deal: every seat's reconnect budget is full again."""
    deal = record_deal(match, game)
    for seat in seats:
        # A player who is away (or never opened the table) stays away: the budget
        # is spent from the later of that and the first turn's start.
        seat.reconnect_budget_ms = match.reconnect_seconds * 1000
        seat.wants_rematch = False
        seat.save(update_fields=["reconnect_budget_ms", "wants_rematch"])
    match.live_deal = deal
    match.state = game.snapshot()
    match.status = Match.Status.PLAYING
    match.started_at = match.started_at or now
    match.finished_at = None
    match.version += 1
    clock.schedule(match, seats, game, now)
    match.save()
    notify_match_changed(match.pk, match.version)
    notify_turn_started(match.pk, seats, clock.required_seats(game))
    notify_lobby_changed()
    notify_seats_changed(seat.user_id for seat in seats)
    return deal
