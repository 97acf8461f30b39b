"""Actions and their text notation: ``"0 attack 6H"``, ``"1 defend 6H TH"``, ``"1 take"``..."""

from __future__ import annotations

from typing import Any

from .cards import BIT, CODES, RANK_MASK, SUBSETS, card_index
from .events import Attacked, Defended, Event, SaidDone, Took
from .rules import MAX_PLAYERS

KINDS = ("attack", "defend", "transfer", "show", "take", "done", "swap", "resign")
K_ATTACK, K_DEFEND, K_TRANSFER, K_SHOW, K_TAKE, K_DONE, K_SWAP, K_RESIGN = range(8)
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or text that is not an action.

    The message explains the refusal in English, naming seats and cards. ``code`` names
    the reason in a stable, machine-readable way (``"not_held"``, ``"does_not_beat"``...)
    for callers that word refusals themselves; it is None where none was given.
    """

    def __init__(self, *args: object, code: str | None = None) -> None:
        super().__init__(*args)
        self.code = code


class Action:
    """One player's action: an immutable value compared by (seat, kind, cards).

    Attack and transfer cards are a set, so they are kept in a canonical order (by rank,
    then suit C D H S); ``defend`` keeps its order: the attack card, then the beating card.
    """

    __slots__ = (
        "seat",
        "kind",
        "cards",
        "card_mask",
        "card_indices",
        "_kind_code",
        "_rank_mask",
        "_hash",
        "_text",
        "_event",
        "_lead_event",
    )

    seat: int
    kind: str
    cards: tuple[str, ...]
    card_mask: int  # the cards as a mask (bit ``card_index(code)`` per card)
    card_indices: tuple[int, ...]  # the cards' indices, in the order of ``cards``
    _kind_code: int  # the index of ``kind`` in KINDS
    # Every card of the rank the action puts on the table (attack, transfer: its cards'
    # rank; defend: the beating card's), else 0.
    _rank_mask: int
    _hash: int
    _text: str
    # The event this action causes when that does not depend on the state (attack,
    # defend, take, done), built once and shared; ``_lead_event`` for an attack that leads.
    _event: Any  # an Event, or None for the kinds whose event depends on the state
    _lead_event: Any

    def __init__(self, seat: int, kind: str, cards: tuple[str, ...] | list[str] = ()) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise IllegalAction(f"seat must be a non-negative int, not {seat!r}", code="malformed")
        if seat >= MAX_PLAYERS:
            # Refused here, before any game shifts a bit by the seat number.
            raise IllegalAction(
                f"there is no seat {seat}: a game has at most {MAX_PLAYERS} seats",
                code="no_such_seat",
            )
        k = _KIND_CODE.get(kind)
        if k is None:
            raise IllegalAction(
                f"unknown action kind {kind!r}; expected one of {', '.join(KINDS)}",
                code="malformed",
            )
        if isinstance(cards, str):
            cards = (cards,)
        idx = []
        for c in cards:
            try:
                idx.append(card_index(c))
            except ValueError as e:
                raise IllegalAction(str(e), code="malformed") from None
        mask = 0
        for i in idx:
            if mask & BIT[i]:
                raise IllegalAction(f"card {CODES[i]} is given twice", code="malformed")
            mask |= BIT[i]
        n = len(idx)
        if k in (K_ATTACK, K_TRANSFER):
            if n == 0:
                raise IllegalAction(f"{kind} needs at least one card", code="malformed")
            idx.sort()
        elif k == K_DEFEND:
            if n != 2:
                raise IllegalAction(
                    "defend needs two cards: the attack card, then the card beating it",
                    code="malformed",
                )
        elif k == K_SHOW:
            if n != 1:
                raise IllegalAction("show needs exactly one card", code="malformed")
        elif n:
            raise IllegalAction(f"{kind} takes no cards", code="malformed")
        _init(self, seat, kind, k, tuple(CODES[i] for i in idx), mask, tuple(idx))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text form, e.g. ``"0 attack 6H 6S"``."""
        if not isinstance(text, str):
            raise IllegalAction(
                f"an action text must be a str, not {type(text).__name__}", code="malformed"
            )
        a = _PARSED.get(text) if cls is Action else None
        if a is not None:
            return a
        a = cls._parse(text)
        if cls is Action:
            if len(_PARSED) > 200_000:  # bounded: action texts repeat a lot, but not forever
                _PARSED.clear()
            _PARSED[text] = a
        return a

    @classmethod
    def _parse(cls, text: str) -> Action:
        parts = text.split()
        if len(parts) < 2:
            raise IllegalAction(
                f"cannot read action {text!r}: expected '<seat> <kind> [cards]'", code="malformed"
            )
        seat = parts[0]
        # str.isdigit alone also admits superscripts, circled, fullwidth and Arabic-Indic
        # digits; only ASCII ones are part of the notation.
        if not (seat.isascii() and seat.isdigit()):
            raise IllegalAction(
                f"cannot read action {text!r}: seat {seat!r} is not a number",
                code="malformed",
            )
        if len(seat) > len(str(MAX_PLAYERS)):  # never convert a long digit string
            raise IllegalAction(
                f"there is no seat {seat[:12]}{'...' if len(seat) > 12 else ''}:"
                f" a game has at most {MAX_PLAYERS} seats",
                code="no_such_seat",
            )
        return cls(int(seat), parts[1], tuple(parts[2:]))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Action is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Action is immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Action:
            return NotImplemented
        return (
            self.seat == other.seat
            and self._kind_code == other._kind_code
            and self.cards == other.cards
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.seat, self.kind, self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "cards": list(self.cards)}


