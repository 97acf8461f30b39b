"""Moves in words, in the active language: what a person reads instead of engine notation.

``describe_action(Action.parse("1 defend 7D QD"), ["Ivan", "Maria"])`` reads
"Maria beats 7♦ with Q♦" in English and "Maria кроет 7♦ дамой ♦" in Russian.
Russian puts the beating card in the instrumental case ("дамой", "тузом",
"шестёркой"), so the catalogue holds each rank in that case under its own context.
The engine notation ("1 defend 7D QD") stays in records and the protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from durak.engine import Action

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# The rank as printed in a card's corner.
RANK_SHORT = {
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": pgettext_lazy("card rank in a card's corner", "J"),
    "Q": pgettext_lazy("card rank in a card's corner", "Q"),
    "K": pgettext_lazy("card rank in a card's corner", "K"),
    "A": pgettext_lazy("card rank in a card's corner", "A"),
}
RANK_NAMES = {
    "2": pgettext_lazy("card rank", "two"),
    "3": pgettext_lazy("card rank", "three"),
    "4": pgettext_lazy("card rank", "four"),
    "5": pgettext_lazy("card rank", "five"),
    "6": pgettext_lazy("card rank", "six"),
    "7": pgettext_lazy("card rank", "seven"),
    "8": pgettext_lazy("card rank", "eight"),
    "9": pgettext_lazy("card rank", "nine"),
    "T": pgettext_lazy("card rank", "ten"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
    "A": pgettext_lazy("card rank", "ace"),
}
# "Beat 7♦ with ..." in English keeps the short card; Russian needs the
# instrumental case of the rank ("кроет 7♦ дамой ♦"), hence a context of its own.
RANK_BEATING = {
    "2": pgettext_lazy("beating card's rank (Russian: instrumental case)", "2"),
    "3": pgettext_lazy("beating card's rank (Russian: instrumental case)", "3"),
    "4": pgettext_lazy("beating card's rank (Russian: instrumental case)", "4"),
    "5": pgettext_lazy("beating card's rank (Russian: instrumental case)", "5"),
    "6": pgettext_lazy("beating card's rank (Russian: instrumental case)", "6"),
    "7": pgettext_lazy("beating card's rank (Russian: instrumental case)", "7"),
    "8": pgettext_lazy("beating card's rank (Russian: instrumental case)", "8"),
    "9": pgettext_lazy("beating card's rank (Russian: instrumental case)", "9"),
    "T": pgettext_lazy("beating card's rank (Russian: instrumental case)", "10"),
    "J": pgettext_lazy("beating card's rank (Russian: instrumental case)", "J"),
    "Q": pgettext_lazy("beating card's rank (Russian: instrumental case)", "Q"),
    "K": pgettext_lazy("beating card's rank (Russian: instrumental case)", "K"),
    "A": pgettext_lazy("beating card's rank (Russian: instrumental case)", "A"),
}
SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
# "queen of diamonds": Russian takes the suit in the genitive ("дама бубён").
SUIT_OF = {
    "C": pgettext_lazy("suit after 'of' (Russian: genitive)", "clubs"),
    "D": pgettext_lazy("suit after 'of' (Russian: genitive)", "diamonds"),
    "H": pgettext_lazy("suit after 'of' (Russian: genitive)", "hearts"),
    "S": pgettext_lazy("suit after 'of' (Russian: genitive)", "spades"),
}
UNKNOWN_SEAT = gettext_lazy("Seat %(number)d")


def card_in_words(code: str) -> str:
    """The card as printed on its face: "7♦", "10♠", "Q♥" ("Д♥" in Russian)."""
    return f"{RANK_SHORT[code[0]]}{SUIT_SYMBOLS[code[1]]}"


def card_name(code: str) -> str:
    """The card spelt out for a screen reader: "queen of diamonds", "дама бубён"."""
    return pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[code[0]],
        "suit": SUIT_OF[code[1]],
    }


def suit_name(suit: str) -> str:
    """ "hearts", "червы"; ``suit`` is a suit letter C, D, H or S."""
    return str(SUIT_NAMES[suit])


def beating_card_in_words(code: str) -> str:
    """The card that beats, as the sentence needs it: "Q♦" ("дамой ♦" in Russian)."""
    return pgettext("beating card: rank, then suit symbol", "%(rank)s%(suit)s") % {
        "rank": RANK_BEATING[code[0]],
        "suit": SUIT_SYMBOLS[code[1]],
    }


def cards_in_words(codes: Sequence[str]) -> str:
    """Several cards as a list a person reads: "7♦, 7♠ and 7♣"."""
    words = [card_in_words(code) for code in codes]
    if len(words) < 2:
        return "".join(words)
    return pgettext("a list of cards", "%(cards)s and %(last)s") % {
        "cards": ", ".join(words[:-1]),
        "last": words[-1],
    }


def names_in_words(names: Sequence[str]) -> str:
    """Several people as a list a person reads: "Anna, Boris and Vera"."""
    names = [str(name) for name in names]
    if len(names) < 2:
        return "".join(names)
    return pgettext("a list of people", "%(names)s and %(last)s") % {
        "names": ", ".join(names[:-1]),
        "last": names[-1],
    }


def seat_name(names: Sequence[str] | Mapping[int, str], seat: int) -> str:
    try:
        return str(names[seat])
    except (IndexError, KeyError):
        return UNKNOWN_SEAT % {"number": seat + 1}


def describe_action(
    action: Action,
    names: Sequence[str] | Mapping[int, str],
    *,
    view: Mapping[str, Any] | None = None,
) -> str:
    """The move as a sentence: "Ivan beats 7♦ with Q♦", "Bot (Hard) takes".

    ``names[seat]`` is each seat's display name. ``view``, when given, is the engine's
    ``view()`` of the state just before the move; it tells a lead from a throw-in, a
    "done" over a beaten bout from one while the defender takes, and the swapped trump.
    """
    name = seat_name(names, action.seat)
    kind = action.kind
    cards = action.cards
    table = view.get("table") if view else None
    phase = view.get("phase") if view else None
    if kind == "attack":
        words = {"name": name, "cards": cards_in_words(cards)}
        if table:
            return pgettext("move", "%(name)s throws in %(cards)s") % words
        return pgettext("move", "%(name)s attacks with %(cards)s") % words
    if kind == "defend":
        return pgettext("move", "%(name)s beats %(attack)s with %(card)s") % {
            "name": name,
            "attack": card_in_words(cards[0]),
            "card": beating_card_in_words(cards[1]),
        }
    if kind == "transfer":
        return pgettext("move", "%(name)s transfers with %(cards)s") % {
            "name": name,
            "cards": cards_in_words(cards),
        }
    if kind == "show":
        return pgettext("move", "%(name)s shows the trump %(card)s and transfers") % {
            "name": name,
            "card": card_in_words(cards[0]),
        }
    if kind == "take":
        return pgettext("move", "%(name)s takes") % {"name": name}
    if kind == "done":
        if phase == "taking":
            return pgettext("move", "%(name)s has nothing more to throw in") % {"name": name}
        return pgettext("move", "%(name)s says done") % {"name": name}
    if kind == "swap":
        trump = view.get("trump") if view else None
        if trump:
            return pgettext("move", "%(name)s swaps the trump six for %(card)s") % {
                "name": name,
                "card": card_in_words(trump),
            }
        return pgettext("move", "%(name)s swaps the trump six") % {"name": name}
    return pgettext("move", "%(name)s resigns") % {"name": name}


def suggest_action(action: Action) -> str:
    """The move as advice to the player who would make it: "Beat 7♦ with Q♦."."""
    kind = action.kind
    cards = action.cards
    if kind == "attack":
        return pgettext("advice", "Play %(cards)s.") % {"cards": cards_in_words(cards)}
    if kind == "defend":
        return pgettext("advice", "Beat %(attack)s with %(card)s.") % {
            "attack": card_in_words(cards[0]),
            "card": beating_card_in_words(cards[1]),
        }
    if kind == "transfer":
        return pgettext("advice", "Transfer with %(cards)s.") % {"cards": cards_in_words(cards)}
    if kind == "show":
        return pgettext("advice", "Show the trump %(card)s to transfer.") % {
            "card": card_in_words(cards[0])
        }
    if kind == "take":
        return pgettext("advice", "Take the cards.")
    if kind == "done":
        return pgettext("advice", "Say done.")
    if kind == "swap":
        return pgettext("advice", "Swap the trump six.")
    return pgettext("advice", "Resign.")


def option_in_words(action: Action, view: Mapping[str, Any] | None = None) -> str:
    """The move as one option among others, short and without the seat's name:
    "beat 7♦ with Q♠" ("покрыть 7♦ дамой ♠"), "take", "throw in 7♣".

    ``view`` is the engine's ``view()`` of the state before the move, as for
    :func:`describe_action`: it tells a lead from a throw-in, and "done" from
    "nothing more to throw in".
    """
    kind = action.kind
    cards = action.cards
    table = view.get("table") if view else None
    if kind == "attack":
        if table:
            return pgettext("option", "throw in %(cards)s") % {"cards": cards_in_words(cards)}
        return pgettext("option", "lead %(cards)s") % {"cards": cards_in_words(cards)}
    if kind == "defend":
        return pgettext("option", "beat %(attack)s with %(card)s") % {
            "attack": card_in_words(cards[0]),
            "card": beating_card_in_words(cards[1]),
        }
    if kind == "transfer":
        return pgettext("option", "transfer with %(cards)s") % {"cards": cards_in_words(cards)}
    if kind == "show":
        return pgettext("option", "show the trump %(card)s") % {"card": card_in_words(cards[0])}
    if kind == "take":
        return pgettext("option", "take")
    if kind == "done":
        if view and view.get("phase") == "taking":
            return pgettext("option", "throw in no more")
        return pgettext("option", "done")
    if kind == "swap":
        return pgettext("option", "swap the trump six")
    return pgettext("option", "resign")
