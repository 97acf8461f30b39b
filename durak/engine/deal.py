"""Dealing: a game from an explicit deck, a shuffled deck, or a made-up position."""

from __future__ import annotations

import random
from typing import Any

from .cards import (
    BEATERS,
    BIT,
    CODES,
    DECK_MASK,
    INDEX,
    SIX_RANK,
    SUIT_MASK,
    card_index,
    iter_bits,
    mask_to_codes,
)
from .config import LEAD, Config, config_for, mask_of
from .events import (
    Dealt,
    Event,
    FirstAttackerChosen,
    FirstAttackerDrawn,
)
from .rules import Rules
from .settlement import check_over, start_bout
from .state import Deal, GameState

# Each deck's codes in index order.
_DECKS = {size: tuple(mask_to_codes(m)) for size, m in DECK_MASK.items()}
# The same cards as indices: the unshuffled deck of Game.new.
DECK_INDICES = {size: tuple(iter_bits(m)) for size, m in DECK_MASK.items()}


def shuffled_deck(rules: Rules, rng: random.Random) -> list[int]:
    """A fresh deck of the variant as card indices, shuffled with ``rng``.

    The shuffle permutes the deck in index order, so it deals what shuffling the codes in
    that order would.
    """
    deck = list(DECK_INDICES[rules.deck_size])
    rng.shuffle(deck)
    return deck


def fill_position(
    g: GameState,
    rules: Rules,
    hands: list[list[str]] | list[str],
    trump: str,
    talon: list[str] | tuple[str, ...] | str,
    attacker: int,
    bout: int,
    out_order: list[int] | tuple[int, ...],
) -> None:
    """Set ``g`` up as a bout about to start from a made-up position (see
    ``Game.from_position``).
    """
    c = config_for(rules)
    n = c.players
    hs = [h.split() if isinstance(h, str) else list(h) for h in hands]
    tal = talon.split() if isinstance(talon, str) else list(talon)
    if len(hs) != n:
        raise ValueError(f"need {n} hands")
    g.config = c
    g.hands = [mask_of(h) for h in hs]
    tcard = card_index(trump)
    if tal and tal[-1] != trump:
        raise ValueError("the talon's last card must be the face-up trump")
    g.talon = [card_index(x) for x in reversed(tal)]
    placed = 0
    for m in [*g.hands, mask_of(tal)]:
        if placed & m:
            raise ValueError(f"{' '.join(mask_to_codes(placed & m))} placed twice")
        placed |= m
    if placed & ~c.deck_mask:
        raise ValueError("a card is not in this deck")
    g.trump_card = tcard
    g.trump_suit_index = tcard & 3
    g.beaters = BEATERS[g.trump_suit_index]
    g.attack_cards = []
    g.defence_cards = []
    g.table_mask = g.table_ranks_mask = g.unbeaten_mask = g.attack_count = g.beaten_count = 0
    g.done_mask = g.shown_mask = g.attackers_mask = g.bout_limit = 0
    g.joined_order = ()
    g.bout_number = bout
    went_out = list(out_order)
    g.out_mask = sum(1 << s for s in out_order)
    g.empty_mask = sum(1 << s for s in range(n) if not g.hands[s])
    if g.talon and g.empty_mask:
        raise ValueError("while the talon lasts every player holds cards")
    if not g.talon:
        for s in range(n):
            if not g.hands[s] and not g.out_mask >> s & 1:
                g.out_mask |= 1 << s
                went_out.append(s)
    g.went_out = tuple(went_out)
    g.known_cards = [0] * n
    g.discard_mask = c.deck_mask & ~placed
    g.trump_six = 0
    g.trump_six_holder = -1
    if c.trump_six_swap and g.talon:
        six_card = SIX_RANK * 4 + g.trump_suit_index
        if six_card != tcard and not g.discard_mask >> six_card & 1:
            g.trump_six = BIT[six_card]
            for s in range(n):
                if g.hands[s] & g.trump_six:
                    g.trump_six_holder = s
    g.trump_drawer = -1
    g.last_play_sixes = (0,) * n
    g.action_chain = None
    g.deal = Deal(None, (attacker - 1) % n, attacker, "given")
    g.outcome = None
    g.phase = LEAD
    g.is_over = False
    g.attacker = attacker
    g.defender = -1
    ev: list[Event] = []
    if not check_over(g, ev):
        ev.append(start_bout(g, attacker))
    g.opening_events = tuple(ev)


def setup(
    st: GameState,
    rules: Rules,
    deck: Any,
    dealer: int | None,
    first_attacker: int | None,
    drawn_first: int | None,
    rng: random.Random | None,
) -> None:
    """Deal ``deck`` (card codes, checked to be exactly the variant's deck) into ``st``."""
    c = _config(rules)
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
    deal_cards(st, c, codes, idx, dealer, first_attacker, drawn_first, rng)


def deal_shuffled(
    st: GameState,
    rules: Rules,
    rng: random.Random,
    dealer: int | None,
    first_attacker: int | None,
) -> None:
    """Deal a deck shuffled with ``rng`` into ``st`` (no check needed: it is a whole deck)."""
    c = _config(rules)
    idx = shuffled_deck(rules, rng)
    deal_cards(st, c, [CODES[i] for i in idx], idx, dealer, first_attacker, None, rng)


def _config(rules: Rules) -> Config:
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    return config_for(rules)


def deal_cards(
    st: GameState,
    c: Config,
    codes: list[str],
    idx: list[int],
    dealer: int | None,
    first_attacker: int | None,
    drawn_first: int | None,
    rng: random.Random | None,
) -> None:
    """Deal a whole deck, given both as ``codes`` and as card indices ``idx``."""
    st.config = c
    n = c.players
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

    events: list[Event] = [
        Dealt(dealer, tuple([h.bit_count() for h in hands]), CODES[trump], len(talon))
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

    st.hands = hands
    st.talon = talon
    st.trump_card = trump
    st.trump_suit_index = tsuit
    st.beaters = BEATERS[tsuit]
    st.attack_cards = []
    st.defence_cards = []
    st.table_mask = 0
    st.table_ranks_mask = 0
    st.unbeaten_mask = 0
    st.attack_count = 0
    st.beaten_count = 0
    st.phase = LEAD
    st.is_over = False
    st.attacker = fa
    st.defender = -1
    st.attackers_mask = 0
    st.done_mask = 0
    st.joined_order = ()
    st.bout_limit = 0
    st.shown_mask = 0
    st.bout_number = 0
    st.out_mask = 0
    st.went_out = ()
    st.empty_mask = 0
    st.known_cards = known
    st.discard_mask = 0
    st.trump_six = six
    st.trump_six_holder = six_owner
    st.trump_drawer = -1
    st.last_play_sixes = (0,) * n
    st.action_chain = None
    st.deal = Deal(tuple(codes), dealer, fa, fa_by)
    st.outcome = None
    events.append(start_bout(st, fa))
    st.opening_events = tuple(events)
