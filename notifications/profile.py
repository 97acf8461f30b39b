"""The push opt-in on a player's own profile (``accounts.profile_sections``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.profile_sections import profile_section
from notifications.templatetags.push_tags import opt_in_html


@profile_section(40)
def push_opt_in(request: HttpRequest, profile_user: Any) -> str:
    if request.user != profile_user:
        return ""
    return opt_in_html(request)
