"""The push opt-in on a player's own profile (``accounts.profile_sections``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from accounts.profile_sections import profile_section
from notifications.templatetags.push_tags import opt_in_html


@profile_section(90)
def push_opt_in(request: HttpRequest, profile_user: Any) -> str:
    if request.user != profile_user:
        return ""
    button = opt_in_html(request)
    if not button:
        return ""
    context = {"opt_in": mark_safe(button)}
    return render_to_string("notifications/profile_section.html", context, request=request)
