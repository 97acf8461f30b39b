"""Read-only access to a game: properties, views, defaults, serialisation entry points."""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from . import record as _record
from .actions import (
    K_DONE,
    K_SWAP,
    K_TAKE,
    Action,
    attack_action,
    simple_action,
)
from .cards import (
    CODES,
    SUIT_MASK,
    SUITS,
    mask_to_codes,
)
from .config import (
    DEFEND,
    LEAD,
    OVER,
    TAKING,
)
from .knowledge import Knowledge
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game


class PresentMixin:
    """What ``Game`` shows to the outside; it never changes the state."""

    __slots__ = ()

    # ------------------------------------------------------------ properties

    @property
    def rules(self) -> Rules:
        return self._config.rules

    @property
    def players(self) -> int:
        return self._config.players

    @property
    def trump(self) -> str:
        """The face-up trump card (after a trump-six swap: the six now lying face up)."""
        return CODES[self._trump_card]

    @property
    def trump_suit(self) -> str:
        return SUITS[self._trump_suit]

    @property
    def dealer(self) -> int:
        return self._deal[1]

    @property
    def first_attacker(self) -> int:
        return self._deal[2]

    @property
    def first_attacker_by(self) -> str | None:
        """How the first attacker was chosen: "lowest_trump", "draw" or "given"."""
        return self._deal[3]

    @property
    def deck(self) -> list[str] | None:
        """The dealt deck order (None for a determinized game, which has no real deal)."""
        return list(self._deal[0]) if self._deal[0] is not None else None

    # Properties whose getter is C code (no Python frame): game loops and bots ask these
    # every step.
    attacker = property(
        attrgetter("_attacker"), doc="The principal attacker (after a transfer: who passed)."
    )
    defender = property(attrgetter("_defender"), doc="The defending seat.")
    phase = property(attrgetter("_phase"), doc='The phase: "attack", "defend", "taking" or "over".')
    # ``_over`` mirrors ``_phase == OVER``; it is set wherever the phase is set to or from
    # data (the deal, snapshots, determinization) and by the game's end.
    is_over = property(attrgetter("_is_over"), doc="True once the game has ended.")

    @property
    def result(self) -> dict[str, Any] | None:
        r = self._result
        if r is None:
            return None
        r = dict(r)
        r["out_order"] = list(r["out_order"])
        return r

    @property
    def history(self) -> list[Action]:
        out = []
        h = self._history
        while h is not None:
            out.append(h[1])
            h = h[0]
        out.reverse()
        return out

    @property
    def deal_events(self) -> list[Any]:
        """Events of the deal itself: Dealt, the first-attacker choice, the first BoutStarted."""
        return list(self._deal_events)

    @property
    def talon_count(self) -> int:
        return len(self._talon)

    # ------------------------------------------- reading the state as masks
    #
    # For bots and analysis, which read a position thousands of times per move. A card
    # set is an int with bit ``card_index(code)`` set per card (see ``cards``); the simple
    # reads are properties with C getters, so they cost no Python frame.

    attack_cards_on_table = property(
        attrgetter("_attack_count"), doc="How many attack cards lie on the table in this bout."
    )
    bout_limit = property(
        attrgetter("_bout_limit"),
        doc="The most attack cards this bout may hold (0 before the deal).",
    )
    table_mask = property(attrgetter("_table_mask"), doc="Every card on the table, as a mask.")
    unbeaten_mask = property(attrgetter("_unbeaten_mask"), doc="The attack cards not yet beaten.")
    discard_mask = property(attrgetter("_discard_mask"), doc="The cards in the discard pile.")
    trump_suit_index = property(
        attrgetter("_trump_suit"), doc="The trump suit as an index into ``SUITS`` (0-3)."
    )

    def hand_mask(self, seat: int) -> int:
        """Server-side: the cards of any seat, as a mask."""
        return self._hands[seat]

    @property
    def out_order(self) -> list[int]:
        """The seats that have gone out, in the order they went."""
        return list(self._out_order)

    def position_key(self) -> tuple[Any, ...]:
        """A hashable value, equal for two games of one variant that play on alike.

        Equal keys mean the same legal actions now and after any same sequence of
        actions, and the same fool (or winner) at the end: the hands, talon, table,
        turns, limits and swap state are equal. Left out: the history, what each seat
        knows, the bout number beyond "is this the first bout", the drawing order once
        the talon is empty, and what only the result's ``out_order`` and ``epaulettes``
        would show. Transposition tables key on it.
        """
        talon = self._talon
        r = self._result
        return (
            tuple(self._hands),
            tuple(talon),
            self._trump_card,
            tuple(self._attack_cards),
            tuple(self._defence_cards),
            self._phase,
            self._attacker,
            self._defender,
            self._attackers_mask,
            self._done_mask,
            self._bout_limit,
            self._shown_mask,
            self._out_mask,
            self._bout_number == 0,
            tuple(self._joined_order) if talon else (),
            self._trump_six,
            self._trump_six_holder,
            self._trump_drawer,
            None if r is None else (r["fool"], r["fool_team"], r["draw"], r["winner"]),
        )

    # --------------------------------------------------------------- the rest

    def hand(self, seat: int) -> list[str]:
        """Server-side: the cards of any seat."""
        return mask_to_codes(self._hands[seat])

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self._hands]

    def table(self) -> list[list[str | None]]:
        return [
            [CODES[a], CODES[d] if d >= 0 else None]
            for a, d in zip(self._attack_cards, self._defence_cards, strict=True)
        ]

    def team_of(self, seat: int) -> int | None:
        t = self._config.team_of
        return None if t is None else t[seat]

    def seats_to_act(self) -> list[int]:
        """Server-side: seats that have at least one legal action now (swap excluded)."""
        seats = {a.seat for a in self.legal_actions() if a._kind_code != K_SWAP}
        return sorted(seats)

    def to_act(self) -> list[int]:
        """Seats entitled to act now, from public facts only (never reveals a hand)."""
        ph = self._phase
        if ph == OVER:
            return []
        if ph == LEAD:
            return [self._attacker]
        pend = self._attackers_mask & ~self._done_mask & ~self._empty_mask
        if ph == DEFEND and self._unbeaten_mask:
            if self._attack_count >= self._bout_limit:
                pend = 0
            pend |= 1 << self._defender
        return list(self._config.seats_of[pend])

    # ----------------------------------------------------- default actions

    def default_action(self, seat: int) -> Action | None:
        """The safe action for a seat whose turn timer ran out, or None if it need not act.

        The defender takes; an attacker who may say done says done; a seat that must
        lead plays its lowest card (lowest non-trump by rank, else the lowest trump).
        """
        ph = self._phase
        if ph == OVER or not 0 <= seat < self._config.players:
            return None
        if ph == LEAD:
            if seat != self._attacker:
                return None
            h = self._hands[seat]
            plain = h & ~SUIT_MASK[self._trump_suit]
            pick = plain or h
            return attack_action(seat, pick & -pick)
        if seat == self._defender:
            if ph == DEFEND and self._unbeaten_mask:
                return simple_action(seat, K_TAKE)
            return None
        pending = self._attackers_mask & ~self._done_mask & ~self._empty_mask
        if pending >> seat & 1 and (ph == TAKING or not self._unbeaten_mask):
            return simple_action(seat, K_DONE)
        return None

    # ----------------------------------------------------------- views etc.

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). JSON-ready; no hidden card appears."""
        c = self._config
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < c.players):
            raise ValueError(f"no seat {seat!r} in a {c.players}-player game")
        ph = self._phase
        v: dict[str, Any] = {
            "seat": seat,
            "hand": mask_to_codes(self._hands[seat]) if seat is not None else None,
            "hand_counts": [h.bit_count() for h in self._hands],
            "table": self.table(),
            "trump": CODES[self._trump_card],
            "trump_suit": SUITS[self._trump_suit],
            "talon": len(self._talon),
            "discard": self._discard_mask.bit_count(),
            "attacker": self._attacker if ph != OVER else None,
            "defender": self._defender if ph != OVER else None,
            "to_act": self.to_act(),
            "phase": ph,
            "bout": self._bout_number,
            "bout_limit": self._bout_limit,
            "cards_allowed": max(0, self._bout_limit - self._attack_count) if ph != OVER else 0,
            "done": [s for s in range(c.players) if self._done_mask >> s & 1],
            "attackers": [s for s in range(c.players) if self._attackers_mask >> s & 1]
            if ph != OVER
            else [],
            "out": [s for s in range(c.players) if self._out_mask >> s & 1],
            "out_order": list(self._out_order),
            "teams": list(c.team_of) if c.team_of is not None else None,
            "dealer": self._deal[1],
            "first_attacker": self._deal[2],
            "is_over": ph == OVER,
            "result": self.result,
        }
        if seat is not None:
            v["legal"] = [str(a) for a in self.legal_actions() if a.seat == seat]
        return v

    def knowledge(self, seat: int) -> Knowledge:
        """Everything ``seat`` may know (see ``Knowledge``)."""
        return Knowledge.of(self, seat)

    def determinize(self, seat: int, rng: random.Random | int | None = None) -> Game:
        """A full game consistent with what ``seat`` knows; hidden cards dealt at random."""
        return self.knowledge(seat).determinize(rng)

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON-ready data (server-side: it holds every hand)."""
        return _record.snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Game:
        return _record.from_snapshot(cls, data)

    def to_record(self) -> dict[str, Any]:
        return _record.to_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        return _record.from_record(cls, record)

    def __repr__(self) -> str:
        return (
            f"<Game {self._config.players}p {self._config.rules.mode} bout={self._bout_number} phase={self._phase}"
            f" attacker={self._attacker} defender={self._defender} actions={len(self.history)}>"
        )
