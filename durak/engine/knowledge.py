"""What one seat may know, and games sampled to agree with it (for search bots)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from .actions import Action
from .cards import BIT, CODES, DECK_MASK, iter_bits, mask_to_codes
from .config import make_rng
from .rules import Rules
from .settlement import result_of
from .state import Deal, GameState
from .view import view_of

G = TypeVar("G", bound=GameState)


# State fields that every player sees (the table, turns, piles...); what is known of the
# hands is ``Knowledge.known``.
_PUBLIC = (
    "trump_card",
    "trump_suit_index",
    "attack_cards",
    "defence_cards",
    "phase",
    "attacker",
    "defender",
    "attackers_mask",
    "done_mask",
    "joined_order",
    "bout_limit",
    "shown_mask",
    "bout_number",
    "beaten_count",
    "out_mask",
    "went_out",
    "discard_mask",
    "trump_six",
    "trump_drawer",
    "last_play_sixes",
)
_LISTS = {
    "attack_cards",
    "defence_cards",
    "joined_order",
    "went_out",
    "last_play_sixes",
}
_DISCARD = _PUBLIC.index("discard_mask")


@dataclass(frozen=True)
class Knowledge(Generic[G]):
    """Everything ``seat`` may know about a game, and nothing else.

    Two games that differ only in cards this seat cannot have seen give equal
    Knowledge, so a bot that decides from Knowledge alone cannot cheat.

    ``known[s]`` is the mask of cards publicly known to be in seat s's hand: cards it
    picked up from the table and has not played since, the face-up trump if it drew it,
    a trump it showed, the lowest trump it showed to lead, the card it got by a swap.
    """

    rules: Rules
    seat: int
    hand_mask: int
    hand_counts: tuple[int, ...]
    talon_count: int
    known: tuple[int, ...]
    history: tuple[Action, ...]
    dealer: int
    first_attacker: int
    first_attacker_by: str | None
    public: tuple[Any, ...]
    result: dict[str, Any] | None = field(default=None, hash=False)
    # The game with every hidden card taken out: determinize deals into a copy of it.
    # Left out of comparisons, so equal knowledge stays equal whatever was hidden.
    template: G | None = field(default=None, compare=False, hash=False, repr=False)

    @cached_property
    def view(self) -> dict[str, Any]:
        """The seat's ``Game.view`` (rebuilt from this knowledge alone)."""
        from_knowledge = self.determinize(random.Random(0))
        return view_of(from_knowledge, self.seat)

    @classmethod
    def of(cls, game: G, seat: int) -> Knowledge[G]:
        n = game.config.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r} in a {n}-player game")
        pub = tuple(
            tuple(getattr(game, name)) if name in _LISTS else getattr(game, name)
            for name in _PUBLIC
        )
        _, dealer, fa, fa_by = game.deal
        template = game.copy()
        template.hands = [0] * n
        template.talon = []
        template.trump_six_holder = -1
        template.deal = Deal(None, dealer, fa, fa_by)
        template.opening_events = ()
        return cls(
            rules=game.config.rules,
            seat=seat,
            hand_mask=game.hands[seat],
            hand_counts=tuple(h.bit_count() for h in game.hands),
            talon_count=len(game.talon),
            known=tuple(game.known_in_hands()),
            history=tuple(game.actions_played()),
            dealer=dealer,
            first_attacker=fa,
            first_attacker_by=fa_by,
            public=pub,
            result=result_of(game),
            template=template,
        )

    # Friendly read-outs -------------------------------------------------

    @property
    def hand(self) -> list[str]:
        return mask_to_codes(self.hand_mask)

    @property
    def trump(self) -> str:
        return CODES[int(self.public[0])]

    @property
    def discard(self) -> list[str]:
        return mask_to_codes(int(self.public[_DISCARD]))

    def known_cards(self, seat: int) -> list[str]:
        """Cards publicly known to be in ``seat``'s hand."""
        return mask_to_codes(self.known[seat])

    @property
    def table_mask(self) -> int:
        m = 0
        for i in self.public[2] + self.public[3]:
            if i >= 0:
                m |= BIT[i]
        return m

    @property
    def trump_in_talon(self) -> bool:
        return self.talon_count > 0

    @property
    def unseen_mask(self) -> int:
        """Cards whose place this seat cannot tell (other hands or the talon)."""
        m = DECK_MASK[self.rules.deck_size] & ~self.hand_mask & ~self.table_mask
        m &= ~int(self.public[_DISCARD])
        for s, k in enumerate(self.known):
            if s != self.seat:
                m &= ~k
        if self.talon_count:
            m &= ~BIT[int(self.public[0])]
        return m

    # Sampling -------------------------------------------------------------

    def determinize(self, rng: random.Random | int | None = None) -> G:
        """A full game that agrees with this knowledge; unseen cards are dealt at random.

        Own hand, known cards, table and discard are exact; the face-up trump stays at
        the talon's bottom while the talon lasts. The result can be played on; it has no
        real deal, so ``to_record()`` refuses it (``history`` is the real public one).
        It is of the class of the game this knowledge came from (a ``Game``).
        """
        if self.template is None:
            raise ValueError("this knowledge was not taken from a game (Knowledge.of)")
        r = make_rng(rng)
        g = self.template.copy()
        n = g.config.players
        pool = list(iter_bits(self.unseen_mask))
        r.shuffle(pool)
        hands = []
        pos = 0
        for s in range(n):
            if s == self.seat:
                hands.append(self.hand_mask)
                continue
            h = self.known[s]
            need = self.hand_counts[s] - h.bit_count()
            for i in pool[pos : pos + need]:
                h |= BIT[i]
            pos += need
            hands.append(h)
        talon = []
        if self.talon_count:
            talon = [g.trump_card, *pool[pos:]]
        if len(talon) != self.talon_count:
            raise ValueError("knowledge is inconsistent: unseen cards do not fill hands and talon")
        g.hands = hands
        g.talon = talon
        g.empty_mask = sum(1 << s for s in range(n) if not hands[s])
        if g.trump_six:
            for s in range(n):
                if hands[s] & g.trump_six:
                    g.trump_six_holder = s
        return g
