"""The ``greedy`` baseline: an outside yardstick for the search bot, not a lobby level.

Its rules, and nothing else (card value is the rank, every trump above every plain card):

- it leads its lowest card, one card at a time, and leads no trump while it holds a
  plain card;
- it throws in its lowest card that fits, and adds no trump while the talon lasts;
  with nothing to add it says done;
- it defends with the cheapest card that beats (unbeaten cards in table order, each
  with the cheapest card left that beats it), and takes when it cannot beat them all;
- it never transfers, shows a trump or swaps the trump six.

It reads the public game interface only: its own hand, the table, the trump and the
talon count.
"""

from __future__ import annotations

import random

from durak.engine import RANKS, Action, Game, beats


def card_value(code: str, trump_suit: str) -> int:
    """Rank order, with every trump above every plain card."""
    return RANKS.index(code[0]) + (len(RANKS) if code[1] == trump_suit else 0)


def greedy_move(game: Game, seat: int, acts: list[Action], rng: random.Random) -> Action:
    """The baseline's choice among ``acts`` (the seat's legal actions, at least one)."""
    trump = game.trump_suit
    kinds: dict[str, list[Action]] = {}
    for a in acts:
        kinds.setdefault(a.kind, []).append(a)
    table = game.table()
    if seat == game.defender and any(defence is None for _, defence in table):
        return _defend(game, seat, table, kinds, trump) or acts[0]
    singles = [a for a in kinds.get("attack", []) if len(a.cards) == 1]
    if not table:
        plain = [a for a in singles if a.cards[0][1] != trump]
        pick = plain or singles
        return min(pick, key=lambda a: _order(a.cards[0], trump))
    if game.talon_count:
        singles = [a for a in singles if a.cards[0][1] != trump]
    if singles:
        return min(singles, key=lambda a: _order(a.cards[0], trump))
    for key in ("done", "take"):
        if key in kinds:
            return kinds[key][0]
    return acts[0]


def _order(code: str, trump: str) -> tuple[int, str]:
    return card_value(code, trump), code[1]


def _defend(
    game: Game, seat: int, table: list[list[str | None]], kinds: dict[str, list[Action]], trump: str
) -> Action | None:
    hand = sorted(game.hand(seat), key=lambda c: _order(c, trump))
    first = None
    for attack, defence in table:
        if defence is not None:
            continue
        beater = next((c for c in hand if beats(c, attack, trump)), None)
        if beater is None:
            return kinds["take"][0] if "take" in kinds else None
        hand.remove(beater)
        if first is None:
            first = (attack, beater)
    if first is None:
        return None
    want = Action(seat, "defend", first)
    return want if want in kinds.get("defend", []) else None
