"""Where the unseen cards probably lie, from what each player did in public.

Uniform deals treat every unseen card alike, but play gives cards away: a defender who
takes a lone seven probably held nothing that beats it; an attacker who says done
probably had no plain card of a rank on the table; a player leads its lowest cards and
beats with its cheapest. Each such observation makes some cards less likely in that
player's hand *at that moment*. Cards drawn from the talon since are fresh, so an
observation fades as the player draws.

``Inference.of(knowledge)`` turns the public history into a weight per (seat, unseen card)
and ``deal`` samples games with those weights. Everything comes from the seat's
Knowledge, so two deals the seat cannot tell apart give the same weights.
"""

from __future__ import annotations

import dataclasses
import random
from functools import lru_cache

from durak.engine import (
    RANKS,
    Action,
    Game,
    Knowledge,
    beats,
    card_index,
    deck_codes,
    mask_to_codes,
)

from .public_replay import PublicReplay, replay

# Likelihood factors: how much less likely a card is in a hand after each observation.
# Trumps are often held back on purpose, so what a player did not do says less of them.
TOOK_PLAIN, TOOK_TRUMP = 0.05, 0.3
DONE_PLAIN, DONE_TRUMP = 0.15, 0.8
LEAD_LOWER_PLAIN = 0.25
LEAD_TRUMP_PLAIN = 0.1
DEFEND_CHEAPER = 0.3


@dataclasses.dataclass
class _Observation:
    seat: int
    cards: dict[str, float]  # card -> likelihood factor, while nothing new was drawn
    drawn: int  # how many cards the seat had drawn by then


def _rank(code: str) -> int:
    return RANKS.index(code[0])


def _observe(t: PublicReplay, action: Action, trump: str, deck: list[str]) -> _Observation | None:
    s = action.seat
    kind = action.kind
    game = t.game
    cards: dict[str, float] = {}
    if kind == "take":
        unbeaten = game.unbeaten_cards
        for c in deck:
            if any(beats(c, u, trump) for u in unbeaten):
                f = TOOK_TRUMP if c[1] == trump else TOOK_PLAIN
                if len(unbeaten) > 1:
                    f = f ** (1 / len(unbeaten))
                cards[c] = f
    elif kind == "done" and game.attack_cards_on_table < game.bout_limit:
        ranks = {c[0] for pair in game.table() for c in pair if c is not None}
        for c in deck:
            if c[0] in ranks:
                cards[c] = DONE_TRUMP if c[1] == trump else DONE_PLAIN
    elif kind == "attack" and game.phase == "attack":
        led = action.cards[0]
        if led[1] == trump:
            for c in deck:
                if c[1] != trump:
                    cards[c] = LEAD_TRUMP_PLAIN
        else:
            for c in deck:
                if c[1] != trump and _rank(c) < _rank(led):
                    cards[c] = LEAD_LOWER_PLAIN
    elif kind == "defend":
        attack, beater = action.cards
        for c in deck:
            if c != beater and beats(c, attack, trump) and _cheaper(c, beater, trump):
                cards[c] = DEFEND_CHEAPER
    if not cards:
        return None
    return _Observation(s, cards, t.drawn[s])


def _cheaper(c: str, other: str, trump: str) -> bool:
    return (c[1] == trump, _rank(c)) < (other[1] == trump, _rank(other))


@lru_cache(maxsize=8)
def _deck(deck_size: int) -> list[str]:
    return deck_codes(deck_size)


class Inference:
    """Per-seat weights of the cards the seat of ``knowledge`` cannot see."""

    def __init__(self, knowledge: Knowledge, weights: list[dict[int, float]]) -> None:
        self.knowledge = knowledge
        self.weights = weights  # weights[s][card index], for seats holding hidden cards
        self.unseen = [card_index(c) for c in mask_to_codes(knowledge.unseen_mask)]
        hidden = []
        for s in range(knowledge.rules.players):
            if s == knowledge.seat:
                hidden.append(0)
            else:
                hidden.append(knowledge.hand_counts[s] - knowledge.known[s].bit_count())
        self.hidden = hidden

    @classmethod
    def of(cls, knowledge: Knowledge) -> Inference:
        rules = knowledge.rules
        trump_suit = knowledge.trump[1]
        deck = _deck(rules.deck_size)
        observations: list[_Observation] = []

        def note(t: PublicReplay, action: Action) -> None:
            if action.seat != knowledge.seat:
                obs = _observe(t, action, trump_suit, deck)
                if obs is not None:
                    observations.append(obs)

        replayed = replay(knowledge, note)
        unseen = set(mask_to_codes(knowledge.unseen_mask))
        weights: list[dict[int, float]] = [{} for _ in range(rules.players)]
        for obs in observations:
            hidden = knowledge.hand_counts[obs.seat] - knowledge.known[obs.seat].bit_count()
            if hidden <= 0:
                continue
            # The share of the seat's hidden cards drawn since: those are fresh.
            fresh = min(1.0, (replayed.drawn[obs.seat] - obs.drawn) / hidden)
            w = weights[obs.seat]
            for c, f in obs.cards.items():
                if c in unseen:
                    i = card_index(c)
                    w[i] = w.get(i, 1.0) * (f + (1.0 - f) * fresh)
        return cls(knowledge, weights)

    def deal(self, rng: random.Random) -> Game:
        """A game that agrees with the knowledge, hidden cards dealt by the weights."""
        k = self.knowledge
        pool = list(self.unseen)
        known = list(k.known)
        seats = [s for s, h in enumerate(self.hidden) if h > 0]
        rng.shuffle(seats)
        for s in seats:
            w = self.weights[s]
            # Weighted sampling without replacement (Efraimidis-Spirakis keys).
            keyed = sorted(pool, key=lambda i: rng.random() ** (1.0 / w.get(i, 1.0)))
            take = keyed[-self.hidden[s] :]
            for i in take:
                known[s] |= 1 << i
            chosen = set(take)
            pool = [i for i in pool if i not in chosen]
        return dataclasses.replace(k, known=tuple(known)).determinize(rng)
