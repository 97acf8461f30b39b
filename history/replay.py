"""Engine records of stored deals, and the per-step states of a replay.

A deal's record is rebuilt from its row and its moves by replaying them through
the engine, so a record always comes from the engine itself (``to_record``).
Per-step states are built once per deal, by one pass through the engine, and
cached: a finished deal never changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language

from durak.engine import RECORD_FORMAT, Action, Game
from games.lru import LruCache
from games.models import Deal
from games.move_words import describe_action

CACHE_VERSION = 1
CACHE_SECONDS = 60 * 60 * 24


def deal_actions(deal: Deal) -> list[str]:
    return list(deal.moves.order_by("seq").values_list("action", flat=True))


def base_record(deal: Deal, actions: list[str]) -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "rules": deal.rules,
        "deck": list(deal.deck),
        "dealer": deal.dealer,
        "first_attacker": deal.first_attacker,
        "first_attacker_by": deal.first_attacker_by,
        "actions": actions,
    }


def deal_record(deal: Deal, actions: list[str] | None = None) -> dict:
    """The deal's ``durak-record/1`` record, as the engine writes it; ValueError if it
    does not replay (a corrupted row)."""
    if actions is None:
        actions = deal_actions(deal)
    return Game.from_record(base_record(deal, actions)).to_record()


# ----------------------------------------------------------------- timeline


@dataclass
class Move:
    step: int  # the state after this move is step ``step``
    seat: int
    text: str
    bout: int
    # "beaten" or "taken" when this move ended a bout; None otherwise.
    bout_end: str | None = None
    went_out: list[int] = field(default_factory=list)
    game_over: bool = False


@dataclass
class Timeline:
    """Every state of one deal: ``games[n]`` is the engine after ``n`` moves.

    The games are shared by every request of this process and must never be
    changed; ``Game.copy()`` makes them cheap (the action history is shared).
    """

    deal_id: int
    record: dict[str, Any]
    moves: list[Move]
    games: list[Game]
    # The moves in words, per language and seat names (see moves_in_words).
    words: dict[tuple, list[str]] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.moves)

    @property
    def players(self) -> int:
        return self.games[0].players

    def game_at(self, step: int) -> Game:
        return self.games[step]


def build_timeline(deal_id: int, record: dict[str, Any]) -> Timeline:
    """Replay ``record`` once, keeping a copy of the engine after every move."""
    game = Game.from_record(dict(record, actions=[], result=None))
    games = [game.copy()]
    moves: list[Move] = []
    # Bouts are numbered from 0 by the engine's BoutStarted events.
    bout = 0
    for step, text in enumerate(record["actions"], start=1):
        try:
            events = game.apply(text)
        except ValueError as error:
            raise ValueError(f"record action {step - 1} ({text!r}): {error}") from None
        move = Move(step=step, seat=int(text.split()[0]), text=text, bout=bout)
        for event in events:
            if event.kind == "bout_beaten":
                move.bout_end = "beaten"
            elif event.kind == "cards_taken":
                move.bout_end = "taken"
            elif event.kind == "went_out":
                move.went_out.append(event.seat)
            elif event.kind == "game_over":
                move.game_over = True
            elif event.kind == "bout_started":
                bout += 1
        moves.append(move)
        games.append(game.copy())
    return Timeline(deal_id=deal_id, record=game.to_record(), moves=moves, games=games)


_memo: LruCache[int, Timeline] = LruCache(32)


def _cache_key(deal_id: int) -> str:
    return f"history:record:{CACHE_VERSION}:{deal_id}"


def timeline_for(deal: Deal) -> Timeline:
    """The timeline of a finished deal, built once per process.

    The per-process memo keeps the engine states (a step then costs one
    snapshot or one view); the shared cache keeps the deal's record, so another
    process rebuilds the states with one replay and no database work.
    """
    hit = _memo.get(deal.pk)
    if hit is not None:
        return hit
    record = cache.get(_cache_key(deal.pk))
    if record is None:
        timeline = build_timeline(deal.pk, base_record(deal, deal_actions(deal)))
        cache.set(_cache_key(deal.pk), timeline.record, CACHE_SECONDS)
    else:
        timeline = build_timeline(deal.pk, record)
    _memo.put(deal.pk, timeline)
    return timeline


def forget_timeline(deal_id: int) -> None:
    _memo.pop(deal_id)
    cache.delete(_cache_key(deal_id))


def forget_all() -> None:
    """Drop this process's memo of timelines (the shared cache keeps the records)."""
    _memo.clear()


def moves_in_words(timeline: Timeline, names: Sequence[str]) -> list[str]:
    """Every move of the deal in words, in the active language (``[k]`` is move k + 1).

    Each is worded from the state before it (a throw-in is not a lead), and the list
    is kept with the timeline: a finished deal's moves never change.
    """
    key = (get_language(), tuple(names))
    words = timeline.words.get(key)
    if words is None:
        words = [
            action_in_words(timeline, move.step - 1, Action.parse(move.text), names)
            for move in timeline.moves
        ]
        timeline.words[key] = words
    return words


def action_in_words(timeline: Timeline, step: int, action: Action, names: Sequence[str]) -> str:
    """``action`` in words, as a move made at ``step`` (played or not)."""
    view = timeline.game_at(step).view(action.seat)
    return describe_action(action, names, view=view)


def step_state(timeline: Timeline, step: int, seat: int | None = None) -> dict[str, Any]:
    """What the replay shows at ``step``: everything, or only what ``seat`` knew then."""
    game = timeline.game_at(step)
    players = game.players
    if seat is None:
        snap = game.snapshot()
        hands = [list(h) for h in snap["hands"]]
        state = {
            "seat": None,
            "hands": hands,
            "hand_counts": [len(h) for h in hands],
            "talon": list(snap["talon"]),
            "talon_count": len(snap["talon"]),
            "trump": snap["trump"],
            "table": [list(pair) for pair in snap["table"]],
            "discard": list(snap["discard"]),
            "discard_count": len(snap["discard"]),
            "attacker": snap["attacker"],
            "defender": snap["defender"],
            "out_order": list(snap["out_order"]),
            "phase": snap["phase"],
            "bout": snap["bout"],
        }
    else:
        # The engine's own view: it never holds a card the seat could not know.
        view = game.view(seat)
        hands = [view["hand"] if s == seat else None for s in range(players)]
        state = {
            "seat": seat,
            "hands": hands,
            "hand_counts": view["hand_counts"],
            "talon": None,
            "talon_count": view["talon"],
            "trump": view["trump"],
            "table": view["table"],
            "discard": None,
            "discard_count": view["discard"],
            "attacker": view["attacker"],
            "defender": view["defender"],
            "out_order": view["out_order"],
            "phase": view["phase"],
            "bout": view["bout"],
        }
    if state["phase"] == "over":
        state["attacker"] = state["defender"] = None
    return state
