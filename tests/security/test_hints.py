"""Hints: one limit per user across HTTP and every socket, one template, clean refusals."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import pytest
from django.test import Client
from django.urls import reverse

from analysis import hints
from durak.engine import Game, Rules
from games.models import Match
from history.seeding import create_match, get_user
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, in_own_loop, session_cookie
from tests.table_fingerprint import table_fingerprint


@pytest.fixture(autouse=True)
def quick_hints(settings):
    settings.GAMES_HINT_PLAYOUTS = 20
    from django.core.cache import cache

    cache.clear()


def unrated_table(seed: int = 4) -> tuple[Match, Game, dict]:
    alice, bob = get_user("alice"), get_user("bob")
    match = create_match([alice, bob], is_rated=False)
    game = Game.new(Rules.from_dict(match.rules), seed)
    match.state = game.snapshot()
    match.save()
    return match, game, {0: alice, 1: bob}


def attacker_with_nothing_to_throw_in(rules: Rules) -> Game:
    """A position where the attacker may still throw in, but holds no card that fits."""
    for seed in range(1000):
        game = Game.new(rules, seed)
        attacker = game.attacker
        for lead in game.legal_actions():
            if lead.seat != attacker or lead.kind != "attack" or len(lead.cards) != 1:
                continue
            after = game.copy()
            after.apply(lead)
            if attacker in after.to_act() and not any(
                a.seat == attacker for a in after.legal_actions()
            ):
                return after
    raise AssertionError("no such position in the first thousand deals")


@pytest.mark.django_db
def test_a_hint_with_nothing_to_throw_in_is_refused_cleanly(client) -> None:
    match, _, users = unrated_table()
    game = attacker_with_nothing_to_throw_in(Rules.from_dict(match.rules))
    match.state = game.snapshot()
    match.save()
    before = table_fingerprint(match.pk)
    client.force_login(users[game.attacker])
    response = client.post(reverse("analysis:hint", args=[match.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "nothing to play now" in response.content.decode()
    assert table_fingerprint(match.pk) == before


@pytest.mark.django_db
def test_parallel_hint_requests_of_one_user_share_one_counter(settings) -> None:
    settings.GAMES_HINT_RATE = (3, 60)
    match, game, users = unrated_table()
    user = users[game.to_act()[0]]
    statuses = []
    for _ in range(6):
        client = Client()  # a client each: the limit is the user's, not the session's
        client.force_login(user)
        statuses.append(client.post(reverse("analysis:hint", args=[match.pk])).status_code)
    assert statuses == [202, 202, 202, 429, 429, 429]
    # Another player has a counter of their own.
    other = Client()
    other.force_login(users[1 - game.to_act()[0]])
    assert other.post(reverse("analysis:hint", args=[match.pk])).status_code == 409


@pytest.mark.django_db
def test_a_burst_across_a_minute_boundary_is_still_one_window(settings, monkeypatch) -> None:
    # A window tied to the clock's minutes would let three hints at :59 and three
    # more at :00 through.
    settings.GAMES_HINT_RATE = (3, 60)
    _, game, users = unrated_table()
    user = users[game.to_act()[0]]
    monkeypatch.setattr("time.time", lambda: 1_800_000_059.9)
    for _ in range(3):
        hints.take_hint_allowance(user)
    monkeypatch.setattr("time.time", lambda: 1_800_000_060.1)
    with pytest.raises(hints.Refused):
        hints.take_hint_allowance(user)


def csrf_token_for(base: str, cookie: str) -> str:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    request = urllib.request.Request(f"{base}/", headers={"Cookie": f"sessionid={cookie}"})
    with opener.open(request, timeout=30) as page:
        token = next(
            c.split("=", 1)[1].split(";", 1)[0]
            for c in page.headers.get_all("Set-Cookie")
            if c.startswith("csrftoken=")
        )
    return token


@pytest.fixture
def three_hints_a_minute(settings) -> None:
    # Set before the server process forks, so it inherits the limit.
    settings.GAMES_HINT_RATE = (3, 60)


@pytest.mark.django_db(transaction=True)
def test_the_limit_holds_across_http_and_all_of_a_users_sockets(
    three_hints_a_minute, live_server_url, bot_worker
):
    match, game, users = unrated_table()
    user = users[game.to_act()[0]]
    cookie = session_cookie(user)
    before = table_fingerprint(match.pk)
    token = csrf_token_for(live_server_url, cookie)

    def post_hint() -> tuple[int, str]:
        request = urllib.request.Request(
            f"{live_server_url}/games/{match.pk}/hint/",
            method="POST",
            headers={
                "Cookie": f"sessionid={cookie}; csrftoken={token}",
                "X-CSRFToken": token,
                "HX-Request": "true",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()

    @in_own_loop
    async def run() -> list:
        sockets = [TableClient(live_server_url, match.pk, cookie) for _ in range(2)]
        for sock in sockets:
            await sock.open()
        seen = []

        async def socket_hint(sock: TableClient) -> str:
            await sock.send({"type": "hint"})
            # A bot worker answers: give a loaded machine time to start it.
            return await sock.until(
                lambda f: 'id="table-hint"' in f and "data-action" in f or ERROR in f, timeout=60
            )

        seen.append(await asyncio.to_thread(post_hint))
        seen.append(await socket_hint(sockets[0]))
        seen.append(await socket_hint(sockets[1]))
        seen.append(await socket_hint(sockets[0]))
        seen.append(await socket_hint(sockets[1]))
        seen.append(await asyncio.to_thread(post_hint))
        for sock in sockets:
            await sock.close()
        return seen

    first, a1, b1, a2, b2, last = run()
    assert first[0] == 202 and 'id="table-hint"' in first[1] and "hx-get" in first[1]
    assert ERROR not in a1 and "data-action" in a1
    assert ERROR not in b1 and "data-action" in b1
    for refused in (a2, b2):
        assert ERROR in refused and "too fast" in refused
    assert last[0] == 429 and "too fast" in last[1]
    assert table_fingerprint(match.pk) == before


def test_the_page_and_the_socket_render_one_template() -> None:
    html = hints.render_hint(error="No.")
    assert 'id="table-hint"' in html and "No." in html
