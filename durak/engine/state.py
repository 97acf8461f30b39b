"""The state of one game: a single declared type that every rule function works on.

Cards are indices ``rank * 4 + suit`` and sets of cards are bit masks over them
(``cards``); sets of seats are bit masks too (bit s for seat s). -1 means "no seat" or
"no card". The rules are plain functions over this state, one module per concern:
``legal`` (the legal actions and who is to act), ``handlers`` (one function per action kind),
``refusals`` (why an action is refused), ``settlement`` (bouts ending, drawing, going
out, the result), ``seats`` (seat order, who may throw in, limits, drawing order) and
``deal`` (setting a state up). ``game.Game`` is this state with the public API on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Self, TypeAlias

from .actions import Action
from .config import Config
from .events import Event

_new = object.__new__

# The actions played so far as a linked chain, newest last: (earlier chain, action).
# Appending is one tuple and a copy shares the whole chain.
ActionChain: TypeAlias = "tuple[ActionChain | None, Action]"


class Deal(NamedTuple):
    """How the game began: the deck order (None for a made-up or sampled game), who dealt,
    who led first, and how the first attacker was chosen ("lowest_trump", "draw", "given").
    """

    deck: tuple[str, ...] | None
    dealer: int
    first_attacker: int
    first_attacker_by: str | None


@dataclass(slots=True, eq=False, repr=False, init=False)
class GameState:
    """Everything that makes up one game. The deal functions fill every field."""

    config: Config  # the variant's constants, shared by every game of its Rules
    hands: list[int]  # a card mask per seat
    talon: list[int]  # card indices: the face-up trump at [0], the next card drawn at [-1]
    trump_card: int  # the face-up trump (after a swap under the talon: the six)
    trump_suit_index: int  # the trump suit, 0-3 (an index into cards.SUITS)
    beaters: tuple[int, ...]  # per card: the mask of cards that beat it under this trump
    attack_cards: list[int]  # the bout's attack cards, in the order played
    defence_cards: list[int]  # per attack card: the card that beat it, or -1
    table_mask: int  # every card on the table
    table_ranks_mask: int  # every card of a rank on the table (throw-ins match it)
    unbeaten_mask: int  # the attack cards not yet beaten
    attack_count: int  # len(attack_cards)
    beaten_count: int  # defence cards on the table
    phase: str  # config.LEAD ("attack"), DEFEND, TAKING or OVER
    is_over: bool  # phase == OVER
    attacker: int  # the principal attacker (after a transfer: who passed it on)
    defender: int
    attackers_mask: int  # seats that may throw in during this bout
    done_mask: int  # seats that said done since cards last reached the table
    joined_order: tuple[int, ...]  # attackers in the order they joined the bout (drawing order)
    bout_limit: int  # the most attack cards this bout may hold
    shown_mask: int  # trumps shown (trump-show transfer) in this bout
    bout_number: int  # 0 for the first bout of the game
    out_mask: int  # seats out of the game
    went_out: tuple[int, ...]  # the same seats, in the order they went out
    empty_mask: int  # seats holding no cards (while the talon lasts they still play)
    # Per seat: cards publicly seen going into its hand. A play does not clear them (the
    # hand's mask already says the card left), so the cards known to be in the hand now
    # are ``known_cards[s] & hands[s]`` (``known_in_hands``).
    known_cards: list[int]
    discard_mask: int
    trump_six: int  # the swappable trump six as a mask, 0 once it cannot be swapped
    trump_six_holder: int  # the seat that may swap it, or -1
    trump_drawer: int  # who drew the face-up trump last, while a swap with it is open
    last_play_sixes: tuple[int, ...]  # per seat: sixes in the play that emptied its hand
    action_chain: ActionChain | None  # the actions played, None before the first
    deal: Deal
    outcome: dict[str, Any] | None  # the result once the game is over
    opening_events: tuple[Event, ...]  # the events of the deal, up to the first BoutStarted

    def copy(self) -> Self:
        """An independent copy (lists copied, everything else immutable and shared).

        Fields that change a few times a game are tuples, replaced rather than changed,
        so a copy shares them: only what changes nearly every action is a list.
        """
        g = _new(self.__class__)
        g.config = self.config
        g.hands = self.hands[:]
        g.talon = self.talon[:]
        g.trump_card = self.trump_card
        g.trump_suit_index = self.trump_suit_index
        g.beaters = self.beaters
        g.attack_cards = self.attack_cards[:]
        g.defence_cards = self.defence_cards[:]
        g.table_mask = self.table_mask
        g.table_ranks_mask = self.table_ranks_mask
        g.unbeaten_mask = self.unbeaten_mask
        g.attack_count = self.attack_count
        g.beaten_count = self.beaten_count
        g.phase = self.phase
        g.is_over = self.is_over
        g.attacker = self.attacker
        g.defender = self.defender
        g.attackers_mask = self.attackers_mask
        g.done_mask = self.done_mask
        g.joined_order = self.joined_order
        g.bout_limit = self.bout_limit
        g.shown_mask = self.shown_mask
        g.bout_number = self.bout_number
        g.out_mask = self.out_mask
        g.went_out = self.went_out
        g.empty_mask = self.empty_mask
        g.known_cards = self.known_cards[:]
        g.discard_mask = self.discard_mask
        g.trump_six = self.trump_six
        g.trump_six_holder = self.trump_six_holder
        g.trump_drawer = self.trump_drawer
        g.last_play_sixes = self.last_play_sixes
        g.action_chain = self.action_chain
        g.deal = self.deal
        g.outcome = self.outcome
        g.opening_events = self.opening_events
        return g

    def known_in_hands(self) -> list[int]:
        """Per seat: the cards publicly known to be in its hand now."""
        return [k & h for k, h in zip(self.known_cards, self.hands, strict=True)]

    def actions_played(self) -> list[Action]:
        """The actions played so far, oldest first."""
        out = []
        h = self.action_chain
        while h is not None:
            out.append(h[1])
            h = h[0]
        out.reverse()
        return out


def chain_of(actions: list[Action]) -> ActionChain | None:
    """The action chain of ``actions`` (oldest first)."""
    h: ActionChain | None = None
    for a in actions:
        h = (h, a)
    return h
