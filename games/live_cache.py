"""The latest state of each table this process has seen, for rendering pushes.

Right after a change every socket of the table renders the same version.  The
process that applied the action already holds that version's rows and engine state,
and the first render in any other process reads them once; later renders of the same
version reuse them.  Entries are keyed by version, so a render never shows a state
other than the one it was asked for.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

_recent: dict[int, tuple[int, Any, list[Any], Any, dict[Any, str]]] = {}
MAX_TABLES = 2000


def recall(match_id: int, version: int | None) -> tuple[Any, list[Any], Any] | None:
    hit = _recent.get(match_id)
    if version is None or hit is None or hit[0] != version:
        return None
    return hit[1], hit[2], hit[3]


def shared_html(match: Any, language: str | None, make: Any) -> str:
    """HTML every viewer of this version sees alike (the felt), made once per version.

    Kept with the remembered rows of that version, so it goes when they go; a match
    object this cache does not hold gets a fresh render.
    """
    hit = _recent.get(match.pk)
    if hit is None or hit[1] is not match or hit[0] != match.version:
        return make()
    extras = hit[4]
    html = extras.get(language)
    if html is None:
        html = extras[language] = make()
    return html


def remember(match: Any, seats: list[Any], game: Any) -> None:
    previous = _recent.pop(match.pk, None)
    if previous is not None:
        # Carry over related rows that did not change, so rendering needs no query.
        old = previous[1]
        cache = old._state.fields_cache
        if "variant" in cache and old.variant_id == match.variant_id:
            match._state.fields_cache.setdefault("variant", old.variant)
        if (
            "live_deal" in cache
            and old.live_deal_id == match.live_deal_id
            and old.status == match.status
        ):
            match._state.fields_cache.setdefault("live_deal", old.live_deal)
    elif len(_recent) >= MAX_TABLES:
        _recent.pop(next(iter(_recent)))
    _recent[match.pk] = (match.version, match, seats, game, {})


def changes_of(match: Any, fields: list[str]) -> dict[str, Any]:
    """The named fields of ``match`` in a form the channel layer can carry."""
    out = {}
    for name in fields:
        value = getattr(match, name)
        out[name] = {"at": value.isoformat()} if isinstance(value, datetime) else value
    return out


def advance(match_id: int, version: int, changes: dict[str, Any], load_game: Any) -> bool:
    """Remember ``version`` built from the remembered previous version and ``changes``.

    Only an action's own fields change between two versions of a game in progress (the
    seats' presence arrives separately, with a fresh read), so the rows of the previous
    version plus those fields are the new version.  False when this process does not
    hold the previous version.
    """
    hit = _recent.get(match_id)
    if hit is None or hit[0] != version - 1 or changes.get("version") != version:
        return False
    match = copy.copy(hit[1])
    for name, value in changes.items():
        if isinstance(value, dict) and set(value) == {"at"}:
            value = datetime.fromisoformat(value["at"])
        setattr(match, name, value)
    remember(match, hit[2], load_game(match))
    return True
