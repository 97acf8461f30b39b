"""A table dealt from hands a test chooses, where the test moves for the bots.

No bot worker runs beside these tests, so a bot seat moves only when the test says
so (through the service layer, as a bot's move is applied): each state of a bout is
one the test chose, and so are the cards on the felt.  The server's ticker reads each
new version from the database and pushes it to the page, as it does for a move made
by another process.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import connection

from durak.engine import RECORD_FORMAT, Rules, deck_codes
from games import services
from games.models import Match, Move, RuleVariant

# The server's ticker announces other processes' moves on each tick: quick ticks make
# a scripted bot's move reach the page at once.
TICK_SECONDS = 0.1

T = TypeVar("T")


def deck_for(rules: Any, hands: list[list[str] | None], trump: str) -> list[str]:
    """A deck that deals ``hands`` (seat by seat, the dealer being the last seat) and
    turns up ``trump`` under the talon.  A seat whose hand is None gets the first
    cards nobody else was given, in the deck's order; so does the talon."""
    chosen = {trump, *(code for hand in hands if hand for code in hand)}
    spare = iter([code for code in deck_codes(rules.deck_size) if code not in chosen])
    filled = [
        list(hand) if hand else [next(spare) for _ in range(rules.hand_size)] for hand in hands
    ]
    dealt: list[str] = []
    for turn in range(rules.hand_size):
        dealt.extend(filled[seat][turn] for seat in range(rules.players))
    # After the dealt cards comes the trump, then the talon, drawn in this list's order.
    return [*dealt, trump, *spare]


def dealt_table(
    creator: Any,
    slug: str,
    hands: list[list[str] | None],
    trump: str,
    *,
    attacker: int,
    rules: Rules | None = None,
) -> Match:
    """A private table, the creator in seat 0 and bots elsewhere, dealt ``hands``, the
    variant's rules for that many players unless ``rules`` are given."""
    variant = RuleVariant.objects.get(slug=slug)
    rules = rules or variant.rules_for(len(hands))
    record = {
        "format": RECORD_FORMAT,
        "rules": rules.to_dict(),
        "deck": deck_for(rules, hands, trump),
        "dealer": rules.players - 1,
        "first_attacker": attacker,
        "first_attacker_by": "given",
        "actions": [],
        "result": None,
    }
    return off_the_loop(
        lambda: services.create_match_from_position(creator, variant, record, 0, bot_level="easy")
    )


def off_the_loop(work: Callable[[], T]) -> T:
    """Run ``work`` on a thread of its own, as a bot worker's moves run in a process of
    their own: this thread runs the browser's event loop, where no push can be sent."""

    def run() -> T:
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def bot_moves(match: Match, action: str) -> None:
    """A bot seat's move, applied as the bot worker applies one."""

    def move() -> None:
        match.refresh_from_db()
        seat = int(action.split(" ", 1)[0])
        services.apply_action(match.pk, seat, action, version=match.version, source=Move.Source.BOT)

    off_the_loop(move)
