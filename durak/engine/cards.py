"""Card codes, small-int card indices and bit-mask helpers.

A card is an int ``rank * 4 + suit`` (rank 0 = "2" ... 12 = "A", suit C D H S = 0..3).
The layout is rank-major so the four cards of one rank are four contiguous bits: rank
questions ("which ranks are on the table?") become a couple of shifts and one multiply.
A set of cards is an int bit mask over those 52 indices.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "CDHS"
N_CARDS = 52

CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
BIT: tuple[int, ...] = tuple(1 << i for i in range(N_CARDS))

# One bit at the lowest position of every rank nibble.
LOW_BITS = sum(1 << (4 * r) for r in range(13))
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
RANK_MASK: tuple[int, ...] = tuple(0xF << (4 * r) for r in range(13))

SIX_RANK = RANKS.index("6")

# Lowest rank index present in each deck size.
DECK_LOW_RANK = {24: RANKS.index("9"), 36: RANKS.index("6"), 52: 0}
DECK_MASK: dict[int, int] = {
    size: sum(RANK_MASK[r] for r in range(low, 13)) for size, low in DECK_LOW_RANK.items()
}


def _beaters(trump: int) -> tuple[int, ...]:
    table = []
    for card in range(N_CARDS):
        rank, suit = card >> 2, card & 3
        m = 0
        for r in range(rank + 1, 13):
            m |= 1 << (4 * r + suit)
        if suit != trump:
            m |= SUIT_MASK[trump]
        table.append(m)
    return tuple(table)


# BEATERS[trump_suit][card] = mask of every card that beats ``card``.
BEATERS: tuple[tuple[int, ...], ...] = tuple(_beaters(t) for t in range(4))

# For every 4-bit rank nibble: its non-empty subsets with their sizes, smallest first.
SUBSETS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        sorted(
            ((sub, sub.bit_count()) for sub in range(1, 16) if sub & nib == sub),
            key=lambda p: (p[1], p[0]),
        )
    )
    for nib in range(16)
)


def rank_closure(mask: int) -> int:
    """All cards whose rank occurs in ``mask``."""
    x = mask | (mask >> 1)
    x |= x >> 2
    return (x & LOW_BITS) * 15


def is_one_rank(mask: int) -> bool:
    """True when ``mask`` is non-empty and all its cards share a rank."""
    if not mask:
        return False
    r = (mask.bit_length() - 1) >> 2
    return mask & ~RANK_MASK[r] == 0


def card_index(code: str) -> int:
    """The small int for a card code such as ``"6H"``; ValueError if it is not one."""
    try:
        return INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(
            f"bad card code {code!r}: expected rank 2-9 T J Q K A and suit C D H S, e.g. '6H'"
        ) from None


def card_code(index: int) -> str:
    return CODES[index]


def rank_of(index: int) -> int:
    return index >> 2


def suit_of(index: int) -> int:
    return index & 3


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_to_codes(mask: int) -> list[str]:
    """Card codes of a mask, in index order (by rank, then suit)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CODES[low.bit_length() - 1])
        mask ^= low
    return out


def codes_to_mask(codes: Iterable[str]) -> int:
    m = 0
    for c in codes:
        m |= BIT[card_index(c)]
    return m


def deck_codes(deck_size: int) -> list[str]:
    """The cards of a 24, 36 or 52 card deck in index order."""
    return mask_to_codes(DECK_MASK[deck_size])


def beats(card: str, other: str, trump_suit: str) -> bool:
    """True when ``card`` beats ``other`` with ``trump_suit`` (a letter of CDHS) as trumps."""
    t = SUITS.index(trump_suit)
    return bool(BEATERS[t][card_index(other)] >> card_index(card) & 1)
