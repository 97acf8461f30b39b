"""Card counts and rating points for the history templates."""

from __future__ import annotations

from typing import Any

from django import template

from history import services

register = template.Library()


@register.filter
def backs(count: int | None) -> range:
    return range(count or 0)


@register.filter
def signed_points(delta: float | None) -> str:
    """A rating change as "+12" or "−7"; nothing for a game that changed no rating."""
    return "" if delta is None else services.signed_points(delta)


@register.filter
def get_item(mapping: dict, key: Any) -> Any:
    return mapping.get(key) if mapping else None
