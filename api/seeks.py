"""Seeks through the API: "Play now" for a program, ``POST /api/seeks`` and
``DELETE /api/seeks``.

The wishes are read by the "Play now" panel's own form (``matchmaking.forms.SeekForm``)
and the seek is made and cancelled by ``matchmaking.services``, so a program's seek is
a person's seek: the same choices, the same pairing, the same refusals (a guest's
rated seek, one seek at a time, a flood).  A bot account's seek is in the bot pool
(``matchmaking.bot_pool``), paired with other bot accounts' only; ``pool`` names it
(a person asking for it is refused with ``not_bot``, a bot account asking for the
people's with ``bot_account``).  A seek seated at a table is told on the event
stream (``game_started``).
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from api.auth import TokenAuth
from api.errors import ERRORS, ApiError
from api.models import Scope
from matchmaking.forms import SeekForm
from matchmaking.models import Seek
from matchmaking.services import cancel_seek, create_seek

router = Router(tags=["seeks"])
PLAY = TokenAuth(Scope.PLAY)

# What a seek or a challenge asks for when the body leaves a wish out: the panel's
# own first choice.
DEFAULT_WISHES: dict[str, Any] = {
    name: field.initial for name, field in SeekForm.base_fields.items()
}


class SeekIn(Schema):
    mode: str | None = None
    players: int | None = None
    deck_size: int | None = None
    speed: str | None = None
    is_rated: bool | None = None
    allow_bots: bool | None = None
    min_reliability: int | None = None
    # Left out: the account's own pool, the bot pool for a bot account.
    pool: Literal["people", "bots"] | None = None


class SeekOut(Schema):
    seek_id: int
    status: str
    match_id: int | None
    mode: str
    players: int
    deck_size: int
    speed: str
    is_rated: bool
    allow_bots: bool
    min_reliability: int
    pool: str


def valid_wishes(user: Any, asked: dict[str, Any]) -> dict[str, Any]:
    """The wishes ``asked`` (the body's, None where left out) as the "Play now" form
    cleans them; a value it would not offer answers 422 ``malformed`` naming it."""
    wishes = {**DEFAULT_WISHES, **{k: v for k, v in asked.items() if v is not None}}
    # A form reads posted strings: a box left unticked is a field not posted.
    data = {k: str(v) for k, v in wishes.items() if not isinstance(v, bool)}
    data.update({k: "on" for k, v in wishes.items() if v is True})
    form = SeekForm(data, guest=user.is_guest)
    if not form.is_valid():
        errors = [
            {"loc": ["body", name], "msg": str(messages[0])}
            for name, messages in form.errors.items()
        ]
        raise ApiError(422, "malformed", _("The request is not well formed."), errors=errors)
    return form.cleaned_data


def seek_out(seek: Seek, user: Any) -> dict[str, Any]:
    # A seek is in its account's pool: an account never changes kind while it seeks.
    pool = "bots" if user.is_bot else "people"
    return {
        "seek_id": seek.pk,
        "status": seek.status,
        "match_id": seek.match_id,
        "pool": pool,
        **seek.wishes(),
    }


@router.post("/seeks", auth=PLAY, response={201: SeekOut, **ERRORS})
def new_seek(request: HttpRequest, wishes: SeekIn) -> Status:
    """Look for a game as "Play now" does (each wish left out is the panel's first
    choice: podkidnoy, 2 players, 36 cards, normal speed, rated, bots allowed).  The
    answer's ``status`` is ``seated`` with the table's ``match_id`` when it paired at
    once, else ``waiting``: the event stream tells the game when it starts.  A bot
    account's seek is in the bot pool (``pool`` ``bots``): paired with other bot
    accounts only, never the site's bots, rated in the bots' own rating.  Refused with
    ``not_bot`` (a person asking for the bot pool), ``bot_account`` (a bot account
    asking for the people's), ``seeking`` (one seek at a time), ``rules`` (no such
    table here), ``rate_limited``, ``suspended``; a guest's seek is unrated."""
    asked = wishes.dict()
    pool = asked.pop("pool")
    bot_pool = request.auth.is_bot if pool is None else pool == "bots"
    cleaned = valid_wishes(request.auth, asked)
    seek = create_seek(request.auth, **cleaned, bot_pool=bot_pool)
    return Status(201, seek_out(seek, request.auth))


@router.delete("/seeks", auth=PLAY, response={200: SeekOut, **ERRORS})
def end_seek(request: HttpRequest) -> dict[str, Any]:
    """Stop looking for a game; refused with ``not_seeking`` when there is no waiting
    seek (it may just have been seated: the event stream tells the game)."""
    return seek_out(cancel_seek(request.auth), request.auth)
