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

import random
from typing import Any

from . import record as _record
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
    BEATERS,
    BIT,
    CODES,
    DECK_MASK,
    LOW_BITS,
    RANK_MASK,
    RANKS,
    SIX_RANK,
    SUBSETS,
    SUIT_MASK,
    SUITS,
    card_index,
    is_one_rank,
    mask_to_codes,
    rank_closure,
)
from .events import (
    Attacked,
    BoutBeaten,
    BoutStarted,
    CardsTaken,
    Dealt,
    Defended,
    Drew,
    FirstAttackerChosen,
    FirstAttackerDrawn,
    GameOver,
    Resigned,
    SaidDone,
    Shown,
    Swapped,
    Took,
    Transferred,
    WentOut,
)
from .knowledge import Knowledge
from .rules import MAX_ATTACK, Rules

LEAD, DEFEND, TAKING, OVER = range(4)
PHASES = ("attack", "defend", "taking", "over")

_new = object.__new__


class _Config:
    """Per-Rules constants, shared by every game and copy that uses those rules."""

    __slots__ = (
        "rules",
        "n",
        "hs",
        "team",
        "perev",
        "showok",
        "multi",
        "fbl",
        "scope",
        "swap",
        "all_seats",
        "deck_mask",
        "elig_cache",
        "nxt",
        "lob",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.hs = rules.hand_size
        self.team = rules.team_of
        self.perev = rules.mode == "perevodnoy"
        self.showok = rules.trump_show_transfer
        self.multi = rules.multi_card_lead
        self.fbl = rules.first_bout_limit
        self.scope = rules.effective_throw_in
        self.swap = rules.trump_six_swap
        self.all_seats = (1 << self.n) - 1
        self.deck_mask = DECK_MASK[rules.deck_size]
        self.elig_cache: dict[int, int] = {}
        self.nxt = tuple((s + 1) % self.n for s in range(self.n))
        self.lob = (self.deck_mask & -self.deck_mask).bit_length() - 1 >> 3


_CONFIGS: dict[Rules, _Config] = {}


def _config(rules: Rules) -> _Config:
    c = _CONFIGS.get(rules)
    if c is None:
        c = _CONFIGS[rules] = _Config(rules)
    return c


def _mask_of(codes: list[str]) -> int:
    m = 0
    for x in codes:
        b = BIT[card_index(x)]
        if m & b:
            raise ValueError(f"{x} is given twice")
        m |= b
    return m


def _rng(rng_or_seed: random.Random | int | str | None) -> random.Random:
    if isinstance(rng_or_seed, random.Random):
        return rng_or_seed
    return random.Random(rng_or_seed)


def _defend_cell(row: list[Action | None], seat: int, a: int, b: int) -> Action:
    act = row[b] = defend_action(seat, a, b)
    return act


_CODE = CODES.__getitem__
_tn = tuple.__new__  # builds the NamedTuple events without their slower __new__
_TAKE = tuple(simple_action(s, K_TAKE) for s in range(8))
_DONE = tuple(simple_action(s, K_DONE) for s in range(8))
_SWAP = tuple(simple_action(s, K_SWAP) for s in range(8))
# Single-card attacks by card << 3 | seat.
_ATK1: list[Action | None] = [None] * (64 * 8)


def _atk1(i: int) -> Action:
    a = _ATK1[i] = attack_action(i & 7, BIT[i >> 3])
    return a


# Per (seat, room class): for each byte of a hand, the attack actions of its cards.
_ATK_TABLES: list[list[list[tuple[Action, ...] | None]] | None] = [None] * 32


def _attacks(out: list[Action], seat: int, avail: int, room: int, lob: int = 0) -> None:
    """Append attack actions for every same-rank subset of ``avail`` of size <= room.

    ``lob`` is the deck's lowest byte holding cards (bytes below it are always empty).
    """
    key = seat << 2 | (3 if room >= 4 else room - 1)
    tl = _ATK_TABLES[key]
    if tl is None:
        tl = _ATK_TABLES[key] = [[None] * 256 for _ in range(7)]
    for pos, v in enumerate((avail >> (lob << 3)).to_bytes(7 - lob, "little"), lob):
        if v:
            t = tl[pos][v]
            if t is None:
                t = tl[pos][v] = attack_chunk(seat, pos, v, room)
            out += t


class Game:
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
        "_unb",
        "_natt",
        "_nbeat",
        "_phase",
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
        "_nhist",
        "_deal",
        "_result",
        "_deal_events",
    )

    # ------------------------------------------------------------------ setup

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
        self._setup(rules, deck, dealer, first_attacker, None, rng)

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
        rng = _rng(rng_or_seed)
        deck = mask_to_codes(DECK_MASK[rules.deck_size])
        rng.shuffle(deck)
        g = _new(cls)
        g._setup(rules, deck, dealer, first_attacker, None, rng)
        return g

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: list[list[str]] | list[str],
        trump: str,
        talon: list[str] | str = (),
        attacker: int = 0,
        *,
        bout: int = 1,
        out_order: list[int] = (),
    ) -> Game:
        """A bout about to start from a made-up position (puzzles, tests, analysis).

        ``hands`` per seat (lists or space-separated strings); ``talon`` in draw order,
        top first, its last card being the face-up ``trump``; with an empty talon
        ``trump`` only names the trump card (it must be in a hand or the discard).
        Every card not placed is in the discard pile. Such a game has no record.
        """
        c = _config(rules)
        n = c.n
        hs = [h.split() if isinstance(h, str) else list(h) for h in hands]
        tal = talon.split() if isinstance(talon, str) else list(talon)
        if len(hs) != n:
            raise ValueError(f"need {n} hands")
        g = _new(cls)
        g._c = c
        g._hands = [_mask_of(h) for h in hs]
        tcard = card_index(trump)
        if tal and tal[-1] != trump:
            raise ValueError("the talon's last card must be the face-up trump")
        g._talon = [card_index(x) for x in reversed(tal)]
        placed = 0
        for m in [*g._hands, _mask_of(tal)]:
            if placed & m:
                raise ValueError(f"{' '.join(mask_to_codes(placed & m))} placed twice")
            placed |= m
        if placed & ~c.deck_mask:
            raise ValueError("a card is not in this deck")
        g._trump = tcard
        g._tsuit = tcard & 3
        g._beat = BEATERS[g._tsuit]
        g._tatt = []
        g._tdef = []
        g._tmask = g._unb = g._natt = g._nbeat = 0
        g._done = g._shown = g._elig = g._cap = 0
        g._joined = []
        g._bout = bout
        g._out_order = list(out_order)
        g._out = sum(1 << s for s in out_order)
        g._empty = sum(1 << s for s in range(n) if not g._hands[s])
        if g._talon and g._empty:
            raise ValueError("while the talon lasts every player holds cards")
        if not g._talon:
            for s in range(n):
                if not g._hands[s] and not g._out >> s & 1:
                    g._out |= 1 << s
                    g._out_order.append(s)
        g._known = [0] * n
        g._discard = c.deck_mask & ~placed
        g._six = 0
        g._six_owner = -1
        if c.swap and g._talon:
            six_card = SIX_RANK * 4 + g._tsuit
            if six_card != tcard and not g._discard >> six_card & 1:
                g._six = BIT[six_card]
                for s in range(n):
                    if g._hands[s] & g._six:
                        g._six_owner = s
        g._tdrawer = -1
        g._sixes = [0] * n
        g._hist = None
        g._nhist = 0
        g._deal = (None, (attacker - 1) % n, attacker, "given")
        g._result = None
        g._phase = LEAD
        g._def = -1
        ev: list[Any] = []
        if not g._check_over(ev):
            ev.append(g._start_bout(attacker))
        g._deal_events = tuple(ev)
        return g

    def _setup(
        self,
        rules: Rules,
        deck: Any,
        dealer: int | None,
        first_attacker: int | None,
        drawn_first: int | None,
        rng: random.Random | None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        c = self._c = _config(rules)
        n = c.n
        if isinstance(deck, str) or not hasattr(deck, "__iter__"):
            raise ValueError("deck must be a list of card codes")
        codes = list(deck)
        idx = [card_index(x) for x in codes]
        mask = 0
        for i in idx:
            if mask & BIT[i]:
                raise ValueError(f"deck holds {CODES[i]} twice")
            mask |= BIT[i]
        if mask != c.deck_mask:
            missing = mask_to_codes(c.deck_mask & ~mask)
            extra = mask_to_codes(mask & ~c.deck_mask)
            raise ValueError(
                f"deck must hold exactly the {rules.deck_size} cards of the deck"
                + (f"; missing {' '.join(missing)}" if missing else "")
                + (f"; not in this deck: {' '.join(extra)}" if extra else "")
            )
        if dealer is None:
            dealer = n - 1
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0-{n - 1}, not {dealer!r}")

        hands = [0] * n
        dealt = n * c.hs
        for i in range(dealt):
            hands[(dealer + 1 + i) % n] |= BIT[idx[i]]
        known = [0] * n
        if dealt < len(idx):
            trump = idx[dealt]
            # Internal talon: the face-up trump at index 0, the top card at the end.
            talon = [trump] + idx[:dealt:-1]
        else:
            # No talon: the dealer's last card is turned up and stays in that hand.
            trump = idx[-1]
            talon = []
            known[dealer] |= BIT[trump]
        tsuit = trump & 3

        events: list[Any] = [
            Dealt(dealer, tuple(h.bit_count() for h in hands), CODES[trump], len(talon))
        ]
        if first_attacker is not None:
            if (
                not isinstance(first_attacker, int)
                or isinstance(first_attacker, bool)
                or not 0 <= first_attacker < n
            ):
                raise ValueError(f"first_attacker must be a seat 0-{n - 1}, not {first_attacker!r}")
            fa, fa_by = first_attacker, "given"
            events.append(FirstAttackerChosen(fa, None))
        elif drawn_first is not None:
            fa, fa_by = drawn_first, "draw"
            events.append(FirstAttackerDrawn(fa))
        else:
            fa = -1
            for r in range(13):
                card = r * 4 + tsuit
                for s in range(n):
                    if hands[s] & BIT[card]:
                        fa = s
                        break
                if fa >= 0:
                    break
            if fa >= 0:
                fa_by = "lowest_trump"
                # The leader shows the lowest trump to prove the right to lead.
                known[fa] |= BIT[card]
                events.append(FirstAttackerChosen(fa, CODES[card]))
            else:
                if rng is None:
                    rng = random.Random("durak-first-attacker:" + "".join(codes))
                fa, fa_by = rng.randrange(n), "draw"
                events.append(FirstAttackerDrawn(fa))

        six = 0
        six_owner = -1
        if c.swap and talon:
            six_card = SIX_RANK * 4 + tsuit
            if six_card != trump:
                six = BIT[six_card]
                for s in range(n):
                    if hands[s] & six:
                        six_owner = s

        self._hands = hands
        self._talon = talon
        self._trump = trump
        self._tsuit = tsuit
        self._beat = BEATERS[tsuit]
        self._tatt = []
        self._tdef = []
        self._tmask = 0
        self._unb = 0
        self._natt = 0
        self._nbeat = 0
        self._phase = LEAD
        self._att = fa
        self._def = -1
        self._elig = 0
        self._done = 0
        self._joined = []
        self._cap = 0
        self._shown = 0
        self._bout = 0
        self._out = 0
        self._out_order = []
        self._empty = 0
        self._known = known
        self._discard = 0
        self._six = six
        self._six_owner = six_owner
        self._tdrawer = -1
        self._sixes = [0] * n
        self._hist = None
        self._nhist = 0
        self._deal = (tuple(codes), dealer, fa, fa_by)
        self._result = None
        events.append(self._start_bout(fa))
        self._deal_events = tuple(events)

    # ------------------------------------------------------------ properties

    @property
    def rules(self) -> Rules:
        return self._c.rules

    @property
    def players(self) -> int:
        return self._c.n

    @property
    def trump(self) -> str:
        """The face-up trump card (after a trump-six swap: the six now lying face up)."""
        return CODES[self._trump]

    @property
    def trump_suit(self) -> str:
        return SUITS[self._tsuit]

    @property
    def dealer(self) -> int:
        return self._deal[1]

    @property
    def first_attacker(self) -> int:
        return self._deal[2]

    @property
    def deck(self) -> list[str] | None:
        """The dealt deck order (None for a determinized game, which has no real deal)."""
        return list(self._deal[0]) if self._deal[0] is not None else None

    @property
    def attacker(self) -> int:
        return self._att

    @property
    def defender(self) -> int:
        return self._def

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

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
        h = self._hist
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

    def hand(self, seat: int) -> list[str]:
        """Server-side: the cards of any seat."""
        return mask_to_codes(self._hands[seat])

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self._hands]

    def table(self) -> list[list[str | None]]:
        return [
            [CODES[a], CODES[d] if d >= 0 else None]
            for a, d in zip(self._tatt, self._tdef, strict=True)
        ]

    def team_of(self, seat: int) -> int | None:
        t = self._c.team
        return None if t is None else t[seat]

    # ----------------------------------------------------------- seat logic

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
        return _tn(BoutStarted, (att, d, cap))

    # -------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every action that is legal now, for every seat that may act (resign excluded)."""
        ph = self._phase
        out: list[Action] = []
        if ph == LEAD:
            s = self._att
            if self._c.multi:
                _attacks(out, s, self._hands[s], self._cap, self._c.lob)
            else:
                h = self._hands[s]
                while h:
                    low = h & -h
                    out.append(attack_action(s, low))
                    h ^= low
        elif ph == OVER:
            return out
        else:
            hands = self._hands
            unb = self._unb if ph == DEFEND else 0
            if unb:
                d = self._def
                hd = hands[d]
                beat = self._beat
                while unb:
                    low = unb & -unb
                    unb ^= low
                    a = low.bit_length() - 1
                    bm = hd & beat[a]
                    if bm:
                        row = _DEFEND_ROWS.get(a << 3 | d) or defend_row(d, a)
                        while bm:
                            lb = bm & -bm
                            bm ^= lb
                            b = lb.bit_length() - 1
                            out.append(row[b] or _defend_cell(row, d, a, b))
                if self._c.perev and not self._nbeat:
                    self._gen_transfers(out)
                out.append(_TAKE[d])
                done = False
            else:
                done = True
            pend = self._elig & ~self._done & ~self._empty
            room = self._cap - self._natt
            if pend and room > 0:
                x = self._tmask
                x |= x >> 1
                x |= x >> 2
                closure = (x & LOW_BITS) * 15
                while pend:
                    low = pend & -pend
                    pend ^= low
                    s = low.bit_length() - 1
                    avail = hands[s] & closure
                    if avail:
                        if avail & (avail - 1):
                            _attacks(out, s, avail, room, self._c.lob)
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

    def seats_to_act(self) -> list[int]:
        """Server-side: seats that have at least one legal action now (swap excluded)."""
        seats = {a.seat for a in self.legal_actions() if a._k != K_SWAP}
        return sorted(seats)

    def to_act(self) -> list[int]:
        """Seats entitled to act now, from public facts only (never reveals a hand)."""
        ph = self._phase
        if ph == OVER:
            return []
        if ph == LEAD:
            return [self._att]
        pend = self._elig & ~self._done & ~self._empty
        seats = []
        if ph == DEFEND and self._unb:
            seats.append(self._def)
            if self._natt >= self._cap:
                pend = 0
        seats.extend(s for s in range(self._c.n) if pend >> s & 1)
        return sorted(seats)

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action | str) -> list[Any]:
        """Apply one action (an Action or its text) and return the events it caused.

        An illegal action raises IllegalAction and leaves the game unchanged.
        """
        if action.__class__ is not Action:
            if isinstance(action, str):
                action = Action.parse(action)
            elif not isinstance(action, Action):
                raise IllegalAction(f"not an action: {action!r}")
        if self._phase == OVER:
            raise IllegalAction(f"{action}: the game is over")
        seat = action.seat
        if seat >= self._c.n:
            raise IllegalAction(f"{action}: there is no seat {seat} in a {self._c.n}-player game")
        k = action._k
        if k == K_DEFEND:
            ev = self._do_defend(seat, action)
        elif k == K_ATTACK:
            ev = self._do_attack(seat, action)
        elif k == K_DONE:
            ev = self._do_done(seat, action)
        elif k == K_TAKE:
            ev = self._do_take(seat, action)
        elif k == K_TRANSFER:
            ev = self._do_transfer(seat, action)
        elif k == K_SHOW:
            ev = self._do_show(seat, action)
        elif k == K_SWAP:
            ev = self._do_swap(seat, action)
        else:
            ev = self._do_resign(seat, action)
        self._hist = (self._hist, action)
        self._nhist += 1
        return ev

    def _not_held(self, action: Action, seat: int, missing: int) -> IllegalAction:
        return IllegalAction(
            f"{action}: seat {seat} does not hold {' '.join(mask_to_codes(missing))}"
        )

    def _check_attacker(self, action: Action, seat: int) -> None:
        """Why ``seat`` may not add attack cards now (raises), for throw-ins and done."""
        if seat == self._def:
            raise IllegalAction(f"{action}: seat {seat} is the defender")
        if not self._elig >> seat & 1:
            team = self._c.team
            if self._out >> seat & 1:
                why = f"seat {seat} is out of the game"
            elif team is not None and team[seat] == team[self._def]:
                why = f"seat {seat} is the defender's partner"
            elif self._c.scope == "attacker":
                why = f"only the principal attacker (seat {self._att}) may attack in this variant"
            else:
                why = f"only the defender's neighbours may throw in, and seat {seat} is not one"
            raise IllegalAction(f"{action}: {why}")
        if self._done >> seat & 1:
            raise IllegalAction(
                f"{action}: seat {seat} has said done; it may act again once new cards reach the table"
            )
        if self._empty >> seat & 1:
            raise IllegalAction(f"{action}: seat {seat} has no cards")

    def _do_attack(self, seat: int, action: Action) -> list[Any]:
        m = action._m
        hands = self._hands
        h = hands[seat]
        ph = self._phase
        idx = action._i
        n = len(idx)
        # One combined test for the common legal case; the refusal path explains why.
        if ph == LEAD:
            if (
                seat != self._att
                or m & ~h
                or (n > 1 and (not self._c.multi or m & ~RANK_MASK[idx[0] >> 2] or n > self._cap))
            ):
                self._refuse_attack(seat, action)
        else:
            x = self._tmask
            x |= x >> 1
            x |= x >> 2
            if (
                seat == self._def
                or not (self._elig & ~self._done & ~self._empty) >> seat & 1
                or m & ~h
                or m & ~((x & LOW_BITS) * 15)
                or (n > 1 and m & ~RANK_MASK[idx[0] >> 2])
                or self._natt + n > self._cap
            ):
                self._refuse_attack(seat, action)
        # Mutations start here: everything above only reads.
        h ^= m
        hands[seat] = h
        known = self._known
        if known[seat] & m:
            known[seat] &= ~m
        if m & self._six:
            self._six = 0
        if n == 1:
            self._tatt.append(idx[0])
            self._tdef.append(-1)
        else:
            self._tatt.extend(idx)
            self._tdef.extend([-1] * n)
        self._tmask |= m
        self._unb |= m
        self._natt += n
        self._done = 0
        joined = self._joined
        if seat not in joined:
            joined.append(seat)
        if ph == LEAD:
            ev: list[Any] = [_tn(Attacked, (seat, action.cards, True))]
            self._phase = DEFEND
            self._tdrawer = -1  # the swap window after the talon ran out closes here
        else:
            ev = [_tn(Attacked, (seat, action.cards, False))]
        if not h:
            self._emptied(seat, action, ev)
            if self._phase == OVER:
                return ev
        if ph == TAKING:
            self._settle(ev)
        return ev

    def _refuse_attack(self, seat: int, action: Action) -> None:
        m = action._m
        h = self._hands[seat]
        len(action._i)
        if self._phase == LEAD:
            if seat != self._att:
                raise IllegalAction(f"{action}: seat {self._att} leads this bout, not seat {seat}")
            if m & ~h:
                raise self._not_held(action, seat, m & ~h)
            if not self._c.multi:
                raise IllegalAction(f"{action}: this variant allows one card on the lead")
            if not is_one_rank(m):
                raise IllegalAction(f"{action}: cards played together must be of one rank")
            raise IllegalAction(
                f"{action}: this bout allows at most {self._cap} attack cards"
                f" (defender seat {self._def} holds {self._hands[self._def].bit_count()})"
            )
        self._check_attacker(action, seat)
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        if not is_one_rank(m):
            raise IllegalAction(f"{action}: cards played together must be of one rank")
        if m & ~rank_closure(self._tmask):
            raise IllegalAction(
                f"{action}: rank {RANKS[(m.bit_length() - 1) >> 2]} is not on the table;"
                " a throw-in must match the rank of a card played in this bout"
            )
        left = self._cap - self._natt
        raise IllegalAction(
            f"{action}: the bout's limit is {self._cap} attack cards and"
            f" {self._natt} are played, so {max(left, 0)} more may be added"
        )

    def _do_defend(self, seat: int, action: Action) -> list[Any]:
        a, b = action._i
        hands = self._hands
        h = hands[seat]
        if (
            self._phase != DEFEND
            or seat != self._def
            or not self._unb >> a & 1
            or not h >> b & 1
            or not self._beat[a] >> b & 1
        ):
            self._refuse_defence(seat, action)
        bb = BIT[b]
        h ^= bb
        hands[seat] = h
        known = self._known
        if known[seat] & bb:
            known[seat] &= ~bb
        if bb & self._six:
            self._six = 0
        self._tdef[self._tatt.index(a)] = b
        self._tmask |= bb
        unb = self._unb ^ BIT[a]
        self._unb = unb
        self._nbeat += 1
        ev: list[Any] = [_tn(Defended, (seat, action.cards[0], action.cards[1]))]
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
        if self._phase != DEFEND:
            raise IllegalAction(f"{action}: {self._no_defence_reason()}")
        if seat != self._def:
            raise IllegalAction(f"{action}: only the defender (seat {self._def}) defends")
        a, b = action._i
        if not self._unb >> a & 1:
            if self._tmask >> a & 1 and a in self._tatt:
                raise IllegalAction(f"{action}: {CODES[a]} is already beaten")
            raise IllegalAction(f"{action}: {CODES[a]} is not an attack card on the table")
        if not self._hands[seat] >> b & 1:
            raise self._not_held(action, seat, BIT[b])
        raise IllegalAction(
            f"{action}: {CODES[b]} does not beat {CODES[a]} (trumps are {SUITS[self._tsuit]};"
            " beat with a higher card of the same suit, or a trump against a non-trump)"
        )

    def _no_defence_reason(self) -> str:
        if self._phase == LEAD:
            return "the table is empty; nothing to defend yet"
        return f"the defender (seat {self._def}) has already chosen to take"

    def _do_take(self, seat: int, action: Action) -> list[Any]:
        if self._phase != DEFEND:
            raise IllegalAction(f"{action}: {self._no_defence_reason()}")
        if seat != self._def:
            raise IllegalAction(f"{action}: only the defender (seat {self._def}) may take")
        if not self._unb:
            raise IllegalAction(f"{action}: every attack card is beaten; there is nothing to take")
        self._phase = TAKING
        self._done = 0
        ev: list[Any] = [Took(seat)]
        self._settle(ev)
        return ev

    def _do_done(self, seat: int, action: Action) -> list[Any]:
        ph = self._phase
        if (
            ph == LEAD
            or seat == self._def
            or not (self._elig & ~self._done & ~self._empty) >> seat & 1
            or (ph == DEFEND and self._unb)
        ):
            if ph == LEAD:
                raise IllegalAction(
                    f"{action}: the bout has not started; seat {self._att} must lead"
                )
            self._check_attacker(action, seat)
            raise IllegalAction(f"{action}: attack cards are still unbeaten")
        done = self._done | 1 << seat
        self._done = done
        ev: list[Any] = [_tn(SaidDone, (seat,))]
        if not self._elig & ~done & ~self._empty:
            self._end_bout(ev, ph == DEFEND)
        return ev

    def _check_transfer(self, action: Action, seat: int, what: str) -> int:
        if self._phase != DEFEND:
            raise IllegalAction(f"{action}: {self._no_defence_reason()}")
        if seat != self._def:
            raise IllegalAction(f"{action}: only the defender (seat {self._def}) may {what}")
        if self._nbeat:
            raise IllegalAction(
                f"{action}: a card of this bout is already beaten, too late to {what}"
            )
        nd = self._next_opp(seat)
        if nd < 0:
            raise IllegalAction(
                f"{action}: there is no next player with cards to pass the attack to"
            )
        return nd

    def _do_transfer(self, seat: int, action: Action) -> list[Any]:
        if not self._c.perev:
            raise IllegalAction(f"{action}: transfers need mode perevodnoy")
        nd = self._check_transfer(action, seat, "transfer")
        m = action._m
        hands = self._hands
        h = hands[seat]
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        r = self._tatt[0] >> 2
        if m & ~RANK_MASK[r]:
            raise IllegalAction(f"{action}: a transfer needs cards of the attack's rank {RANKS[r]}")
        n = len(action._i)
        total = self._natt + n
        limit = self._limit()
        if total > limit:
            raise IllegalAction(
                f"{action}: a bout holds at most {limit} attack cards, this makes {total}"
            )
        nh = hands[nd].bit_count()
        if nh < total:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the {total} attack cards"
                " the transfer would put on the table"
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
        self._unb |= m
        self._natt = total
        ev: list[Any] = [Transferred(seat, action.cards, nd)]
        self._pass_attack(seat, nd, limit)
        if not h:
            self._emptied(seat, action, ev)
        return ev

    def _do_show(self, seat: int, action: Action) -> list[Any]:
        if not self._c.showok:
            raise IllegalAction(f"{action}: this variant has no trump-show transfer")
        nd = self._check_transfer(action, seat, "show a trump")
        card = action._i[0]
        if not self._hands[seat] >> card & 1:
            raise self._not_held(action, seat, BIT[card])
        r = self._tatt[0] >> 2
        if card != r * 4 + self._tsuit:
            raise IllegalAction(
                f"{action}: only the trump of the attack's rank ({RANKS[r]}{SUITS[self._tsuit]}) can be shown"
            )
        if self._shown >> card & 1:
            raise IllegalAction(f"{action}: {CODES[card]} was already shown in this bout")
        nh = self._hands[nd].bit_count()
        if nh < self._natt:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the {self._natt} attack cards on the table"
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
        if not self._c.swap:
            raise IllegalAction(f"{action}: this variant has no trump-six swap")
        if not self._six:
            raise IllegalAction(f"{action}: the trump six can no longer be swapped")
        if self._six_owner != seat:
            raise IllegalAction(f"{action}: only the original holder of the trump six may swap it")
        target = self._swap_target()
        if target is None:
            if self._tdrawer == seat:
                raise IllegalAction(f"{action}: seat {seat} drew the face-up trump itself")
            raise IllegalAction(
                f"{action}: too late, the talon has run out and a new bout has begun"
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
        if self._out >> seat & 1:
            raise IllegalAction(f"{action}: seat {seat} is already out of the game")
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
        six = 0
        for i in action._i:
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
            taken = [*map(_CODE, tatt)]
            taken += [CODES[i] for i in self._tdef if i >= 0]
            ev.append(_tn(CardsTaken, (d, tuple(taken))))
        self._tatt = []
        self._tdef = []
        self._tmask = self._unb = self._natt = self._nbeat = 0
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
                    m = 0
                    for _ in range(k):
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
                if m & six:
                    self._six_owner = s
                if talon:
                    ev.append(_tn(Drew, (s, k, None)))
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
        else:
            att = d if beaten else c.nxt[d]
            d = c.nxt[att]  # nobody out: the next seat defends (in teams seats alternate)
        # The next bout starts.
        bout = self._bout + 1
        self._bout = bout
        fbl = c.fbl
        cap = fbl if fbl and not bout else MAX_ATTACK
        hc = hands[d].bit_count()
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
        ev.append(_tn(BoutStarted, (att, d, cap)))

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
        self._tdrawer = -1
        ev.append(GameOver(self.result))

    # ----------------------------------------------------- default actions

    def default_action(self, seat: int) -> Action | None:
        """The safe action for a seat whose turn timer ran out, or None if it need not act.

        The defender takes; an attacker who may say done says done; a seat that must
        lead plays its lowest card (lowest non-trump by rank, else the lowest trump).
        """
        ph = self._phase
        if ph == OVER or not 0 <= seat < self._c.n:
            return None
        if ph == LEAD:
            if seat != self._att:
                return None
            h = self._hands[seat]
            plain = h & ~SUIT_MASK[self._tsuit]
            pick = plain or h
            return attack_action(seat, pick & -pick)
        if seat == self._def:
            if ph == DEFEND and self._unb:
                return simple_action(seat, K_TAKE)
            return None
        pending = self._elig & ~self._done & ~self._empty
        if pending >> seat & 1 and (ph == TAKING or not self._unb):
            return simple_action(seat, K_DONE)
        return None

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
        g._unb = self._unb
        g._natt = self._natt
        g._nbeat = self._nbeat
        g._phase = self._phase
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
        g._nhist = self._nhist
        g._deal = self._deal
        g._result = self._result
        g._deal_events = self._deal_events
        return g

    __copy__ = copy

    # ----------------------------------------------------------- views etc.

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). JSON-ready; no hidden card appears."""
        c = self._c
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < c.n):
            raise ValueError(f"no seat {seat!r} in a {c.n}-player game")
        ph = self._phase
        v: dict[str, Any] = {
            "seat": seat,
            "hand": mask_to_codes(self._hands[seat]) if seat is not None else None,
            "hand_counts": [h.bit_count() for h in self._hands],
            "table": self.table(),
            "trump": CODES[self._trump],
            "trump_suit": SUITS[self._tsuit],
            "talon": len(self._talon),
            "discard": self._discard.bit_count(),
            "attacker": self._att if ph != OVER else None,
            "defender": self._def if ph != OVER else None,
            "to_act": self.to_act(),
            "phase": PHASES[ph],
            "bout": self._bout,
            "bout_limit": self._cap,
            "cards_allowed": max(0, self._cap - self._natt) if ph != OVER else 0,
            "done": [s for s in range(c.n) if self._done >> s & 1],
            "attackers": [s for s in range(c.n) if self._elig >> s & 1] if ph != OVER else [],
            "out": [s for s in range(c.n) if self._out >> s & 1],
            "out_order": list(self._out_order),
            "teams": list(c.team) if c.team is not None else None,
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
            f"<Game {self._c.n}p {self._c.rules.mode} bout={self._bout} phase={PHASES[self._phase]}"
            f" attacker={self._att} defender={self._def} actions={self._nhist}>"
        )
