"""One renderer of playing cards, for the live table and the replay.

A face is the deck's SVG file (static/cards, LGPL-3.0) inside a span that carries the
card's engine code in ``data-card`` (scripts and tests read it) and its localised name
as the accessible name, so a screen reader says "queen of spades", never "QS".
"""

from __future__ import annotations

from functools import lru_cache

from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_LABELS = {"T": "10"}
SUIT_NAMES = {
    "C": gettext_noop("clubs"),
    "D": gettext_noop("diamonds"),
    "H": gettext_noop("hearts"),
    "S": gettext_noop("spades"),
}
RANK_NAMES = {
    "J": gettext_noop("jack"),
    "Q": gettext_noop("queen"),
    "K": gettext_noop("king"),
    "A": gettext_noop("ace"),
}
# The deck's file names: rank number (ace 1, jack 11 … king 13) then the suit's letter.
FACE_RANKS = {"A": "1", "T": "10", "J": "11", "Q": "12", "K": "13"}


def face_url(code: str) -> str:
    rank, suit = code[0], code[1]
    return static(f"cards/{FACE_RANKS.get(rank, rank)}{suit.lower()}.svg")


def card_label(code: str) -> str:
    """The card's name in the active language, e.g. "queen of spades"."""
    rank, suit = code[0], code[1]
    name = _(RANK_NAMES[rank]) if rank in RANK_NAMES else RANK_LABELS.get(rank, rank)
    return _("%(rank)s of %(suit)s") % {"rank": name, "suit": _(SUIT_NAMES[suit])}


def card_html(code: str) -> SafeString:
    """A face-up card."""
    return _card_html(code, get_language())


@lru_cache(maxsize=512)
def _card_html(code: str, language: str | None) -> SafeString:
    # Built once per language and card: a table shows dozens of cards per push.
    return format_html(
        '<span class="playing-card{}" data-card="{}" role="img" aria-label="{}">'
        '<img src="{}" alt=""></span>',
        " red" if code[1] in "DH" else "",
        code,
        card_label(code),
        face_url(code),
    )


def back_html() -> SafeString:
    """A face-down card (its picture comes from the stylesheet); it tells nothing, so
    screen readers skip it."""
    return BACK_HTML


# A seat shows up to eight of these in every push: the shorter the better.
BACK_HTML = mark_safe('<span class="playing-card back" aria-hidden="true"></span>')
