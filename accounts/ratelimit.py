"""Fixed-window counters (failed log-ins, sign-ups, language switches, tables opened)
in the shared cache.

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
        return any(window_is_full(key, limit) for key in self._keys())

    def record_failure(self) -> None:
        for key in self._keys():
            count_one(key, settings.LOGIN_RATE_LIMIT_WINDOW)


def count_one(key: str, window: int) -> int:
    """Count one more event under ``key`` in its window; returns the window's count."""
    # add() is a no-op when the key exists, so the window starts at the first event
    # and is not extended by later ones.
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the calls
        cache.set(key, 1, timeout=window)
        return 1


def window_is_full(key: str, limit: int) -> bool:
    """Whether ``limit`` events are already counted under ``key`` in its window."""
    return (cache.get(key) or 0) >= limit


def count_request(
    scope: str, user_id: int, ip: str, *, per_user: int, per_address: int, window: int
) -> str | None:
    """Count one request of ``scope`` by a user from an address; which of them is past
    its limit for the window ("user" or "address"), or None when both are within.

    A request refused for its user is not counted for its address: one account's
    flood does not use up the share of the others behind the same address.
    """
    if count_one(f"{scope}:user:{user_id}", window) > per_user:
        return "user"
    if ip and count_one(f"{scope}:ip:{ip}", window) > per_address:
        return "address"
    return None


def client_ip(request) -> str:
    # REMOTE_ADDR is what the socket says; a proxy in front must set it
    # correctly (see docs/deploy.md) rather than trusting X-Forwarded-For here.
    return request.META.get("REMOTE_ADDR", "") if request is not None else ""
