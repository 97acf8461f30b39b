"""What the history app shows on a player's profile (``accounts.profile_sections``):
the player's reliability and figures in the profile's card, and below it the
reader's own games with the player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.profile_sections import profile_section
from history import charts, services
from history.head_to_head import head_to_head
from history.models import RatingClass
from history.reliability import reliability


@profile_section(20)
def reliability_line(request: HttpRequest, profile_user: Any) -> str:
    context = {"reliability": reliability(profile_user)}
    return render_to_string("history/profile_reliability.html", context, request=request)


@profile_section(30)
def figures(request: HttpRequest, profile_user: Any) -> str:
    """The player's statistics, ratings and chart, and the recent games the reader may see."""
    viewer = request.user
    recent = list(
        services.visible_games(profile_user, viewer)
        .select_related("variant", "deal")
        .defer("deal__deck", "deal__rules", "deal__result")[:10]
    )
    services.attach_seats(recent)
    ratings = {r.rating_class: r for r in profile_user.ratings.all()}
    series = services.rating_series(profile_user)
    context = {
        "profile_user": profile_user,
        "stats": services.profile_stats(profile_user),
        "recent": recent,
        "ratings": [
            (value, label, ratings.get(value))
            for value, label in RatingClass.choices
            # Only a bot account has the bots' rating (its games with other bot accounts).
            if value != RatingClass.BOTS or profile_user.is_bot
        ],
        "chart": charts.rating_chart(series, dict(RatingClass.choices)),
        "user": viewer,
    }
    return render_to_string("history/profile_stats.html", context, request=request)


@profile_section(10, below_card=True)
def games_together(request: HttpRequest, profile_user: Any) -> str:
    """On another player's profile: the reader's games with them."""
    viewer = request.user
    context = {
        "other": profile_user,
        "viewer": viewer,
        "together": head_to_head(viewer, profile_user),
    }
    return render_to_string("history/head_to_head.html", context, request=request)
