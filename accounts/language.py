"""Each person's language: stored on the user, so it follows them to every device and socket.

A signed-in user who picked a language reads it everywhere: pages (the middleware
below), table and lobby sockets (``language_for_scope``, and the "language changed"
message the switcher sends to their open sockets). Everyone else gets Django's
choice: the language cookie, then ``Accept-Language``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.ratelimit import count_one, window_is_full
from accounts.socket_news import tell_open_sockets

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def stored_language(user: Any) -> str | None:
    """The language ``user`` chose, or None when they never chose (or are anonymous)."""
    if not getattr(user, "is_authenticated", False):
        return None
    language = getattr(user, "language", "")
    return language if language in LANGUAGE_CODES else None


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a socket's viewer: stored on the user, else the handshake's."""
    language = stored_language(scope.get("user"))
    if language:
        return language
    request = HttpRequest()
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        elif name == b"cookie":
            request.COOKIES = parse_cookie(value.decode("latin-1"))
    return translation.get_language_from_request(request)


class UserLanguageMiddleware:
    """Pages in the signed-in user's stored language (after Django's LocaleMiddleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = stored_language(getattr(request, "user", None))
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switcher, which also stores the choice on a signed-in user.

    A switch re-renders every open socket of the user, so a user may switch only
    ``LANGUAGE_SWITCH_LIMIT`` times a window; past that the switch is refused and
    nothing changes.
    """
    language = request.POST.get("language")
    user = request.user
    switches = language in LANGUAGE_CODES and user.is_authenticated and user.language != language
    if switches:
        key = f"language-switch:{user.pk}"
        if window_is_full(key, settings.LANGUAGE_SWITCH_LIMIT):
            messages.error(request, _("You are switching languages too often; wait a minute."))
            return HttpResponseRedirect(_safe_next(request))
        count_one(key, settings.LANGUAGE_SWITCH_WINDOW)
    response = django_set_language(request)
    if switches:
        user.language = language
        user.save(update_fields=["language"])
        tell_sockets(user.pk, language)
    return response


def _safe_next(request: HttpRequest) -> str:
    """Where the switcher would have sent the person back to, if it is on this site."""
    target = request.POST.get("next") or request.headers.get("referer") or "/"
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


def tell_sockets(user_id: int, language: str) -> None:
    """Open sockets of this user re-render in ``language`` (best effort: a socket that
    misses it still reads the stored language when it reconnects)."""
    tell_open_sockets(user_id, {"type": "language.changed", "language": language})


class ViewerLanguageMixin:
    """For a socket consumer: every frame it sends is in its viewer's language.

    The language is read at connect; a switch on any device re-renders the socket
    through ``show_new_language``, which the consumer defines.
    """

    language: str = settings.LANGUAGE_CODE

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.connect":
            self.language = language_for_scope(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)  # type: ignore[misc]

    async def language_changed(self, event: dict[str, Any]) -> None:
        if event.get("language") not in LANGUAGE_CODES or event["language"] == self.language:
            return  # unknown, or this socket already speaks it: nothing to re-render
        self.language = event["language"]
        with translation.override(self.language):
            await self.show_new_language()

    async def show_new_language(self) -> None:
        raise NotImplementedError
