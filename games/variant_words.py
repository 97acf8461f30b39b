"""A variant's name and description in the reader's language.

The standard variants live in the database (games/migrations/0002_standard_variants.py);
their words are listed here so that they reach the catalogue. A variant an admin adds
shows its words as written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

VARIANT_NAMES = [
    gettext_noop("Classic"),
    gettext_noop("Transfer"),
    gettext_noop("Transfer with trump show"),
    gettext_noop("Teams 2x2"),
    gettext_noop("Teams 3x3"),
    gettext_noop("52-card"),
    gettext_noop("24-card"),
    gettext_noop("One winner"),
]
VARIANT_DESCRIPTIONS = [
    gettext_noop("Podkidnoy durak with a 36-card deck: throw in cards of ranks on the table."),
    gettext_noop(
        "Perevodnoy durak: the defender may pass the attack on with a card of the same rank."
    ),
    gettext_noop(
        "Perevodnoy durak where showing a trump of the attack's rank also passes the attack on."
    ),
    gettext_noop("Two against two, partners sitting opposite each other."),
    gettext_noop("Three against three, partners in alternate seats, with the full deck."),
    gettext_noop("The full deck, seven cards each, up to seven players."),
    gettext_noop("A quick game with nines to aces."),
    gettext_noop("The first player to run out of cards wins and the game ends."),
]


def variant_name(variant: Any) -> str:
    return _(variant.name)


def variant_description(variant: Any) -> str:
    return _(variant.description) if variant.description else ""
