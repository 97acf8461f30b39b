"""Whose turn it is, and how: ``to_act``, legality of one action, timed-out defaults.

``to_act`` is worked out from public facts only (who is entitled to act), so it never
reveals whether a seat holds a card it could play; ``legal_actions`` (``legal``) is the
server-side list of what each seat can actually do.
"""

from __future__ import annotations

from .actions import (
    K_DONE,
    K_RESIGN,
    K_SWAP,
    K_TAKE,
    Action,
    IllegalAction,
    attack_action,
    coerce,
    simple_action,
)
from .cards import SUIT_MASK
from .config import DEFEND, LEAD, OVER, TAKING
from .legal import legal_actions
from .state import GameState

# The roles a seat can have in a bout, and the action kinds each one is entitled to
# (from public facts: whether the seat holds a card that fits is its own business).
LEAD_ROLE = "lead"  # the principal attacker leads the bout's first cards
DEFEND_ROLE = "defend"  # the defender, while attack cards are unbeaten
THROW_IN_ROLE = "throw_in"  # an attacker while the defender defends
ADD_ROLE = "add"  # an attacker while the defender is taking
ROLES = (LEAD_ROLE, DEFEND_ROLE, THROW_IN_ROLE, ADD_ROLE)


class Turn(int):
    """A seat that may act now, and how: compares and hashes as the seat number.

    ``role`` is one of ``ROLES``; ``kinds`` are the action kinds the role is entitled to
    now ("attack", "done", "defend", "take", "transfer", "show"). Being entitled is not
    being able: an attacker with no card of a rank on the table cannot throw in.
    """

    role: str
    kinds: tuple[str, ...]

    def __new__(cls, seat: int, role: str, kinds: tuple[str, ...]) -> Turn:
        t = super().__new__(cls, seat)
        t.role = role
        t.kinds = kinds
        return t

    @property
    def seat(self) -> int:
        return int(self)

    def __str__(self) -> str:  # as the seat number, in text and f-strings alike
        return str(int(self))

    def __repr__(self) -> str:
        return f"Turn({int(self)}, {self.role!r}, {self.kinds!r})"


def _turns(role: str, kinds: tuple[str, ...]) -> tuple[Turn, ...]:
    return tuple(Turn(s, role, kinds) for s in range(8))


# Shared, immutable in use: one per (seat, role, kinds).
_LEAD = _turns(LEAD_ROLE, ("attack",))
_DEFEND = _turns(DEFEND_ROLE, ("defend", "take"))
_DEFEND_OR_PASS = _turns(DEFEND_ROLE, ("defend", "take", "transfer"))
_DEFEND_OR_PASS_SHOW = _turns(DEFEND_ROLE, ("defend", "take", "transfer", "show"))
_THROW_IN = _turns(THROW_IN_ROLE, ("attack",))
_THROW_IN_OR_DONE = _turns(THROW_IN_ROLE, ("attack", "done"))
_DONE_ONLY = _turns(THROW_IN_ROLE, ("done",))
_ADD = _turns(ADD_ROLE, ("attack", "done"))
_ADD_DONE_ONLY = _turns(ADD_ROLE, ("done",))


def to_act(st: GameState) -> list[Turn]:
    """The seats entitled to act now, in seat order, each with its role.

    Leading: the principal attacker. Defending: the defender, and the attackers who may
    still throw in (while the limit allows). Once every card is beaten, or while the
    defender takes: the attackers holding cards who have not said done.
    """
    ph = st.phase
    if ph == LEAD:
        return [_LEAD[st.attacker]]
    if ph == OVER:
        return []
    pend = st.attackers_mask & ~st.done_mask & ~st.empty_mask
    room = st.attack_count < st.bout_limit
    seats = st.config.seats_of
    if ph == TAKING:
        add = _ADD if room else _ADD_DONE_ONLY
        return [add[s] for s in seats[pend]]
    if not st.unbeaten_mask:
        thrower = _THROW_IN_OR_DONE if room else _DONE_ONLY
        return [thrower[s] for s in seats[pend]]
    d = st.defender
    if not room:
        pend = 0
    if st.config.transfers and not st.beaten_count:
        defend = _DEFEND_OR_PASS_SHOW if st.config.trump_show else _DEFEND_OR_PASS
    else:
        defend = _DEFEND
    return [defend[s] if s == d else _THROW_IN[s] for s in seats[pend | 1 << d]]


def seats_to_act(st: GameState) -> list[int]:
    """Server side: the seats with at least one legal action now (swap excluded)."""
    return sorted({a.seat for a in legal_actions(st) if a._kind_code != K_SWAP})


def is_legal(st: GameState, action: Action | str) -> bool:
    """Whether ``apply(action)`` would be accepted now (text that is not an action: False)."""
    try:
        a = coerce(action)
    except IllegalAction:
        return False
    if st.is_over or a.seat >= st.config.players:
        return False
    if a._kind_code == K_RESIGN:
        return not st.out_mask >> a.seat & 1
    return a in legal_actions(st, a.seat)


def default_action(st: GameState, seat: int) -> Action | None:
    """The safe action for a seat whose turn timer ran out, or None if it need not act.

    The defender takes; an attacker who may say done says done; a seat that must lead
    plays its lowest card (lowest non-trump by rank, else the lowest trump).
    """
    ph = st.phase
    if ph == OVER or not 0 <= seat < st.config.players:
        return None
    if ph == LEAD:
        if seat != st.attacker:
            return None
        h = st.hands[seat]
        plain = h & ~SUIT_MASK[st.trump_suit_index]
        pick = plain or h
        return attack_action(seat, pick & -pick)
    if seat == st.defender:
        if ph == DEFEND and st.unbeaten_mask:
            return simple_action(seat, K_TAKE)
        return None
    pending = st.attackers_mask & ~st.done_mask & ~st.empty_mask
    if pending >> seat & 1 and (ph == TAKING or not st.unbeaten_mask):
        return simple_action(seat, K_DONE)
    return None
