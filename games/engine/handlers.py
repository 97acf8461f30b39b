"""Action handlers: one per kind, each checking the action and then changing the state.

Every check comes before the first change, so a refused action leaves the game as it
was.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    K_ATTACK,
    K_DEFEND,
    K_DONE,
    K_RESIGN,
    K_SHOW,
    K_SWAP,
    K_TAKE,
    K_TRANSFER,
    Action,
)
from .cards import (
    BIT,
    CODES,
    RANK_MASK,
)
from .config import DEFEND, LEAD, OVER, TAKING
from .events import (
    Resigned,
    Shown,
    Swapped,
    Transferred,
)


class HandlersMixin:
    """One method per action kind: check (or refuse), then change the state."""

    __slots__ = ()

    def _do_attack(self, seat: int, action: Action) -> list[Any]:
        m = action.card_mask
        hands = self._hands
        ph = self._phase
        idx = action.card_indices
        n = len(idx)
        # One combined test for the common legal case; the refusal path explains why.
        # (``hands[seat]`` is read only once the seat is known to be a real one; ``x & m != m``
        # says "m is not a subset of x" with one mask operation where ``m & ~x`` takes two.)
        if ph == LEAD:
            if (
                seat != self._attacker
                or hands[seat] & m != m
                or (
                    n > 1
                    and (
                        not self._config.multi_card_lead
                        or m & ~RANK_MASK[idx[0] >> 2]
                        or n > self._bout_limit
                    )
                )
            ):
                self._refuse_attack(seat, action)
        else:
            if (
                ph == OVER
                or seat == self._defender
                or not (self._attackers_mask & ~self._done_mask & ~self._empty_mask) >> seat & 1
                or hands[seat] & m != m
                or self._table_ranks_mask & m != m
                or (n > 1 and m & ~RANK_MASK[idx[0] >> 2])
                or self._attack_count + n > self._bout_limit
            ):
                self._refuse_attack(seat, action)
        # Mutations start here: everything above only reads.
        h = hands[seat] ^ m
        hands[seat] = h
        known = self._known_cards
        if known[seat] & m:
            known[seat] &= ~m
        if self._trump_six and m & self._trump_six:
            self._trump_six = 0
        self._attack_cards.extend(idx)
        self._defence_cards.extend([-1] * n)
        self._table_mask |= m
        self._table_ranks_mask |= RANK_MASK[idx[0] >> 2]  # the cards share one rank
        self._unbeaten_mask |= m
        self._attack_count += n
        self._done_mask = 0
        joined = self._joined_order
        if seat not in joined:
            joined.append(seat)
        if ph == LEAD:
            ev: list[Any] = [action._lead_event]
            self._phase = DEFEND
            self._trump_drawer = -1  # the swap window after the talon ran out closes here
        else:
            ev = [action._event]
        if not h:
            self._emptied(seat, action, ev)
            if self._phase == OVER:
                return ev
        if ph == TAKING:
            self._settle(ev)
        return ev

    def _do_defend(self, seat: int, action: Action) -> list[Any]:
        a, b = action.card_indices
        hands = self._hands
        if (
            self._phase != DEFEND
            or seat != self._defender
            or not self._unbeaten_mask >> a & 1
            or not hands[seat] >> b & 1
            or not self._beaters[a] >> b & 1
        ):
            self._refuse_defence(seat, action)
        bb = BIT[b]
        h = hands[seat] ^ bb
        hands[seat] = h
        known = self._known_cards
        if known[seat] & bb:
            known[seat] &= ~bb
        if self._trump_six and bb & self._trump_six:
            self._trump_six = 0
        self._defence_cards[self._attack_cards.index(a)] = b
        self._table_mask |= bb
        self._table_ranks_mask |= RANK_MASK[b >> 2]
        self._unbeaten_mask ^= BIT[a]
        self._beaten_count += 1
        ev: list[Any] = [action._event]
        if not h:
            self._emptied(seat, action, ev)
            if self._phase == OVER:
                return ev
        self._settle(ev)
        return ev

    def _do_take(self, seat: int, action: Action) -> list[Any]:
        if self._phase != DEFEND or seat != self._defender or not self._unbeaten_mask:
            self._refuse_take(seat, action)
        self._phase = TAKING
        self._done_mask = 0
        ev: list[Any] = [action._event]
        self._settle(ev)  # the bout ends at once if no attacker can add a card
        return ev

    def _do_done(self, seat: int, action: Action) -> list[Any]:
        ph = self._phase
        bit = 1 << seat
        pend = self._attackers_mask & ~self._done_mask & ~self._empty_mask
        if (
            ph == LEAD  # noqa: SIM109  (two compares beat building a tuple here)
            or ph == OVER
            or seat == self._defender
            or not pend & bit
            or (ph == DEFEND and self._unbeaten_mask)
        ):
            self._refuse_done(seat, action)
        self._done_mask |= bit
        ev: list[Any] = [action._event]
        if pend == bit:  # nobody else is still to say done
            self._end_bout(ev, ph == DEFEND)
        return ev

    def _do_transfer(self, seat: int, action: Action) -> list[Any]:
        nd = self._check_transfer(seat, action)
        m = action.card_mask
        hands = self._hands
        h = hands[seat]
        r = self._attack_cards[0] >> 2
        total = self._attack_count + len(action.card_indices)
        h ^= m
        hands[seat] = h
        self._known_cards[seat] &= ~m
        if m & self._trump_six:
            self._trump_six = 0
        self._attack_cards.extend(action.card_indices)
        self._defence_cards.extend([-1] * len(action.card_indices))
        self._table_mask |= m
        self._table_ranks_mask |= RANK_MASK[r]
        self._unbeaten_mask |= m
        self._attack_count = total
        ev: list[Any] = [Transferred(seat, action.cards, nd)]
        self._pass_attack(seat, nd, self._attack_limit())
        if not h:
            self._emptied(seat, action, ev)
        return ev

    def _do_show(self, seat: int, action: Action) -> list[Any]:
        nd = self._check_show(seat, action)
        card = action.card_indices[0]
        self._shown_mask |= BIT[card]
        self._known_cards[seat] |= BIT[card]
        ev: list[Any] = [Shown(seat, CODES[card], nd)]
        self._pass_attack(seat, nd, self._attack_limit())
        return ev

    def _pass_attack(self, seat: int, nd: int, limit: int) -> None:
        if seat not in self._joined_order:
            self._joined_order.append(seat)
        self._attacker = seat
        self._defender = nd
        hc = self._hands[nd].bit_count()
        self._bout_limit = hc if hc < limit else limit
        self._attackers_mask = self._eligible_attackers(seat, nd)
        self._done_mask = 0

    def _do_swap(self, seat: int, action: Action) -> list[Any]:
        target = self._check_swap(seat, action)
        six = self._trump_six
        six_card = six.bit_length() - 1
        face = self._talon[0] if target < 0 else self._trump_card
        fb = BIT[face]
        hands = self._hands
        known = self._known_cards
        hands[seat] ^= six | fb
        known[seat] = (known[seat] & ~six) | fb
        if target < 0:
            self._talon[0] = six_card
            self._trump_card = six_card
            other = None
        else:
            hands[target] ^= six | fb
            known[target] = (known[target] & ~fb) | six
            other = target
        self._trump_six = 0
        self._trump_six_holder = -1
        return [Swapped(seat, CODES[six_card], CODES[face], other)]

    def _do_resign(self, seat: int, action: Action) -> list[Any]:
        self._check_resign(seat, action)
        team = self._config.team_of
        ev: list[Any] = [Resigned(seat)]
        winner = None
        if self._config.rules.one_winner:
            rest = [
                s for s in range(self._config.players) if s != seat and not self._out_mask >> s & 1
            ]
            if len(rest) == 1:
                winner = rest[0]
        self._finish(ev, seat, None if team is None else team[seat], False, winner, seat)
        return ev


# Game.apply's handlers, indexed by the kind codes K_ATTACK ... K_RESIGN.
HANDLERS = (
    HandlersMixin._do_attack,
    HandlersMixin._do_defend,
    HandlersMixin._do_transfer,
    HandlersMixin._do_show,
    HandlersMixin._do_take,
    HandlersMixin._do_done,
    HandlersMixin._do_swap,
    HandlersMixin._do_resign,
)
assert tuple(range(8)) == (K_ATTACK, K_DEFEND, K_TRANSFER, K_SHOW, K_TAKE, K_DONE, K_SWAP, K_RESIGN)
