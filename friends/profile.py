"""What the friends app shows on a player's profile (``accounts.profile_sections``):
add friend, unfriend, block or unblock, and Watch while they play a public game."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.profile_sections import profile_section
from friends.services import relation_to, tables_to_watch


@profile_section(10)
def actions(request: HttpRequest, profile_user: Any) -> str:
    user = request.user
    context: dict[str, Any] = {"user": user, "profile_user": profile_user}
    if user.is_authenticated and user != profile_user:
        context.update(relation_to(user, profile_user))
        context["watch_table"] = tables_to_watch([profile_user.pk], user).get(profile_user.pk)
    return render_to_string("friends/profile_actions.html", context, request=request)
