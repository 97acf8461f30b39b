"""Legal actions: every action that the rules allow now, for every seat.

The lists are built from shared ``Action`` objects looked up in tables, so a
position's actions cost a few mask operations and no new objects.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    DEFENCE_ROWS,
    K_DONE,
    K_SWAP,
    K_TAKE,
    Action,
    attack_action,
    attack_chunk,
    defence_in_row,
    defence_row,
    show_action,
    simple_action,
    transfer_action,
)
from .cards import (
    BIT,
    SUBSETS,
)
from .config import DEFEND, LEAD, OVER, Config
from .seats import bout_limit, next_opponent
from .state import GameState

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
    # Made of the byte's two ranks' attacks: a process meets thousands of cells, and
    # the ranks' tuples are far fewer, so each cell costs two lookups, not a build.
    t = tb[v] = _rank_attacks(key, 2 * i, v & 15) + _rank_attacks(key, 2 * i + 1, v >> 4)
    return t


# The attacks with one rank's cards, by (rank << 4 | the rank's nibble of the hand) << 5
# | seat << 2 | room class, each tuple made on first use.
_RANK_ATTACKS: dict[int, tuple[Action, ...]] = {}


def _rank_attacks(key: int, rank: int, nibble: int) -> tuple[Action, ...]:
    """The attacks with the cards ``nibble`` of ``rank``, for ``key = seat << 2 | room class``."""
    k = (rank << 4 | nibble) << 5 | key
    t = _RANK_ATTACKS.get(k)
    if t is None:
        t = _RANK_ATTACKS[k] = attack_chunk(key >> 2, rank << 2, nibble, (key & 3) + 1)
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


def legal_actions(st: GameState, seat: int | None = None) -> list[Action]:
    """Every action that is legal now, for every seat that may act, or for ``seat`` only.

    Resign is never listed (it is legal for every seat still in the game).
    """
    ph = st.phase
    out: list[Action] = []
    if seat is not None and not 0 <= seat < st.config.players:
        raise ValueError(f"no seat {seat!r} in a {st.config.players}-player game")
    if ph == LEAD:
        a = st.attacker
        if seat is None or seat == a:
            room = st.bout_limit if st.config.multi_card_lead else 1
            _attacks(out, a, st.hands[a], room, st.config)
    elif ph == OVER:
        return out
    else:
        hands = st.hands
        unb = st.unbeaten_mask if ph == DEFEND else 0
        if unb:
            d = st.defender
            if seat is None or seat == d:
                # The defender's actions: every defence, transfers and shows, and take
                # (here rather than in a function of their own: this is the commonest
                # case). Masks above 30 bits cost an allocation per operation, so the
                # cards are taken from the top (bit_length allocates nothing, x & -x
                # takes two); reversing the list (``out`` is still empty here) orders it
                # by attack card, then beating card.
                hd = hands[d]
                beat = st.beaters
                while unb:
                    a = unb.bit_length() - 1
                    unb ^= BIT[a]
                    bm = hd & beat[a]
                    if bm:
                        row = DEFENCE_ROWS[a << 3 | d] or defence_row(d, a)
                        while bm:
                            b = bm.bit_length() - 1
                            bm ^= BIT[b]
                            out.append(row[b] or defence_in_row(row, d, a, b))
                out.reverse()
                if st.config.transfers and not st.beaten_count:
                    _add_transfers(st, out)
                out.append(_TAKE[d])
            done = False
        else:
            done = True
        pend = st.attackers_mask & ~st.done_mask & ~st.empty_mask
        if seat is not None:
            pend &= 1 << seat
        room = st.bout_limit - st.attack_count
        if pend and room > 0:
            closure = st.table_ranks_mask
            for s in st.config.seats_of[pend]:
                avail = hands[s] & closure
                if avail:
                    if avail & (avail - 1):
                        _attacks(out, s, avail, room, st.config)
                    else:  # one card, the usual throw-in: looked up without a call
                        key = (avail.bit_length() - 1) << 3 | s
                        out.append(_SINGLE_ATTACKS[key] or _single_attack(key))
                if done:
                    out.append(_DONE[s])
        elif pend and done:
            for s in st.config.seats_of[pend]:
                out.append(_DONE[s])
    if st.trump_six:
        holder = st.trump_six_holder
        if holder >= 0 and (seat is None or seat == holder) and swap_target(st) is not None:
            out.append(_SWAP[holder])
    return out


def _add_transfers(st: GameState, out: list[Action]) -> None:
    d = st.defender
    c = st.config
    nd = next_opponent(c, st.out_mask | st.empty_mask, d)
    if nd < 0:
        return
    r4 = (st.attack_cards[0] >> 2) << 2
    hd = st.hands[d]
    room = bout_limit(c, st.bout_number, st.hands[nd].bit_count()) - st.attack_count
    if room > 0:
        nib = hd >> r4 & 15
        for sub, cnt in SUBSETS[nib]:
            if cnt > room:
                break
            out.append(transfer_action(d, sub << r4))
    if c.trump_show and room >= 0:
        card = r4 + st.trump_suit_index
        if hd >> card & 1 and not st.shown_mask >> card & 1:
            out.append(show_action(d, card))


def swap_target(st: GameState) -> int | None:
    """Where the trump six would go on a swap: -1 under the talon, a seat, or None."""
    if st.talon:
        return -1
    t = st.trump_drawer
    if t >= 0 and st.phase == LEAD and t != st.trump_six_holder:
        return t
    return None
