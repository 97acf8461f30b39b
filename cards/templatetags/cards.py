"""``{{ code|card }}`` and ``{% card_back %}``: the table's and the replay's card markup."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from cards.faces import back_html, card_html

register = template.Library()


@register.filter
def card(code: str | None) -> SafeString | str:
    return card_html(code) if code else ""


@register.simple_tag
def card_back() -> SafeString:
    return back_html()
