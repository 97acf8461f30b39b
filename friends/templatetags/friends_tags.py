from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def invite_notice(context) -> str:
    """The signed-in user's pending invites, on every page (sockets replace it live)."""
    from friends.views import render_invite_notice

    request = context.get("request")
    user = getattr(request, "user", None)
    # Where a socket adds the news that a friend declined the user's invite.
    answers = '<div id="invite-answers" class="invite-notice" aria-live="polite"></div>'
    if user is None or not user.is_authenticated:
        return mark_safe('<div id="invite-notice" class="invite-notice"></div>' + answers)
    return mark_safe(render_invite_notice(user) + answers)
