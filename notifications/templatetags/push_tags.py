"""``{% push_opt_in %}``: the button that asks for push notifications, for a signed-in
reader on a site with VAPID keys.  It stays hidden until push.js finds that the browser
can take pushes."""

from __future__ import annotations

from django import template
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from notifications import conf

register = template.Library()


def opt_in_html(request: HttpRequest) -> str:
    if not conf.enabled() or not request.user.is_authenticated:
        return ""
    return render_to_string(
        "notifications/opt_in.html", {"public_key": conf.public_key()}, request=request
    )


@register.simple_tag(takes_context=True)
def push_opt_in(context: template.Context) -> SafeString:
    request = context.get("request")
    return mark_safe(opt_in_html(request)) if request is not None else mark_safe("")
