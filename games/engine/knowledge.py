"""What one seat may know, and games sampled to agree with it (for search bots)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import BEATERS, BIT, CODES, mask_to_codes
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

# Game slots that every player sees (the table, turns, piles, public hand knowledge...).
_PUBLIC = (
    "_trump_card",
    "_trump_suit",
    "_attack_cards",
    "_defence_cards",
    "_phase",
    "_attacker",
    "_defender",
    "_attackers_mask",
    "_done_mask",
    "_joined_order",
    "_bout_limit",
    "_shown_mask",
    "_bout_number",
    "_beaten_count",
    "_out_mask",
    "_out_order",
    "_known_cards",
    "_discard_mask",
    "_trump_six",
    "_trump_drawer",
    "_last_play_sixes",
)
_LISTS = {
    "_attack_cards",
    "_defence_cards",
    "_joined_order",
    "_out_order",
    "_known_cards",
    "_last_play_sixes",
}


@dataclass(frozen=True)
class Knowledge:
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
    first_attacker_by: str
    public: tuple[Any, ...]
    result: dict[str, Any] | None = field(default=None, hash=False)

    @cached_property
    def view(self) -> dict[str, Any]:
        """The seat's ``Game.view`` (rebuilt from this knowledge alone)."""
        return self.determinize(random.Random(0)).view(self.seat)

    @classmethod
    def of(cls, game: Game, seat: int) -> Knowledge:
        n = game._config.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r} in a {n}-player game")
        pub = tuple(
            tuple(getattr(game, name)) if name in _LISTS else getattr(game, name)
            for name in _PUBLIC
        )
        _, dealer, fa, fa_by = game._deal
        return cls(
            rules=game._config.rules,
            seat=seat,
            hand_mask=game._hands[seat],
            hand_counts=tuple(h.bit_count() for h in game._hands),
            talon_count=len(game._talon),
            known=tuple(game._known_cards),
            history=tuple(game.history),
            dealer=dealer,
            first_attacker=fa,
            first_attacker_by=fa_by,
            public=pub,
            result=game.result,
        )

    # Friendly read-outs -------------------------------------------------

    @property
    def hand(self) -> list[str]:
        return mask_to_codes(self.hand_mask)

    @property
    def trump(self) -> str:
        return CODES[self.public[0]]

    @property
    def discard(self) -> list[str]:
        return mask_to_codes(self.public[_PUBLIC.index("_discard_mask")])

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
        from .cards import DECK_MASK

        m = DECK_MASK[self.rules.deck_size] & ~self.hand_mask & ~self.table_mask
        m &= ~self.public[_PUBLIC.index("_discard_mask")]
        for s, k in enumerate(self.known):
            if s != self.seat:
                m &= ~k
        if self.talon_count:
            m &= ~BIT[self.public[0]]
        return m

    # Sampling -------------------------------------------------------------

    def determinize(self, rng: random.Random | int | None = None) -> Game:
        """A full game that agrees with this knowledge; unseen cards are dealt at random.

        Own hand, known cards, table and discard are exact; the face-up trump stays at
        the talon's bottom while the talon lasts. The result can be played on; it has no
        real deal, so ``to_record()`` refuses it (``history`` is the real public one).
        """
        from .config import OVER, _rng, config_for
        from .game import Game
        from .record import _history_chain

        r = _rng(rng)
        c = config_for(self.rules)
        g = object.__new__(Game)
        g._config = c
        for name, value in zip(_PUBLIC, self.public, strict=True):
            setattr(g, name, list(value) if name in _LISTS else value)
        unseen = self.unseen_mask
        pool = []
        m = unseen
        while m:
            low = m & -m
            pool.append(low.bit_length() - 1)
            m ^= low
        r.shuffle(pool)
        hands = []
        pos = 0
        for s in range(c.players):
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
            talon = [self.public[0], *pool[pos:]]
        if len(talon) != self.talon_count:
            raise ValueError("knowledge is inconsistent: unseen cards do not fill hands and talon")
        g._hands = hands
        g._talon = talon
        g._is_over = g._phase == OVER
        g._beaters = BEATERS[g._trump_suit]
        g._rebuild_table_masks()
        g._empty_mask = sum(1 << s for s in range(c.players) if not hands[s])
        g._trump_six_holder = -1
        if g._trump_six:
            for s in range(c.players):
                if hands[s] & g._trump_six:
                    g._trump_six_holder = s
        g._history = _history_chain(list(self.history))
        g._deal = (None, self.dealer, self.first_attacker, self.first_attacker_by)
        res = self.result
        g._result = None if res is None else {**res, "out_order": tuple(res["out_order"])}
        g._deal_events = ()
        return g
