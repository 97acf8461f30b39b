"""The analysis app's pieces of other apps' pages."""

from __future__ import annotations

from typing import Any

from django import template

from analysis.replay_page import played_on_from

register = template.Library()


@register.inclusion_tag("analysis/played_on_from.html", takes_context=True)
def played_on_origin(context: template.Context, match: Any) -> dict[str, Any]:
    """The line naming the game and step a played-on table went on from, if it did."""
    return {"played_on_from": played_on_from(context["request"], match)}
