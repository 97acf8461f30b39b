"""Bearer-token authentication of the API, one scope per endpoint, rate-limited per token."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from accounts.ratelimit import count_one
from api.errors import ApiError
from api.tokens import token_for

# The largest JSON body the API reads; an action is a few dozen bytes.
MAX_BODY = 4096


def rate_limit() -> tuple[int, int]:
    """Requests per token per window (seconds): a program gets this many, then 429s."""
    return getattr(settings, "API_RATE_LIMIT", (300, 60))


class TokenAuth(HttpBearer):
    """``Authorization: Bearer durak_…`` of a live token that has ``scope``.

    An unknown or revoked token answers 401; a token without the scope, 403.
    """

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        # Before the body is read: a huge one is refused unread.
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = MAX_BODY + 1
        if length > MAX_BODY:
            raise ApiError(413, "too_large", _("The request body is too large."))
        found = token_for(token)
        if found is None:
            return None
        if not found.allows(self.scope):
            raise ApiError(
                403,
                "scope",
                _("This token lacks the “%(scope)s” scope.") % {"scope": self.scope},
            )
        limit, window = rate_limit()
        if count_one(f"api-token:{found.pk}", window) > limit:
            raise ApiError(429, "rate_limited", _("Too many requests; slow down."))
        request.api_token = found
        return found.user
