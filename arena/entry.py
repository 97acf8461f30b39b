"""An arena's entry conditions: a least rating and a least number of rated games in
the arena's rating class, and a password for a private arena.

``refuse_entry`` runs inside ``services.join`` before anything is written: the first
condition a player does not meet refuses them with a message saying what it asks and
where they stand.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from games.services import Refused
from history import glicko2
from history.models import Rating, RatingClass
from history.services import rating_class_for

from .models import Arena


def rating_class_of(arena: Arena) -> str:
    """The rating class of the arena's games: its tables' size and the variant's teams."""
    return rating_class_for(
        {"players": arena.players_per_table, "teams": arena.variant.teams or None}
    )


def standing_of(user: Any, arena: Arena) -> tuple[int, int]:
    """(rating, rated games) of ``user`` in the arena's rating class; a player never
    rated there has Glicko-2's starting rating and no games."""
    row = (
        Rating.objects.filter(user=user, rating_class=rating_class_of(arena))
        .values_list("rating", "games")
        .first()
    )
    if row is None:
        return round(glicko2.DEFAULT_RATING), 0
    return round(row[0]), row[1]


def conditions_of(arena: Arena) -> list[str]:
    """The arena's conditions in words, for its page: empty when anyone may join."""
    words = []
    label = RatingClass(rating_class_of(arena)).label
    if arena.min_rating is not None:
        words.append(
            _("a rating of at least %(rating)d (%(class)s)")
            % {"rating": arena.min_rating, "class": label}
        )
    if arena.min_rated_games:
        words.append(
            _("at least %(games)d rated games (%(class)s)")
            % {"games": arena.min_rated_games, "class": label}
        )
    if arena.is_private:
        words.append(_("the arena's password"))
    return words


def refuse_entry(user: Any, arena: Arena, password: str) -> None:
    """Raise ``Refused`` unless ``user`` meets every entry condition of ``arena``."""
    if arena.is_private and not secrets.compare_digest(
        (password or "").strip().encode(), arena.password.strip().encode()
    ):
        raise Refused(
            _("This arena is private: the password is wrong."), status=403, code="password"
        )
    if arena.min_rating is None and not arena.min_rated_games:
        return
    rating, games = standing_of(user, arena)
    label = RatingClass(rating_class_of(arena)).label
    if arena.min_rating is not None and rating < arena.min_rating:
        raise Refused(
            _(
                "This arena asks for a rating of at least %(least)d (%(class)s); "
                "yours is %(rating)d."
            )
            % {"least": arena.min_rating, "class": label, "rating": rating},
            status=403,
            code="rating",
        )
    if games < arena.min_rated_games:
        raise Refused(
            _(
                "This arena asks for at least %(least)d rated games (%(class)s); "
                "you have played %(games)d."
            )
            % {"least": arena.min_rated_games, "class": label, "games": games},
            status=403,
            code="rated_games",
        )


def ratings_of(arena: Arena, user_ids: list[int]) -> dict[str, int]:
    """Each player's rating in the arena's rating class (Glicko-2's start for one never
    rated there), keyed by user id as text: what an arena game stores when seated."""
    stored = dict(
        Rating.objects.filter(
            user_id__in=user_ids, rating_class=rating_class_of(arena)
        ).values_list("user_id", "rating")
    )
    return {
        str(user_id): round(stored.get(user_id, glicko2.DEFAULT_RATING)) for user_id in user_ids
    }
