"""Dealing: a game from an explicit deck, a shuffled deck, or a made-up position."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .cards import (
    BEATERS,
    BIT,
    CODES,
    DECK_MASK,
    INDEX,
    SIX_RANK,
    SUIT_MASK,
    card_index,
    mask_to_codes,
)
from .config import (
    LEAD,
    _config,
    _mask_of,
    _new,
    _rng,
)
from .events import (
    Dealt,
    FirstAttackerChosen,
    FirstAttackerDrawn,
)
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

_tn = tuple.__new__  # builds the NamedTuple events without their slower __new__
_BIT = dict(enumerate(BIT)).__getitem__  # (a dict's: cheaper to call from map than a tuple's)

# Each deck's codes in index order: the unshuffled deck of Game.new.
_DECKS = {size: tuple(mask_to_codes(m)) for size, m in DECK_MASK.items()}


def _shuffle_inline(rng: random.Random, x: list[str]) -> None:
    # random.Random.shuffle with its _randbelow inlined: the same getrandbits calls, so
    # the same order, without a Python call per card.
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _same_as_stdlib() -> bool:
    for seed in range(20):
        a, b = list(_DECKS[52]), list(_DECKS[52])
        random.Random(seed).shuffle(a)
        _shuffle_inline(random.Random(seed), b)
        if a != b:
            return False
    return True


# Checked once against this Python's own shuffle; any difference falls back to it.
_INLINE_OK = _same_as_stdlib()


def _shuffle(rng: random.Random, x: list[str]) -> None:
    """``rng.shuffle(x)``; faster, with the same result, for a plain ``random.Random``."""
    if rng.__class__ is random.Random and _INLINE_OK:
        _shuffle_inline(rng, x)
    else:
        rng.shuffle(x)


class DealMixin:
    """The constructors of ``Game``."""

    __slots__ = ()

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
        deck = list(_DECKS[rules.deck_size])
        _shuffle(rng, deck)
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
        g._tmask = g._tclos = g._unb = g._natt = g._nbeat = 0
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
        g._deal = (None, (attacker - 1) % n, attacker, "given")
        g._result = None
        g._phase = LEAD
        g._over = False
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
        try:
            idx = [*map(INDEX.__getitem__, codes)]
        except (KeyError, TypeError):
            idx = [card_index(x) for x in codes]  # raises, naming the bad code
        if len(set(idx)) == len(idx):
            # No repeats, so the sum of the card bits is their union.
            mask = sum(map(_BIT, idx))
        else:
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
        for i in range(n):
            # Round-robin deal: every n-th card of the dealt part (cards are distinct).
            hands[(dealer + 1 + i) % n] = sum(map(_BIT, idx[i:dealt:n]))
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
            _tn(Dealt, (dealer, tuple(map(int.bit_count, hands)), CODES[trump], len(talon)))
        ]
        if first_attacker is not None:
            if (
                not isinstance(first_attacker, int)
                or isinstance(first_attacker, bool)
                or not 0 <= first_attacker < n
            ):
                raise ValueError(f"first_attacker must be a seat 0-{n - 1}, not {first_attacker!r}")
            fa, fa_by = first_attacker, "given"
            events.append(_tn(FirstAttackerChosen, (fa, None)))
        else:
            fa = -1
            dealt_trumps = 0
            for h in hands:
                dealt_trumps |= h
            dealt_trumps &= SUIT_MASK[tsuit]
            if dealt_trumps:
                low = dealt_trumps & -dealt_trumps
                card = low.bit_length() - 1
                fa = next(s for s in range(n) if hands[s] & low)
            if drawn_first is not None:
                if fa >= 0:
                    raise ValueError(
                        f"the first attacker is drawn only when nobody holds a trump;"
                        f" seat {fa} holds the lowest trump {CODES[card]}"
                    )
                fa, fa_by = drawn_first, "draw"
                events.append(FirstAttackerDrawn(fa))
            elif fa >= 0:
                fa_by = "lowest_trump"
                # The leader shows the lowest trump to prove the right to lead.
                known[fa] |= BIT[card]
                events.append(_tn(FirstAttackerChosen, (fa, CODES[card])))
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
        self._tclos = 0
        self._unb = 0
        self._natt = 0
        self._nbeat = 0
        self._phase = LEAD
        self._over = False
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
        self._deal = (tuple(codes), dealer, fa, fa_by)
        self._result = None
        events.append(self._start_bout(fa))
        self._deal_events = tuple(events)
