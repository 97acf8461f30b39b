"""What happened: ``Game.apply`` returns a list of these small immutable values.

They only carry public facts. Drawn cards are counts, never codes; the one exception is
the face-up trump, which everyone has seen, so ``Drew.trump`` names it when it is drawn.
Events are named tuples (cheap to build on the hot path) with a class-level ``kind``
and a ``to_dict()`` giving a JSON-ready dict.
"""

from __future__ import annotations

from typing import Any, NamedTuple


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def _to_dict(self: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": self.kind}
    for k, v in self._asdict().items():
        d[k] = _jsonable(v)
    return d


class Dealt(NamedTuple):
    """The deal: hand sizes, the face-up trump and the talon size."""

    dealer: int
    hand_counts: tuple[int, ...]
    trump: str
    talon: int
    kind = "dealt"


class FirstAttackerChosen(NamedTuple):
    """The first attacker: the holder of ``card`` (the lowest trump), or given by the match."""

    seat: int
    card: str | None
    kind = "first_attacker_chosen"


class FirstAttackerDrawn(NamedTuple):
    """Nobody held a trump, so the first attacker was drawn at random."""

    seat: int
    kind = "first_attacker_drawn"


class BoutStarted(NamedTuple):
    attacker: int
    defender: int
    limit: int
    kind = "bout_started"


class Attacked(NamedTuple):
    """Cards put on the table by an attacker: the lead, a throw-in, or an add after a take."""

    seat: int
    cards: tuple[str, ...]
    lead: bool
    kind = "attacked"


class Defended(NamedTuple):
    seat: int
    attack: str
    card: str
    kind = "defended"


class Transferred(NamedTuple):
    seat: int
    cards: tuple[str, ...]
    defender: int
    kind = "transferred"


class Shown(NamedTuple):
    """A trump-show transfer: ``card`` was shown, not played."""

    seat: int
    card: str
    defender: int
    kind = "shown"


class Took(NamedTuple):
    """The defender gave up; the attackers may still add cards."""

    seat: int
    kind = "took"


class SaidDone(NamedTuple):
    seat: int
    kind = "done"


class CardsTaken(NamedTuple):
    """The defender picked up these (face-up, so public) cards."""

    seat: int
    cards: tuple[str, ...]
    kind = "cards_taken"


class BoutBeaten(NamedTuple):
    """The defence held; these cards go to the discard pile."""

    defender: int
    cards: tuple[str, ...]
    kind = "bout_beaten"


class Drew(NamedTuple):
    """``seat`` drew ``count`` cards from the talon; ``trump`` is the face-up card if drawn."""

    seat: int
    count: int
    trump: str | None
    kind = "drew"


class WentOut(NamedTuple):
    seat: int
    kind = "went_out"


class Swapped(NamedTuple):
    """The trump six was exchanged for the face-up trump ``trump``.

    ``other`` is None when the six went under the talon, or the seat that had drawn the
    face-up trump (a swap right after the talon ran out) and now holds the six.
    """

    seat: int
    six: str
    trump: str
    other: int | None
    kind = "swapped"


class Resigned(NamedTuple):
    seat: int
    kind = "resigned"


class GameOver(NamedTuple):
    result: dict
    kind = "game_over"


EVENT_TYPES = (
    Dealt,
    FirstAttackerChosen,
    FirstAttackerDrawn,
    BoutStarted,
    Attacked,
    Defended,
    Transferred,
    Shown,
    Took,
    SaidDone,
    CardsTaken,
    BoutBeaten,
    Drew,
    WentOut,
    Swapped,
    Resigned,
    GameOver,
)

# NamedTuple cannot take a mixin base on Python 3.11, so the shared method is attached here.
for _cls in EVENT_TYPES:
    _cls.to_dict = _to_dict  # type: ignore[attr-defined]
