"""What happened: ``Game.apply`` returns a list of these small immutable values.

They only carry public facts. Drawn cards are counts, never codes; the one exception is
the face-up trump, which everyone has seen, so ``Drew.trump`` names it when it is drawn.
Events are named tuples (cheap to build on the hot path) with a class-level ``kind``
and a ``to_dict()`` giving a JSON-ready dict.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias


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

    @property
    def kind(self) -> str:
        return "dealt"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class FirstAttackerChosen(NamedTuple):
    """The first attacker: the holder of ``card`` (the lowest trump), or given by the match."""

    seat: int
    card: str | None

    @property
    def kind(self) -> str:
        return "first_attacker_chosen"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class FirstAttackerDrawn(NamedTuple):
    """Nobody held a trump, so the first attacker was drawn at random."""

    seat: int

    @property
    def kind(self) -> str:
        return "first_attacker_drawn"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class BoutStarted(NamedTuple):
    attacker: int
    defender: int
    limit: int

    @property
    def kind(self) -> str:
        return "bout_started"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Attacked(NamedTuple):
    """Cards put on the table by an attacker: the lead, a throw-in, or an add after a take."""

    seat: int
    cards: tuple[str, ...]
    lead: bool

    @property
    def kind(self) -> str:
        return "attacked"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Defended(NamedTuple):
    seat: int
    attack: str
    card: str

    @property
    def kind(self) -> str:
        return "defended"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Transferred(NamedTuple):
    seat: int
    cards: tuple[str, ...]
    defender: int

    @property
    def kind(self) -> str:
        return "transferred"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Shown(NamedTuple):
    """A trump-show transfer: ``card`` was shown, not played."""

    seat: int
    card: str
    defender: int

    @property
    def kind(self) -> str:
        return "shown"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Took(NamedTuple):
    """The defender gave up; the attackers may still add cards."""

    seat: int

    @property
    def kind(self) -> str:
        return "took"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class SaidDone(NamedTuple):
    seat: int

    @property
    def kind(self) -> str:
        return "done"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class CardsTaken(NamedTuple):
    """The defender picked up these (face-up, so public) cards."""

    seat: int
    cards: tuple[str, ...]

    @property
    def kind(self) -> str:
        return "cards_taken"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class BoutBeaten(NamedTuple):
    """The defence held; these cards go to the discard pile."""

    defender: int
    cards: tuple[str, ...]

    @property
    def kind(self) -> str:
        return "bout_beaten"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Drew(NamedTuple):
    """``seat`` drew ``count`` cards from the talon; ``trump`` is the face-up card if drawn."""

    seat: int
    count: int  # type: ignore[assignment]  # a field, not tuple.count
    trump: str | None

    @property
    def kind(self) -> str:
        return "drew"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class WentOut(NamedTuple):
    seat: int

    @property
    def kind(self) -> str:
        return "went_out"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Swapped(NamedTuple):
    """The trump six was exchanged for the face-up trump ``trump``.

    ``other`` is None when the six went under the talon, or the seat that had drawn the
    face-up trump (a swap right after the talon ran out) and now holds the six.
    """

    seat: int
    six: str
    trump: str
    other: int | None

    @property
    def kind(self) -> str:
        return "swapped"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class Resigned(NamedTuple):
    seat: int

    @property
    def kind(self) -> str:
        return "resigned"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


class GameOver(NamedTuple):
    result: dict[str, Any]

    @property
    def kind(self) -> str:
        return "game_over"

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)


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

Event: TypeAlias = (
    Dealt
    | FirstAttackerChosen
    | FirstAttackerDrawn
    | BoutStarted
    | Attacked
    | Defended
    | Transferred
    | Shown
    | Took
    | SaidDone
    | CardsTaken
    | BoutBeaten
    | Drew
    | WentOut
    | Swapped
    | Resigned
    | GameOver
)
