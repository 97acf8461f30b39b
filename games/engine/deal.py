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
    _mask_of,
    _new,
    _rng,
    config_for,
)
from .events import (
    Dealt,
    FirstAttackerChosen,
    FirstAttackerDrawn,
)
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

# Each deck's codes in index order: the unshuffled deck of Game.new.
_DECKS = {size: tuple(mask_to_codes(m)) for size, m in DECK_MASK.items()}


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
        c = config_for(rules)
        n = c.players
        hs = [h.split() if isinstance(h, str) else list(h) for h in hands]
        tal = talon.split() if isinstance(talon, str) else list(talon)
        if len(hs) != n:
            raise ValueError(f"need {n} hands")
        g = _new(cls)
        g._config = c
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
        g._trump_card = tcard
        g._trump_suit = tcard & 3
        g._beaters = BEATERS[g._trump_suit]
        g._attack_cards = []
        g._defence_cards = []
        g._table_mask = g._table_ranks_mask = g._unbeaten_mask = g._attack_count = (
            g._beaten_count
        ) = 0
        g._done_mask = g._shown_mask = g._attackers_mask = g._bout_limit = 0
        g._joined_order = []
        g._bout_number = bout
        g._out_order = list(out_order)
        g._out_mask = sum(1 << s for s in out_order)
        g._empty_mask = sum(1 << s for s in range(n) if not g._hands[s])
        if g._talon and g._empty_mask:
            raise ValueError("while the talon lasts every player holds cards")
        if not g._talon:
            for s in range(n):
                if not g._hands[s] and not g._out_mask >> s & 1:
                    g._out_mask |= 1 << s
                    g._out_order.append(s)
        g._known_cards = [0] * n
        g._discard_mask = c.deck_mask & ~placed
        g._trump_six = 0
        g._trump_six_holder = -1
        if c.trump_six_swap and g._talon:
            six_card = SIX_RANK * 4 + g._trump_suit
            if six_card != tcard and not g._discard_mask >> six_card & 1:
                g._trump_six = BIT[six_card]
                for s in range(n):
                    if g._hands[s] & g._trump_six:
                        g._trump_six_holder = s
        g._trump_drawer = -1
        g._last_play_sixes = [0] * n
        g._history = None
        g._deal = (None, (attacker - 1) % n, attacker, "given")
        g._result = None
        g._phase = LEAD
        g._is_over = False
        g._defender = -1
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
        c = self._config = config_for(rules)
        n = c.players
        if isinstance(deck, str) or not hasattr(deck, "__iter__"):
            raise ValueError("deck must be a list of card codes")
        codes = list(deck)
        try:
            idx = [INDEX[x] for x in codes]
        except (KeyError, TypeError):
            idx = [card_index(x) for x in codes]  # raises, naming the bad code
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
        dealt = n * c.hand_size
        for i in range(n):
            # Round-robin deal: every n-th card of the dealt part (cards are distinct).
            hands[(dealer + 1 + i) % n] = sum([BIT[j] for j in idx[i:dealt:n]])
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
                events.append(FirstAttackerChosen(fa, CODES[card]))
            else:
                if rng is None:
                    rng = random.Random("durak-first-attacker:" + "".join(codes))
                fa, fa_by = rng.randrange(n), "draw"
                events.append(FirstAttackerDrawn(fa))

        six = 0
        six_owner = -1
        if c.trump_six_swap and talon:
            six_card = SIX_RANK * 4 + tsuit
            if six_card != trump:
                six = BIT[six_card]
                for s in range(n):
                    if hands[s] & six:
                        six_owner = s

        self._hands = hands
        self._talon = talon
        self._trump_card = trump
        self._trump_suit = tsuit
        self._beaters = BEATERS[tsuit]
        self._attack_cards = []
        self._defence_cards = []
        self._table_mask = 0
        self._table_ranks_mask = 0
        self._unbeaten_mask = 0
        self._attack_count = 0
        self._beaten_count = 0
        self._phase = LEAD
        self._is_over = False
        self._attacker = fa
        self._defender = -1
        self._attackers_mask = 0
        self._done_mask = 0
        self._joined_order = []
        self._bout_limit = 0
        self._shown_mask = 0
        self._bout_number = 0
        self._out_mask = 0
        self._out_order = []
        self._empty_mask = 0
        self._known_cards = known
        self._discard_mask = 0
        self._trump_six = six
        self._trump_six_holder = six_owner
        self._trump_drawer = -1
        self._last_play_sixes = [0] * n
        self._history = None
        self._deal = (tuple(codes), dealer, fa, fa_by)
        self._result = None
        events.append(self._start_bout(fa))
        self._deal_events = tuple(events)
