"""How an account is marked where its name shows: ``{{ user|bot_badge }}`` after a bot
account's name (``accounts.User.is_bot``), nothing after a person's."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

register = template.Library()


def bot_badge_html() -> SafeString:
    return format_html(
        '<span class="bot-badge" title="{}">{}</span>',
        pgettext("account badge", "Plays through the API"),
        pgettext("account badge", "bot"),
    )


@register.filter
def bot_badge(user: Any) -> str:
    """A small "bot" badge when ``user`` (an account, or a flag) is a bot account."""
    is_bot = user if isinstance(user, bool) else getattr(user, "is_bot", False)
    return bot_badge_html() if is_bot else ""
