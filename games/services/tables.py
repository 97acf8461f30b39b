"""Tables: create, join, leave, start, rematch and abort."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from durak.engine import Game, Rules
from durak.engine import Match as EngineMatch
from games.conf import setting
from games.models import BotLevel, BotSpeed, Deal, Match, Move, RuleVariant, Seat, SocketPresence
from games.seat_rules import check_seat
from games.services.common import (
    Refused,
    load_game,
    load_seats,
    locked_or_refuse,
    notify_lobby_changed,
    notify_match_changed,
    notify_seats_changed,
    refuse_suspended,
    seat_of,
    table_transaction,
)
from games.services.limits import refuse_bot_table_over_cap
from games.services.play import new_deal
from games.signals import match_aborted


def _every_seat_taken(seats: list[Seat]) -> bool:
    return all(s.user_id or s.bot_level for s in seats)


def _shuffler(match: Match) -> random.Random:
    """The deck's shuffle: the match's fixed seed (the same deal for everyone) or chance."""
    return random.Random(match.seed) if match.seed else secrets.SystemRandom()


def create_match(
    creator: Any,
    variant: RuleVariant,
    players: int,
    *,
    is_private: bool = False,
    bots: Sequence[str] = (),
    rules: Rules | None = None,
    turn_seconds: int | None = None,
    is_rated: bool = True,
    seed: str = "",
    bot_speed: str = BotSpeed.NORMAL,
) -> Match:
    """Open a table with the creator in seat 0.

    ``bots`` gives a level (or "" for a human) for seats 1, 2, ... in order; seats
    not named wait for players.  The table starts by itself once every seat is taken.
    ``rules`` and ``turn_seconds`` replace the variant's for this table: the caller
    has checked them against the variant (the matchmaking picks the deck, say).
    ``seed`` fixes the deal and the bots' random choices (``Match.seed``);
    ``bot_speed`` is how soon its bots move (``games.bot_speed``).
    """
    refuse_suspended(creator)
    if not variant.is_active:
        raise Refused(_("This variant is not available."), code="variant")
    if not isinstance(players, int) or not variant.min_players <= players <= variant.max_players:
        raise Refused(variant.players_rule(), code="players")
    if rules is None:
        try:
            rules = variant.rules_for(players)
        except ValueError as error:
            raise Refused(str(error), code="rules") from None
    levels = list(bots)
    if len(levels) > players - 1:
        raise Refused(_("There are more bots than free seats."), code="bots")
    if any(level and level not in BotLevel.values for level in levels):
        raise Refused(_("Unknown bot level."), code="bots")
    if bot_speed not in BotSpeed.values:
        raise Refused(_("Choose the bots' speed: normal or fast."), code="bot_speed")
    teams = rules.team_of
    with table_transaction():
        match = Match.objects.create(
            variant=variant,
            players=players,
            rules=rules.to_dict(),
            creator=creator,
            is_private=is_private,
            is_rated=is_rated and variant.rates_a_table(with_bots=any(levels)),
            turn_seconds=turn_seconds or variant.turn_seconds,
            reconnect_seconds=variant.reconnect_seconds,
            seed=seed,
            bot_speed=bot_speed,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                number=number,
                team=teams[number] if teams else None,
                user=creator if number == 0 else None,
                bot_level=levels[number - 1] if 0 < number <= len(levels) else "",
                reconnect_budget_ms=match.reconnect_seconds * 1000,
                # Away until the player's table socket opens.
                disconnected_since=match.created_at if number == 0 else None,
            )
            for number in range(players)
        )
        seats = load_seats(match.pk)
        if _every_seat_taken(seats) and setting("GAMES_AUTO_START"):
            new_deal(match, seats, Game.new(rules, _shuffler(match)), timezone.now())
        notify_lobby_changed()
        notify_seats_changed([creator.pk])
    return match


def create_match_from_position(
    creator: Any,
    variant: RuleVariant,
    record: dict[str, Any],
    seat: int,
    *,
    bot_level: str = BotLevel.HARD,
    sources: Sequence[str] = (),
) -> Match:
    """Open an unrated private table that goes on from a position of another deal.

    ``record`` is an engine record whose actions lead to the position (the deal's real
    deck and moves); ``creator`` sits at ``seat`` and bots of ``bot_level`` take every
    other seat.  The new deal stores those actions as its first moves (``sources[i]``
    says who made move i: a player, a bot, a timer), so its record and replay are the
    whole game, and each seat knows exactly what it knew at that point.
    """
    current = refuse_suspended(creator)
    try:
        game = Game.from_record({**record, "result": None})
    except ValueError:
        raise Refused(_("That position cannot be played on."), code="position") from None
    if game.is_over:
        raise Refused(_("The game is over at that step."), code="over")
    if not isinstance(seat, int) or not 0 <= seat < game.players:
        raise Refused(_("There is no such seat."), code="seat")
    if seat in game.out_order:
        raise Refused(_("That seat is already out at that step."), code="out")
    if bot_level not in BotLevel.values:
        raise Refused(_("Unknown bot level."), code="bots")
    teams = game.rules.team_of
    with table_transaction():
        match = Match.objects.create(
            variant=variant,
            players=game.players,
            rules=game.rules.to_dict(),
            creator=current,
            is_private=True,
            is_rated=False,
            turn_seconds=variant.turn_seconds,
            reconnect_seconds=variant.reconnect_seconds,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                number=number,
                team=teams[number] if teams else None,
                user=current if number == seat else None,
                bot_level="" if number == seat else bot_level,
                reconnect_budget_ms=match.reconnect_seconds * 1000,
                disconnected_since=match.created_at if number == seat else None,
            )
            for number in range(game.players)
        )
        deal = new_deal(match, load_seats(match.pk), game, timezone.now())
        Move.objects.bulk_create(
            Move(
                match=match,
                deal=deal,
                seq=number,
                seat=action.seat,
                action=str(action),
                source=sources[number - 1] if number <= len(sources) else Move.Source.PLAYER,
            )
            for number, action in enumerate(game.history, start=1)
        )
        match.move_count = len(game.history)
        match.save(update_fields=["move_count"])
        notify_seats_changed([current.pk])
    return match


def join_match(match: Match | int, user: Any, *, token: str | None = None) -> Seat:
    """Sit ``user`` at the first free seat (private tables need the invite token)."""
    refuse_suspended(user)
    with table_transaction():
        locked = locked_or_refuse(match)
        seats = load_seats(locked.pk)
        mine = seat_of(seats, user)
        if mine is not None:
            return mine
        if locked.status != Match.Status.WAITING:
            raise Refused(_("This table has already started."), code="started")
        if locked.is_private and token != locked.invite_token:
            raise Refused(_("This table is private: join it with its invite link."), code="private")
        free = next((s for s in seats if not s.user_id and not s.bot_level), None)
        if free is None:
            raise Refused(_("This table is full."), code="full")
        # The conditions of the apps above (a block, the table's least reliability).
        check_seat(locked, seats, user)
        free.user = user
        free.disconnected_since = timezone.now()  # away until their table socket opens
        free.save(update_fields=["user", "disconnected_since"])
        locked.version += 1
        locked.save(update_fields=["version"])
        notify_match_changed(locked.pk, locked.version)
        notify_lobby_changed()
        notify_seats_changed([user.pk])
        if setting("GAMES_AUTO_START") and _every_seat_taken(seats):
            game = Game.new(locked.engine_rules, _shuffler(locked))
            new_deal(locked, seats, game, timezone.now())
        return free


def leave_match(match: Match | int, user: Any) -> None:
    """Give up a seat before the start; the creator leaving closes the table."""
    with table_transaction():
        locked = locked_or_refuse(match)
        mine = seat_of(load_seats(locked.pk), user)
        if mine is None:
            raise Refused(_("You have no seat at this table."), code="not_seated")
        if locked.status != Match.Status.WAITING:
            raise Refused(_("The game has started: resign instead of leaving."), code="started")
        if locked.creator_id == user.pk:
            _abort_locked(locked, _("The creator left the table."), user)
            return
        # The seat's sockets stop counting for it: they belonged to the user who left,
        # and must not keep the seat's next occupant present.
        SocketPresence.objects.filter(seat=mine).delete()
        mine.user = None
        mine.disconnected_since = None
        mine.save(update_fields=["user", "disconnected_since"])
        locked.version += 1
        locked.save(update_fields=["version"])
        notify_match_changed(locked.pk, locked.version)
        notify_lobby_changed()
        notify_seats_changed([user.pk])


def start_match(match: Match | int, by: Any | None = None, *, bots: str = "") -> Deal:
    """Deal the first game; ``by`` must be the creator (None: the server itself).

    ``bots`` names a level: bots of that level take the seats nobody took, so a host
    whose friends did not all come can still play. A table that does not rate games
    with bots is unrated from then on.
    """
    if by is not None:
        refuse_suspended(by)
    if bots and bots not in BotLevel.values:
        raise Refused(_("Unknown bot level."), code="bots")
    with table_transaction():
        locked = locked_or_refuse(match)
        if by is not None and locked.creator_id != by.pk:
            raise Refused(_("Only the creator can start the table."), code="not_creator")
        if locked.status != Match.Status.WAITING:
            raise Refused(_("This table has already started."), code="started")
        seats = load_seats(locked.pk)
        if bots and by is not None and any(not s.user_id and not s.bot_level for s in seats):
            refuse_bot_table_over_cap(by, besides=locked.pk)
        if bots:
            _seat_bots(locked, seats, bots)
        if not _every_seat_taken(seats):
            raise Refused(_("Wait until every seat is taken."), code="not_full")
        game = Game.new(locked.engine_rules, _shuffler(locked))
        return new_deal(locked, seats, game, timezone.now())


def _seat_bots(match: Match, seats: list[Seat], level: str) -> None:
    free = [s for s in seats if not s.user_id and not s.bot_level]
    for seat in free:
        seat.bot_level = level
    Seat.objects.bulk_update(free, ["bot_level"])
    if free and match.is_rated and not match.variant.rates_a_table(with_bots=True):
        match.is_rated = False
        match.save(update_fields=["is_rated"])


def start_next_deal(match: Match | int, by: Any | None = None) -> Deal | None:
    """The rematch: the next game of the match, dealt by the previous fool.

    A person's rematch is an offer: the next game starts once every person seated has
    asked for it (None until then; the table shows who asked). Without ``by`` (the
    server's own call) it starts at once.
    """
    if by is not None:
        refuse_suspended(by)
    with table_transaction():
        locked = locked_or_refuse(match)
        seats = load_seats(locked.pk)
        asking = seat_of(seats, by) if by is not None else None
        if by is not None and asking is None:
            raise Refused(_("Only players at the table can start a rematch."), code="not_seated")
        if locked.status != Match.Status.FINISHED:
            raise Refused(_("The game is not over yet."), code="not_over")
        if locked.seed:
            # The same seed would deal the same cards again: a second try at a fixed deal.
            raise Refused(
                _("This table plays one fixed deal: it has no rematch."), code="fixed_deal"
            )
        previous = load_game(locked)
        rules = locked.engine_rules
        if previous is None or not previous.is_over:
            raise Refused(_("The game is not over yet."), code="not_over")
        if by is not None and any(s.bot_level for s in seats):
            # The table's bots play again: one more of its creator's bot tables.
            refuse_bot_table_over_cap(locked.creator, besides=locked.pk)
        if asking is not None and _offer_rematch(locked, seats, asking):
            return None
        series = EngineMatch(rules)
        series.games = [previous]
        dealer, lead = series.next_deal()
        game = Game.new(rules, secrets.SystemRandom(), dealer=dealer, first_attacker=lead)
        return new_deal(locked, seats, game, timezone.now())


def _offer_rematch(match: Match, seats: list[Seat], asking: Seat) -> bool:
    """Note ``asking``'s wish for a rematch; True while some other person has not asked."""
    if asking.wants_rematch:
        raise Refused(_("You asked for a rematch already."), code="repeated")
    asking.wants_rematch = True
    asking.save(update_fields=["wants_rematch"])
    if all(s.wants_rematch for s in seats if s.user_id):
        return False
    match.version += 1  # the table shows who asked
    match.save(update_fields=["version"])
    notify_match_changed(match.pk, match.version)
    return True


def decline_rematch(match: Match | int, by: Any) -> Match:
    """``by`` says no to the rematch another player asked for: every wish for it is
    cleared, so no next game starts until someone asks again; the table shows the
    offer gone.  Under the match's lock, as the offer itself."""
    refuse_suspended(by)
    with table_transaction():
        locked = locked_or_refuse(match)
        seats = load_seats(locked.pk)
        declining = seat_of(seats, by)
        if declining is None:
            raise Refused(_("Only players at the table can start a rematch."), code="not_seated")
        if locked.status != Match.Status.FINISHED:
            raise Refused(_("The game is not over yet."), code="not_over")
        asked = [s for s in seats if s.wants_rematch and s.pk != declining.pk]
        if not asked:
            raise Refused(_("Nobody asked for a rematch."), code="no_offer")
        Seat.objects.filter(match=locked).update(wants_rematch=False)
        locked.version += 1
        locked.save(update_fields=["version"])
        notify_match_changed(locked.pk, locked.version)
        return locked


def abort_match(match: Match | int, reason: str, by: Any | None = None) -> Match:
    """Stop a table for good: nothing in it is rated; seats see it live."""
    with table_transaction():
        locked = locked_or_refuse(match)
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
    notify_seats_changed(Seat.objects.filter(match=match).values_list("user_id", flat=True))
