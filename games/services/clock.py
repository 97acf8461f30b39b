"""The turn clock: deadlines, reconnect budgets and when a bot moves.

A seat the game waits for ("required": it has a safe default the timer may play)
that is away spends its reconnect budget from the later of its leaving and the
turn's start.  The turn ends at the turn timer, or sooner when such a seat's budget
runs out; then the seat forfeits.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta

from durak.engine import Game
from games.bot_speed import bots_between_turns, scaled_delay
from games.conf import setting
from games.models import Match, Seat


def ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def required_seats(game: Game) -> list[int]:
    """Seats the game waits for: each has a safe default the timer may play."""
    if game.is_over:
        return []
    return [s for s in game.to_act() if game.default_action(s) is not None]


def away_this_turn(
    match: Match, seats: list[Seat], required: list[int]
) -> Iterator[tuple[Seat, datetime]]:
    """(seat, since when it spends its budget) for each required player who is away."""
    if match.turn_started_at is None:
        return
    for seat in seats:
        if seat.number in required and seat.user_id and seat.disconnected_since:
            yield seat, max(seat.disconnected_since, match.turn_started_at)


def budget_runs_out_at(seat: Seat, since: datetime) -> datetime:
    return since + timedelta(milliseconds=seat.reconnect_budget_ms)


def seat_turn_seconds(seats: list[Seat]) -> dict[int, int]:
    """The seats with a turn time of their own (``Seat.turn_seconds``), and theirs."""
    return {seat.number: seat.turn_seconds for seat in seats if seat.turn_seconds}


def seat_deadlines(match: Match, seats: list[Seat], game: Game) -> dict[int, datetime]:
    """When each required seat's turn ends: the turn timer (the seat's own, where it has
    one), shortened if its reconnect budget runs out first."""
    if game.is_over or match.turn_started_at is None:
        return {}
    required = required_seats(game)
    own = seat_turn_seconds(seats)
    ends = {
        number: match.turn_started_at + timedelta(seconds=own.get(number, match.turn_seconds))
        for number in required
    }
    for seat, since in away_this_turn(match, seats, required):
        ends[seat.number] = min(ends[seat.number], budget_runs_out_at(seat, since))
    return ends


def deadline(match: Match, seats: list[Seat], game: Game) -> datetime | None:
    """When the first required seat's turn ends (see ``seat_deadlines``)."""
    if game.is_over or match.turn_started_at is None:
        return None
    ends = seat_deadlines(match, seats, game)
    if not ends:  # nobody the game waits for: the timer as it always runs
        return match.turn_started_at + timedelta(seconds=match.turn_seconds)
    return min(ends.values())


def charge_budgets(match: Match, seats: list[Seat], required: list[int], now: datetime) -> None:
    """Spend the reconnect budget of required seats that were away during this turn."""
    for seat, since in list(away_this_turn(match, seats, required)):
        spent = ms(now - since)
        if spent > 0:
            seat.reconnect_budget_ms = max(0, seat.reconnect_budget_ms - spent)
            seat.save(update_fields=["reconnect_budget_ms"])


def schedule(match: Match, seats: list[Seat], game: Game, now: datetime) -> None:
    """A new turn starts now: set the timer and, if a bot may move, when it should."""
    match.turn_started_at = now
    match.turn_deadline = deadline(match, seats, game)
    if game.is_over:
        match.bot_due_at = None
        return
    movers = {turn.seat for turn in game.to_act() if game.legal_actions(turn.seat)}
    bots = [s for s in seats if s.is_bot and s.number in movers]
    match.bot_due_at = now + bot_delay(match, seats, game) if bots else None


def bot_delay(match: Match, seats: list[Seat], game: Game) -> timedelta:
    """The pause before a bot's move at this table: the configured one, shared out among
    the bots a person waits for between turns and scaled by the table's bots' speed."""
    low, high = setting("GAMES_BOT_DELAY")
    out = set(game.out_order)
    in_deal = [s for s in seats if s.number not in out]
    bots = sum(1 for s in in_deal if s.is_bot)
    between = bots_between_turns(bots, len(in_deal) - bots)
    seconds = scaled_delay(
        random.uniform(low, high), between, match.bot_speed, setting("GAMES_BOT_DELAY_FLOOR")
    )
    return timedelta(seconds=seconds)
