"""Fast policies that play on a full ``Game`` (a determinized one inside the bots).

They read the engine's state through its mask-level read API (``hand_mask``,
``unbeaten_mask``...), because the search runs them thousands of times per move. Every policy here looks only at the acting seat's own hand and at public
facts (table, counts, talon size, discard pile), so running one on a determinized game
decides exactly as it would on the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from durak.engine import (
    BEATERS,
    BIT,
    DECK_MASK,
    RANK_MASK,
    SUIT_MASK,
    Action,
    Game,
    defend_action,
    take_action,
)

Policy = Callable[[Game, int, list[Action], random.Random], Action]

RANK_T, RANK_Q = 8, 10
# Every queen, king and ace.
QUEEN_OR_HIGHER = sum(RANK_MASK[r] for r in range(RANK_Q, 13))
TRUMP_THROW_TALON = 4


def decider(g: Game) -> int | None:
    """Whose decision it is among the seats the engine says may act (``to_act``): the
    leader, the defender while cards are unbeaten, else the principal attacker first and
    the other attackers in seat order after it.
    """
    # The first two are the engine's turn rules read off the state (``to_act`` lists just
    # the leader when leading, and the defender among others while cards are unbeaten):
    # most decisions are these, and they need no list of turns.
    ph = g.phase
    if ph == "attack":
        return g.attacker
    if ph == "defend" and g.unbeaten_mask:
        return g.defender
    turns = g.to_act()
    if len(turns) < 2:
        return turns[0] if turns else None
    att = g.attacker
    later = None
    for t in turns:
        if t.role == "defend":
            return t
        if later is None and t >= att:
            later = t
    return turns[0] if later is None else later


def legal(g: Game, seat: int) -> list[Action]:
    return g.legal_actions(seat)


def value(card: int, tsuit: int) -> int:
    """Card strength for ordering: rank, with every trump above every plain card."""
    return (card >> 2) + (13 if card & 3 == tsuit else 0)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _cheapest(mask: int, tsuit: int) -> int:
    """The card of least ``value`` in ``mask`` (on a tie the lowest index), -1 if none.

    Every plain card is worth less than every trump, and among plain cards (or among
    trumps) a lower index is never worth more: so it is the lowest plain card, else the
    lowest trump.
    """
    pick = mask & ~SUIT_MASK[tsuit] or mask
    return (pick & -pick).bit_length() - 1


def _swap(g: Game, seat: int, acts: list[Action]) -> Action | None:
    """The trump-six swap among ``acts``, if any. Only the six's holder may ever swap,
    so the list is searched only then."""
    if not g.trump_six or g.trump_six_holder != seat:
        return None
    for a in acts:
        if a.kind == "swap":
            return a
    return None


# ---------------------------------------------------------------- random / easy


def random_move(g: Game, seat: int, acts: list[Action], rng: random.Random) -> Action:
    return acts[rng.randrange(len(acts))]


def easy_move(g: Game, seat: int, acts: list[Action], rng: random.Random) -> Action:
    """Cheapest legal card; takes only when nothing beats; throws in plain cards only."""
    if len(acts) == 1:
        return acts[0]
    sw = _swap(g, seat, acts)
    if sw is not None:
        return sw
    ts = g.trump_suit_index
    ph = g.phase
    if ph == "attack":
        singles = [a for a in acts if a.kind == "attack" and len(a.card_indices) == 1]
        return min(singles, key=lambda a: value(a.card_indices[0], ts))
    if seat == g.defender:
        defs = [a for a in acts if a.kind == "defend"]
        if defs:
            return min(
                defs, key=lambda a: (value(a.card_indices[1], ts), -value(a.card_indices[0], ts))
            )
        for a in acts:
            if a.kind == "take":
                return a
        return acts[0]
    throws = [
        a
        for a in acts
        if a.kind == "attack" and len(a.card_indices) == 1 and a.card_indices[0] & 3 != ts
    ]
    if throws:
        return min(throws, key=lambda a: value(a.card_indices[0], ts))
    for a in acts:
        if a.kind == "done":
            return a
    return min(acts, key=lambda a: sum(value(c, ts) for c in a.card_indices))


# ---------------------------------------------------------------------- medium


def medium_move(g: Game, seat: int, acts: list[Action], rng: random.Random) -> Action:
    """Hand-tuned play: save trumps and high cards, shed low cards, transfer when cheap."""
    if len(acts) == 1:
        return acts[0]
    sw = _swap(g, seat, acts)
    if sw is not None:
        return sw
    ph = g.phase
    if ph == "attack":
        return _lead(g, seat, acts)
    if seat == g.defender:
        return _defend(g, seat, acts)
    return _throw(g, seat, acts)


def _outstanding(g: Game, seat: int) -> int:
    """Cards this seat has not seen leave play: other hands and the talon."""
    return DECK_MASK[g.rules.deck_size] & ~g.discard_mask & ~g.hand_mask(seat) & ~g.table_mask


def _lead(g: Game, seat: int, acts: list[Action]) -> Action:
    ts = g.trump_suit_index
    trumps = SUIT_MASK[ts]
    hand = g.hand_mask(seat)
    talon = g.talon_count
    # Leading, the seat's actions are attacks and a swap, and a swap was played already.
    by_mask = {a.card_mask: a for a in acts}
    plain = hand & ~trumps
    if plain:
        if talon == 0:
            # Endgame: a plain card nobody can beat (no higher card of its suit and no
            # trump left outside this hand) forces the defender to take.
            out = _outstanding(g, seat)
            if not out & trumps:
                for c in _bits(plain):
                    higher = out & SUIT_MASK[c & 3] & ~((BIT[c] << 1) - 1)
                    if not higher and BIT[c] in by_mask:
                        return by_mask[BIT[c]]
        low = plain & -plain
        c = low.bit_length() - 1
        r = c >> 2
        group = plain & RANK_MASK[r]
        if r <= RANK_T or talon <= 6:
            # A pair of low cards is hard to defend and sheds two at once.
            a = by_mask.get(group)
            if a is not None:
                return a
        return by_mask[low]
    low = hand & -hand
    return by_mask[low]


def _defend(g: Game, seat: int, acts: list[Action]) -> Action:
    ts = g.trump_suit_index
    trumps = SUIT_MASK[ts]
    hand = g.hand_mask(seat)
    talon = g.talon_count
    beat = BEATERS[ts]
    # A defender with more than one action faces unbeaten cards, so may always take;
    # transfers and shows exist only in perevodnoy, so only there is the list searched.
    take = take_action(seat)
    transfers = []
    if g.rules.mode == "perevodnoy":
        transfers = [a for a in acts if a.kind in ("transfer", "show")]
    for a in transfers:
        if a.kind == "show":
            # Showing costs nothing: the trump stays in hand.
            return a
    unbeaten = g.unbeaten_mask
    if unbeaten & (unbeaten - 1):  # the strongest attack card is beaten first
        attack = sorted(_bits(unbeaten), key=lambda c: -value(c, ts))
    else:
        attack = [unbeaten.bit_length() - 1]
    used = 0
    plan: list[tuple[int, int]] = []
    for a in attack:
        cand = hand & ~used & beat[a]
        if not cand:
            plan = []
            break
        b = _cheapest(cand, ts)
        used |= BIT[b]
        plan.append((a, b))
    cheap_transfer = None
    if transfers:
        cheap_transfer = min(
            transfers,
            key=lambda a: (len(a.card_indices), sum(value(c, ts) for c in a.card_indices)),
        )
    if not plan:
        if cheap_transfer is not None:
            return cheap_transfer
        return take
    used_trumps = used & trumps
    high_used = used & QUEEN_OR_HIGHER
    if (
        cheap_transfer is not None
        and not cheap_transfer.card_mask & trumps
        and (used_trumps or high_used)
    ):
        return cheap_transfer
    # A queen or higher trump is worth more than taking a few cards while the talon is
    # long. (Taking low cards to save any trump was tried too, and lost more games.)
    if talon >= 6 and used_trumps & QUEEN_OR_HIGHER and g.table_mask.bit_count() <= 3:
        return take
    a, b = plan[0]
    return defend_action(seat, a, b)


def _throw(g: Game, seat: int, acts: list[Action]) -> Action:
    # Tuned against ``easy`` in self-play: shedding every plain card that fits beats
    # holding high ones back, and once the talon is nearly gone trumps go too (a card
    # the defender must beat or take hurts most when nobody can refill).
    ts = g.trump_suit_index
    trumps = SUIT_MASK[ts]
    talon = g.talon_count
    done = None
    throws = []
    for a in acts:
        if a.kind == "attack":
            throws.append(a)
        elif a.kind == "done":
            done = a
    if not throws:
        return done if done is not None else acts[0]
    trumps_ok = talon <= TRUMP_THROW_TALON
    good = [a for a in throws if trumps_ok or not a.card_mask & trumps]
    if not good:
        return done if done is not None else min(throws, key=lambda a: value(a.card_indices[0], ts))
    return min(good, key=lambda a: (-len(a.card_indices), value(a.card_indices[0], ts)))


POLICIES: dict[str, Policy] = {"random": random_move, "easy": easy_move, "medium": medium_move}


# With the talon empty, three or more players can go round taking each other's cards
# for ever (each bout's defender takes, and the same cards come back): a playout is cut
# off unfinished after this many actions, and a search's walk down its tree too.
MAX_PLAYOUT_STEPS = 2000


def playout(g: Game, policy: Policy, rng: random.Random, max_steps: int = MAX_PLAYOUT_STEPS) -> int:
    """Play ``g`` to the end in place, every seat following ``policy``, for at most
    ``max_steps`` actions; the actions played."""
    steps = 0
    legal_actions = g.legal_actions
    apply_legal = g.apply_legal
    while not g.is_over and steps < max_steps:
        s = decider(g)
        if s is None:
            break
        acts = legal_actions(s)
        apply_legal(policy(g, s, acts, rng) if len(acts) > 1 else acts[0])
        steps += 1
    return steps


def not_fool(g: Game, seat: int) -> float:
    """The seat's score in a finished game: 1.0 unless it (or its team) is the fool.

    With ``one_winner`` nobody is the fool, so the score is 1.0 for the winner only.
    """
    r = g.outcome  # the result as it is kept; read only, so no copy is needed
    if r is None:
        return 0.5
    if g.rules.one_winner:
        return 1.0 if r["winner"] == seat or r["draw"] else 0.0
    team = g.team_of(seat)
    if team is not None:
        return 0.0 if r["fool_team"] == team else 1.0
    return 0.0 if r["fool"] == seat else 1.0
