"""Choosing a player's next puzzle and judging an answer: the one place that writes
attempts and puzzle ratings (a view only calls these)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Abs
from django.utils import timezone
from django.utils.translation import gettext as _

from durak.engine import Action
from games.services import Refused
from history import glicko2

from .models import Puzzle, PuzzleAttempt, PuzzleRating

# The next puzzle is drawn at random among the unsolved ones this close to the
# player's puzzle rating; with none that close, the nearest one.
NEAR = 150.0
NEAREST_FEW = 5


def rating_of(user: Any) -> PuzzleRating:
    row, _ = PuzzleRating.objects.get_or_create(user=user)
    return row


def open_attempt(user: Any) -> PuzzleAttempt | None:
    """The player's unanswered attempt, or a new one at a puzzle near their rating
    (None when they have tried every puzzle there is).

    An unanswered attempt is shown again until answered, so reloading the page never
    skips a hard puzzle for free.
    """
    with transaction.atomic():
        rating = PuzzleRating.objects.select_for_update().get(pk=rating_of(user).pk)
        waiting = PuzzleAttempt.objects.filter(user=user, answered_at__isnull=True).first()
        if waiting is not None:
            return waiting
        untried = Puzzle.objects.exclude(attempt_rows__user=user)
        near = untried.filter(
            rating__gte=rating.rating - NEAR, rating__lte=rating.rating + NEAR
        ).order_by("?")
        puzzle = near.first() or (
            untried.annotate(distance=Abs(F("rating") - rating.rating))
            .order_by("distance")[:NEAREST_FEW]
            .first()
        )
        if puzzle is None:
            return None
        return PuzzleAttempt.objects.create(user=user, puzzle=puzzle)


def attempt_at(user: Any, puzzle_id: int) -> PuzzleAttempt:
    """The player's attempt at this puzzle, opened now if they have none: a puzzle
    someone shared is tried as any other, once, and counts for the puzzle rating."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise Refused(_("There is no such puzzle."), status=404)
    attempt, _created = PuzzleAttempt.objects.get_or_create(user=user, puzzle=puzzle)
    return attempt


def _open_attempt(user: Any, puzzle_id: int, attempt_id: int, *, lock: bool) -> PuzzleAttempt:
    """The player's unfinished attempt at ``puzzle_id``; Refused otherwise."""
    rows = PuzzleAttempt.objects.select_related("puzzle")
    if lock:
        rows = rows.select_for_update()
    attempt = rows.filter(pk=attempt_id, user=user).first()
    if attempt is None:
        raise Refused(_("You have no such puzzle attempt."), status=404)
    if attempt.puzzle_id != puzzle_id:
        raise Refused(_("That attempt is for another puzzle."), status=400)
    if attempt.is_answered:
        raise Refused(_("You have already answered this puzzle."), status=409)
    return attempt


def card_moves(user: Any, puzzle_id: int, attempt_id: int, card: str) -> list[str]:
    """The moves at the attempt's current decision that play ``card`` from the hand (a
    defence by its beating card, an attack or transfer by any of its cards), as at the
    table; Refused, as ``answer`` refuses, or for a card with no move."""
    attempt = _open_attempt(user, puzzle_id, attempt_id, lock=False)
    step = attempt.puzzle.step_after(attempt.path)
    assert step is not None, "an open attempt stands at a decision of the line"
    moves = [text for text in step["options"] if card in played_cards(Action.parse(text))]
    if not moves:
        raise Refused(_("That card cannot be played now."), status=400)
    return moves


def played_cards(action: Action) -> tuple[str, ...]:
    """The cards of the hand a move plays: a defence plays only its beating card."""
    return action.cards[1:] if action.kind == "defend" else action.cards


def answer(user: Any, puzzle_id: int, attempt_id: int, text: str) -> PuzzleAttempt:
    """Judge the player's move ``text`` (engine notation, from the page's buttons) at
    their attempt's current decision.

    A right move with more of the line after it leaves the attempt open at the next
    decision; a wrong move, or a right one that ends the line, finishes it and rates
    both sides.  Refused, changing nothing, for an attempt that is not theirs, is for
    another puzzle or is finished, or a move not legal at that decision.
    """
    with transaction.atomic():
        attempt = _open_attempt(user, puzzle_id, attempt_id, lock=True)
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        step = puzzle.step_after(attempt.path)
        assert step is not None, "an open attempt stands at a decision of the line"
        try:
            move = str(Action.parse(text))
        except ValueError:
            raise Refused(_("That is not a move."), status=400) from None
        if move not in step["options"]:
            raise Refused(_("That move is not possible in this position."), status=400)
        attempt.path = [*attempt.path, move]
        solved = move in step["answers"]
        if solved and step["next"][move]["step"] is not None:
            attempt.save(update_fields=["path"])
            return attempt
        _finish(attempt, puzzle, move, solved)
    return attempt


def _finish(attempt: PuzzleAttempt, puzzle: Puzzle, move: str, solved: bool) -> None:
    rating = PuzzleRating.objects.select_for_update().get(pk=rating_of(attempt.user).pk)
    player_before, puzzle_before = rating.player, puzzle.player
    player_after = glicko2.rate(
        player_before,
        [glicko2.Outcome(puzzle_before, 1.0 if solved else 0.0)],
        min_rd=glicko2.MIN_RD,
    )
    puzzle_after = glicko2.rate(
        puzzle_before,
        [glicko2.Outcome(player_before, 0.0 if solved else 1.0)],
        min_rd=glicko2.MIN_RD,
    )
    attempt.answered_at = timezone.now()
    attempt.action = move
    attempt.is_solved = solved
    attempt.rating_before = player_before.rating
    attempt.rating_after = player_after.rating
    attempt.puzzle_rating_before = puzzle_before.rating
    attempt.puzzle_rating_after = puzzle_after.rating
    attempt.save()
    _store(rating, player_after, solved)
    _store(puzzle, puzzle_after, solved)


def _store(row: PuzzleRating | Puzzle, after: glicko2.Player, solved: bool) -> None:
    row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
    row.attempts += 1
    row.solved += int(solved)
    row.save()
