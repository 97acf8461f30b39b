"""The JSON API under ``/api/``: thin operations over the service layer.

Every change goes through ``games.services`` (and ``matchmaking.create_table``, the
lobby form's own service), so the API has no rule or refusal of its own beyond the
token and the body; a service's ``Refused`` answers as ``{"code", "message"}`` with
its status.  The schema is at ``/api/openapi.json``, a page of it at ``/api/docs``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.http import HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Path, Schema, Status

from accounts.ratelimit import client_ip
from api.auth import TokenAuth
from api.challenges import router as challenges
from api.errors import ERRORS, ApiError, install_error_handlers
from api.events import AccountEvents
from api.friendships import router as friendships
from api.leaderboards import router as leaderboards
from api.models import Scope
from api.seeks import router as seeks
from api.stream import SeatStream, seat_number
from api.table_talk import router as table_talk
from games import services
from games.models import BotLevel, BotSpeed, Match, RuleVariant
from history.models import PlayerGame, Rating
from history.records import export_lines, finished_deals
from history.services import can_replay
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.services import create_table

api = NinjaAPI(
    title="Durak Online API",
    version="1",
    description="Play Durak from programs: read profiles and records, play your seat, "
    "follow its stream. Authenticate with `Authorization: Bearer durak_…`; make a token "
    "on your profile page.",
    urls_namespace="api_v1",
    docs_url="/docs",
    openapi_url="/openapi.json",
)
install_error_handlers(api)
api.add_router("/", challenges)
api.add_router("/", seeks)
api.add_router("/", friendships)
api.add_router("/", leaderboards)
api.add_router("/", table_talk)

READ, PLAY, BOT = TokenAuth(Scope.READ), TokenAuth(Scope.PLAY), TokenAuth(Scope.BOT)
GAMES_PER_PAGE = 20
# A table's number as the database can hold it: anything else is refused unread.
MatchId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class RatingOut(Schema):
    rating_class: str
    rating: float
    rd: float
    games: int


class UserOut(Schema):
    username: str
    joined: datetime
    is_guest: bool
    is_bot: bool
    ratings: list[RatingOut]


class AccountOut(UserOut):
    id: int
    scopes: list[str]


class GameOut(Schema):
    match_id: int
    deal: int
    variant: str
    players: int
    seat: int
    result: str
    place: int | None
    is_rated: bool
    rating_delta: float | None
    finished_at: datetime


class GamesPage(Schema):
    page: int
    has_next: bool
    games: list[GameOut]


class RecordOut(Schema):
    match_id: int
    deals: list[dict[str, Any]]


class ActionIn(Schema):
    action: str
    version: int


class MoveOut(Schema):
    match_id: int
    version: int
    action: str
    is_over: bool


class TableIn(Schema):
    level: str = BotLevel.HARD
    players: int = 2
    variant: str = "classic"
    bot_speed: str = BotSpeed.FAST
    is_private: bool = False


class TableOut(Schema):
    match_id: int
    status: str
    seat: int
    version: int


def _profile(user: Any) -> dict[str, Any]:
    ratings = Rating.objects.filter(user=user).order_by("rating_class")
    return {
        "username": user.username,
        "joined": user.date_joined,
        "is_guest": user.is_guest,
        "is_bot": user.is_bot,
        "ratings": [
            {"rating_class": r.rating_class, "rating": r.rating, "rd": r.rd, "games": r.games}
            for r in ratings
        ],
    }


def _player(username: str) -> Any:
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise ApiError(404, "not_found", _("There is no such player."))
    return user


@api.get("/account", auth=READ, response={200: AccountOut, **ERRORS}, tags=["account"])
def account(request: HttpRequest) -> dict[str, Any]:
    """The token's player, their ratings and the token's scopes."""
    user = request.auth
    return {"id": user.pk, "scopes": request.api_token.scope_list, **_profile(user)}


@api.post("/account/bot", auth=BOT, response={200: AccountOut, **ERRORS}, tags=["account"])
def become_bot(request: HttpRequest) -> dict[str, Any]:
    """Make the token's account a bot account: once and for good, and only while it has
    never sat at a table (``has_games``) nor looks for a game (``seeking``).  A bot
    account plays through the API only and never in the pools where people are paired."""
    user = turn_into_bot(request.auth)
    return {"id": user.pk, "scopes": request.api_token.scope_list, **_profile(user)}


@api.get("/users/{username}", auth=READ, response={200: UserOut, **ERRORS}, tags=["users"])
def user_profile(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's public profile and ratings."""
    return _profile(_player(username))


