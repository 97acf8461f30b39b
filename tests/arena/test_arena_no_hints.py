"""No hints at an arena's tables: an arena is a competition.  The table offers no Hint
button there, and a hint asked for anyway (the page's request, a socket's frame) is
refused with the reason, in the asker's language, and nothing is queued; an ordinary
unrated table still offers them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import HintRequest
from arena import services
from durak.engine import Game
from games import services as games
from games.models import Match, RuleVariant
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import person, running_arena

HINT_BUTTON = "control-hint"
REFUSED = {
    "en": "An arena is a competition: its tables give no hints.",
    "ru": "Арена — это соревнование: за её столами подсказок нет.",
}


def to_act(match_id: int, *users):
    """Of ``users``, one who has a move to hint at now."""
    match = Match.objects.get(pk=match_id)
    seats = {seat.number: seat.user_id for seat in games.load_seats(match_id)}
    (number, *_others) = Game.from_snapshot(match.state).to_act()
    return next(user for user in users if user.pk == seats[number])


def arena_table() -> tuple[int, object]:
    """An unrated arena's table, and its player with a move to make."""
    arena = running_arena()
    assert not arena.is_rated
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    assert not Match.objects.get(pk=match_id).is_rated
    return match_id, to_act(match_id, a, b)


def ordinary_table() -> tuple[int, object]:
    a, b = person("or"), person("or")
    match = games.create_match(a, RuleVariant.objects.get(slug="classic"), 2, is_rated=False)
    games.join_match(match, b)
    return match.pk, to_act(match.pk, a, b)


def client_of(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_an_arena_table_offers_no_hint_button_and_an_ordinary_unrated_one_does():
    match_id, player = arena_table()
    page = client_of(player).get(reverse("table:table", args=[match_id]))
    assert page.status_code == 200 and 'class="hand-card' in page.content.decode()
    assert HINT_BUTTON not in page.content.decode()

    match_id, player = ordinary_table()
    page = client_of(player).get(reverse("table:table", args=[match_id]))
    assert HINT_BUTTON in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_hint_asked_for_at_an_arena_table_is_refused_and_nothing_queued(language):
    match_id, player = arena_table()
    client = client_of(player, language)
    asked = client.post(reverse("analysis:hint", args=[match_id]))
    assert asked.status_code == 403
    assert asked.json() == {"error": REFUSED[language]}
    as_the_page = client.post(
        reverse("analysis:hint", args=[match_id]), headers={"HX-Request": "true"}
    )
    assert as_the_page.status_code == 403 and REFUSED[language] in as_the_page.content.decode()
    assert not HintRequest.objects.exists()

    # An ordinary unrated table takes the same request.
    match_id, player = ordinary_table()
    assert (
        client_of(player, language).post(reverse("analysis:hint", args=[match_id])).status_code
        == 202
    )
    assert HintRequest.objects.filter(match_id=match_id).count() == 1


@pytest.fixture
def fresh_channel_layer():
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_forged_hint_frame_at_an_arena_table_is_refused(fresh_channel_layer):
    match_id, player = await db(arena_table)
    sock = Socket(f"/ws/games/{match_id}/", await db(session_cookie, player))
    assert (await sock.open())[0]
    await sock.drain()
    assert HINT_BUTTON not in "".join(sock.frames)
    await sock.send({"type": "hint", "HEADERS": {}})
    refusal = await sock.until_error()
    assert REFUSED["en"] in refusal
    assert not await db(HintRequest.objects.exists)
    await sock.close()
