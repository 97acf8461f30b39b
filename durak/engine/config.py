"""Per-rules constants shared by every game of a variant, phases, small helpers."""

from __future__ import annotations

import random
from typing import Any

from .cards import BIT, DECK_MASK, card_index
from .rules import Rules

# The phase is kept as its public name: ``Game.phase`` then reads the field through a C
# getter, and the engine compares against these same (interned) string objects.
PHASES = ("attack", "defend", "taking", "over")
LEAD, DEFEND, TAKING, OVER = PHASES


class Config:
    """Per-Rules constants, shared by every game and copy that uses those rules."""

    __slots__ = (
        "rules",
        "players",
        "hand_size",
        "team_of",
        "transfers",
        "trump_show",
        "multi_card_lead",
        "first_bout_limit",
        "throw_in",
        "trump_six_swap",
        "all_seats",
        "deck_mask",
        "attackers_cache",
        "next_seat",
        "seats_of",
        "hand_bytes",
        "attack_tables",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.hand_size = rules.hand_size
        self.team_of = rules.team_of
        self.transfers = rules.mode == "perevodnoy"
        self.trump_show = rules.trump_show_transfer
        self.multi_card_lead = rules.multi_card_lead
        self.first_bout_limit = rules.first_bout_limit
        self.throw_in = rules.effective_throw_in
        self.trump_six_swap = rules.trump_six_swap
        self.all_seats = (1 << self.players) - 1
        self.deck_mask = DECK_MASK[rules.deck_size]
        self.attackers_cache: dict[int, int] = {}
        self.next_seat = tuple((s + 1) % self.players for s in range(self.players))
        # The bytes of a hand mask that can hold cards of this deck.
        self.hand_bytes = tuple(
            range(((self.deck_mask & -self.deck_mask).bit_length() - 1) >> 3, 7)
        )
        # The seats of each seat mask, in seat order.
        self.seats_of = tuple(
            tuple(s for s in range(self.players) if m >> s & 1) for m in range(1 << self.players)
        )
        # Attack lookup tables per (seat << 2 | room class), filled by legal._attack_tables.
        self.attack_tables: list[Any] = [None] * 32


_CONFIGS: dict[Rules, Config] = {}
# The same, by the identity of a Rules object: hashing a Rules hashes all its fields. Each
# entry keeps its Rules alive, so an id is never reused while it is in here.
_BY_ID: dict[int, tuple[Rules, Config]] = {}


def config_for(rules: Rules) -> Config:
    """The shared Config of ``rules`` (looked up by identity first: hashing Rules is slow)."""
    e = _BY_ID.get(id(rules))
    if e is not None and e[0] is rules:
        return e[1]
    c = _CONFIGS.get(rules)
    if c is None:
        c = _CONFIGS[rules] = Config(rules)
    if len(_BY_ID) >= 4096:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, c)
    return c


def mask_of(codes: list[str]) -> int:
    """The mask of ``codes``; ValueError on a bad or repeated code."""
    m = 0
    for x in codes:
        b = BIT[card_index(x)]
        if m & b:
            raise ValueError(f"{x} is given twice")
        m |= b
    return m


def make_rng(rng_or_seed: random.Random | int | str | None) -> random.Random:
    """``rng_or_seed`` itself if it is a Random, else a Random seeded with it."""
    if isinstance(rng_or_seed, random.Random):
        return rng_or_seed
    return random.Random(rng_or_seed)
