"""Legal actions: every action that the rules allow now, for every seat.

The lists are built from shared ``Action`` objects looked up in tables, so a
position's actions cost a few mask operations and no new objects.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    _DEFEND_ROWS,
    K_DONE,
    K_SWAP,
    K_TAKE,
    Action,
    attack_action,
    attack_chunk,
    defend_action,
    defend_row,
    show_action,
    simple_action,
    transfer_action,
)
from .cards import (
    BIT,
    SUBSETS,
)
from .config import DEFEND, LEAD, OVER, Config


def _defend_cell(row: list[Action | None], seat: int, a: int, b: int) -> Action:
    act = row[b] = defend_action(seat, a, b)
    return act


_TAKE = tuple(simple_action(s, K_TAKE) for s in range(8))
_DONE = tuple(simple_action(s, K_DONE) for s in range(8))
_SWAP = tuple(simple_action(s, K_SWAP) for s in range(8))


# Attack actions are looked up a byte (two ranks) of the hand at a time, in tables of
# shared Action tuples per (seat, room class, byte), a cell being built on first use. The
# hand is split with one ``int.to_bytes``: shifting a mask above 30 bits would allocate a
# new int per byte.
_ATK_TABLES: dict[int, list[tuple[Action, ...] | None]] = {}


def _attack_tables(c: Config, key: int) -> tuple[tuple[list[Any], int], ...]:
    """The (table, byte) pairs covering the deck, for ``key = seat << 2 | room class``."""
    pairs = []
    for i in c.hand_bytes:
        tb = _ATK_TABLES.get(key << 3 | i)
        if tb is None:
            tb = _ATK_TABLES[key << 3 | i] = [None] * 256
        pairs.append((tb, i))
    c.attack_tables[key] = t = tuple(pairs)
    return t


def _attack_cell(tb: list[Any], key: int, i: int, v: int) -> tuple[Action, ...]:
    t = tb[v] = attack_chunk(key >> 2, i << 3, v, (key & 3) + 1)
    return t


# Single-card attacks by card << 3 | seat: most throw-ins are one card.
_SINGLE_ATTACKS: list[Action | None] = [None] * (64 * 8)


def _single_attack(key: int) -> Action:
    a = _SINGLE_ATTACKS[key] = attack_action(key & 7, BIT[key >> 3])
    return a


def _attacks(out: list[Action], seat: int, avail: int, room: int, c: Config) -> None:
    """Append attack actions for every same-rank subset of ``avail`` of size <= room."""
    if not avail & (avail - 1):
        key = (avail.bit_length() - 1) << 3 | seat
        out.append(_SINGLE_ATTACKS[key] or _single_attack(key))
        return
    key = seat << 2 | (3 if room >= 4 else room - 1)
    hb = avail.to_bytes(7, "little")
    for tb, i in c.attack_tables[key] or _attack_tables(c, key):
        v = hb[i]
        if v:
            out += tb[v] or _attack_cell(tb, key, i, v)


class LegalMovesMixin:
    """``Game.legal_actions`` and what it needs."""

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every action that is legal now, for every seat that may act (resign excluded)."""
        ph = self._phase
        out: list[Action] = []
        if ph == LEAD:
            seat = self._attacker
            room = self._bout_limit if self._config.multi_card_lead else 1
            _attacks(out, seat, self._hands[seat], room, self._config)
        elif ph == OVER:
            return out
        else:
            hands = self._hands
            unb = self._unbeaten_mask if ph == DEFEND else 0
            if unb:
                d = self._defender
                hd = hands[d]
                beat = self._beaters
                # Masks above 30 bits cost an allocation per operation, so the cards are
                # taken from the top (bit_length allocates nothing, x & -x takes two);
                # inserting each defence at the front (``out`` is still empty here) keeps
                # the list ordered by attack card, then beating card.
                while unb:
                    a = unb.bit_length() - 1
                    unb ^= BIT[a]
                    bm = hd & beat[a]
                    if bm:
                        row = _DEFEND_ROWS.get(a << 3 | d) or defend_row(d, a)
                        while bm:
                            b = bm.bit_length() - 1
                            bm ^= BIT[b]
                            out.insert(0, row[b] or _defend_cell(row, d, a, b))
                if self._config.transfers and not self._beaten_count:
                    self._add_transfers(out)
                out.append(_TAKE[d])
                done = False
            else:
                done = True
            pend = self._attackers_mask & ~self._done_mask & ~self._empty_mask
            room = self._bout_limit - self._attack_count
            if pend and room > 0:
                closure = self._table_ranks_mask
                while pend:
                    low = pend & -pend
                    pend ^= low
                    s = low.bit_length() - 1
                    avail = hands[s] & closure
                    if avail:
                        _attacks(out, s, avail, room, self._config)
                    if done:
                        out.append(_DONE[s])
            elif pend and done:
                while pend:
                    low = pend & -pend
                    pend ^= low
                    out.append(_DONE[low.bit_length() - 1])
        if self._trump_six and self._trump_six_holder >= 0 and self._swap_target() is not None:
            out.append(_SWAP[self._trump_six_holder])
        return out

    def _add_transfers(self, out: list[Action]) -> None:
        d = self._defender
        nd = self._next_opponent(d)
        if nd < 0:
            return
        r4 = (self._attack_cards[0] >> 2) << 2
        hd = self._hands[d]
        natt = self._attack_count
        room = min(self._attack_limit(), self._hands[nd].bit_count()) - natt
        if room > 0:
            nib = hd >> r4 & 15
            for sub, cnt in SUBSETS[nib]:
                if cnt > room:
                    break
                out.append(transfer_action(d, sub << r4))
        if self._config.trump_show and room >= 0:
            card = r4 + self._trump_suit
            if hd >> card & 1 and not self._shown_mask >> card & 1:
                out.append(show_action(d, card))

    def _swap_target(self) -> int | None:
        """Where the trump six would go on a swap: -1 under the talon, a seat, or None."""
        if self._talon:
            return -1
        t = self._trump_drawer
        if t >= 0 and self._phase == LEAD and t != self._trump_six_holder:
            return t
        return None
