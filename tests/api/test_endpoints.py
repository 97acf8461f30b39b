"""The API's endpoints over the service layer: reads, moves, resign, tables; refusals
are JSON with the service's code and change nothing."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from openapi_spec_validator import validate

from api.stream import seat_state
from durak.engine import Game
from games import services
from games.models import Match, Move, RuleVariant, Seat

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def two_player_game(is_private: bool = False):
    """A classic game of ann (seat 0) and bob (seat 1), dealt and playing."""
    ann, bob = make_user("ann"), make_user("bob")
    variant = RuleVariant.objects.get(slug="classic")
    match = services.create_match(ann, variant, 2, is_private=is_private)
    services.join_match(match, bob, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    return match, {0: ann, 1: bob}


def mover(match: Match, users: dict):
    """The user to act and their first legal action, from the real game."""
    game = Game.from_snapshot(match.state)
    seat = game.seats_to_act()[0]
    return users[seat], game.legal_actions(seat)[0]


def post(secret: str, path: str, body: object, language: str = "en"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return api_client(secret, language).post(path, data, content_type="application/json")


def test_a_legal_action_is_played_through_the_services():
    match, users = two_player_game()
    user, action = mover(match, users)
    response = post(token_of(user), f"/api/games/{match.pk}/actions", {
        "action": str(action), "version": match.version,
    })  # fmt: skip
    assert response.status_code == 200, response.content
    assert response.json() == {
        "match_id": match.pk, "version": match.version + 1, "action": str(action),
        "is_over": False,
    }  # fmt: skip
    assert list(Move.objects.filter(match=match).values_list("action", flat=True)) == [str(action)]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("stale", "stale"),
        ("other_seat", "forged_seat"),
        ("nonsense", "malformed"),
        ("waiting", "not_your_turn"),
    ],
)
def test_refused_actions_are_json_and_change_nothing(change, code):
    match, users = two_player_game()
    user, action = mover(match, users)
    seat = next(s for s, u in users.items() if u == user)
    version, text = match.version, str(action)
    if change == "stale":
        version -= 1
    elif change == "other_seat":
        text = f"{1 - seat}{text[1:]}"
    elif change == "nonsense":
        text = "0 fly away"
    else:  # the other player, whose turn it is not
        user = users[1 - seat]
        text = f"{1 - seat} take"
    response = post(token_of(user), f"/api/games/{match.pk}/actions", {
        "action": text, "version": version,
    })  # fmt: skip
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state) == (match.version, match.state)
    assert not Move.objects.filter(match=match).exists()


def test_a_refusal_speaks_the_players_language():
    match, users = two_player_game()
    user, action = mover(match, users)
    response = post(token_of(user), f"/api/games/{match.pk}/actions", {
        "action": str(action), "version": match.version + 5,
    }, language="ru")  # fmt: skip
    assert response.json()["code"] == "stale"
    assert "повтор" in response.json()["message"] or "стол" in response.json()["message"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{not json", 400, "malformed"),
        (json.dumps({"action": "0 take"}), 422, "malformed"),
        (json.dumps({"action": "0 take", "version": "x" * 10}), 422, "malformed"),
        (json.dumps({"action": "0 take " + "6H " * 3000, "version": 1}), 413, "too_large"),
    ],
)
def test_malformed_and_huge_bodies_are_refused(body, status, code):
    match, users = two_player_game()
    response = post(token_of(users[0]), f"/api/games/{match.pk}/actions", body)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert Match.objects.get(pk=match.pk).version == match.version


def test_resign_ends_the_game_and_the_record_and_games_list_show_it():
    match, users = two_player_game()
    response = post(token_of(users[1]), f"/api/games/{match.pk}/resign", {})
    assert response.status_code == 200 and response.json()["is_over"] is True
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    reader = token_of(users[0], ("read",))
    record = api_client(reader).get(f"/api/games/{match.pk}/record").json()
    (line,) = record["deals"]
    assert line["record"]["format"] == "durak-record/1"
    assert line["record"]["result"]["fool"] == 1
    # The record replays the real game.
    assert Game.from_record(line["record"]).result["fool"] == 1
    games = api_client(reader).get("/api/users/bob/games").json()
    assert games["page"] == 1 and not games["has_next"]
    assert [(g["match_id"], g["seat"], g["result"]) for g in games["games"]] == [
        (match.pk, 1, "fool")
    ]
    profile = api_client(reader).get("/api/users/BOB").json()
    assert profile["username"] == "bob" and isinstance(profile["ratings"], list)


def test_a_game_in_progress_has_no_record_to_give():
    match, users = two_player_game()
    body = api_client(token_of(users[0])).get(f"/api/games/{match.pk}/record").json()
    assert body == {"match_id": match.pk, "deals": []}  # the deck stays hidden


def test_another_players_private_game_is_refused():
    match, users = two_player_game(is_private=True)
    services.resign(match.pk, users[0])
    carol = token_of(make_user("carol"))
    response = api_client(carol).get(f"/api/games/{match.pk}/record")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert api_client(carol).get("/api/users/ann/games").json()["games"] == []
    stream = api_client(carol).get(f"/api/games/{match.pk}/stream")
    assert stream.status_code == 404 and stream.json()["code"] == "not_seated"
    mine = api_client(token_of(users[0])).get(f"/api/games/{match.pk}/record")
    assert mine.status_code == 200 and len(mine.json()["deals"]) == 1


def test_an_unknown_player_is_404_json():
    response = api_client(token_of(make_user("ann"))).get("/api/users/nobody")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_table_against_the_sites_bots_starts_at_once():
    ann = make_user("ann")
    response = post(token_of(ann), "/api/tables", {"level": "hard", "players": 3})
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["match_id"])
    assert match.status == Match.Status.PLAYING and response.json()["seat"] == 0
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    assert [(s.user_id, s.bot_level) for s in seats] == [
        (ann.pk, ""),
        (None, "hard"),
        (None, "hard"),
    ]


def test_the_bot_table_limit_of_the_lobby_holds(settings):
    settings.GAMES_BOT_TABLES_PER_USER = 1
    secret = token_of(make_user("ann"))
    assert post(secret, "/api/tables", {"level": "easy"}).status_code == 201
    response = post(secret, "/api/tables", {"level": "easy"})
    assert response.status_code == 400 and response.json()["code"] == "bot_tables"
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [({"level": "godlike"}, "bots"), ({"players": 9}, "players"), ({"variant": "x"}, "variant")],
)
def test_a_bad_table_request_opens_nothing(body, code):
    response = post(token_of(make_user("ann")), "/api/tables", body)
    assert response.status_code == 400 and response.json()["code"] == code
    assert not Match.objects.exists()


def test_the_seat_state_holds_only_what_the_seat_may_see():
    match, users = two_player_game()
    game = Game.from_snapshot(match.state)
    state = seat_state(match.pk, users[0].pk)
    text = json.dumps(state)
    assert state["view"]["hand"] == game.hand(0)
    assert state["view"]["talon"] == game.talon_count
    assert state["version"] == match.version
    assert state["view"]["legal"] == [str(a) for a in game.legal_actions(0)]
    assert all(f'"{card}"' not in text for card in game.hand(1))
    # Of the talon, only the face-up trump may show.
    hidden_talon = [c for c in match.state["talon"] if c != game.trump]
    assert all(f'"{card}"' not in text for card in hidden_talon)
    assert "deck" not in text


def test_the_schema_and_docs_are_served():
    schema = api_client(None).get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    for path in ["/api/account", "/api/users/{username}", "/api/users/{username}/games",
                 "/api/games/{match_id}/record", "/api/games/{match_id}/actions",
                 "/api/games/{match_id}/resign", "/api/tables", "/api/games/{match_id}/stream"]:  # fmt: skip
        assert path in schema["paths"]
    assert schema["components"]["securitySchemes"]
    validate(schema)  # raises on any departure from the OpenAPI specification
    assert api_client(None).get("/api/docs").status_code == 200


@pytest.mark.parametrize(("language", "words"), [("en", "The site is busy"), ("ru", "Сайт занят")])
def test_a_database_too_busy_to_answer_is_a_json_503_to_send_again(monkeypatch, language, words):
    """As when the pool has no free connection within its timeout (psycopg_pool's
    PoolTimeout reaches the view as Django's OperationalError)."""
    match, users = two_player_game()
    user, action = mover(match, users)

    def no_connection(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(services, "apply_action", no_connection)
    response = post(token_of(user), f"/api/games/{match.pk}/actions", {
        "action": str(action), "version": match.version,
    }, language)  # fmt: skip
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.json()["code"] == "busy"
    assert response.json()["message"].startswith(words)
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state) == (match.version, match.state)
