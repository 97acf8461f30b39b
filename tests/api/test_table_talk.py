"""Chat and rematch through the API: the table's own services, their refusals as JSON
with nothing changed, the line on the other seat's page, one new game for a rematch
however many ask at once."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.db import connections
from django.utils import timezone
from openapi_spec_validator import validate

from api.events import CHANNEL_PREFIX, AccountEvents
from api.talk_lines import TableTalk
from games import services
from games.models import ChatMessage, Deal, Match, RuleVariant, Seat
from games.socket_rows import OpenSocket
from tests.live.conftest import Socket, fresh_channel_layer  # noqa: F401  (autouse)
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def playing(is_private: bool = False) -> tuple[Match, dict[int, object]]:
    """A classic game of ann (seat 0) and bob (seat 1), dealt and playing."""
    ann, bob = make_user("ann"), make_user("bob")
    match = services.create_match(
        ann, RuleVariant.objects.get(slug="classic"), 2, is_private=is_private
    )
    services.join_match(match, bob, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    return match, {0: ann, 1: bob}


def finished() -> tuple[Match, dict[int, object]]:
    match, users = playing()
    services.resign(match.pk, users[1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, users


def post(secret: str, path: str, body: object = None, language: str = "en"):
    data = body if isinstance(body, str) else json.dumps(body or {})
    return api_client(secret, language).post(path, data, content_type="application/json")


def table(match_id: int) -> tuple[str, int, int, list[bool]]:
    """What a rematch may change: status, version, games dealt, who asked."""
    match = Match.objects.get(pk=match_id)
    asked = Seat.objects.filter(match=match).order_by("number").values_list("wants_rematch")
    deals = Deal.objects.filter(match=match).count()
    return match.status, match.version, deals, [wants for (wants,) in asked]


# ---------------------------------------------------------------- chat


def test_a_line_is_said_to_the_players_through_the_chat_service():
    match, users = playing()
    response = post(token_of(users[0]), f"/api/games/{match.pk}/chat", {"text": "  hello   bob "})
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["author"], body["text"], body["phrase"]) == ("ann", "hello bob", None)
    assert body["channel"] == "players" and body["time"]
    message = ChatMessage.objects.get()
    assert (message.pk, message.user, message.text) == (body["id"], users[0], "hello bob")
    # A quick phrase, as the page's buttons say it.
    phrase = post(token_of(users[1]), f"/api/games/{match.pk}/chat", {"phrase": "good_luck"})
    assert phrase.status_code == 201
    assert (phrase.json()["phrase"], phrase.json()["text"]) == ("good_luck", "Good luck!")


@pytest.mark.django_db(transaction=True)
def test_a_line_said_through_the_api_reaches_the_other_players_page():
    match, users = playing()
    secret = token_of(users[0])

    @in_own_loop
    async def run():
        page = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, users[1]))
        assert (await page.open())[0]
        await page.drain()
        said = await db(post, secret, f"/api/games/{match.pk}/chat", {"text": "<b>hi</b> bob"})
        assert said.status_code == 201
        frame = await page.until(lambda f: 'id="table-chat"' in f)
        assert "&lt;b&gt;hi&lt;/b&gt; bob" in frame and "<b>hi</b>" not in frame
        await page.close()

    run()


def mute(user) -> None:
    user.muted_until = timezone.now() + timedelta(hours=1)
    user.save()


def suspend(user) -> None:
    user.suspended_until = timezone.now() + timedelta(hours=1)
    user.save()


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [
        ("read_only", 403, "scope"),
        ("not_seated", 404, "not_seated"),
        ("ended", 400, "not_playing"),
        ("unknown", 404, "not_found"),
        ("empty", 400, "empty"),
        ("blank", 400, "empty"),
        ("too_long", 400, "too_long"),
        ("unprintable", 400, "unprintable"),
        ("muted", 400, "muted"),
        ("suspended", 400, "suspended"),
        ("unknown_phrase", 400, "unknown_phrase"),
        ("not_a_text", 422, "malformed"),
    ],
)
def test_a_refused_line_is_json_and_says_nothing(case, status, code):
    match, users = playing()
    speaker, match_id, body = users[0], match.pk, {"text": "hello"}
    scopes = ("read", "play")
    if case == "read_only":
        scopes = ("read",)
    elif case == "not_seated":
        speaker = make_user("carol")
    elif case == "ended":
        services.resign(match.pk, users[1])
    elif case == "unknown":
        match_id = match.pk + 1000
    elif case in ("empty", "blank", "too_long", "unprintable", "unknown_phrase", "not_a_text"):
        body = {
            "empty": {},
            "blank": {"text": "   "},
            "too_long": {"text": "x" * 301},
            "unprintable": {"text": "bad\x00line"},
            "unknown_phrase": {"phrase": "rude"},
            "not_a_text": {"text": ["a", "list"]},
        }[case]
    elif case == "muted":
        mute(speaker)
    elif case == "suspended":
        suspend(speaker)
    version = Match.objects.get(pk=match.pk).version
    response = post(token_of(speaker, scopes), f"/api/games/{match_id}/chat", body)
    assert response.status_code == status, response.content
    assert response.json()["code"] == code and response.json()["message"]
    assert not ChatMessage.objects.exists()
    assert Match.objects.get(pk=match.pk).version == version


def test_a_flood_is_refused_past_the_chat_limit_of_the_page(settings):
    settings.GAMES_CHAT_RATE = (3, 10)
    match, users = playing()
    secret = token_of(users[0])
    # Lines said on the page count against the same limit.
    services.post_chat(match.pk, users[0], "from the page")
    said = [post(secret, f"/api/games/{match.pk}/chat", {"text": f"line {n}"}) for n in range(3)]
    assert [r.status_code for r in said] == [201, 201, 429]
    assert said[-1].json()["code"] == "rate"
    assert ChatMessage.objects.count() == 3


def test_a_refusal_speaks_the_players_language():
    match, users = playing()
    mute(users[0])
    response = post(token_of(users[0]), f"/api/games/{match.pk}/chat", {"text": "hi"}, "ru")
    assert response.status_code == 400
    assert any("а" <= char <= "я" for char in response.json()["message"].lower())


# ---------------------------------------------------------------- rematch


def test_a_rematch_offered_and_accepted_starts_the_next_game():
    match, users = finished()
    ann, bob = token_of(users[0]), token_of(users[1])
    before = table(match.pk)
    offered = post(ann, f"/api/games/{match.pk}/rematch")
    assert offered.status_code == 200, offered.content
    assert offered.json() == {"match_id": match.pk, "status": "offered", "version": before[1] + 1}
    assert table(match.pk) == ("finished", before[1] + 1, 1, [True, False])
    # Asking twice is refused and changes nothing.
    again = post(ann, f"/api/games/{match.pk}/rematch")
    assert (again.status_code, again.json()["code"]) == (400, "repeated")
    assert table(match.pk) == ("finished", before[1] + 1, 1, [True, False])
    accepted = post(bob, f"/api/games/{match.pk}/rematch")
    assert accepted.status_code == 200 and accepted.json()["status"] == "started"
    status, version, deals, asked = table(match.pk)
    assert (status, deals, asked) == ("playing", 2, [False, False])
    assert accepted.json()["version"] == version


def test_a_rematch_the_page_offered_is_accepted_through_the_api():
    match, users = finished()
    services.start_next_deal(match.pk, by=users[0])  # the page's Rematch button
    accepted = post(token_of(users[1]), f"/api/games/{match.pk}/rematch")
    assert accepted.json()["status"] == "started"
    assert table(match.pk)[:3][::2] == ("playing", 2)


def test_a_declined_rematch_is_off_for_everyone():
    match, users = finished()
    ann, bob = token_of(users[0]), token_of(users[1])
    nothing = post(bob, f"/api/games/{match.pk}/rematch/decline")
    assert (nothing.status_code, nothing.json()["code"]) == (400, "no_offer")
    post(ann, f"/api/games/{match.pk}/rematch")
    offered = table(match.pk)
    declined = post(bob, f"/api/games/{match.pk}/rematch/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert table(match.pk) == ("finished", offered[1] + 1, 1, [False, False])
    # Asked again, it is a new offer, not the declined one accepted.
    assert post(ann, f"/api/games/{match.pk}/rematch").json()["status"] == "offered"
    assert table(match.pk)[2] == 1


@pytest.mark.parametrize("path", ["rematch", "rematch/decline"])
def test_a_rematch_is_refused_before_the_game_ends_and_to_others(path):
    match, users = playing()
    before = table(match.pk)
    early = post(token_of(users[0]), f"/api/games/{match.pk}/{path}")
    assert (early.status_code, early.json()["code"]) == (400, "not_over")
    services.resign(match.pk, users[1])
    ended = table(match.pk)
    assert ended[1] > before[1]
    stranger = post(token_of(make_user("carol")), f"/api/games/{match.pk}/{path}")
    assert (stranger.status_code, stranger.json()["code"]) == (404, "not_seated")
    read_only = post(token_of(users[0], ("read",)), f"/api/games/{match.pk}/{path}")
    assert (read_only.status_code, read_only.json()["code"]) == (403, "scope")
    unknown = post(token_of(users[0]), f"/api/games/{match.pk + 1000}/{path}")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    assert table(match.pk) == ended


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))  # a race: several tries to catch a second game
def test_both_players_asking_at_once_start_one_game(round_):
    match, users = finished()
    secrets = [token_of(users[0]), token_of(users[1])]
    start = threading.Barrier(2)
    answers: list[dict] = []

    def ask(secret: str) -> None:
        try:
            start.wait()
            answers.append(post(secret, f"/api/games/{match.pk}/rematch").json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask, args=(secret,)) for secret in secrets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer["status"] for answer in answers) == ["offered", "started"]
    assert table(match.pk)[:3:2] == ("playing", 2)


def test_the_event_stream_tells_each_rematch_offer_once_and_a_new_one_after_the_next_game():
    match, users = finished()
    events = AccountEvents(users[1], token_id=0)
    assert events.news() == []
    ann = token_of(users[0])
    post(ann, f"/api/games/{match.pk}/rematch")
    offer = {"type": "rematch_offered", "match_id": match.pk, "by": ["ann"]}
    assert events.news() == [offer]
    assert events.news() == []  # told once
    assert AccountEvents(users[0], token_id=0).news() == []  # not to the asker
    post(token_of(users[1]), f"/api/games/{match.pk}/rematch")
    assert events.news() == [{"type": "game_started", "match_id": match.pk, "seat": 1}]
    services.resign(match.pk, users[1])
    assert [line["type"] for line in events.news()] == ["game_finished"]
    post(ann, f"/api/games/{match.pk}/rematch")
    assert events.news() == [offer]  # the next game's offer is news again


@pytest.mark.django_db(transaction=True)
def test_an_offer_through_the_api_reaches_the_other_players_page_and_wakes_their_events():
    match, users = finished()
    secret = token_of(users[0])

    @in_own_loop
    async def run():
        layer = get_channel_layer()
        events_channel = await layer.new_channel(CHANNEL_PREFIX)
        await db(
            OpenSocket.objects.create,
            channel_name=events_channel, user=users[1], server="test", renewed_at=timezone.now(),
        )  # fmt: skip
        woken = asyncio.ensure_future(layer.receive(events_channel))
        page = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, users[1]))
        assert (await page.open())[0]
        await page.drain()
        offered = await db(post, secret, f"/api/games/{match.pk}/rematch")
        assert offered.json()["status"] == "offered"
        frame = await page.until(lambda f: 'data-testid="rematch-offer"' in f)
        assert "ann asks for a rematch" in frame and "Accept the rematch" in frame
        assert await asyncio.wait_for(woken, 10) == {"type": "events.check"}
        await page.close()

    run()


def test_a_decline_with_nothing_offered_says_so_in_the_players_language():
    match, users = finished()
    refused = post(token_of(users[1]), f"/api/games/{match.pk}/rematch/decline", language="ru")
    assert (refused.status_code, refused.json()["code"]) == (400, "no_offer")
    assert refused.json()["message"] == "Реванш никто не предлагал."


def test_the_schema_names_the_chat_and_rematch_calls_behind_a_token():
    schema = api_client(None).get("/api/openapi.json").json()
    for path, status in (("chat", "201"), ("rematch", "200"), ("rematch/decline", "200")):
        call = schema["paths"][f"/api/games/{{match_id}}/{path}"]["post"]
        assert call["security"] and status in call["responses"] and "429" in call["responses"]
    validate(schema)


def test_the_stream_tells_each_readable_line_once_and_the_spectators_after_the_game():
    match, users = playing()
    watcher, moderator = make_user("watcher"), make_user("mod", is_staff=True)
    services.post_chat(match.pk, users[0], "before")
    services.post_chat(match.pk, watcher, "from the rail")
    talk = TableTalk(match.pk)
    assert [line["text"] for line in talk.chat("playing")] == ["before"]
    said = services.post_chat(match.pk, users[1], "during")
    assert [line["text"] for line in talk.chat("playing")] == ["during"]
    assert talk.chat("playing") == []
    services.hide_chat_messages([said.pk], moderator)
    assert talk.chat("playing") == [{"type": "chat_hidden", "id": said.pk, "match_id": match.pk}]
    services.resign(match.pk, users[1])
    # The game over, the players read the spectators' lines, the older ones too.
    assert [line["text"] for line in talk.chat("finished")] == ["from the rail"]
    assert talk.chat("finished") == []


@pytest.mark.django_db(transaction=True)
def test_a_chat_line_whose_push_was_lost_reaches_the_stream_while_moves_keep_coming(
    monkeypatch,
):
    """The stream reads the chat on a chat push, not on every move: a line whose push
    never came is still told within the poll's time although the table never goes
    quiet long enough for the poll itself."""
    from api import stream as seat_streams
    from api.stream import SeatStream

    monkeypatch.setattr(seat_streams, "POLL_SECONDS", 0.5)
    match, users = playing()

    @in_own_loop
    async def run():
        stream = SeatStream(match.pk, users[0])
        assert await db(stream.open)
        told: list[dict] = []

        async def read() -> None:
            async for raw in stream.lines():
                if raw.strip():
                    told.append(json.loads(raw))

        reader = asyncio.ensure_future(read())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while loop.time() < deadline and not told:
            await asyncio.sleep(0.05)
        assert told and told[0]["type"] == "state"
        # Written as the model, with no push: as if the push were lost on the way.
        await db(ChatMessage.objects.create, match=match, user=users[1], text="lost push")
        while loop.time() < deadline and not any(t["type"] == "chat" for t in told):
            # A push every 0.2 s: the stream never waits out its poll.
            await asyncio.sleep(0.2)
            await get_channel_layer().send(
                stream.channel, services.match_changed_message(match.pk, None)
            )
        while_playing = list(told)
        # The game's end ends the stream.
        await db(services.resign, match.pk, users[1])
        await asyncio.wait_for(reader, 10)
        return while_playing

    told = run()
    assert [t["text"] for t in told if t["type"] == "chat"] == ["lost push"]
