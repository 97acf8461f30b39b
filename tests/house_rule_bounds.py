"""A standard variant whose house rules a test opens: every choice allowed unless the
test narrows it."""

from __future__ import annotations

from games.models import RuleVariant
from matchmaking.models import HouseRuleBounds

EVERYTHING = {
    "deck_24": True,
    "deck_36": True,
    "deck_52": True,
    "may_choose_throw_in": True,
    "may_choose_transfer": True,
    "may_choose_first_bout_limit": True,
    "may_choose_trump_six_swap": True,
    "min_turn_seconds": 15,
    "max_turn_seconds": 60,
}


def bounded_variant(slug: str, **bounds: object) -> RuleVariant:
    """The variant ``slug`` with every house rule open, but for ``bounds``."""
    found = RuleVariant.objects.get(slug=slug)
    HouseRuleBounds.objects.update_or_create(variant=found, defaults={**EVERYTHING, **bounds})
    return found
