"""The game state machine: deal, legal actions, apply.

Phases of a bout (``view()["phase"]``):

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

State is kept in ints and small lists so that ``copy()`` and the hot path stay cheap.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    _DEFEND_ROWS,
    K_ATTACK,
    K_DEFEND,
    K_DONE,
    K_SHOW,
    K_SWAP,
    K_TAKE,
    K_TRANSFER,
    Action,
    IllegalAction,
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
    CODES,
    RANK_MASK,
    RANKS,
    SIX_RANK,
    SUBSETS,
    SUITS,
    is_one_rank,
    mask_to_codes,
    rank_closure,
)
from .config import (  # noqa: F401  (re-exported: public phases, helpers)
    DEFEND,
    LEAD,
    OVER,
    PHASES,
    TAKING,
    _Config,
    _config,
    _new,
    _rng,
)
from .deal import DealMixin
from .events import (
    BoutBeaten,
    BoutStarted,
    CardsTaken,
    Drew,
    GameOver,
    Resigned,
    Shown,
    Swapped,
    Transferred,
    WentOut,
)
from .present import PresentMixin
from .rules import MAX_ATTACK


def _defend_cell(row: list[Action | None], seat: int, a: int, b: int) -> Action:
    act = row[b] = defend_action(seat, a, b)
    return act


# A dict's bound __getitem__ is called without building an argument tuple (a tuple's
# is a slot wrapper, which builds one), so map() over it is cheaper.
_CODE = dict(enumerate(CODES)).__getitem__
_tn = tuple.__new__  # builds the NamedTuple events without their slower __new__
_TAKE = tuple(simple_action(s, K_TAKE) for s in range(8))
_DONE = tuple(simple_action(s, K_DONE) for s in range(8))
_SWAP = tuple(simple_action(s, K_SWAP) for s in range(8))
# Events that are plain values of a few small ints, shared instead of rebuilt every time.
_BOUT_STARTED: dict[int, BoutStarted] = {}
_DREW: dict[int, Drew] = {}


def _bout_started(att: int, d: int, cap: int) -> BoutStarted:
    e = _BOUT_STARTED[att << 3 | d | cap << 6] = BoutStarted(att, d, cap)
    return e


def _drew(s: int, k: int) -> Drew:
    e = _DREW[k << 3 | s] = Drew(s, k, None)
    return e


# Single-card attacks by card << 3 | seat.
_ATK1: list[Action | None] = [None] * (64 * 8)


def _atk1(i: int) -> Action:
    a = _ATK1[i] = attack_action(i & 7, BIT[i >> 3])
    return a


# Attack actions are looked up a byte (two ranks) of the hand at a time, in tables of
# shared Action tuples per (seat, room class, byte), a cell being built on first use. The
# hand is split with one ``int.to_bytes``: shifting a mask above 30 bits would allocate a
# new int per byte.
_ATK_TABLES: dict[int, list[tuple[Action, ...] | None]] = {}


def _attack_tables(c: _Config, key: int) -> tuple[tuple[list[Any], int], ...]:
    """The (table, byte) pairs covering the deck, for ``key = seat << 2 | room class``."""
    pairs = []
    for i in c.hand_bytes:
        tb = _ATK_TABLES.get(key << 3 | i)
        if tb is None:
            tb = _ATK_TABLES[key << 3 | i] = [None] * 256
        pairs.append((tb, i))
    c.atk[key] = t = tuple(pairs)
    return t


def _attack_cell(tb: list[Any], key: int, i: int, v: int) -> tuple[Action, ...]:
    t = tb[v] = attack_chunk(key >> 2, i << 3, v, (key & 3) + 1)
    return t


def _attacks(out: list[Action], seat: int, avail: int, room: int, c: _Config) -> None:
    """Append attack actions for every same-rank subset of ``avail`` of size <= room."""
    key = seat << 2 | (3 if room >= 4 else room - 1)
    hb = avail.to_bytes(7, "little")
    for tb, i in c.atk[key] or _attack_tables(c, key):
        v = hb[i]
        if v:
            out += tb[v] or _attack_cell(tb, key, i, v)


class Game(DealMixin, PresentMixin):
    """One game of Durak. See the module docstring for the phases."""

    __slots__ = (
        "_c",
        "_hands",
        "_talon",
        "_trump",
        "_tsuit",
        "_beat",
        "_tatt",
        "_tdef",
        "_tmask",
        "_tclos",  # all cards of the ranks on the table: rank_closure(_tmask), kept current
        "_unb",
        "_natt",
        "_nbeat",
        "_phase",
        "_over",
        "_att",
        "_def",
        "_elig",
        "_done",
        "_joined",
        "_cap",
        "_shown",
        "_bout",
        "_out",
        "_out_order",
        "_empty",
        "_known",
        "_discard",
        "_six",
        "_six_owner",
        "_tdrawer",
        "_sixes",
        "_hist",
        "_deal",
        "_result",
        "_deal_events",
    )

    # ----------------------------------------------------------- seat logic

    def _rebuild_table_masks(self) -> None:
        """Derive the table's bit masks from its attack and defence lists.

        Used where a state is rebuilt from outside data (a snapshot, a knowledge),
        not on the play path, which keeps the masks up to date incrementally.
        """
        table = unbeaten = 0
        for attack, defence in zip(self._tatt, self._tdef, strict=True):
            table |= BIT[attack]
            if defence >= 0:
                table |= BIT[defence]
            else:
                unbeaten |= BIT[attack]
        self._tmask = table
        self._tclos = rank_closure(table)
        self._unb = unbeaten
        self._natt = len(self._tatt)

    def _limit(self) -> int:
        fbl = self._c.fbl
        return fbl if fbl and self._bout == 0 else MAX_ATTACK

    def _next_opp(self, s: int) -> int:
        """Next seat after ``s`` that holds cards and (in teams) is not a partner; -1 if none."""
        c = self._c
        n = c.n
        team = c.team
        gone = self._out | self._empty
        t = s
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            if not gone >> t & 1 and (team is None or team[t] != team[s]):
                return t
        return -1

    def _next_active(self, s: int) -> int:
        n = self._c.n
        out = self._out
        t = s
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            if not out >> t & 1:
                return t
        return -1

    def _eligible(self, att: int, d: int) -> int:
        c = self._c
        key = (self._out << 6) | (att << 3) | d
        m = c.elig_cache.get(key)
        if m is not None:
            return m
        n = c.n
        team = c.team
        out = self._out
        if c.scope == "attacker":
            m = 1 << att
        elif c.scope == "all":
            m = 1 << att
            for s in range(n):
                if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                    m |= 1 << s
        else:
            m = 1 << att
            for step in (1, -1):
                s = d
                for _ in range(n - 1):
                    s = (s + step) % n
                    if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                        m |= 1 << s
                        break
        c.elig_cache[key] = m
        return m

    def _start_bout(self, att: int) -> BoutStarted:
        c = self._c
        gone = self._out | self._empty
        # Nobody out: the next seat is always the defender (in teams seats alternate).
        d = c.nxt[att] if not gone else self._next_opp(att)
        fbl = c.fbl
        cap = fbl if fbl and not self._bout else MAX_ATTACK
        hc = self._hands[d].bit_count()
        if hc < cap:
            cap = hc
        self._att = att
        self._def = d
        self._cap = cap
        m = c.elig_cache.get((self._out << 6) | (att << 3) | d)
        self._elig = m if m is not None else self._eligible(att, d)
        self._phase = LEAD
        self._done = 0
        self._joined = []
        self._shown = 0
        self._nbeat = 0
        return _BOUT_STARTED.get(att << 3 | d | cap << 6) or _bout_started(att, d, cap)

    # -------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every action that is legal now, for every seat that may act (resign excluded)."""
        ph = self._phase
        out: list[Action] = []
        if ph == LEAD:
            s = self._att
            c = self._c
            h = self._hands[s]
            if c.multi:
                # _attacks, inlined: every bout starts here.
                cap = self._cap
                key = s << 2 | (3 if cap >= 4 else cap - 1)
                hb = h.to_bytes(7, "little")
                for tb, i in c.atk[key] or _attack_tables(c, key):
                    v = hb[i]
                    if v:
                        out += tb[v] or _attack_cell(tb, key, i, v)
            else:
                while h:
                    low = h & -h
                    h ^= low
                    i = (low.bit_length() - 1) << 3 | s
                    out.append(_ATK1[i] or _atk1(i))
        elif ph == OVER:
            return out
        else:
            hands = self._hands
            unb = self._unb if ph == DEFEND else 0
            if unb:
                d = self._def
                hd = hands[d]
                beat = self._beat
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
                if self._c.perev and not self._nbeat:
                    self._gen_transfers(out)
                out.append(_TAKE[d])
                done = False
            else:
                done = True
            pend = self._elig & ~self._done & ~self._empty
            room = self._cap - self._natt
            if pend and room > 0:
                closure = self._tclos
                while pend:
                    low = pend & -pend
                    pend ^= low
                    s = low.bit_length() - 1
                    avail = hands[s] & closure
                    if avail:
                        if avail.bit_count() > 1:
                            _attacks(out, s, avail, room, self._c)
                        else:
                            i = (avail.bit_length() - 1) << 3 | s
                            out.append(_ATK1[i] or _atk1(i))
                    if done:
                        out.append(_DONE[s])
            elif pend and done:
                while pend:
                    low = pend & -pend
                    pend ^= low
                    out.append(_DONE[low.bit_length() - 1])
        if self._six and self._six_owner >= 0 and self._swap_target() is not None:
            out.append(_SWAP[self._six_owner])
        return out

    def _gen_transfers(self, out: list[Action]) -> None:
        d = self._def
        nd = self._next_opp(d)
        if nd < 0:
            return
        r4 = (self._tatt[0] >> 2) << 2
        hd = self._hands[d]
        natt = self._natt
        room = min(self._limit(), self._hands[nd].bit_count()) - natt
        if room > 0:
            nib = hd >> r4 & 15
            for sub, cnt in SUBSETS[nib]:
                if cnt > room:
                    break
                out.append(transfer_action(d, sub << r4))
        if self._c.showok and room >= 0:
            card = r4 + self._tsuit
            if hd >> card & 1 and not self._shown >> card & 1:
                out.append(show_action(d, card))

    def _swap_target(self) -> int | None:
        """Where the trump six would go on a swap: -1 under the talon, a seat, or None."""
        if self._talon:
            return -1
        t = self._tdrawer
        if t >= 0 and self._phase == LEAD and t != self._six_owner:
            return t
        return None

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action | str) -> list[Any]:
        """Apply one action (an Action or its text) and return the events it caused.

        An illegal action raises IllegalAction and leaves the game unchanged.
        """
        if action.__class__ is not Action:
            action = _coerce(action)
        # One handler per kind (indexed by the kind code). The four frequent ones fold the
        # "game over" and "no such seat" checks into their one combined legality test
        # (neither can pass it) and raise those reasons first when refusing (_refuse_any);
        # the rare ones call _refuse_any up front.
        ev = _HANDLERS[action._k](self, action.seat, action)
        self._hist = (self._hist, action)
        return ev

    def _refuse_any(self, action: Action) -> None:
        """Raise the reasons that apply to every kind: the game is over, no such seat."""
        if self._phase == OVER:
            raise IllegalAction(f"{action}: the game is over", code="game_over")
        if action.seat >= self._c.n:
            raise IllegalAction(
                f"{action}: there is no seat {action.seat} in a {self._c.n}-player game",
                code="no_such_seat",
            )

    def _not_held(self, action: Action, seat: int, missing: int) -> IllegalAction:
        return IllegalAction(
            f"{action}: seat {seat} does not hold {' '.join(mask_to_codes(missing))}",
            code="not_held",
        )

    def _check_attacker(self, action: Action, seat: int) -> None:
        """Why ``seat`` may not add attack cards now (raises), for throw-ins and done."""
        if seat == self._def:
            raise IllegalAction(f"{action}: seat {seat} is the defender", code="is_defender")
        if not self._elig >> seat & 1:
            team = self._c.team
            if self._out >> seat & 1:
                why, code = f"seat {seat} is out of the game", "out_of_game"
            elif team is not None and team[seat] == team[self._def]:
                why, code = f"seat {seat} is the defender's partner", "defenders_partner"
            elif self._c.scope == "attacker":
                why = f"only the principal attacker (seat {self._att}) may attack in this variant"
                code = "principal_attacker_only"
            else:
                why = f"only the defender's neighbours may throw in, and seat {seat} is not one"
                code = "not_a_neighbour"
            raise IllegalAction(f"{action}: {why}", code=code)
        if self._done >> seat & 1:
            raise IllegalAction(
                f"{action}: seat {seat} has said done; it may act again once new cards reach the table",
                code="said_done",
            )
        if self._empty >> seat & 1:
            raise IllegalAction(f"{action}: seat {seat} has no cards", code="no_cards")

    def _do_attack(self, seat: int, action: Action) -> list[Any]:
        m = action._m
        hands = self._hands
        ph = self._phase
        idx = action._i
        n = len(idx)
        # One combined test for the common legal case; the refusal path explains why.
        # (``hands[seat]`` is read only once the seat is known to be a real one; ``x & m != m``
        # says "m is not a subset of x" with one mask operation where ``m & ~x`` takes two.)
        if ph == LEAD:
            if (
                seat != self._att
                or hands[seat] & m != m
                or (n > 1 and (not self._c.multi or m & ~RANK_MASK[idx[0] >> 2] or n > self._cap))
            ):
                self._refuse_attack(seat, action)
        else:
            if (
                ph == OVER
                or seat == self._def
                or not (self._elig & ~self._done & ~self._empty) >> seat & 1
                or hands[seat] & m != m
                or self._tclos & m != m
                or (n > 1 and m & ~RANK_MASK[idx[0] >> 2])
                or self._natt + n > self._cap
            ):
                self._refuse_attack(seat, action)
        # Mutations start here: everything above only reads.
        h = hands[seat] ^ m
        hands[seat] = h
        known = self._known
        if known[seat] & m:
            known[seat] &= ~m
        if self._six and m & self._six:
            self._six = 0
        if n == 1:
            self._tatt.append(idx[0])
            self._tdef.append(-1)
        else:
            self._tatt.extend(idx)
            self._tdef.extend([-1] * n)
        self._tmask |= m
        self._tclos |= RANK_MASK[idx[0] >> 2]  # the cards share one rank
        self._unb |= m
        self._natt += n
        self._done = 0
        joined = self._joined
        if seat not in joined:
            joined.append(seat)
        if ph == LEAD:
            ev: list[Any] = [action._ev_lead]
            self._phase = DEFEND
            self._tdrawer = -1  # the swap window after the talon ran out closes here
        else:
            ev = [action._ev]
        if not h:
            self._emptied(seat, action, ev)
            if self._phase == OVER:
                return ev
        if ph == TAKING:
            self._settle(ev)
        return ev

    def _refuse_attack(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        m = action._m
        h = self._hands[seat]
        if self._phase == LEAD:
            if seat != self._att:
                raise IllegalAction(
                    f"{action}: seat {self._att} leads this bout, not seat {seat}",
                    code="not_your_lead",
                )
            if m & ~h:
                raise self._not_held(action, seat, m & ~h)
            if not self._c.multi:
                raise IllegalAction(
                    f"{action}: this variant allows one card on the lead", code="one_card_lead"
                )
            if not is_one_rank(m):
                raise IllegalAction(
                    f"{action}: cards played together must be of one rank", code="mixed_ranks"
                )
            raise IllegalAction(
                f"{action}: this bout allows at most {self._cap} attack cards"
                f" (defender seat {self._def} holds {self._hands[self._def].bit_count()})",
                code="too_many_cards",
            )
        self._check_attacker(action, seat)
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        if not is_one_rank(m):
            raise IllegalAction(
                f"{action}: cards played together must be of one rank", code="mixed_ranks"
            )
        if m & ~rank_closure(self._tmask):
            raise IllegalAction(
                f"{action}: rank {RANKS[(m.bit_length() - 1) >> 2]} is not on the table;"
                " a throw-in must match the rank of a card played in this bout",
                code="rank_not_on_table",
            )
        left = self._cap - self._natt
        raise IllegalAction(
            f"{action}: the bout's limit is {self._cap} attack cards and"
            f" {self._natt} are played, so {max(left, 0)} more may be added",
            code="too_many_cards",
        )

    def _do_defend(self, seat: int, action: Action) -> list[Any]:
        a, b = action._i
        hands = self._hands
        if (
            self._phase != DEFEND
            or seat != self._def
            or not self._unb >> a & 1
            or not hands[seat] >> b & 1
            or not self._beat[a] >> b & 1
        ):
            self._refuse_defence(seat, action)
        bb = BIT[b]
        h = hands[seat] ^ bb
        hands[seat] = h
        known = self._known
        if known[seat] & bb:
            known[seat] &= ~bb
        if self._six and bb & self._six:
            self._six = 0
        self._tdef[self._tatt.index(a)] = b
        self._tmask |= bb
        self._tclos |= RANK_MASK[b >> 2]
        unb = self._unb ^ BIT[a]
        self._unb = unb
        self._nbeat += 1
        ev: list[Any] = [action._ev]
        if not h:
            self._emptied(seat, action, ev)
            if self._phase == OVER:
                return ev
        if not unb and (
            self._natt >= self._cap or not h or not self._elig & ~self._done & ~self._empty
        ):
            self._end_bout(ev, True)
        return ev

    def _refuse_defence(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        if self._phase != DEFEND:
            raise self._no_defence(action)
        if seat != self._def:
            raise IllegalAction(
                f"{action}: only the defender (seat {self._def}) defends", code="not_defender"
            )
        a, b = action._i
        if not self._unb >> a & 1:
            if self._tmask >> a & 1 and a in self._tatt:
                raise IllegalAction(
                    f"{action}: {CODES[a]} is already beaten", code="already_beaten"
                )
            raise IllegalAction(
                f"{action}: {CODES[a]} is not an attack card on the table", code="not_on_table"
            )
        if not self._hands[seat] >> b & 1:
            raise self._not_held(action, seat, BIT[b])
        raise IllegalAction(
            f"{action}: {CODES[b]} does not beat {CODES[a]} (trumps are {SUITS[self._tsuit]};"
            " beat with a higher card of the same suit, or a trump against a non-trump)",
            code="does_not_beat",
        )

    def _no_defence(self, action: Action) -> IllegalAction:
        """The refusal of a defender's action while there is nothing to defend."""
        if self._phase == LEAD:
            return IllegalAction(
                f"{action}: the table is empty; nothing to defend yet", code="nothing_to_defend"
            )
        return IllegalAction(
            f"{action}: the defender (seat {self._def}) has already chosen to take",
            code="already_taking",
        )

    def _do_take(self, seat: int, action: Action) -> list[Any]:
        if self._phase != DEFEND:
            self._refuse_any(action)
            raise self._no_defence(action)
        if seat != self._def:
            self._refuse_any(action)
            raise IllegalAction(
                f"{action}: only the defender (seat {self._def}) may take", code="not_defender"
            )
        if not self._unb:
            raise IllegalAction(
                f"{action}: every attack card is beaten; there is nothing to take",
                code="nothing_to_take",
            )
        self._phase = TAKING
        self._done = 0
        ev: list[Any] = [action._ev]
        # _settle for the taking phase, inlined: the bout ends at once when no attacker
        # can add a card.
        if self._natt >= self._cap or not self._elig & ~self._empty:
            self._end_bout(ev, False)
        return ev

    def _do_done(self, seat: int, action: Action) -> list[Any]:
        ph = self._phase
        bit = 1 << seat
        pend = self._elig & ~self._done & ~self._empty
        if (
            ph == LEAD  # noqa: SIM109  (two int compares beat building a tuple here)
            or ph == OVER
            or seat == self._def
            or not pend & bit
            or (ph == DEFEND and self._unb)
        ):
            self._refuse_any(action)
            if ph == LEAD:
                raise IllegalAction(
                    f"{action}: the bout has not started; seat {self._att} must lead",
                    code="bout_not_started",
                )
            self._check_attacker(action, seat)
            raise IllegalAction(f"{action}: attack cards are still unbeaten", code="unbeaten_cards")
        self._done |= bit
        ev: list[Any] = [action._ev]
        if pend == bit:  # nobody else is still to say done
            self._end_bout(ev, ph == DEFEND)
        return ev

    def _check_transfer(self, action: Action, seat: int, what: str) -> int:
        if self._phase != DEFEND:
            raise self._no_defence(action)
        if seat != self._def:
            raise IllegalAction(
                f"{action}: only the defender (seat {self._def}) may {what}", code="not_defender"
            )
        if self._nbeat:
            raise IllegalAction(
                f"{action}: a card of this bout is already beaten, too late to {what}",
                code="too_late_to_transfer",
            )
        nd = self._next_opp(seat)
        if nd < 0:
            raise IllegalAction(
                f"{action}: there is no next player with cards to pass the attack to",
                code="no_one_to_transfer_to",
            )
        return nd

    def _do_transfer(self, seat: int, action: Action) -> list[Any]:
        self._refuse_any(action)
        if not self._c.perev:
            raise IllegalAction(f"{action}: transfers need mode perevodnoy", code="no_transfers")
        nd = self._check_transfer(action, seat, "transfer")
        m = action._m
        hands = self._hands
        h = hands[seat]
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        r = self._tatt[0] >> 2
        if m & ~RANK_MASK[r]:
            raise IllegalAction(
                f"{action}: a transfer needs cards of the attack's rank {RANKS[r]}",
                code="wrong_transfer_rank",
            )
        n = len(action._i)
        total = self._natt + n
        limit = self._limit()
        if total > limit:
            raise IllegalAction(
                f"{action}: a bout holds at most {limit} attack cards, this makes {total}",
                code="too_many_cards",
            )
        nh = hands[nd].bit_count()
        if nh < total:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the {total} attack cards"
                " the transfer would put on the table",
                code="next_has_too_few_cards",
            )
        h ^= m
        hands[seat] = h
        self._known[seat] &= ~m
        if m & self._six:
            self._six = 0
        for i in action._i:
            self._tatt.append(i)
            self._tdef.append(-1)
        self._tmask |= m
        self._tclos |= RANK_MASK[r]
        self._unb |= m
        self._natt = total
        ev: list[Any] = [Transferred(seat, action.cards, nd)]
        self._pass_attack(seat, nd, limit)
        if not h:
            self._emptied(seat, action, ev)
        return ev

    def _do_show(self, seat: int, action: Action) -> list[Any]:
        self._refuse_any(action)
        if not self._c.showok:
            raise IllegalAction(
                f"{action}: this variant has no trump-show transfer", code="no_trump_show"
            )
        nd = self._check_transfer(action, seat, "show a trump")
        card = action._i[0]
        if not self._hands[seat] >> card & 1:
            raise self._not_held(action, seat, BIT[card])
        r = self._tatt[0] >> 2
        if card != r * 4 + self._tsuit:
            raise IllegalAction(
                f"{action}: only the trump of the attack's rank ({RANKS[r]}{SUITS[self._tsuit]}) can be shown",
                code="wrong_trump_shown",
            )
        if self._shown >> card & 1:
            raise IllegalAction(
                f"{action}: {CODES[card]} was already shown in this bout", code="already_shown"
            )
        nh = self._hands[nd].bit_count()
        if nh < self._natt:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the {self._natt} attack cards on the table",
                code="next_has_too_few_cards",
            )
        self._shown |= BIT[card]
        self._known[seat] |= BIT[card]
        ev: list[Any] = [Shown(seat, CODES[card], nd)]
        self._pass_attack(seat, nd, self._limit())
        return ev

    def _pass_attack(self, seat: int, nd: int, limit: int) -> None:
        if seat not in self._joined:
            self._joined.append(seat)
        self._att = seat
        self._def = nd
        hc = self._hands[nd].bit_count()
        self._cap = hc if hc < limit else limit
        self._elig = self._eligible(seat, nd)
        self._done = 0

    def _do_swap(self, seat: int, action: Action) -> list[Any]:
        self._refuse_any(action)
        if not self._c.swap:
            raise IllegalAction(f"{action}: this variant has no trump-six swap", code="no_swap")
        if not self._six:
            raise IllegalAction(
                f"{action}: the trump six can no longer be swapped", code="six_gone"
            )
        if self._six_owner != seat:
            raise IllegalAction(
                f"{action}: only the original holder of the trump six may swap it",
                code="not_six_holder",
            )
        target = self._swap_target()
        if target is None:
            if self._tdrawer == seat:
                raise IllegalAction(
                    f"{action}: seat {seat} drew the face-up trump itself", code="drew_the_trump"
                )
            raise IllegalAction(
                f"{action}: too late, the talon has run out and a new bout has begun",
                code="swap_too_late",
            )
        six = self._six
        six_card = six.bit_length() - 1
        face = self._talon[0] if target < 0 else self._trump
        fb = BIT[face]
        hands = self._hands
        known = self._known
        hands[seat] ^= six | fb
        known[seat] = (known[seat] & ~six) | fb
        if target < 0:
            self._talon[0] = six_card
            self._trump = six_card
            other = None
        else:
            hands[target] ^= six | fb
            known[target] = (known[target] & ~fb) | six
            other = target
        self._six = 0
        self._six_owner = -1
        return [Swapped(seat, CODES[six_card], CODES[face], other)]

    def _do_resign(self, seat: int, action: Action) -> list[Any]:
        self._refuse_any(action)
        if self._out >> seat & 1:
            raise IllegalAction(
                f"{action}: seat {seat} is already out of the game", code="out_of_game"
            )
        team = self._c.team
        ev: list[Any] = [Resigned(seat)]
        winner = None
        if self._c.rules.one_winner:
            rest = [s for s in range(self._c.n) if s != seat and not self._out >> s & 1]
            if len(rest) == 1:
                winner = rest[0]
        self._finish(ev, seat, None if team is None else team[seat], False, winner, seat)
        return ev

    # ------------------------------------------------------ bout resolution

    def _emptied(self, seat: int, action: Action, ev: list[Any]) -> None:
        """``seat`` just played its last card."""
        self._empty |= 1 << seat
        # The cards this play put down: a defence names the attack card it beat first,
        # and that card was the other side's.
        played = action._i[1:] if action._k == K_DEFEND else action._i
        six = 0
        for i in played:
            if i >> 2 == SIX_RANK:
                six += 1
        self._sixes[seat] = six
        if not self._talon:
            self._go_out(seat, ev)

    def _go_out(self, seat: int, ev: list[Any]) -> None:
        self._out |= 1 << seat
        self._out_order.append(seat)
        ev.append(WentOut(seat))
        if self._c.rules.one_winner:
            self._finish(ev, None, None, False, seat, None)

    def _settle(self, ev: list[Any]) -> None:
        """End the bout if nobody is left who could still act in it."""
        ph = self._phase
        if ph == DEFEND:
            if self._unb:
                return
            if (
                self._natt >= self._cap
                or not self._hands[self._def]
                or not self._elig & ~self._done & ~self._empty
            ):
                self._end_bout(ev, True)
        elif ph == TAKING and (
            self._natt >= self._cap or not self._elig & ~self._done & ~self._empty
        ):
            self._end_bout(ev, False)

    def _end_bout(self, ev: list[Any], beaten: bool) -> None:
        d = self._def
        cards = self._tmask
        tatt = self._tatt
        hands = self._hands
        if beaten:
            self._discard |= cards
            ev.append(_tn(BoutBeaten, (d, tuple(map(_CODE, tatt + self._tdef)))))
        else:
            hands[d] |= cards
            self._known[d] |= cards
            self._empty &= ~(1 << d)
            if self._nbeat:
                taken = [*map(_CODE, tatt)]
                taken += [CODES[i] for i in self._tdef if i >= 0]
                ev.append(_tn(CardsTaken, (d, tuple(taken))))
            else:
                ev.append(_tn(CardsTaken, (d, tuple(map(_CODE, tatt)))))
        self._tatt = []
        self._tdef = []
        self._tmask = self._tclos = self._unb = self._natt = self._nbeat = 0
        talon = self._talon
        # Drawing order: the principal attacker (after transfers: the last one to pass
        # the attack on), the other attackers in the order they joined, the defender.
        order = self._joined
        att = self._att
        if order[0] != att:
            order.remove(att)
            order.insert(0, att)
        if d in order:
            order.remove(d)
        order.append(d)
        if talon:
            hs = self._c.hs
            six = self._six
            for s in order:
                h = hands[s]
                need = hs - h.bit_count()
                if need <= 0:
                    continue
                if need < len(talon):
                    k = need
                    m = BIT[talon.pop()]
                    for _ in range(k - 1):
                        m |= BIT[talon.pop()]
                else:
                    k = len(talon)
                    m = 0
                    for i in talon:
                        m |= BIT[i]
                    talon.clear()
                if not h:
                    self._empty &= ~(1 << s)
                hands[s] = h | m
                if six and m & six:
                    self._six_owner = s
                if talon:
                    ev.append(_DREW.get(k << 3 | s) or _drew(s, k))
                    continue
                # The face-up trump was the last card: drawn, so publicly in this hand.
                self._known[s] |= BIT[self._trump]
                if six:
                    self._tdrawer = s
                ev.append(_tn(Drew, (s, k, CODES[self._trump])))
                break
        if not talon:
            out = self._out
            for s in order:
                if not hands[s] and not out >> s & 1:
                    self._go_out(s, ev)
                    if self._phase == OVER:
                        return
        c = self._c
        if self._out:
            if self._check_over(ev):
                return
            att = d if beaten and not self._out >> d & 1 else self._next_active(d)
            d = self._next_opp(att)
            key = self._out << 6 | att << 3 | d
        else:
            att = d if beaten else c.nxt[d]
            d = c.nxt[att]  # nobody out: the next seat defends (in teams seats alternate)
            key = att << 3 | d
        # The next bout starts.
        bout = self._bout + 1
        self._bout = bout
        cap = MAX_ATTACK if bout else c.fbl or MAX_ATTACK
        hc = hands[d].bit_count()
        if hc < cap:
            cap = hc
        self._att = att
        self._def = d
        self._cap = cap
        m = c.elig_cache.get(key)
        self._elig = m if m is not None else self._eligible(att, d)
        self._phase = LEAD
        self._done = 0
        self._joined = []
        self._shown = 0
        ev.append(_BOUT_STARTED.get(att << 3 | d | cap << 6) or _bout_started(att, d, cap))

    def _check_over(self, ev: list[Any]) -> bool:
        c = self._c
        alive = c.all_seats & ~self._out
        team = c.team
        if team is None:
            if alive & (alive - 1):
                return False
            fool = alive.bit_length() - 1 if alive else None
            self._finish(ev, fool, None, fool is None, None, None)
            return True
        alive_teams = {team[s] for s in range(c.n) if alive >> s & 1}
        if len(alive_teams) > 1:
            return False
        if not alive_teams:
            self._finish(ev, None, None, True, None, None)
            return True
        losing = alive_teams.pop()
        holders = [s for s in range(c.n) if alive >> s & 1]
        fool = holders[0] if len(holders) == 1 else None
        self._finish(ev, fool, losing, False, None, None)
        return True

    def _finish(
        self,
        ev: list[Any],
        fool: int | None,
        fool_team: int | None,
        draw: bool,
        winner: int | None,
        resigned: int | None,
    ) -> None:
        ep = 0
        if (
            self._c.rules.epaulettes
            and resigned is None
            and not draw
            and (fool is not None or fool_team is not None)
            and self._out_order
        ):
            ep = min(2, self._sixes[self._out_order[-1]])
        self._result = {
            "fool": fool,
            "fool_team": fool_team,
            "draw": draw,
            "winner": winner,
            "out_order": tuple(self._out_order),
            "epaulettes": ep,
            "resigned": resigned,
        }
        self._phase = OVER
        self._over = True
        self._tdrawer = -1
        ev.append(_tn(GameOver, (self.result,)))

    # ------------------------------------------------------------- copying

    def copy(self) -> Game:
        g = _new(Game)
        g._c = self._c
        g._hands = self._hands[:]
        g._talon = self._talon[:]
        g._trump = self._trump
        g._tsuit = self._tsuit
        g._beat = self._beat
        g._tatt = self._tatt[:]
        g._tdef = self._tdef[:]
        g._tmask = self._tmask
        g._tclos = self._tclos
        g._unb = self._unb
        g._natt = self._natt
        g._nbeat = self._nbeat
        g._phase = self._phase
        g._over = self._over
        g._att = self._att
        g._def = self._def
        g._elig = self._elig
        g._done = self._done
        g._joined = self._joined[:]
        g._cap = self._cap
        g._shown = self._shown
        g._bout = self._bout
        g._out = self._out
        g._out_order = self._out_order[:]
        g._empty = self._empty
        g._known = self._known[:]
        g._discard = self._discard
        g._six = self._six
        g._six_owner = self._six_owner
        g._tdrawer = self._tdrawer
        g._sixes = self._sixes[:]
        g._hist = self._hist
        g._deal = self._deal
        g._result = self._result
        g._deal_events = self._deal_events
        return g

    __copy__ = copy


def _coerce(action: Any) -> Action:
    """An Action from its text; anything else that is not an Action is refused."""
    if isinstance(action, str):
        return Action.parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action: {action!r}", code="malformed")
    return action


# Game.apply's handlers, indexed by the kind codes K_ATTACK ... K_RESIGN.
_HANDLERS = (
    Game._do_attack,
    Game._do_defend,
    Game._do_transfer,
    Game._do_show,
    Game._do_take,
    Game._do_done,
    Game._do_swap,
    Game._do_resign,
)
assert tuple(range(7)) == (K_ATTACK, K_DEFEND, K_TRANSFER, K_SHOW, K_TAKE, K_DONE, K_SWAP)
