"""Taking a browser's push subscription in, and letting it go: what is checked first."""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.translation import gettext as _

from notifications import conf
from notifications.models import PushSubscription

# A player signs in on a few devices; past this, a new one waits for an old one to go.
MAX_PER_USER = 10
# The browser's P-256 public key (an uncompressed point) and its authentication secret.
P256DH_BYTES = 65
AUTH_BYTES = 16
MAX_ENDPOINT = 1000


class BadSubscription(ValueError):
    """Refused; ``message`` says why, in the person's language. Nothing was stored."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _b64url_bytes(value: Any) -> bytes | None:
    if not isinstance(value, str) or not value or len(value) > 200:
        return None
    text = value.rstrip("=")
    if not all(c.isalnum() or c in "-_" for c in text) or not text.isascii():
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _endpoint(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ENDPOINT:
        raise BadSubscription(_("The subscription has no valid address."))
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        raise BadSubscription(_("A push service's address must start with https://."))
    return value


def save(user: Any, data: Any, language: str) -> PushSubscription:
    """Store the subscription ``data`` (as the browser's PushSubscription.toJSON() gives
    it) for ``user``; a browser that subscribed before, for anyone, is now theirs."""
    if not conf.enabled():
        raise BadSubscription(_("Push notifications are off on this site."), status=404)
    if not isinstance(data, dict):
        raise BadSubscription(_("The subscription could not be read."))
    endpoint = _endpoint(data.get("endpoint"))
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription(_("The subscription has no keys."))
    p256dh = _b64url_bytes(keys.get("p256dh"))
    auth = _b64url_bytes(keys.get("auth"))
    if p256dh is None or len(p256dh) != P256DH_BYTES or p256dh[0] != 4:
        raise BadSubscription(_("The subscription's public key is not valid."))
    if auth is None or len(auth) != AUTH_BYTES:
        raise BadSubscription(_("The subscription's secret is not valid."))
    with transaction.atomic():
        mine = PushSubscription.objects.select_for_update().filter(user=user)
        known = mine.filter(endpoint=endpoint).exists()
        if not known and mine.count() >= MAX_PER_USER:
            raise BadSubscription(
                _("Notifications are on for too many devices; turn them off on one first."),
                status=409,
            )
        found, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "user": user,
                "p256dh": keys["p256dh"].rstrip("="),
                "auth": keys["auth"].rstrip("="),
                "language": language[:8],
            },
        )
    return found


def remove(user: Any, data: Any) -> int:
    """Forget the user's subscription at ``data["endpoint"]``; returns how many went."""
    if not isinstance(data, dict) or not isinstance(data.get("endpoint"), str):
        raise BadSubscription(_("The subscription has no valid address."))
    deleted, _kinds = PushSubscription.objects.filter(user=user, endpoint=data["endpoint"]).delete()
    return deleted
