"""Key pairs for the tests: the site's VAPID pair and a browser's subscription keys."""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@dataclass
class KeyPair:
    private: ec.EllipticCurvePrivateKey

    @classmethod
    def new(cls) -> KeyPair:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @property
    def private_b64(self) -> str:
        return b64url(self.private.private_numbers().private_value.to_bytes(32, "big"))

    @property
    def public_b64(self) -> str:
        return b64url(point(self.private.public_key()))


@dataclass
class Browser:
    """What a browser keeps of its subscription: its key pair and its secret."""

    keys: KeyPair
    secret: bytes

    @classmethod
    def new(cls) -> Browser:
        return cls(KeyPair.new(), os.urandom(16))

    def subscription(self, endpoint: str) -> dict:
        return {
            "endpoint": endpoint,
            "keys": {"p256dh": self.keys.public_b64, "auth": b64url(self.secret)},
        }
