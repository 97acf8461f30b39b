"""What a puzzle page shows: the position from the solver's seat, with the opponent's
cards face up (they are known: see ``fairness_note``), and the moves in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from durak.engine import Action, Game
from games.move_words import (
    SUIT_SYMBOLS,
    describe_action,
    option_in_words,
    suggest_action,
    suit_name,
)

from .models import Puzzle, PuzzleAttempt
from .services import played_cards


@dataclass(frozen=True)
class Option:
    text: str  # engine notation: the button's value, never shown
    words: str  # the move as advice, a sentence: "Take the cards."
    cards: tuple[str, ...]

    @property
    def label(self) -> str:
        """The advice on a button, without the sentence's full stop."""
        return self.words.removesuffix(".")


def option(text: str) -> Option:
    action = Action.parse(text)
    return Option(text, suggest_action(action), action.cards)


def role_of(game: Game, seat: int) -> str:
    if game.defender == seat:
        return _("You defend.")
    if game.table_mask:
        return _("You attack: throw in or say done.")
    return _("You attack: lead.")


def goal_words(goal: str) -> str:
    if goal == Puzzle.Goal.OUT_FIRST:
        return _("Go out first: get rid of your cards while your opponent still holds some.")
    return _("Don't be the fool: do not be left holding cards at the end.")


def fairness_note(game: Game) -> str:
    if game.talon_count:
        return _(
            "Only the face-up trump is left in the talon, so every other card you cannot "
            "see is in your opponent's hand: it is shown face up."
        )
    return _(
        "The talon is empty, so every card not in your hand, on the table or in the "
        "discard pile is in your opponent's hand: it is shown face up."
    )


def reply_words(game: Game, action: Action, seat: int) -> str:
    """A move played for the player's side of the puzzle: the opponent's reply as a
    sentence, the player's own forced move as the advice it follows."""
    if action.seat == seat:
        return _("Your only move: %(move)s") % {"move": suggest_action(action)}
    return describe_action(action, {action.seat: _("Your opponent")}, view=game.view(None))


def position_after(puzzle: Puzzle, moves: list[str]) -> tuple[Game, list[str]]:
    """The position after the player's right ``moves`` and the replies to each, and the
    replies to the last of them in words."""
    game = Game.from_snapshot(puzzle.position)
    replies: list[str] = []
    step = puzzle.line
    for move in moves:
        game.apply(move)
        following = step["next"][move]
        replies = []
        for text in following["replies"]:
            action = Action.parse(text)
            replies.append(reply_words(game, action, puzzle.seat))
            game.apply(action)
        step = following["step"]
    return game, replies


def verdict(attempt: PuzzleAttempt, step: dict[str, Any], game: Game) -> dict[str, Any]:
    """The finished attempt's judgement in words: right or wrong, the move tried, why, and
    every proven answer at the decision it ended on (``step``, the position ``game``).

    The move tried is named as a choice ("take", «взять»), never as advice: an imperative
    "Take the cards." under a cross would read as the answer."""
    puzzle = attempt.puzzle
    out_first = puzzle.goal == Puzzle.Goal.OUT_FIRST
    if attempt.is_solved:
        why = (
            _("This move lets you go out first whatever your opponent does.")
            if out_first
            else _("This move keeps you from being the fool whatever your opponent does.")
        )
    else:
        why = (
            _("After this move your opponent can keep you from going out first.")
            if out_first
            else _("After this move your opponent can make you the fool, whatever you do.")
        )
    return {
        "solved": attempt.is_solved,
        "tried": option(attempt.action),
        "tried_choice": option_in_words(Action.parse(attempt.action), game.view(None)),
        "why": why,
        "answers": [option(text) for text in step["answers"]],
        # The game's own move was made at the puzzle's first decision only.
        "played": option(puzzle.played) if len(attempt.path) == 1 else None,
        "change": round(attempt.rating_change or 0),
    }


def board(attempt: PuzzleAttempt, ways: list[str], card: str) -> dict[str, Any]:
    """The template's context for one attempt: the decision it stands at (the one it
    ended on, once finished); ``ways`` are the moves the chosen ``card`` could make,
    when it could make several."""
    puzzle = attempt.puzzle
    moves = attempt.path[:-1] if attempt.is_answered else attempt.path
    game, replies = position_after(puzzle, moves)
    step = puzzle.step_after(moves)
    assert step is not None, "an attempt stands at, or ended on, a decision of the line"
    seat = puzzle.seat
    options = [option(text) for text in step["options"]]
    playable = {c for text in step["options"] for c in played_cards(Action.parse(text))}
    tried_cards = played_cards(Action.parse(attempt.action)) if attempt.is_answered else ()
    opponent = next(s for s in range(game.players) if s != seat and s not in game.out_order)
    return {
        "attempt": attempt,
        "puzzle": puzzle,
        "goal": goal_words(puzzle.goal),
        "role": role_of(game, seat),
        "fairness": fairness_note(game),
        "hand": [{"code": c, "playable": c in playable} for c in game.hand(seat)],
        "cardless": [o for o in options if not o.cards],
        "ways": [option(text) for text in ways],
        "selected": card if ways else "",
        "tried_cards": tried_cards,
        "opponent_hand": game.hand(opponent),
        "table": game.table(),
        "trump": game.trump,
        # With the talon empty the face-up trump is in a hand: only its suit is shown.
        "trump_suit": f"{SUIT_SYMBOLS[game.trump_suit]} {suit_name(game.trump_suit)}",
        "talon": game.talon_count,
        "discard": bin(game.discard_mask).count("1"),
        "moves_done": len(moves),
        "replies": replies,
        "verdict": verdict(attempt, step, game) if attempt.is_answered else None,
    }
