"""Structured log of refused game actions: who, what, why, never which cards.

Every refused action (illegal move, stale version, wrong seat, malformed or
oversized frame, rate limit) is logged on the ``games.actions`` logger as one
record with the fields ``event, match_id, user_id, seat, kind, reason``.
``JsonFormatter`` (configured in settings ``LOGGING``) prints each record as
one JSON line, ready for a log shipper.

Card codes are hidden information while a game runs, and a log is read by
more people than the players, so the record holds the action *kind* only, and
any card code in the reason is masked.

This module must not import models: settings' LOGGING imports it at start-up.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from durak.engine import KINDS

logger = logging.getLogger("games.actions")

EVENT_REFUSED = "action_refused"
# The fields a refused-action record carries; the formatter copies these.
FIELDS = ("event", "match_id", "user_id", "seat", "kind", "reason")
MAX_REASON = 200

# A card code as the engine writes it ("6H", "TS", "AD"), standing alone.
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA])[CDHS](?![A-Za-z0-9])")
# Kinds that are not engine actions but are refused all the same.
PROTOCOL_KINDS = ("chat", "sync", "malformed", "oversized", "rate_limited", "unknown")
KNOWN_KINDS = frozenset(KINDS) | frozenset(PROTOCOL_KINDS)


def mask_cards(text: str) -> str:
    """``text`` with every card code replaced by ``??``."""
    return _CARD.sub("??", text)


def action_kind(action_text: object) -> str:
    """The kind word of an action text ("0 attack 6H" -> "attack"), without its cards.

    Anything that does not look like "<seat> <kind> ..." gives "malformed", and a
    word that is no known kind gives "unknown", so a caller may pass raw client
    input safely.
    """
    if not isinstance(action_text, str):
        return "malformed"
    parts = action_text.split(maxsplit=2)
    if len(parts) >= 2 and parts[0].isdigit():
        word = parts[1].lower()
    elif len(parts) >= 1:
        word = parts[0].lower()
    else:
        return "malformed"
    return word if word in KNOWN_KINDS else "unknown"


def _clean_kind(kind: object) -> str:
    if isinstance(kind, str) and kind in KNOWN_KINDS:
        return kind
    # A caller that passes the whole action text still logs no cards.
    return action_kind(kind)


def log_refused_action(
    match_id: int | None,
    user_id: int | None,
    seat: int | None,
    kind: str,
    reason: str,
) -> dict[str, Any]:
    """Log one refused action on ``games.actions``; returns the record's fields.

    ``kind`` is the action kind ("attack", "take", "chat", "malformed", ...);
    ``reason`` is the text shown to the player. Card codes never reach the log.
    """
    fields: dict[str, Any] = {
        "event": EVENT_REFUSED,
        "match_id": match_id,
        "user_id": user_id,
        "seat": seat,
        "kind": _clean_kind(kind),
        "reason": mask_cards(str(reason))[:MAX_REASON],
    }
    logger.info(
        "refused %s by user %s at match %s seat %s: %s",
        fields["kind"],
        user_id,
        match_id,
        seat,
        fields["reason"],
        extra={"action": fields},
    )
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the action fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        action = getattr(record, "action", None)
        if isinstance(action, dict):
            for name in FIELDS:
                if name in action:
                    data[name] = action[name]
        if record.exc_info:
            data["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)
