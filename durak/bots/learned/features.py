"""What the learned policy sees: a seat's Knowledge and its legal actions as numbers.

Everything here is read from the seat's ``Knowledge`` and from the public part of a
game rebuilt from it (the table, the phase, who attacks), never from another seat's
hand, so the policy cannot read a hidden card (the same boundary as the search's).

Cards are laid out on 52 slots, ``4 * rank + suit``, with the suits renamed so that
the trump suit is always the last slot of its rank and the plain suits keep their
order: a position and the same position under another trump look alike to the net.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from durak.engine import Action, Game, Knowledge, Rules

N_SLOTS = 52
# The card planes of a position (one 52-slot row each).
PLANES = (
    "own hand",
    "unbeaten attack cards",
    "beaten attack cards",
    "defence cards",
    "discard pile",
    "known in the opponent's hand",
    "unseen (the opponent's hand or the talon)",
    "the face-up trump, while the talon lasts",
)
SCALARS = (
    "talon count / 24",
    "own card count / 12",
    "opponent's card count / 12",
    "opponent's known card count / 12",
    "unseen count / 24",
    "phase: lead",
    "phase: defend",
    "phase: taking",
    "seat attacks",
    "seat defends",
    "room left in the bout / 6",
    "unbeaten cards / 6",
    "perevodnoy",
    "first bout",
    "seat said done",
    "constant 1",
)
STATE_SIZE = len(PLANES) * N_SLOTS + len(SCALARS)
KINDS = ("attack", "defend", "transfer", "show", "take", "done", "swap", "resign")
# An action: its kind, the cards it puts down, and (a defence) the card it beats.
ACTION_SIZE = len(KINDS) + 2 * N_SLOTS

_PHASES = ("attack", "defend", "taking")
_BYTES = (N_SLOTS + 7) // 8


def _canonical_order(trump_suit: int) -> np.ndarray:
    """``order[slot]`` is the card index shown at ``slot`` under ``trump_suit``."""
    plain = [s for s in range(4) if s != trump_suit]
    suits = [*plain, trump_suit]
    return np.array([4 * (slot // 4) + suits[slot % 4] for slot in range(N_SLOTS)])


_ORDER = tuple(_canonical_order(t) for t in range(4))


def covers(rules: Rules) -> bool:
    """True for the rules the policy was trained on: two players, 36 cards, the default
    house rules, podkidnoy or perevodnoy."""
    if rules.players != 2 or rules.deck_size != 36:
        return False
    plain = dataclasses.replace(rules, mode="podkidnoy", trump_show_transfer=False)
    return plain == Rules()


def _slots(mask: int, order: np.ndarray) -> np.ndarray:
    """The 52-slot row of a card mask, in the canonical order."""
    bits = np.unpackbits(
        np.frombuffer(mask.to_bytes(_BYTES, "little"), dtype=np.uint8), bitorder="little"
    )
    return bits[:N_SLOTS][order].astype(np.float32)


def _mask(indices: list[int]) -> int:
    m = 0
    for i in indices:
        if i >= 0:
            m |= 1 << i
    return m


def encode_state(knowledge: Knowledge, game: Game) -> np.ndarray:
    """The position as the seat sees it. ``game`` is rebuilt from ``knowledge`` (its
    public fields only are read)."""
    me = knowledge.seat
    other = 1 - me
    order = _ORDER[game.trump_suit_index]
    attack = game.attack_cards
    defence = game.defence_cards
    beaten = [a for a, d in zip(attack, defence, strict=True) if d >= 0]
    unbeaten = [a for a, d in zip(attack, defence, strict=True) if d < 0]
    face_up = 1 << game.trump_card if knowledge.talon_count else 0
    planes = [
        knowledge.hand_mask,
        _mask(unbeaten),
        _mask(beaten),
        _mask(defence),
        game.discard_mask,
        knowledge.known[other],
        knowledge.unseen_mask,
        face_up,
    ]
    rows = np.concatenate([_slots(m, order) for m in planes])
    counts = knowledge.hand_counts
    unseen = knowledge.unseen_mask.bit_count()
    phase = game.phase
    scalars = np.array(
        [
            knowledge.talon_count / 24,
            counts[me] / 12,
            counts[other] / 12,
            knowledge.known[other].bit_count() / 12,
            unseen / 24,
            *(float(phase == p) for p in _PHASES),
            float(game.attacker == me),
            float(game.defender == me),
            max(0, game.bout_limit - len(attack)) / 6,
            len(unbeaten) / 6,
            float(knowledge.rules.mode == "perevodnoy"),
            float(game.bout_number == 0),
            float(bool(game.done_mask >> me & 1)),
            1.0,
        ],
        dtype=np.float32,
    )
    return np.concatenate([rows, scalars])


def encode_actions(actions: list[Action], trump_suit: int) -> np.ndarray:
    """One row per action: its kind, the cards it puts down, the card it beats."""
    order = _ORDER[trump_suit]
    out = np.zeros((len(actions), ACTION_SIZE), dtype=np.float32)
    for row, action in enumerate(actions):
        out[row, KINDS.index(action.kind)] = 1.0
        indices = action.card_indices
        if action.kind == "defend":
            beaten, played = indices
            out[row, len(KINDS) : len(KINDS) + N_SLOTS] = _slots(1 << played, order)
            out[row, len(KINDS) + N_SLOTS :] = _slots(1 << beaten, order)
        elif indices:
            out[row, len(KINDS) : len(KINDS) + N_SLOTS] = _slots(action.card_mask, order)
    return out
