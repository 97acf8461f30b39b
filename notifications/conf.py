"""The site's VAPID keys: with both set, push notifications are on; without, off.

A development machine sets none, so nothing is offered and nothing is sent.
"""

from __future__ import annotations

from django.conf import settings


def public_key() -> str:
    """The key browsers subscribe with (base64url, an uncompressed P-256 point)."""
    return getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", "") or ""


def private_key() -> str:
    """The signing key: base64url (raw or DER), or the path of a PEM file."""
    return getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "") or ""


def contact() -> str:
    """Who push services may write to about this site's pushes (mailto: or https:)."""
    return getattr(settings, "WEBPUSH_CONTACT", "") or "mailto:admin@localhost"


def enabled() -> bool:
    return bool(public_key() and private_key())
