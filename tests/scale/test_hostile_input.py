"""Hostile clients: every bad request gets a clear refusal and changes nothing.

Each case checks the answer (an error frame, a refused connection, a 403/404) and
that the table is exactly as before: same version, same snapshot, same moves.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.test import Client

from durak.engine import Game, deck_codes
from games import services
from games.models import ChatMessage, Match, RuleVariant, Seat, SocketPresence
from tests.table_fingerprint import table_fingerprint

from .conftest import ERROR, Socket, db, frame_version, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def two_player_table(*, private: bool = False):
    users = [make_user("host"), make_user("guest")]
    match = services.create_match(
        users[0], RuleVariant.objects.get(slug="classic"), 2, is_private=private
    )
    services.join_match(match, users[1], token=match.invite_token)
    match.refresh_from_db()
    return match, users, [session_cookie(u) for u in users]


async def open_table():
    match, users, cookies = await db(two_player_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", cookie) for cookie in cookies]
    for sock in sockets:
        connected, _ = await sock.open()
        assert connected
        await sock.until_version(match.version)
    for sock in sockets:
        await sock.drain()
    game = Game.from_snapshot((await db(Match.objects.get, pk=match.pk)).state)
    return match, users, sockets, game


async def assert_refused(
    sock: Socket, frame, match_id: int, before: tuple, words: str | tuple[str, ...]
) -> str:
    await sock.send(frame)
    error = await sock.until_error()
    options = (words,) if isinstance(words, str) else words
    assert any(w.lower() in error.lower() for w in options), error
    assert await db(table_fingerprint, match_id) == before
    return error


async def close_all(sockets: list[Socket]) -> None:
    for sock in sockets:
        await sock.close()


@in_own_loop
async def test_malformed_frames_are_refused_without_change() -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    before = await db(table_fingerprint, match.pk)
    sock = sockets[me]
    await assert_refused(sock, "{not json", match.pk, before, "not valid JSON")
    await assert_refused(sock, "[1, 2, 3]", match.pk, before, "not valid JSON")
    await assert_refused(sock, "   ", match.pk, before, "not valid JSON")
    await sock.comm.send_to(bytes_data=b"\x00\xff binary")
    assert "JSON text" in await sock.until_error()
    assert await db(table_fingerprint, match.pk) == before
    await assert_refused(sock, {"type": "dance"}, match.pk, before, "Unknown message")
    await assert_refused(
        sock,
        {"type": "action", "action": 42, "version": before.version},
        match.pk,
        before,
        "not a move",
    )
    await assert_refused(
        sock,
        {"type": "action", "action": str(game.legal_actions()[0])},
        match.pk,
        before,
        "version",
    )
    await close_all(sockets)


@in_own_loop
async def test_oversized_frames_are_capped(settings) -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    legal = str(game.legal_actions()[0])
    before = await db(table_fingerprint, match.pk)
    cap = settings.GAMES_MAX_FRAME if hasattr(settings, "GAMES_MAX_FRAME") else None
    from games.conf import setting

    cap = cap or setting("GAMES_MAX_FRAME")
    # A legal action padded past the cap is refused whole, not parsed.
    padded = json.dumps(
        {"type": "action", "action": legal, "version": before.version, "pad": "x" * cap}
    )
    assert len(padded) > cap
    await assert_refused(sockets[me], padded, match.pk, before, "too long")
    huge_chat = json.dumps({"type": "chat", "text": "y" * (cap * 50)})
    await assert_refused(sockets[me], huge_chat, match.pk, before, "too long")
    assert await db(ChatMessage.objects.count) == 0
    await close_all(sockets)


@in_own_loop
async def test_unknown_actions_and_cards_are_refused() -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    other = 1 - me
    before = await db(table_fingerprint, match.pk)
    version = before.version
    not_held = game.hand(other)[0]
    not_in_deck = next(c for c in deck_codes(52) if c not in deck_codes(36))
    cases = [
        (f"{me} fly {game.hand(me)[0]}", "not a move"),
        (f"{me} attack", ("not a move", "not allowed")),
        (f"{me} attack ZZ", "not a move"),
        (f"{me} attack 1H", "not a move"),
        (f"{me} attack {not_in_deck}", ("not a move", "not allowed")),
        (f"{me} attack {not_held}", "not allowed"),
        (f"{me} take", "not allowed"),
    ]
    for text, words in cases:
        frame = {"type": "action", "action": text, "version": version}
        await assert_refused(sockets[me], frame, match.pk, before, words)
    # The refusal must not tell an opponent's card from a talon card: no oracle.
    state = (await db(Match.objects.get, pk=match.pk)).state
    in_talon = next(c for c in state["talon"] if c != state["trump"])
    answers = []
    for card in (not_held, in_talon):
        frame = {"type": "action", "action": f"{me} attack {card}", "version": version}
        error = await assert_refused(sockets[me], frame, match.pk, before, "not allowed")
        answers.append(error.replace(card, "<card>"))
    assert answers[0] == answers[1]
    await close_all(sockets)


@in_own_loop
async def test_acting_for_another_seat_is_refused() -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    other = 1 - me
    lead = next(a for a in game.legal_actions() if a.seat == me)
    before = await db(table_fingerprint, match.pk)
    # The opponent sends the mover's legal action, seat number and all.
    frame = {"type": "action", "action": str(lead), "version": before.version}
    await assert_refused(sockets[other], frame, match.pk, before, "your own seat")
    await close_all(sockets)


@in_own_loop
async def test_replaying_an_old_version_changes_nothing() -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    lead = next(a for a in game.legal_actions() if a.seat == me)
    version = (await db(table_fingerprint, match.pk)).version
    frame = {"type": "action", "action": str(lead), "version": version}
    await sockets[me].send(frame)
    await sockets[me].until_version(version + 1)
    after_first = await db(table_fingerprint, match.pk)
    assert after_first.version == version + 1 and len(after_first.moves) == 1
    # The very same message again reads as a double click: calm, and nothing changes.
    await assert_refused(sockets[me], frame, match.pk, after_first, "already played")
    await close_all(sockets)


@pytest.mark.parametrize("ending", ["finished", "aborted"])
@in_own_loop
async def test_acting_in_a_finished_or_aborted_match_is_refused(ending: str) -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    legal = str(next(a for a in game.legal_actions() if a.seat == me))
    if ending == "finished":
        await db(services.resign, match.pk, users[1 - me])
    else:
        await db(services.abort_match, match.pk, "test")
    after = await db(table_fingerprint, match.pk)
    assert after.status == ending
    await sockets[me].drain()
    frame = {"type": "action", "action": legal, "version": after.version}
    await assert_refused(sockets[me], frame, match.pk, after, "No game is in progress")
    await assert_refused(sockets[me], {"type": "resign"}, match.pk, after, "No game is in progress")
    await close_all(sockets)


@in_own_loop
async def test_connecting_without_a_session_is_refused() -> None:
    match, users, cookies = await db(two_player_table)
    for cookie in (None, "not-a-session-key"):
        sock = Socket(f"/ws/games/{match.pk}/", cookie)
        connected, code = await sock.open()
        assert not connected
        assert code == 4401
    lobby = Socket("/ws/lobby/", None)
    connected, _ = await lobby.open()
    assert not connected
    assert not await db(SocketPresence.objects.filter(seat__match=match).exists)


@in_own_loop
async def test_connecting_from_a_foreign_origin_is_refused() -> None:
    match, users, cookies = await db(two_player_table)
    for origin in ("http://evil.example", "null", ""):
        sock = Socket(f"/ws/games/{match.pk}/", cookies[0], origin=origin)
        connected, _ = await sock.open()
        assert not connected, origin
    good = Socket(f"/ws/games/{match.pk}/", cookies[0])
    connected, _ = await good.open()
    assert connected
    await good.close()


@in_own_loop
async def test_flooding_chat_is_rate_limited(settings) -> None:
    settings.GAMES_CHAT_RATE = (3, 60)
    match, users, sockets, game = await open_table()
    before = await db(table_fingerprint, match.pk)
    for n in range(3):
        await sockets[0].send({"type": "chat", "text": f"hello {n}"})
        await sockets[0].until(lambda f, n=n: f"hello {n}" in f)
    for n in range(5):
        await sockets[0].send({"type": "chat", "text": f"spam {n}"})
        error = await sockets[0].until_error()
        assert "too fast" in error
    texts = await db(lambda: list(ChatMessage.objects.values_list("text", flat=True)))
    assert texts == ["hello 0", "hello 1", "hello 2"]
    # The three accepted lines are the only change: the game itself is untouched.
    after = await db(table_fingerprint, match.pk)
    assert len(after.chat) == 3 and replace(after, chat=before.chat) == before
    await close_all(sockets)


@in_own_loop
async def test_flooding_action_frames_is_rate_limited(settings) -> None:
    settings.GAMES_FRAME_RATE = (5, 0.01)
    match, users, sockets, game = await open_table()
    before = await db(table_fingerprint, match.pk)
    stale = {"type": "action", "action": "0 done", "version": match.version + 50}
    for _ in range(5):
        await sockets[0].send(stale)
        error = await sockets[0].until_error()
        assert "too fast" not in error
    # The burst is spent: further frames are refused before they reach a service.
    for _ in range(3):
        await sockets[0].send(stale)
        assert "too fast" in await sockets[0].until_error()
    assert await db(table_fingerprint, match.pk) == before
    await close_all(sockets)


@in_own_loop
async def test_flooding_hints_is_rate_limited(settings) -> None:
    settings.GAMES_HINT_RATE = (1, 60)
    match, users, sockets, game = await open_table()
    before = await db(table_fingerprint, match.pk)
    await sockets[1].send({"type": "hint"})
    await sockets[1].until_error()  # a rated game: refused by the hint service itself
    await sockets[1].send({"type": "hint"})
    assert "too fast" in await sockets[1].until_error()
    assert await db(table_fingerprint, match.pk) == before
    await close_all(sockets)


def test_form_posts_without_csrf_are_refused() -> None:
    match, users, cookies = two_player_table()
    waiting = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 3)
    stranger = make_user("csrf")
    client = Client(enforce_csrf_checks=True)
    client.force_login(stranger)
    before = (Match.objects.count(), list(Seat.objects.values_list("pk", "user_id")))
    posts = [
        ("/games/new/", {"variant": "classic", "players": "2"}),
        (f"/games/{waiting.pk}/join/", {}),
        (f"/games/join/{waiting.invite_token}/", {}),
        (f"/games/{waiting.pk}/leave/", {}),
        (f"/games/{waiting.pk}/start/", {}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert b"CSRF" in response.content
    assert (Match.objects.count(), list(Seat.objects.values_list("pk", "user_id"))) == before
    # The same post with the token goes through, so the 403 was about CSRF.
    client.get("/")
    token = client.cookies["csrftoken"].value
    response = client.post(f"/games/{waiting.pk}/join/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Seat.objects.filter(match=waiting, user=stranger).exists()


@in_own_loop
async def test_another_users_private_table_is_closed() -> None:
    match, users, cookies = await db(two_player_table, private=True)
    stranger = await db(make_user, "nosy")
    cookie = await db(session_cookie, stranger)
    before = await db(table_fingerprint, match.pk)
    sock = Socket(f"/ws/games/{match.pk}/", cookie)
    connected, code = await sock.open()
    assert not connected and code == 4403

    def http() -> None:
        client = Client()
        client.force_login(stranger)
        assert client.get(f"/games/{match.pk}/").status_code == 404
        waiting = services.create_match(
            users[0], RuleVariant.objects.get(slug="classic"), 3, is_private=True
        )
        with pytest.raises(services.Refused):
            services.join_match(waiting, stranger)
        with pytest.raises(services.Refused):
            services.join_match(waiting, stranger, token="wrong")
        assert not Seat.objects.filter(user=stranger).exists()
        with pytest.raises(services.Refused):
            services.post_chat(match.pk, stranger, "hi")

    await db(http)
    assert await db(table_fingerprint, match.pk) == before


def test_another_users_private_replay_is_closed() -> None:
    match, users, cookies = two_player_table(private=True)
    services.resign(match.pk, users[0])
    stranger = make_user("peek")
    client = Client()
    client.force_login(stranger)
    for url in (f"/games/{match.pk}/replay/", f"/games/{match.pk}/replay/record.json"):
        assert client.get(url).status_code == 404, url
        assert Client().get(url).status_code in (302, 404), url
    player = Client()
    player.force_login(users[1])
    assert player.get(f"/games/{match.pk}/replay/").status_code == 200
    record = player.get(f"/games/{match.pk}/replay/record.json")
    assert record.status_code == 200
    assert json.loads(record.content)


@in_own_loop
async def test_error_frames_are_for_the_sender_only() -> None:
    match, users, sockets, game = await open_table()
    me = game.to_act()[0]
    await sockets[me].send("{nope")
    await sockets[me].until_error()
    # Whatever else reaches the other socket (late presence pushes), no error does.
    await sockets[1 - me].drain(0.5)
    assert all(ERROR not in f for f in sockets[1 - me].frames)
    assert frame_version(sockets[1 - me].frames[0]) == match.version
    await close_all(sockets)
