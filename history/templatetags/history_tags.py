"""Card counts, the profile statistics block and the server-drawn rating chart."""

from __future__ import annotations

from typing import Any

from django import template

from history import charts, services
from history.head_to_head import head_to_head
from history.models import RatingClass
from history.reliability import reliability

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


@register.inclusion_tag("history/profile_stats.html", takes_context=True)
def profile_history(context: template.Context, profile_user: Any) -> dict[str, Any]:
    viewer = context.get("user")
    recent = list(
        services.visible_games(profile_user, viewer)
        .select_related("variant", "deal")
        .defer("deal__deck", "deal__rules", "deal__result")[:10]
    )
    services.attach_seats(recent)
    ratings = {r.rating_class: r for r in profile_user.ratings.all()}
    series = services.rating_series(profile_user)
    return {
        "profile_user": profile_user,
        "stats": services.profile_stats(profile_user),
        "recent": recent,
        "ratings": [(value, label, ratings.get(value)) for value, label in RatingClass.choices],
        "chart": charts.rating_chart(series, dict(RatingClass.choices)),
        "user": viewer,
    }


@register.inclusion_tag("history/head_to_head.html", takes_context=True)
def games_together(context: template.Context, profile_user: Any) -> dict[str, Any]:
    """On another player's profile: the reader's games with them."""
    viewer = context.get("user")
    return {"other": profile_user, "viewer": viewer, "together": head_to_head(viewer, profile_user)}


@register.simple_tag
def reliability_of_user(user: Any) -> int:
    """The player's reliability, 0 to 100 (history.reliability)."""
    return reliability(user)