@api.get("/users/{username}/games", auth=READ, response={200: GamesPage, **ERRORS}, tags=["users"])
def user_games(request: HttpRequest, username: str, page: int = 1) -> dict[str, Any]:
    """A player's finished public games, newest first, ``GAMES_PER_PAGE`` a page."""
    if page < 1 or page > 10_000:
        raise ApiError(400, "malformed", _("No such page."))
    user = _player(username)
    rows = list(
        PlayerGame.objects.filter(user=user, is_private=False)
        .select_related("variant", "deal")
        .only(
            "match_id", "deal__number", "variant__slug", "players", "seat", "result", "place",
            "is_rated", "rating_delta", "finished_at",
        )
        .order_by("-finished_at", "-pk")[(page - 1) * GAMES_PER_PAGE : page * GAMES_PER_PAGE + 1]
    )  # fmt: skip
    games = [
        {
            "match_id": row.match_id,
            "deal": row.deal.number,
            "variant": row.variant.slug,
            "players": row.players,
            "seat": row.seat,
            "result": row.result,
            "place": row.place,
            "is_rated": row.is_rated,
            "rating_delta": row.rating_delta,
            "finished_at": row.finished_at,
        }
        for row in rows[:GAMES_PER_PAGE]
    ]
    return {"page": page, "has_next": len(rows) > GAMES_PER_PAGE, "games": games}


def _visible_match(match_id: int, user: Any) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    # A private table the user may not see is answered as one that does not exist.
    if match is None or not can_replay(user, match):
        raise ApiError(404, "not_found", _("There is no such table."))
    return match


