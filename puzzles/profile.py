"""What the puzzles app shows on a player's profile (``accounts.profile_sections``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.profile_sections import profile_section
from puzzles.models import PuzzleRating


@profile_section(40)
def puzzle_rating(request: HttpRequest, profile_user: Any) -> str:
    """The player's puzzle rating and record; nothing is stored for a mere visit."""
    context = {
        "rating": PuzzleRating.objects.filter(user=profile_user).first(),
        "own": request.user == profile_user,
    }
    return render_to_string("puzzles/profile_puzzles.html", context, request=request)
