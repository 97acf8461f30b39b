"""The puzzle block of a player's profile."""

from __future__ import annotations

from typing import Any

from django import template

from puzzles.models import PuzzleRating

register = template.Library()


@register.inclusion_tag("puzzles/profile_puzzles.html", takes_context=True)
def profile_puzzles(context: template.Context, profile_user: Any) -> dict[str, Any]:
    """The player's puzzle rating and record; nothing is stored for a mere visit."""
    return {
        "rating": PuzzleRating.objects.filter(user=profile_user).first(),
        "own": context.get("user") == profile_user,
    }
