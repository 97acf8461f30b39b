"""Checks shared by the scale tests: where every card is, gap-free moves, replayable state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from durak.engine import Game, deck_codes
from games.models import Deal, Match, Move


def assert_every_card_in_one_place(state: dict[str, Any]) -> None:
    """Hands, talon, table and discard hold each card of the deck exactly once."""
    places: list[str] = []
    for hand in state["hands"]:
        places += hand
    places += state["talon"]
    for attack, defence in state["table"]:
        places.append(attack)
        if defence is not None:
            places.append(defence)
    places += state["discard"]
    counts = Counter(places)
    twice = sorted(code for code, n in counts.items() if n > 1)
    assert not twice, f"cards in two places: {twice}"
    deck = set(deck_codes(state["rules"]["deck_size"]))
    assert set(counts) == deck, (
        f"missing {sorted(deck - set(counts))}, extra {sorted(set(counts) - deck)}"
    )


def assert_moves_gap_free(match_id: int) -> list[Move]:
    """Move.seq runs 1..N with no gap or repeat, and N is the match's move count."""
    moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
    seqs = [m.seq for m in moves]
    assert seqs == list(range(1, len(moves) + 1)), f"seqs {seqs}"
    match = Match.objects.get(pk=match_id)
    counted = getattr(match, "move_count", None)
    if counted is not None:
        assert counted == len(moves)
    return moves


def replayed(deal: Deal) -> Game:
    """The deal rebuilt from its stored deck, rules, dealer, first attacker and moves."""
    actions = list(deal.moves.order_by("seq").values_list("action", flat=True))
    record = {
        "format": "durak-record/1",
        "rules": deal.rules,
        "deck": deal.deck,
        "dealer": deal.dealer,
        "first_attacker": deal.first_attacker,
        "first_attacker_by": deal.first_attacker_by,
        "actions": actions,
    }
    return Game.from_record(record)


def assert_snapshot_is_replay(match: Match) -> None:
    """The stored engine snapshot equals the engine replayed from the Deal and its Moves."""
    if match.state is None:
        return
    deal = match.deals.order_by("-number").first()
    assert deal is not None
    replay = replayed(deal).snapshot()
    assert match.state == replay, _first_difference(match.state, replay)


def _first_difference(stored: dict[str, Any], replay: dict[str, Any]) -> str:
    for key in sorted(set(stored) | set(replay)):
        if stored.get(key) != replay.get(key):
            return f"snapshot differs at {key!r}: stored {stored.get(key)!r}, replay {replay.get(key)!r}"
    return "snapshots differ"


def hidden_from(state: dict[str, Any], seat: int | None) -> set[str]:
    """Card codes ``seat`` must not see now: other hands (except cards shown), the talon.

    The face-up trump is public wherever it lies; cards on the table are public;
    a card a seat once showed (lowest trump, trump-show transfer, picked-up table
    cards) is in ``known`` and may be shown to everyone.
    """
    public = {state["trump"]}
    for attack, defence in state["table"]:
        public.add(attack)
        if defence is not None:
            public.add(defence)
    for known in state["known"]:
        public.update(known)
    hidden: set[str] = set()
    for number, hand in enumerate(state["hands"]):
        if number != seat:
            hidden.update(hand)
    hidden.update(state["talon"])
    return hidden - public
