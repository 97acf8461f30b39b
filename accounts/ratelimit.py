"""Fixed-window counters for failed log-ins, kept in the shared cache.

The cache is Redis when ``REDIS_URL`` is set, so every daphne process sees
the same counts.
"""

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


@dataclass(frozen=True)
class LoginThrottle:
    ip: str
    username: str

    def _keys(self) -> list[str]:
        keys = [f"login-fail:ip:{self.ip}"]
        if self.username:
            keys.append(f"login-fail:user:{self.username.casefold()}")
        return keys

    def is_blocked(self) -> bool:
        limit = settings.LOGIN_RATE_LIMIT_ATTEMPTS
        return any((cache.get(key) or 0) >= limit for key in self._keys())

    def record_failure(self) -> None:
        window = settings.LOGIN_RATE_LIMIT_WINDOW
        for key in self._keys():
            # add() is a no-op when the key exists, so the window starts at the
            # first failure and is not extended by later ones.
            cache.add(key, 0, timeout=window)
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout=window)


def client_ip(request) -> str:
    # REMOTE_ADDR is what the socket says; a proxy in front must set it
    # correctly (see docs/deploy.md) rather than trusting X-Forwarded-For here.
    return request.META.get("REMOTE_ADDR", "") if request is not None else ""
