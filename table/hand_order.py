"""The order of the cards in a player's hand, as the popular Durak apps lay it out.

By suit (the default): the plain suits first, each suit together and ascending by
rank, the trumps last at the right, ascending.  By rank: the plain cards ascending by
rank whatever their suit, then the trumps, ascending.  Either way a trump never sits
among the plain cards.

The plain suits alternate in colour where they can (black, red, black, or red, black,
red, then the trumps of the other colour), so two suits of one colour never touch.
"""

from __future__ import annotations

from durak.engine import RANKS

RED = "DH"
# Spades, hearts, clubs, diamonds: black and red by turns.
SUIT_ORDER = "SHCD"


def suit_order(trump_suit: str) -> str:
    """The four suits left to right for a hand with ``trump_suit``: the trump last.

    Of the three plain suits, the one of the trump's colour goes in the middle, so that
    the colours alternate across all four.
    """
    plain = [suit for suit in SUIT_ORDER if suit != trump_suit]
    same = [suit for suit in plain if (suit in RED) == (trump_suit in RED)]
    other = [suit for suit in plain if suit not in same]
    return "".join([other[0], *same, *other[1:], trump_suit])


def by_suit(codes: list[str], trump_suit: str) -> list[str]:
    """The hand ordered by suit, trumps last; each suit ascending by rank."""
    suits = suit_order(trump_suit)
    return sorted(codes, key=lambda code: (suits.index(code[1]), RANKS.index(code[0])))


def by_rank(codes: list[str], trump_suit: str) -> list[str]:
    """The hand ordered by rank, trumps last; cards of one rank in the suits' order."""
    suits = suit_order(trump_suit)
    return sorted(
        codes,
        key=lambda code: (code[1] == trump_suit, RANKS.index(code[0]), suits.index(code[1])),
    )