def _init(
    a: Action, seat: int, kind: str, k: int, cards: tuple[str, ...], mask: int, idx: tuple[int, ...]
) -> None:
    sa = object.__setattr__
    sa(a, "seat", seat)
    sa(a, "kind", kind)
    sa(a, "cards", cards)
    sa(a, "card_mask", mask)
    sa(a, "card_indices", idx)
    sa(a, "_kind_code", k)
    played = idx[1] if k == K_DEFEND else idx[0] if k in (K_ATTACK, K_TRANSFER) else -1
    sa(a, "_rank_mask", RANK_MASK[played >> 2] if played >= 0 else 0)
    sa(a, "_hash", hash((seat, k, cards)))
    sa(a, "_text", " ".join((str(seat), kind, *cards)))
    # The event this action causes when it does not depend on the state, built once:
    # events are immutable values, so every game applying this action can share it.
    ev: Event | None = None
    lead: Attacked | None = None
    if k == K_ATTACK:
        ev = Attacked(seat, cards, False)
        lead = Attacked(seat, cards, True)
    elif k == K_DEFEND:
        ev = Defended(seat, cards[0], cards[1])
    elif k == K_DONE:
        ev = SaidDone(seat)
    elif k == K_TAKE:
        ev = Took(seat)
    sa(a, "_event", ev)
    sa(a, "_lead_event", lead)


def coerce(action: object) -> Action:
    """An Action from itself or its text; anything else is refused as malformed."""
    if isinstance(action, str):
        return Action.parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action: {action!r}", code="malformed")
    return action


def _make(seat: int, k: int, idx: tuple[int, ...]) -> Action:
    a = object.__new__(Action)
    mask = 0
    for i in idx:
        mask |= BIT[i]
    _init(a, seat, KINDS[k], k, tuple(CODES[i] for i in idx), mask, idx)
    return a


_PARSED: dict[str, Action] = {}

# Shared action objects for the hot path: legal_actions() hands out these instead of
# building new ones each step. Keys pack (cards, seat) into one int.
_ATTACK: dict[int, Action] = {}
_TRANSFER: dict[int, Action] = {}
_DEFEND: dict[int, Action] = {}
_SHOW: dict[int, Action] = {}
_SIMPLE: dict[int, Action] = {}


def attack_action(seat: int, mask: int) -> Action:
    key = mask << 3 | seat
    a = _ATTACK.get(key)
    if a is None:
        a = _ATTACK[key] = _make(seat, K_ATTACK, _bits(mask))
    return a


def transfer_action(seat: int, mask: int) -> Action:
    key = mask << 3 | seat
    a = _TRANSFER.get(key)
    if a is None:
        a = _TRANSFER[key] = _make(seat, K_TRANSFER, _bits(mask))
    return a


def defend_action(seat: int, attack: int, card: int) -> Action:
    """The shared Action of ``seat`` beating card index ``attack`` with card index ``card``."""
    key = (attack << 6 | card) << 3 | seat
    a = _DEFEND.get(key)
    if a is None:
        a = _DEFEND[key] = _make(seat, K_DEFEND, (attack, card))
    return a


def show_action(seat: int, card: int) -> Action:
    key = card << 3 | seat
    a = _SHOW.get(key)
    if a is None:
        a = _SHOW[key] = _make(seat, K_SHOW, (card,))
    return a


def simple_action(seat: int, k: int) -> Action:
    key = k << 3 | seat
    a = _SIMPLE.get(key)
    if a is None:
        a = _SIMPLE[key] = _make(seat, k, ())
    return a


def take_action(seat: int) -> Action:
    """The shared Action of ``seat`` taking the table."""
    return simple_action(seat, K_TAKE)


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def attack_chunk(seat: int, shift: int, val: int, room: int) -> tuple[Action, ...]:
    """Attack actions for every same-rank subset (size <= room) of ``val << shift``.

    ``val`` holds whole ranks (4 bits each); the order is by rank, then by subset size.
    """
    acts = []
    while val:
        for sub, cnt in SUBSETS[val & 15]:
            if cnt <= room:
                acts.append(attack_action(seat, sub << shift))
        val >>= 4
        shift += 4
    return tuple(acts)


# Defence actions by ``attack card << 3 | seat``: a list indexed by the beating card,
# each made on first use (``defence_row``, then ``defence_in_row``).
DEFENCE_ROWS: list[list[Action | None] | None] = [None] * (52 * 8)


def defence_row(seat: int, attack: int) -> list[Action | None]:
    row = DEFENCE_ROWS[attack << 3 | seat]
    if row is None:
        row = DEFENCE_ROWS[attack << 3 | seat] = [None] * 52
    return row


def defence_in_row(row: list[Action | None], seat: int, attack: int, card: int) -> Action:
    act = row[card] = defend_action(seat, attack, card)
    return act
