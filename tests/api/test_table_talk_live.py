"""Chat and rematch on the streams, on a real daphne: a line said through the API
reaches the other seat's game stream (never a line moderation hid), a rematch offer
reaches its game stream and event stream, the accepted rematch is the next game on
both, a declined one ends the wait; no line shows a card the seat may not see."""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connections

from friends import services as friends
from games import services
from games.models import ChatMessage, Deal, Match, RuleVariant
from matchmaking.bot_accounts import turn_into_bot
from tests.scale.invariants import hidden_from
from tests.scale.test_hidden_information import leaks

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import DurakClient  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def short_rematch_wait(settings):
    """A game over waits this long for a rematch (set before the server forks)."""
    settings.API_STREAM_REMATCH_SECONDS = 4.0


def open_lines(base: str, secret: str, path: str):
    request = urllib.request.Request(base + path)
    request.add_header("Authorization", f"Bearer {secret}")
    return urllib.request.urlopen(request, timeout=20)


def next_line(response, seen: list[dict]) -> dict:
    while True:
        raw = response.readline()
        assert raw, "the stream ended"
        if raw.strip():
            seen.append(json.loads(raw))
            return seen[-1]


def until(response, seen: list[dict], predicate) -> dict:
    while True:
        line = next_line(response, seen)
        if predicate(line):
            return line


def playing() -> tuple[Match, list]:
    ann, bob, mod = make_user("ann"), make_user("bob"), make_user("mod", is_staff=True)
    match = services.create_match(ann, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, bob)
    match.refresh_from_db()
    return match, [ann, bob, mod]


def assert_no_hidden_card(lines: list[dict], match_id: int, seat: int) -> None:
    """No line names a card the seat may not see at the table now."""
    state = Match.objects.get(pk=match_id).state
    hidden = hidden_from(state, seat)
    assert hidden
    for line in lines:
        assert leaks(json.dumps(line), hidden) == [], line


def test_a_line_reaches_the_other_seats_stream_and_a_hidden_one_never(live_server_url):
    match, (ann, bob, mod) = playing()
    hidden_before = services.post_chat(match.pk, ann, "rude before")
    services.hide_chat_messages([hidden_before.pk], mod)
    services.post_chat(match.pk, ann, "said before")
    watcher = make_user("watcher")
    services.post_chat(match.pk, watcher, "spectators only")
    client = DurakClient(live_server_url, token_of(ann))
    connections.close_all()
    seen: list[dict] = []
    with open_lines(live_server_url, token_of(bob), f"/api/games/{match.pk}/stream") as stream:
        assert next_line(stream, seen)["type"] == "state"
        backlog = next_line(stream, seen)
        assert (backlog["type"], backlog["author"]) == ("chat", "ann")
        assert backlog["text"] == "said before"
        said = client.say(match.pk, "your move, bob")
        line = next_line(stream, seen)
        assert line == {**said, "type": "chat", "time": line["time"]}
        assert line["text"] == "your move, bob" and line["author"] == "ann"
        # Moderation hides a line told: the stream says so; a line hidden at once is
        # never told.
        services.hide_chat_messages([said["id"]], mod)
        assert next_line(stream, seen) == {
            "type": "chat_hidden", "id": said["id"], "match_id": match.pk,
        }  # fmt: skip
        client.say(match.pk, phrase="good_luck")
        assert until(stream, seen, lambda line: line["type"] == "chat")["phrase"] == "good_luck"
        assert "spectators only" not in [line.get("text") for line in seen]
        assert_no_hidden_card(seen, match.pk, 1)
        # The game over, the spectators' line is read too, as on the page; not opened
        # to wait for a rematch, the stream then ends with the game.
        client.resign(match.pk)
        assert until(stream, seen, lambda line: line["type"] == "state")["status"] == "finished"
        assert next_line(stream, seen)["text"] == "spectators only"
        assert stream.readline() == b""
    assert "rude before" not in [line.get("text") for line in seen]
    assert ChatMessage.objects.filter(match=match).count() == 5


