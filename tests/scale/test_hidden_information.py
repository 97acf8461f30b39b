"""No frame or page a seat receives holds another seat's cards, the talon or the deck.

Whole games of several variants, 2-6 players, are played with random legal moves,
each sent by its own seat's socket; every frame every seat (and a spectator)
receives is scanned, as are the table pages, against what that seat may not know
at that moment: card codes and card names, in text, attributes and comments.
The replay of a game still running is refused; the shuffle uses ``secrets``.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from durak.engine import Game, card_code
from games import services
from games.models import Deal, Match, RuleVariant
from table.rendering import card as card_info

from .conftest import Socket, db, in_own_loop, make_user, session_cookie
from .invariants import assert_moves_gap_free, assert_snapshot_is_replay, hidden_from

# Through the real consumer: every frame of whole games.
SOCKET_GAMES = [("classic", 2)]
# Through the services and the consumer's render function (the same HTML, faster).
RENDER_GAMES = [
    ("transfer", 3),
    ("teams-2x2", 4),
    ("transfer-trump-show", 5),
    ("one-winner", 6),
    ("short-deck-24", 2),
]
CSRF = re.compile(r'(?:csrfmiddlewaretoken" value="|"X-CSRFToken": ")([^"]+)"')


def leaks(text: str, hidden: set[str], secrets_: tuple[str, ...] = ()) -> list[str]:
    """Hidden cards named in ``text``: by code (as a token) or by their spoken name."""
    for token in (*secrets_, *CSRF.findall(text)):
        text = text.replace(token, "")
    found = []
    for code in hidden:
        if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text):
            found.append(code)
        elif card_info(code)["label"] in text:
            found.append(card_info(code)["label"])
    return found


def pick(game: Game, rng: random.Random):
    """A random legal action; taking is made rare so whole games stay short."""
    legal = game.legal_actions()
    weights = [0.15 if a.kind == "take" else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


def table_for(slug: str, players: int):
    users = [make_user("h") for _ in range(players)]
    match = services.create_match(users[0], RuleVariant.objects.get(slug=slug), players)
    for user in users[1:]:
        services.join_match(match, user)
    spectator = make_user("watch")
    match.refresh_from_db()
    return match, users, spectator, [session_cookie(u) for u in [*users, spectator]]


def state_of(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def pages(match: Match, users: list, spectator) -> tuple[list[tuple[int | None, str]], list[int]]:
    """Every viewer's table page, and the status codes of the running game's replay."""
    found = []
    for seat, user in [*enumerate(users), (None, spectator)]:
        client = Client()
        client.force_login(user)
        response = client.get(f"/games/{match.pk}/")
        assert response.status_code == 200
        found.append((seat, response.content.decode()))
    client = Client()
    client.force_login(users[0])
    replay = [
        client.get(f"/games/{match.pk}/replay/").status_code,
        client.get(f"/games/{match.pk}/replay/record.json").status_code,
    ]
    return found, replay


def assert_no_leak(match: Match, viewer: int | None, text: str, where: str) -> None:
    hidden = hidden_from(match.state, viewer)
    found = leaks(text, hidden, (match.invite_token,))
    assert not found, f"{where} for seat {viewer} shows hidden {found}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("slug", "players"), SOCKET_GAMES)
@in_own_loop
async def test_whole_games_over_sockets_never_show_hidden_cards(slug: str, players: int) -> None:
    match, users, spectator, cookies = await db(table_for, slug, players)
    viewers: list[int | None] = [*range(players), None]
    sockets = {
        v: Socket(f"/ws/games/{match.pk}/", c) for v, c in zip(viewers, cookies, strict=True)
    }
    for sock in sockets.values():
        connected, _ = await sock.open()
        assert connected
        await sock.until_version(match.version)
    rng = random.Random(f"{slug}-{players}")
    checked = {v: 0 for v in viewers}
    steps = 0
    while True:
        match = await db(state_of, match.pk)
        for viewer, sock in sockets.items():
            await sock.drain(0.02)
            for frame in sock.frames[checked[viewer] :]:
                assert_no_leak(match, viewer, frame, "a frame")
            checked[viewer] = len(sock.frames)
        if match.status != Match.Status.PLAYING:
            break
        if steps == 5:
            found, replay = await db(pages, match, users, spectator)
            for viewer, html in found:
                assert_no_leak(match, viewer, html, "the table page")
            assert replay == [404, 404], "the replay of a running game must be refused"
        game = Game.from_snapshot(match.state)
        action = pick(game, rng)
        await sockets[action.seat].send(
            {"type": "action", "action": str(action), "version": match.version}
        )
        for sock in sockets.values():
            await sock.until_version(match.version + 1)
        steps += 1
        assert steps < 400, "the game does not end"
    assert match.status == Match.Status.FINISHED
    assert sum(checked.values()) > steps * len(viewers)
    await db(assert_moves_gap_free, match.pk)
    await db(assert_snapshot_is_replay, match)
    for sock in sockets.values():
        await sock.close()


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "players"), RENDER_GAMES)
def test_whole_games_never_render_hidden_cards(slug: str, players: int) -> None:
    from table.rendering import Viewer, render_chat, render_state

    match, users, spectator, cookies = table_for(slug, players)
    viewers = [Viewer(u.pk, seat) for seat, u in enumerate(users)] + [Viewer(spectator.pk, None)]
    rng = random.Random(f"{slug}-{players}")
    steps = 0
    while True:
        match = state_of(match.pk)
        for viewer in viewers:
            # A full render (with chat) now and then, the usual push otherwise.
            version, html = render_state(match.pk, viewer, full=steps % 10 == 0)
            assert version == match.version
            assert_no_leak(match, viewer.seat, html, "a push")
        if match.status != Match.Status.PLAYING:
            break
        if steps == 3:
            services.post_chat(match.pk, users[0], "good luck")
            for viewer in viewers:
                assert_no_leak(match, viewer.seat, render_chat(match.pk, viewer), "the chat")
            found, replay = pages(match, users, spectator)
            for seat, html in found:
                assert_no_leak(match, seat, html, "the table page")
            assert replay == [404, 404], "the replay of a running game must be refused"
        game = Game.from_snapshot(match.state)
        action = pick(game, rng)
        services.apply_action(match.pk, users[action.seat], str(action), version=match.version)
        steps += 1
        assert steps < 600, "the game does not end"
    assert match.status == Match.Status.FINISHED
    assert_moves_gap_free(match.pk)
    assert_snapshot_is_replay(match)


@pytest.mark.django_db
def test_shuffle_uses_secrets_and_the_deck_stays_on_the_server(monkeypatch) -> None:
    import secrets as secrets_module

    shuffled: list[list[str]] = []

    class Recording(secrets_module.SystemRandom):
        def shuffle(self, x) -> None:  # type: ignore[override]
            super().shuffle(x)
            shuffled.append(list(x))

    monkeypatch.setattr(secrets_module, "SystemRandom", Recording)
    match, users, spectator, cookies = table_for("classic", 2)
    deal = Deal.objects.get(match=match)
    # The deck dealt is exactly the one the OS-entropy generator shuffled (the engine
    # shuffles the cards' indices).
    assert shuffled and deal.deck == [card_code(index) for index in shuffled[-1]]
    assert sorted(deal.deck) == sorted(set(deal.deck)) and len(deal.deck) == 36

    client = Client()
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    order = " ".join(deal.deck)
    assert order not in page and "".join(deal.deck) not in page
    state = Match.objects.get(pk=match.pk).state
    assert not leaks(page, hidden_from(state, 0), (match.invite_token,))


def test_the_scanner_finds_cards_wherever_they_hide() -> None:
    hidden = {"6H", "QS", "TD"}
    assert leaks('<li data-card="6H">', hidden) == ["6H"]
    assert leaks("<!-- debug: QS -->", hidden) == ["QS"]
    assert leaks('{"hand": ["TD"]}', hidden) == ["TD"]
    assert leaks('<span aria-label="queen of spades">', hidden) == ["queen of spades"]
    assert leaks('<div class="card-6H">', hidden) == ["6H"]
    assert leaks("<p>6HQSTD 16H TDX</p>", hidden) == []
    token = "abc-6H-xyz"
    assert leaks(f'<input name="csrfmiddlewaretoken" value="{token}">', hidden) == []