@api.get("/games/{match_id}/record", auth=READ, response={200: RecordOut, **ERRORS}, tags=["games"])
def game_record(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """The finished deals of a table in the export format (``durak-export/1``, each with
    its engine record).  A deal in progress is left out: its record holds the deck."""
    match = _visible_match(match_id, request.auth)
    deals = finished_deals().filter(match=match).order_by("number")
    return {"match_id": match.pk, "deals": list(export_lines(deals))}


@api.post("/games/{match_id}/actions", auth=PLAY, response={200: MoveOut, **ERRORS}, tags=["play"])
def play_action(request: HttpRequest, match_id: MatchId, move: ActionIn) -> dict[str, Any]:
    """Play an action in engine notation (``"0 attack 6H"``) for your seat, at the table's
    ``version`` (from the stream): a stale version is refused and changes nothing."""
    outcome = _played(
        services.apply_action, match_id, request.auth, move.action, version=move.version
    )
    return _move(outcome)


@api.post("/games/{match_id}/resign", auth=PLAY, response={200: MoveOut, **ERRORS}, tags=["play"])
def resign(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Give up the game in progress at your seat."""
    return _move(_played(services.resign, match_id, request.auth))


def _played(service: Any, *args: Any, **kwargs: Any) -> services.ActionOutcome:
    """Run a move's service; its pushes go once the request's database connection is
    handed back.  A push waits for the event loop, and under load that wait is long: on
    PostgreSQL a pooled connection held through it is one the other requests lack (the
    pool ran dry with 100 API bots on two processes, benchmarks/api_bots_cluster.py)."""
    pushes: list[services.Push] = []
    try:
        with services.collected_pushes() as pushes:
            return service(*args, **kwargs)
    finally:
        if not connection.in_atomic_block:  # never a caller's transaction
            close_old_connections()
        for push in pushes:
            push.send_now()


def _move(outcome: services.ActionOutcome) -> dict[str, Any]:
    return {
        "match_id": outcome.match_id,
        "version": outcome.version,
        "action": outcome.action,
        "is_over": outcome.is_over,
    }


@api.post("/tables", auth=BOT, response={201: TableOut, **ERRORS}, tags=["play"])
def new_table(request: HttpRequest, table: TableIn) -> Status:
    """Open a table against the site's bots (``level``: random, easy, medium, hard), you
    in seat 0; it starts at once.  The lobby's limits apply: tables opened per window
    and tables with bots open at once."""
    variant = RuleVariant.objects.filter(slug=table.variant, is_active=True).first()
    if variant is None:
        raise ApiError(400, "variant", _("This variant is not available."))
    if not isinstance(table.players, int) or not 2 <= table.players <= 8:
        raise ApiError(400, "players", variant.players_rule())
    if table.level not in BotLevel.values:
        raise ApiError(400, "bots", _("Unknown bot level."))
    services.refuse_table_flood(request.auth, client_ip(request))
    match = create_table(
        request.auth,
        variant,
        table.players,
        is_private=table.is_private,
        bots=[table.level] * (table.players - 1),
        bot_speed=table.bot_speed,
    )
    match.refresh_from_db(fields=["status", "version"])
    return Status(
        201, {"match_id": match.pk, "status": match.status, "seat": 0, "version": match.version}
    )


@api.get(
    "/games/{match_id}/stream",
    auth=PLAY,
    response={200: None, **ERRORS},
    tags=["play"],
    openapi_extra={
        "responses": {
            200: {
                "description": "Newline-delimited JSON: the seat's state, then one line a "
                "change; blank lines keep the connection alive.",
                "content": {"application/x-ndjson": {}},
            }
        }
    },
)
def game_stream(
    request: HttpRequest, match_id: MatchId, rematch: bool = False
) -> StreamingHttpResponse:
    """Your seat's view of the table: the whole state first, then a line each time the
    table changes, and its chat; the stream ends when the game is over, or with
    ``rematch=true`` waits for a rematch (``rematch`` lines) and follows its game."""
    if seat_number(match_id, request.auth.pk) is None:
        raise ApiError(404, "not_seated", _("You have no seat at this table."))
    stream = SeatStream(match_id, request.auth, wait_for_rematch=rematch)
    if not stream.open():
        raise ApiError(
            429, "too_many_streams", _("You have too many tables open; close one first.")
        )
    response = StreamingHttpResponse(stream.lines(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


@api.get(
    "/stream/event",
    auth=READ,
    response={200: None, **ERRORS},
    tags=["account"],
    openapi_extra={
        "responses": {
            200: {
                "description": "Newline-delimited JSON: a line for each game in progress and "
                "each waiting invite, then one a game started or finished, an invite "
                "received or one sent declined; blank lines keep the connection alive.",
                "content": {"application/x-ndjson": {}},
            }
        }
    },
)
def event_stream(request: HttpRequest) -> StreamingHttpResponse:
    """The account's events: ``game_started`` (``match_id``, ``seat``), ``game_finished``
    (``match_id``, ``status``, ``result``), ``invite`` (``invite_id``, ``match_id``,
    ``from``) and ``invite_declined`` (``invite_id``, ``match_id``, ``by``): a challenge
    or invite you sent was declined.  It lasts until the client closes it (or the token is revoked)."""
    events = AccountEvents(request.auth, request.api_token.pk)
    if not events.open():
        raise ApiError(
            429, "too_many_streams", _("You have too many tables open; close one first.")
        )
    response = StreamingHttpResponse(events.lines(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response
