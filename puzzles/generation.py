"""Finding puzzles in finished deals and seeding them from bot games (task worker and
management commands only: the solver never runs in a web process)."""

from __future__ import annotations

import hashlib
import json
import random

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from analysis.models import DealAnalysis
from durak.bots import MISTAKE_POINTS, FoundPuzzle, fast, find_puzzles
from durak.bots import choose as bot_choose
from durak.engine import Action, Game
from games.models import Deal
from history import glicko2
from history.replay import deal_record
from history.seeding import play_match

from .models import Puzzle, PuzzleScan
from .sources import source_deals

# A new puzzle's rating before anyone tried it: harder (more losing moves) starts
# higher, within this many points either side of the default, with a wide RD.
PRIOR_SPREAD = 300.0
PRIOR_RD = 300.0
SEED_LEVEL = "medium"
SEED_VARIANT = "classic"
SEED_CREATOR = "puzzle_seeder"


def swing_moves(deal: Deal) -> list[int]:
    """The moves the deal's stored analysis judged a big loss (none without one)."""
    analysis = DealAnalysis.objects.filter(deal=deal, status=DealAnalysis.Status.DONE).first()
    if analysis is None or not analysis.result:
        return []
    return [
        d["move"]
        for d in analysis.result.get("decisions", [])
        if d.get("loss", 0) >= MISTAKE_POINTS
    ]


def position_hash(found: FoundPuzzle) -> str:
    game = Game.from_snapshot(found.snapshot)
    key = [game.rules.to_dict(), repr(game.position_key()), found.seat, found.goal]
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def prior_rating(found: FoundPuzzle) -> float:
    return glicko2.DEFAULT_RATING + PRIOR_SPREAD * (2 * found.losing_share - 1)


def generate_for_deal(deal_id: int) -> int:
    """Store the puzzles of one finished deal of a public table (``sources``), once per
    deal; how many were new.

    The scan row and the puzzles commit together, so a search that fails leaves the
    deal to be searched again; two runs at once both search, and one stores.
    """
    deal = source_deals().filter(pk=deal_id).first()
    if deal is None or PuzzleScan.objects.filter(deal=deal).exists():
        return 0
    found = find_puzzles(deal_record(deal), swing_moves(deal))
    created = 0
    try:
        with transaction.atomic():
            scan = PuzzleScan.objects.create(deal=deal)
            for puzzle in found:
                created += _store(deal, puzzle)
            scan.found = created
            scan.save(update_fields=["found"])
    except IntegrityError:  # The other run stored this deal's scan first.
        return 0
    return created


def generate_at_swings(deal_id: int) -> int:
    """Store the puzzles at the big swings of the deal's stored analysis (run when the
    analysis is done, usually long after the deal's own search); how many were new."""
    deal = source_deals().filter(pk=deal_id).first()
    swings = swing_moves(deal) if deal is not None else []
    if not swings:
        return 0
    found = find_puzzles(deal_record(deal), swings, per_deal=0)
    return sum(_store(deal, puzzle) for puzzle in found)


def _store(deal: Deal, puzzle: FoundPuzzle) -> int:
    """1 if the puzzle was new, 0 if its position is stored already."""
    digest = position_hash(puzzle)
    try:
        with transaction.atomic():
            _, created = Puzzle.objects.get_or_create(
                position_hash=digest,
                defaults={
                    "deal": deal,
                    "move": puzzle.move,
                    "seat": puzzle.seat,
                    "goal": puzzle.goal,
                    "position": puzzle.snapshot,
                    "answers": list(puzzle.answers),
                    "options": list(puzzle.options),
                    "line": puzzle.line,
                    "player_moves": puzzle.player_moves,
                    "played": puzzle.played,
                    "from_swing": puzzle.swing,
                    "rating": prior_rating(puzzle),
                    "rd": PRIOR_RD,
                },
            )
    except IntegrityError:  # Another deal's search stored the same position meanwhile.
        return 0
    return int(created)


def bot_move(game: Game, rng: random.Random) -> Action:
    """The seeding bot's move for the seat deciding now, from that seat's knowledge."""
    seat = fast.decider(game)
    assert seat is not None, "a game that is not over has a seat to decide"
    action = bot_choose(SEED_LEVEL, game.knowledge(seat), rng)
    assert action is not None, "the deciding seat's bot always moves"
    return action


def seed_puzzles(games: int, seed: int = 0) -> tuple[int, int]:
    """Play ``games`` two-player games between medium bots, store them as unrated bot
    tables, and find their puzzles; ``(deals played, puzzles stored)``."""
    creator, _ = get_user_model().objects.get_or_create(
        username=SEED_CREATOR, defaults={"is_active": False}
    )
    rng = random.Random(seed)
    stored = 0
    for _ in range(games):
        match = play_match(
            [SEED_LEVEL, SEED_LEVEL],
            SEED_VARIANT,
            seed=rng.randrange(1 << 30),
            is_rated=False,
            creator=creator,
            choose=bot_move,
        )
        for deal_id in match.deals.values_list("pk", flat=True):
            stored += generate_for_deal(deal_id)
    return games, stored
