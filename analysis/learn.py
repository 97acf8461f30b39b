"""Learn from your mistakes by playing the card: what the position offers and how a try
is judged.

The player plays the position as at the table: a card of their hand (then, when that
card can go more than one way, which way), or a move without a card (take, done).
Every move is checked against the decision's stored ``values``: anything else is no
move there.  A try within ``review.GOOD_ENOUGH`` of the best is confirmed; otherwise
the player may retry or see the better moves with their chances.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from durak.engine import Action
from games.move_words import option_in_words

from .panel import OPTIONS_SHOWN, hand_cards
from .review import Judged, verdict


class NotAMove(ValueError):
    """What was sent names no legal move of the seat there."""


def moves_of(decision: Judged) -> list[Action]:
    """The seat's legal moves there, in the engine's order."""
    return [Action.parse(text) for text in decision.values]


def playable_cards(decision: Judged) -> set[str]:
    return {card for action in moves_of(decision) for card in hand_cards(action)}


def cardless_moves(decision: Judged, view: Mapping[str, Any]) -> list[dict[str, str]]:
    """The moves played without a card of the hand (take, done), as buttons."""
    return [
        {"text": str(action), "words": option_in_words(action, view)}
        for action in moves_of(decision)
        if not hand_cards(action)
    ]


def ways_to_play(decision: Judged, card: str, view: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every move that plays ``card`` (on this attack card or that one, a transfer, a lead
    with others of its rank); NotAMove when none does."""
    ways = [
        {"text": str(action), "words": option_in_words(action, view)}
        for action in moves_of(decision)
        if card in hand_cards(action)
    ]
    if not ways:
        raise NotAMove(card)
    return ways


def alternatives(decision: Judged, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The best moves there, best first, in words with the chance each keeps."""
    return [
        {"words": option_in_words(action, view), "value": value, "is_best": i == 0}
        for i, (action, value) in enumerate(decision.ranked()[:OPTIONS_SHOWN])
    ]


def judge_try(
    decision: Judged, data: Mapping[str, str], view: Mapping[str, Any], names: Sequence[str]
) -> dict[str, Any]:
    """The feedback on what the player sent: a move (``action``), a card (``card``: the
    move when it goes one way only, else the ways to choose from), or ``answer``.
    NotAMove when it names no legal move of the seat there."""
    if data.get("answer"):
        return {
            "answer": True,
            "best": option_in_words(decision.best, view),
            "best_cards": " ".join(hand_cards(decision.best)),
            "value": decision.before,
            "alternatives": alternatives(decision, view),
        }
    tried = data.get("action", "")
    card = data.get("card", "")
    if not tried and card:
        ways = ways_to_play(decision, card, view)
        if len(ways) > 1:
            return {"card": card, "ways": ways}
        tried = ways[0]["text"]
    if tried not in decision.values:
        raise NotAMove(tried)
    good, value = verdict(decision, tried)
    feedback = {
        "tried": tried,
        "tried_cards": " ".join(hand_cards(Action.parse(tried))),
        "words": option_in_words(Action.parse(tried), view),
        "good": good,
        "value": value,
        "best_value": decision.before,
        "was_played": tried == str(decision.action),
    }
    if not good:
        feedback["alternatives"] = alternatives(decision, view)
    return feedback
