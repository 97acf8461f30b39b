"""What the replay page shows of a deal's analysis: the review panel and the step note.

The replay view calls these; they read the stored analysis and never run one.
A seat view ("what X knew") shows only what that seat could know: the graph's
tooltips name no move, and only that seat's own decisions are explained.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.urls import reverse

from durak.engine import Action
from games.models import Deal, Match
from games.move_words import option_in_words
from history.move_list import MoveMark
from history.replay import Timeline, action_in_words, moves_in_words

from . import services
from .graph import evaluation_graph
from .models import DealAnalysis
from .review import Judged, Review, build_review, is_current


def stored_review(deal: Deal, names: Sequence[str]) -> tuple[DealAnalysis | None, Review | None]:
    row = DealAnalysis.objects.filter(deal=deal).first()
    if row is None or row.status != DealAnalysis.Status.DONE:
        return row, None
    return row, build_review(row.result, names)


def _outdated(row: DealAnalysis) -> bool:
    """A finished analysis of an older format (see ``review.is_current``)."""
    return row.status == DealAnalysis.Status.DONE and not is_current(row.result)


# How many of a decision's moves the review lists, best first (the one played is added).
OPTIONS_SHOWN = 3


def move_marks(review: Review | None, timeline: Timeline, seat: int | None) -> dict[int, MoveMark]:
    """The mark of each judged move in the move list, by the replay step it leads to,
    with the better move in words.  A seat view names only that seat's better moves:
    another seat's would show cards it could not see."""
    if review is None:
        return {}
    return {
        d.move + 1: MoveMark(
            d.judgement,  # type: ignore[arg-type]
            d.symbol,
            d.label,
            option_in_words(d.best, timeline.game_at(d.step).view(d.seat))
            if seat is None or d.seat == seat
            else "",
        )
        for d in review.judged
    }


def step_options(
    review: Review | None, timeline: Timeline, step: int, seat: int | None
) -> list[dict[str, Any]]:
    """The moves of the decision taken at ``step``, best first, each with the chance of
    not being the fool it keeps (the one played always among them); [] without one."""
    decision = review.decision_at(step) if review is not None else None
    if decision is None or (seat is not None and decision.seat != seat):
        return []
    view = timeline.game_at(step).view(decision.seat)
    ranked = decision.ranked()
    shown = ranked[:OPTIONS_SHOWN]
    played = next((move for move in ranked if move[0] == decision.action), None)
    if played is not None and played not in shown:
        shown.append(played)
    return [
        {
            "words": option_in_words(action, view),
            "value": value,
            "is_played": action == decision.action,
            "is_best": value >= decision.before,
        }
        for action, value in shown
    ]


def step_chances(
    review: Review | None, step: int, seat: int | None, names: Sequence[str]
) -> list[dict[str, Any]]:
    """Each seat's chance of not being the fool at ``step`` (a seat view: that seat's)."""
    if review is None or not 0 <= step < len(review.chances):
        return []
    return [
        {"seat": number, "name": names[number], "value": value}
        for number, value in enumerate(review.chances[step])
        if seat is None or number == seat
    ]


def step_note(
    review: Review | None,
    timeline: Timeline,
    step: int,
    seat: int | None,
    names: Sequence[str],
    url: Callable[[int], str],
) -> dict[str, Any] | None:
    """The judged decision taken at ``step`` (shown with both moves highlighted), or the
    judgement of the move that led to ``step``."""
    if review is None:
        return None
    for decision, is_here in ((review.at_step(step), True), (review.at_step(step - 1), False)):
        if decision is None or (seat is not None and decision.seat != seat):
            continue
        return {
            "decision": decision,
            "is_here": is_here,
            "name": names[decision.seat],
            "played": action_in_words(timeline, decision.step, decision.action, names),
            "best": action_in_words(timeline, decision.step, decision.best, names),
            "played_cards": " ".join(hand_cards(decision.action)),
            "best_cards": " ".join(hand_cards(decision.best)),
            "loss": decision.loss,
            "decision_url": url(decision.step),
            "move_url": url(decision.step + 1),
        }
    return None


def hand_cards(action: Action) -> tuple[str, ...]:
    """The cards an action takes from the hand."""
    # A defence names the attack card first; the card that left the hand is the second.
    return action.cards[1:] if action.kind == "defend" else action.cards


def review_panel(
    match: Match,
    deal: Deal,
    row: DealAnalysis | None,
    review: Review | None,
    *,
    names: Sequence[str],
    timeline: Timeline,
    url: Callable[[int], str],
    step: int,
    seat: int | None,
    own_seat: int | None,
) -> dict[str, Any]:
    """The context of ``analysis/review.html``; ``own_seat`` is the viewer's seat, if any."""
    context: dict[str, Any] = {
        "match": match,
        "deal": deal,
        "analysis": row,
        "review": review,
        "seat_view": seat,
        "can_start": deal.status == Deal.Status.FINISHED
        and (row is None or row.status == DealAnalysis.Status.FAILED or _outdated(row)),
        "ahead": services.queue_position(row)
        if row is not None and row.status == DealAnalysis.Status.QUEUED
        else 0,
    }
    if row is not None and row.status == DealAnalysis.Status.QUEUED:
        wait = services.expected_wait_seconds(context["ahead"])
        context["wait_minutes"] = None if wait is None else max(1, -(-wait // 60))
    if review is None:
        return context
    # A seat view names no move: the graph spans the whole deal, future moves included.
    words = moves_in_words(timeline, names) if seat is None else ["" for _ in timeline.moves]
    context["graph"] = evaluation_graph(review, names, words, url, step)
    context["legend"] = [(s, names[s]) for s in range(len(review.chances[0]))]
    context["judged"] = [
        _judged_row(d, timeline, names, url)
        for d in review.judged
        if seat is None or d.seat == seat
    ]
    if own_seat is not None and review.mistakes_of(own_seat):
        context["learn_url"] = reverse("analysis:learn", args=[match.pk, deal.number])
        context["learn_count"] = len(review.mistakes_of(own_seat))
    return context


def _judged_row(
    decision: Judged, timeline: Timeline, names: Sequence[str], url: Callable[[int], str]
) -> dict:
    return {
        "decision": decision,
        "name": names[decision.seat],
        "played": action_in_words(timeline, decision.step, decision.action, names),
        "best": action_in_words(timeline, decision.step, decision.best, names),
        "url": url(decision.step),
    }
