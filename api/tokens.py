"""Making, finding and revoking API tokens."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from api.models import ApiToken, Scope
from games.services import Refused

TOKEN_PREFIX = "durak_"
MAX_TOKENS = 10
# A token's last use is written at most this often: not one write per request.
LAST_USED_EVERY = timedelta(minutes=1)


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def create_token(user: Any, name: str, scopes: Iterable[str]) -> tuple[ApiToken, str]:
    """A new token of ``user`` and its secret (shown once, never stored)."""
    name = (name or "").strip()
    chosen = sorted(set(scopes))
    if not name or len(name) > 40:
        raise Refused(_("Give the token a name of at most 40 characters."), code="name")
    if not chosen or any(scope not in Scope.values for scope in chosen):
        raise Refused(_("Choose at least one scope."), code="scopes")
    if live_tokens(user).count() >= MAX_TOKENS:
        raise Refused(
            _("You have the most tokens allowed; revoke one first."), code="too_many_tokens"
        )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        scopes=" ".join(chosen),
        digest=digest_of(secret),
        prefix=secret[: len(TOKEN_PREFIX) + 4],
    )
    return token, secret


def live_tokens(user: Any):
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at")


def revoke_token(user: Any, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; whether there was such a token to revoke."""
    return bool(
        ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def token_for(secret: str) -> ApiToken | None:
    """The live token of ``secret`` (its user active), its last use noted; else None."""
    if not isinstance(secret, str) or not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest_of(secret), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
        ).update(last_used_at=now)
        token.last_used_at = now
    return token
