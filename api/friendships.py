"""Friend requests through the API: ``POST /api/friends/{username}``.

Only a friend may be challenged (``matchmaking.challenges``), so a bot account that
people play needs to take their friend requests: the event stream tells each one
waiting (``friend_request``), and this endpoint answers it, through
``friends.services.request_friend``, the service behind the profile's Add friend
button (asking a player who asked you accepts).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema

from api.auth import TokenAuth
from api.errors import ERRORS, ApiError
from api.models import Scope
from friends.services import request_friend

router = Router(tags=["friends"])
PLAY = TokenAuth(Scope.PLAY)


class FriendshipOut(Schema):
    username: str
    friends: bool


@router.post("/friends/{username}", auth=PLAY, response={200: FriendshipOut, **ERRORS})
def befriend(request: HttpRequest, username: str) -> dict[str, Any]:
    """Ask ``username`` to be friends, or accept their request if they asked you
    (``friends`` says which came of it).  Refused with ``not_found`` (404), ``self``,
    ``blocked``, ``asked`` (asked already), ``rate_limited``, ``suspended``."""
    other = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if other is None:
        raise ApiError(404, "not_found", _("There is no such player."))
    friendship = request_friend(request.auth, other)
    return {"username": other.username, "friends": friendship.accepted_at is not None}
