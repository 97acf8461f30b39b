"""A whole game over real sockets as Russian players: no English in any frame."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from durak.engine import Game
from games import services
from games.models import Match, RuleVariant
from tests.sockets import answer_a_hint

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# What a person reads: text, and the attributes a screen reader or a tooltip shows.
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "value"}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


class ReadableText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and not (tag == "input" and name == "value"):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def english_in(frame: str) -> list[str]:
    parser = ReadableText()
    parser.feed(frame)
    return LATIN_WORD.findall(" ".join(parser.parts))


def test_the_checker_finds_english():
    assert english_in('<p aria-label="Your turn">Ваш ход</p>') == ["Your", "turn"]
    assert english_in("<div>Ваш ход: <b>побейте</b> 7♦</div>") == []


def setup_russian_table():
    users = [make_user(name, language="ru") for name in ("Иван", "Мария")]
    variant = RuleVariant.objects.get(slug="transfer")
    match = services.create_match(users[0], variant, 2)
    services.join_match(match, users[1])
    Match.objects.filter(pk=match.pk).update(is_rated=False)  # so hints are given
    match.refresh_from_db()
    return match, [session_cookie(u) for u in users]


def snapshot(match_id: int) -> tuple[int, dict, str]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, match.status


async def open_table(match_id: int, cookies: list[str]) -> tuple[list[Socket], tuple]:
    """Each player's socket, open and showing the table, and the table's snapshot."""
    sockets = [Socket(f"/ws/games/{match_id}/", c) for c in cookies]
    for sock in sockets:
        assert (await sock.open())[0]
    found = await db(snapshot, match_id)
    for sock in sockets:
        await sock.until_version(found[0])
    return sockets, found


@in_own_loop
async def test_russian_players_read_no_english_in_any_frame():
    match, cookies = await db(setup_russian_table)
    lobby = Socket("/ws/lobby/", cookies[0])
    assert (await lobby.open())[0]
    await lobby.receive()
    sockets, (version, snap, status) = await open_table(match.pk, cookies)
    # Refusals, chat and a hint come back in Russian too.
    await sockets[0].send({"type": "action", "action": "0 attack 2C", "version": version})
    await sockets[0].send({"type": "nonsense"})
    await sockets[0].send("not json")
    await sockets[1].send({"type": "chat", "text": "привет"})
    acting = sockets[Game.from_snapshot(snap).legal_actions()[0].seat]
    await acting.send({"type": "hint"})
    await answer_a_hint()
    await acting.until(lambda frame: 'id="table-hint"' in frame and "data-action" in frame)
    await sockets[0].drain()
    await sockets[1].drain()
    rng = random.Random(5)
    for _ in range(400):
        if status != Match.Status.PLAYING:
            break
        game = Game.from_snapshot(snap)
        action = rng.choice([a for a in game.legal_actions() if a.kind != "swap"])
        await sockets[action.seat].send(
            {"type": "action", "action": str(action), "version": version}
        )
        for sock in sockets:
            await sock.until_version(version + 1)
        if rng.random() < 0.1:  # a stale repeat of the move just made
            await sockets[action.seat].send(
                {"type": "action", "action": str(action), "version": version}
            )
        version, snap, status = await db(snapshot, match.pk)
    assert status == Match.Status.FINISHED
    for sock in sockets:
        await sock.drain()
    await lobby.drain()
    frames = [f for sock in [*sockets, lobby] for f in sock.frames]
    assert len(frames) > 20
    english = {word for frame in frames for word in english_in(frame)}
    assert not english, f"English words in Russian frames: {sorted(english)}"
    assert any("Партия окончена" in f for f in sockets[0].frames)
    for sock in [*sockets, lobby]:
        await sock.close()


@in_own_loop
async def test_a_language_switch_on_another_device_reaches_open_sockets():
    match, cookies = await db(setup_russian_table)
    sock = Socket(f"/ws/games/{match.pk}/", cookies[0])
    assert (await sock.open())[0]
    await sock.drain()
    assert not english_in(sock.frames[-1])

    def switch_on_a_laptop() -> None:
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        laptop = Client()
        laptop.force_login(get_user_model().objects.get(pk=match.creator_id))
        laptop.post(reverse("set_language"), {"language": "en", "next": "/"})

    await db(switch_on_a_laptop)
    frame = await sock.until(lambda f: 'id="table-status"' in f)
    assert "Your turn" in frame or "is defending" in frame or "leads" in frame
    await sock.close()


def setup_mixed_table():
    # Both names in Cyrillic, so any Latin word in a Russian frame is the page's.
    users = [make_user("Иван", language="en"), make_user("Мария", language="ru")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    return match, [session_cookie(u) for u in users]


@in_own_loop
async def test_at_a_mixed_table_each_player_reads_their_own_language_after_every_move():
    match, cookies = await db(setup_mixed_table)
    sockets, (version, snap, status) = await open_table(match.pk, cookies)
    rng = random.Random(11)
    for _ in range(40):
        if status != Match.Status.PLAYING:
            break
        action = rng.choice(
            [a for a in Game.from_snapshot(snap).legal_actions() if a.kind != "swap"]
        )
        await sockets[action.seat].send(
            {"type": "action", "action": str(action), "version": version}
        )
        frames = [await sock.until_version(version + 1) for sock in sockets]
        assert not english_in(frames[1]), english_in(frames[1])
        version, snap, status = await db(snapshot, match.pk)
    assert sum(bool(english_in(frame)) for frame in sockets[0].frames) > 20
    for sock in sockets:
        await sock.close()
