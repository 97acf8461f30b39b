from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def invite_notice(context) -> str:
    """The signed-in user's pending invites, on every page (sockets replace it live)."""
    from friends.views import render_invite_notice

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return mark_safe('<div id="invite-notice" class="invite-notice"></div>')
    return mark_safe(render_invite_notice(user))


@register.inclusion_tag("friends/profile_actions.html", takes_context=True)
def profile_actions(context, profile_user) -> dict:
    """Add friend, unfriend, block or unblock, on another player's profile, and Watch
    while they play a public game the viewer may watch."""
    from friends.services import relation_to, tables_to_watch

    user = context["request"].user
    out = {"user": user, "profile_user": profile_user, "csrf_token": context.get("csrf_token")}
    if user.is_authenticated and user != profile_user:
        out.update(relation_to(user, profile_user))
        out["watch_table"] = tables_to_watch([profile_user.pk], user).get(profile_user.pk)
    return out
