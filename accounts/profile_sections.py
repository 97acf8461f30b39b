"""The pieces of a player's profile that the apps above add: their buttons (friends),
their figures (history), their puzzle rating (puzzles), each drawn by its own app.

An app registers a section when it loads (``@profile_section`` in a module its
``AppConfig.ready`` imports). The profile page shows the sections of its card in
order, then those that stand below it. A section is ``render(request, profile_user)``
and returns its HTML, or "" when it has nothing to show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

Section = Callable[[HttpRequest, Any], str]

_sections: dict[str, tuple[int, bool, Section]] = {}


def profile_section(order: int, *, below_card: bool = False) -> Callable[[Section], Section]:
    """Register a section at ``order`` (lower first); registering it again replaces it."""

    def register(section: Section) -> Section:
        _sections[f"{section.__module__}.{section.__qualname__}"] = (order, below_card, section)
        return section

    return register


def rendered_sections(
    request: HttpRequest, profile_user: Any, *, below_card: bool = False
) -> list[SafeString]:
    """The HTML of the sections in the card (or below it), in order."""
    chosen = sorted(
        (order, key, section)
        for key, (order, below, section) in _sections.items()
        if below == below_card
    )
    return [mark_safe(section(request, profile_user)) for _order, _key, section in chosen]
