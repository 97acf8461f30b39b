"""Puzzle pages: thin over ``services`` (attempts, ratings) and ``board`` (what to show)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from . import board, services
from .models import PuzzleAttempt


@login_required
@require_GET
def next_puzzle(request: HttpRequest) -> HttpResponse:
    """The player's open puzzle, or a new one near their puzzle rating."""
    attempt = services.open_attempt(request.user)
    if attempt is None:
        rating = services.rating_of(request.user)
        return render(request, "puzzles/none.html", {"rating": rating})
    return redirect("puzzles:attempt", attempt.puzzle_id, attempt.pk)


@login_required
@require_GET
def puzzle(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """A puzzle's own address, as shared: the player's attempt at it."""
    try:
        attempt = services.attempt_at(request.user, puzzle_id)
    except services.Refused as refused:
        return render(
            request, "puzzles/refused.html", {"message": str(refused)}, status=refused.status
        )
    return redirect("puzzles:attempt", puzzle_id, attempt.pk)


@login_required
@require_http_methods(["GET", "POST"])
def attempt(request: HttpRequest, puzzle_id: int, attempt_id: int) -> HttpResponse:
    """Show the puzzle (GET) or play in it (POST): a ``card`` from the hand, played at
    once when it makes one move, else the moves it makes are offered; or an ``action``."""
    ways: list[str] = []
    if request.method == "POST":
        text, card = request.POST.get("action", ""), request.POST.get("card", "")
        try:
            if card and not text:
                ways = services.card_moves(request.user, puzzle_id, attempt_id, card)
                if len(ways) == 1:
                    text, ways = ways[0], []
            if not ways:
                services.answer(request.user, puzzle_id, attempt_id, text)
        except services.Refused as refused:
            template = "puzzles/refused.html" + ("#refusal" if request.htmx else "")
            return render(request, template, {"message": str(refused)}, status=refused.status)
        if not request.htmx and not ways:
            return redirect("puzzles:attempt", puzzle_id, attempt_id)
    row = (
        PuzzleAttempt.objects.select_related("puzzle")
        .filter(pk=attempt_id, puzzle_id=puzzle_id, user=request.user)
        .first()
    )
    if row is None:
        raise Http404(_("You have no such puzzle attempt."))
    context = {
        **board.board(row, ways, request.POST.get("card", "")),
        "rating": services.rating_of(request.user),
    }
    template = "puzzles/puzzle.html"
    if request.htmx:
        template += "#puzzle-body"
    return render(request, template, context)
