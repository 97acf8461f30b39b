"""Turning push notifications on and off for one browser: JSON in, JSON out."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notifications import subscriptions


def _body(request: HttpRequest) -> object:
    if len(request.body) > 4096:
        raise subscriptions.BadSubscription(_("The subscription could not be read."))
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise subscriptions.BadSubscription(_("The subscription could not be read.")) from None


def _refused(error: subscriptions.BadSubscription) -> JsonResponse:
    return JsonResponse({"ok": False, "error": error.message}, status=error.status)


def _anonymous() -> JsonResponse:
    return JsonResponse({"ok": False, "error": _("Log in first.")}, status=403)


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        return _anonymous()
    try:
        subscriptions.save(request.user, _body(request), get_language() or "")
    except subscriptions.BadSubscription as error:
        return _refused(error)
    return JsonResponse({"ok": True})


@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        return _anonymous()
    try:
        removed = subscriptions.remove(request.user, _body(request))
    except subscriptions.BadSubscription as error:
        return _refused(error)
    return JsonResponse({"ok": True, "removed": removed})
