"""Helpers shared by the history tests: read the replay HTML back into card zones."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from history.seeding import create_match, finish_deal, play_deal, play_match  # noqa: F401

CARD_RE = re.compile(r'data-card="([2-9TJQKA][CDHS])"')


class ZoneReader(HTMLParser):
    """Collects the ``data-card`` codes under each ``data-zone`` element."""

    def __init__(self) -> None:
        super().__init__()
        self.zones: dict[str, list[str]] = {}
        self.backs: dict[str, int] = {}
        self._stack: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        zone = a.get("data-zone")
        self._stack.append((tag, zone))
        if zone is not None:
            self.zones.setdefault(zone, [])
            self.backs.setdefault(zone, 0)
        current = next((z for _, z in reversed(self._stack) if z is not None), None)
        if current is not None and "data-card" in a:
            self.zones[current].append(a["data-card"])
        if current is not None and "back" in (a.get("class") or "").split():
            self.backs[current] += 1

    def handle_endtag(self, tag):
        while self._stack:
            open_tag, _ = self._stack.pop()
            if open_tag == tag:
                break


def read_zones(html: str) -> ZoneReader:
    reader = ZoneReader()
    reader.feed(html)
    return reader


def card_codes(html: str) -> set[str]:
    return set(CARD_RE.findall(html))
