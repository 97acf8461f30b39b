"""The reader's time zone: dates and times on the pages in the reader's own clock.

The browser names its zone in the ``tz`` cookie (static/js/site.js); this middleware
activates it for the request. A name that is not a known zone is ignored, and the
page reads in the site's ``TIME_ZONE``. The site's own day (the daily deal's) does not
follow the reader: it is always the site's.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


@cache
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of an IANA name such as "Europe/Moscow", or None for anything else."""
    if not name or name not in _known():
        return None
    return zoneinfo.ZoneInfo(name)


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_named(request.COOKIES.get(COOKIE))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
