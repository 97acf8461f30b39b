"""A variant's name and description in the reader's language.

The standard variants live in the database (games/migrations/0002_standard_variants.py,
named by the game as players call it since 0016); their words are listed here so that
they reach the catalogue. A variant an admin adds shows its words as written, or, to a
reader of the Russian site, its Russian words when the admin gave them.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

# The names "Play now" uses too: the game's own, podkidnoy and perevodnoy.
VARIANT_NAMES = [
    gettext_noop("Podkidnoy"),
    gettext_noop("Perevodnoy"),
    gettext_noop("Perevodnoy with trump show"),
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


def reads_russian() -> bool:
    return (get_language() or "").split("-")[0] == "ru"


def worded_name(name: str, name_ru: str) -> str:
    """A variant's name in the reader's language, from its two name fields."""
    if name_ru and reads_russian():
        return name_ru
    return _(name)


def variant_name(variant: Any) -> str:
    """The name of ``variant`` (a RuleVariant) in the reader's language."""
    return worded_name(variant.name, variant.name_ru)


def variant_description(variant: Any) -> str:
    """The description of ``variant`` in the reader's language ("" when it has none)."""
    if variant.description_ru and reads_russian():
        return variant.description_ru
    return _(variant.description) if variant.description else ""
