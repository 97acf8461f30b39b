"""Print a new pair of VAPID keys, as the settings take them (docs/deploy.md)."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


class Command(BaseCommand):
    help = "Print a new VAPID key pair as WEBPUSH_VAPID_PRIVATE_KEY and WEBPUSH_VAPID_PUBLIC_KEY."

    def handle(self, *args: Any, **options: Any) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={b64urlencode(private)}")
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={b64urlencode(public)}")
