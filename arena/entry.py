"""An arena's entry conditions: a least rating and a least number of rated games in
the arena's rating class, a least reliability, and a password (or its invite link)
for a private arena.

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
    if arena.min_reliability is not None:
        words.append(
            _("a reliability of at least %(reliability)d") % {"reliability": arena.min_reliability}
        )
    if arena.is_private:
        words.append(_("the arena's password"))
    return words


def _same_secret(given: str, kept: str) -> bool:
    """Whether ``given`` is ``kept``, compared in constant time."""
    return secrets.compare_digest((given or "").strip().encode(), kept.strip().encode())


def refuse_invite(arena: Arena, invite_token: str) -> None:
    """Raise ``Refused`` unless ``invite_token`` is the private arena's invite link's."""
    if not (arena.is_private and _same_secret(invite_token, arena.invite_token)):
        raise Refused(
            _("This invite link is wrong or no longer valid; ask for a new one."),
            status=403,
            code="invite",
        )


def refuse_entry(user: Any, arena: Arena, password: str, invite_token: str = "") -> None:
    """Raise ``Refused`` unless ``user`` meets every entry condition of ``arena``.

    At a private arena the arena's invite token (its invite link) stands for the
    password; a token given is checked instead of the password, and a wrong or old
    one is refused as such.
    """
    if arena.is_private and invite_token:
        refuse_invite(arena, invite_token)
    elif arena.is_private and not _same_secret(password, arena.password):
        raise Refused(
            _("This arena is private: the password is wrong."), status=403, code="password"
        )
    if arena.min_reliability is not None and user.reliability < arena.min_reliability:
        raise Refused(
            _("This arena asks for a reliability of at least %(least)d; yours is %(reliability)d.")
            % {"least": arena.min_reliability, "reliability": user.reliability},
            status=403,
            code="reliability",
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
