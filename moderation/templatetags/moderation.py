"""``{% report_form %}``: the "report" form a table page puts next to a player
or a chat message.

    {% load moderation %}
    {% report_form match player=seat.user %}
    {% report_form match message=chat_message %}
"""

from __future__ import annotations

from django import template

from moderation.forms import ReportForm

register = template.Library()


@register.inclusion_tag("moderation/report_form.html", takes_context=True)
def report_form(context, match, player=None, message=None) -> dict:
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "form": ReportForm(reporter=None),
        "match_id": getattr(match, "pk", match),
        "reported_id": getattr(player, "pk", "") if player is not None else "",
        "reported_name": getattr(player, "username", "") if player is not None else "",
        "message_id": getattr(message, "pk", "") if message is not None else "",
    }