def test_a_rematch_reaches_the_other_seat_and_its_game_starts_on_both_streams(
    short_rematch_wait, live_server_url
):
    match, (ann, bob, _mod) = playing()
    services.resign(match.pk, bob)
    ann_client, bob_secret = DurakClient(live_server_url, token_of(ann)), token_of(bob)
    connections.close_all()
    game_lines: list[dict] = []
    bob_client = DurakClient(live_server_url, bob_secret)
    with open_lines(
        live_server_url, bob_secret, f"/api/games/{match.pk}/stream?rematch=true"
    ) as stream:
        over = next_line(stream, game_lines)
        assert (over["type"], over["status"]) == ("state", "finished")
        assert ann_client.rematch(match.pk)["status"] == "offered"
        offer = until(stream, game_lines, lambda line: line["type"] == "rematch")
        assert offer == {
            "type": "rematch", "match_id": match.pk, "asked": [{"seat": 0, "username": "ann"}],
        }  # fmt: skip
        # Bob's program opens its event stream (it sends nothing before its first line).
        events = bob_client.events()
        assert next(events) == {"type": "rematch_offered", "match_id": match.pk, "by": ["ann"]}
        # Bob takes it: the next game, on the same game stream and as an event.
        taken = bob_client.rematch(match.pk)
        assert taken["status"] == "started"
        dealt = until(stream, game_lines, lambda line: line["type"] == "state")
        assert (dealt["status"], dealt["version"]) == ("playing", taken["version"])
        assert next(events) == {"type": "game_started", "match_id": match.pk, "seat": 1}
        events.close()
        assert_no_hidden_card(game_lines[-1:], match.pk, 1)
    assert Deal.objects.filter(match=match).count() == 2


def test_a_declined_rematch_is_told_and_the_stream_ends_after_the_wait(
    short_rematch_wait, live_server_url
):
    match, (ann, bob, _mod) = playing()
    services.resign(match.pk, bob)
    ann_secret, bob_client = token_of(ann), DurakClient(live_server_url, token_of(bob))
    connections.close_all()
    seen: list[dict] = []
    with open_lines(
        live_server_url, ann_secret, f"/api/games/{match.pk}/stream?rematch=true"
    ) as stream:
        assert next_line(stream, seen)["status"] == "finished"
        services.start_next_deal(match.pk, by=ann)  # the page's Rematch button
        connections.close_all()
        assert until(stream, seen, lambda line: line["type"] == "rematch")["asked"][0]["seat"] == 0
        assert bob_client.decline_rematch(match.pk)["status"] == "declined"
        assert until(stream, seen, lambda line: line["type"] == "rematch")["asked"] == []
        # Nothing more said: the stream ends after its wait.
        while raw := stream.readline():
            assert not raw.strip() or json.loads(raw)["type"] == "state", raw
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert Deal.objects.filter(match=match).count() == 1


def test_the_waiting_example_bot_takes_a_rematch_and_plays_the_next_game(live_server_url):
    from example_bot import play_game, serve

    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    friends.accept_friend(robo, friends.request_friend(person, robo).pk)
    ann, bot = token_of(person), token_of(robo)
    connections.close_all()
    said: list[str] = []
    served: list[int] = []
    waiting = threading.Thread(
        target=lambda: served.append(
            serve(DurakClient(live_server_url, bot), games=2, log=said.append)
        ),
        daemon=True,
    )
    waiting.start()
    ann_client = DurakClient(live_server_url, ann)
    made = ann_client.challenge("robo", deck_size=24, is_rated=False)
    match_id = made["match_id"]
    assert play_game(ann_client, match_id, log=lambda line: None)["status"] == "finished"
    assert ann_client.rematch(match_id)["status"] == "offered"
    deadline = time.monotonic() + 20
    while Deal.objects.filter(match_id=match_id).count() < 2:
        assert time.monotonic() < deadline, said
        time.sleep(0.1)
    assert play_game(ann_client, match_id, log=lambda line: None)["status"] == "finished"
    waiting.join(timeout=60)
    assert not waiting.is_alive(), said
    assert served == [2]
    assert f"took ann's rematch: table {match_id}" in said
    assert Deal.objects.filter(match_id=match_id, status=Deal.Status.FINISHED).count() == 2
