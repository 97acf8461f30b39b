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
