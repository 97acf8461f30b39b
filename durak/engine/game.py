"""``Game``: one game of Durak, the state with its public API.

Phases of a bout (``game.phase``):

* ``attack``  - the table is empty; the principal attacker must lead.
* ``defend``  - cards are on the table; the defender beats, transfers, shows or takes,
  eligible attackers throw in, and once every card is beaten they may say done.
* ``taking``  - the defender has given up; attackers may add cards, then say done,
  and the defender picks everything up.
* ``over``    - the game has ended; ``result`` is set.

A bout ends on its own (no action needed) when nobody is left who could act: every
eligible attacker holding cards has said done, or the bout's card limit is reached, or
the defender has no cards left. Then the players draw, players with no cards left are
out (only once the talon is empty) and the next bout starts.

``Game`` adds no state to ``GameState``: its fields (``phase``, ``attacker``,
``defender``, ``bout_limit``, the masks...) are read directly, and are not to be
assigned from outside. The methods are the rule functions of the modules named in
``state``.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from . import handlers, legal, record, seats, turns
from .actions import Action
from .cards import CODES, SUITS, mask_to_codes
from .config import make_rng
from .deal import deal_shuffled, fill_position, setup
from .events import Event
from .knowledge import Knowledge
from .rules import Rules
from .settlement import result_of
from .state import GameState
from .view import position_key, table_of, view_of

__all__ = ["Game"]


class Game(GameState):
    """One game of Durak. See the module docstring for the phases."""

    __slots__ = ()

    # ------------------------------------------------------------ dealing

    def __init__(
        self,
        rules: Rules,
        deck: list[str] | tuple[str, ...],
        *,
        dealer: int | None = None,
        first_attacker: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """Deal ``deck`` (``deck[0]`` is dealt first, to the seat after the dealer).

        ``dealer`` defaults to the last seat, so the deal starts at seat 0. Without
        ``first_attacker`` the holder of the lowest trump leads; if nobody holds a trump
        the leader is drawn from ``rng`` (or, for an explicit deck, from a Random seeded
        by the deck order, so the same deck always gives the same draw).
        """
        setup(self, rules, deck, dealer, first_attacker, None, rng)

    @classmethod
    def new(
        cls,
        rules: Rules,
        rng_or_seed: random.Random | int | str | None = None,
        *,
        dealer: int | None = None,
        first_attacker: int | None = None,
    ) -> Game:
        """Shuffle a fresh deck with ``rng_or_seed`` (an int seed or a ``random.Random``)."""
        rng = make_rng(rng_or_seed)
        g = object.__new__(cls)
        deal_shuffled(g, rules, rng, dealer, first_attacker)
        return g

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: list[list[str]] | list[str],
        trump: str,
        talon: list[str] | tuple[str, ...] | str = (),
        attacker: int = 0,
        *,
        bout: int = 1,
        out_order: list[int] | tuple[int, ...] = (),
    ) -> Game:
        """A bout about to start from a made-up position (puzzles, tests, analysis).

        ``hands`` per seat (lists or space-separated strings); ``talon`` in draw order,
        top first, its last card being the face-up ``trump``; with an empty talon
        ``trump`` only names the trump card (it must be in a hand or the discard).
        Every card not placed is in the discard pile. Such a game has no record.
        """
        g = object.__new__(cls)
        fill_position(g, rules, hands, trump, talon, attacker, bout, out_order)
        return g

    # ------------------------------------------------------- acting, turns

    apply = handlers.apply
    apply_legal = handlers.apply_legal
    legal_actions = legal.legal_actions
    is_legal = turns.is_legal
    to_act = turns.to_act
    seats_to_act = turns.seats_to_act
    default_action = turns.default_action

    # ----------------------------------------------------- the bout's facts

    attack_cards_on_table = property(
        attrgetter("attack_count"), doc="How many attack cards lie on the table in this bout."
    )

    @property
    def attackers(self) -> list[int]:
        """The seats that may throw in during this bout (the principal attacker first)."""
        if self.is_over:
            return []
        seats = self.config.seats_of[self.attackers_mask]
        return [self.attacker, *(s for s in seats if s != self.attacker)]

    @property
    def unbeaten_cards(self) -> list[str]:
        """The attack cards on the table not yet beaten, in the order played."""
        m = self.unbeaten_mask
        return [CODES[a] for a in self.attack_cards if m >> a & 1]

    @property
    def drawing_order(self) -> list[int]:
        """Who draws after this bout, first to last (the defender last)."""
        return seats.drawing_order(self.attacker, self.joined_order, self.defender)

    def table(self) -> list[list[str | None]]:
        """The table as [attack card, defence card or None] pairs, in the order played."""
        return table_of(self)

    # ------------------------------------------------------------ the rest

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def trump(self) -> str:
        """The face-up trump card (after a trump-six swap: the six now lying face up)."""
        return CODES[self.trump_card]

    @property
    def trump_suit(self) -> str:
        return SUITS[self.trump_suit_index]

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def first_attacker(self) -> int:
        return self.deal.first_attacker

    @property
    def first_attacker_by(self) -> str | None:
        """How the first attacker was chosen: "lowest_trump", "draw" or "given"."""
        return self.deal.first_attacker_by

    @property
    def deck(self) -> list[str] | None:
        """The dealt deck order (None for a made-up or determinized game)."""
        return list(self.deal.deck) if self.deal.deck is not None else None

    @property
    def result(self) -> dict[str, Any] | None:
        return result_of(self)

    @property
    def history(self) -> list[Action]:
        return self.actions_played()

    @property
    def deal_events(self) -> list[Event]:
        """Events of the deal itself: Dealt, the first-attacker choice, the first BoutStarted."""
        return list(self.opening_events)

    @property
    def talon_count(self) -> int:
        return len(self.talon)

    @property
    def out_order(self) -> list[int]:
        """The seats that have gone out, in the order they went."""
        return list(self.went_out)

    def hand_mask(self, seat: int) -> int:
        """Server side: the cards of any seat, as a mask."""
        return self.hands[seat]

    def hand(self, seat: int) -> list[str]:
        """Server side: the cards of any seat."""
        return mask_to_codes(self.hands[seat])

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def team_of(self, seat: int) -> int | None:
        t = self.config.team_of
        return None if t is None else t[seat]

    def position_key(self) -> tuple[Any, ...]:
        """A hashable value, equal for two games of one variant that play on alike.

        Equal keys mean the same legal actions now and after any same sequence of
        actions, and the same fool (or winner) at the end: the hands, talon, table,
        turns, limits and swap state are equal. Left out: the history, what each seat
        knows, the bout number beyond "is this the first bout", the drawing order once
        the talon is empty, and what only the result's ``out_order`` and ``epaulettes``
        would show. Transposition tables key on it.
        """
        return position_key(self)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). JSON-ready; no hidden card appears."""
        return view_of(self, seat)

    def knowledge(self, seat: int) -> Knowledge[Game]:
        """Everything ``seat`` may know (see ``Knowledge``)."""
        return Knowledge.of(self, seat)

    def determinize(self, seat: int, rng: random.Random | int | None = None) -> Game:
        """A full game consistent with what ``seat`` knows; hidden cards dealt at random."""
        return self.knowledge(seat).determinize(rng)

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON-ready data (server side: it holds every hand)."""
        return record.snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Game:
        return record.from_snapshot(cls, data)

    def to_record(self) -> dict[str, Any]:
        return record.to_record(self)

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> Game:
        return record.from_record(cls, rec)

    def __repr__(self) -> str:
        c = self.config
        return (
            f"<Game {c.players}p {c.rules.mode} bout={self.bout_number} phase={self.phase}"
            f" attacker={self.attacker} defender={self.defender}"
            f" actions={len(self.history)}>"
        )

    __copy__ = GameState.copy
