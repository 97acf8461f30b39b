"""The "Play now" panel over HTTP and the lobby socket, in English and Russian."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from matchmaking import services
from matchmaking.models import Seek
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import client_for, make_user, wishes

HTMX = {"HTTP_HX_REQUEST": "true"}


def form(**changes) -> dict:
    data = {k: v for k, v in wishes(**changes).items() if v is not False}
    return {k: ("on" if v is True else v) for k, v in data.items()}


@pytest.mark.django_db
def test_the_lobby_opens_on_play_now_with_the_last_choice():
    user = make_user()
    page = client_for(user).get("/").content.decode()
    assert "Play now" in page and 'id="play-panel"' in page
    assert page.index('id="play-panel"') < page.index('id="open-tables"')
    services.create_seek(user, **wishes(mode="perevodnoy", players=4))
    services.cancel_seek(user)
    page = client_for(user).get("/").content.decode()
    assert 'value="perevodnoy" required checked' in page or (
        'value="perevodnoy"' in page and "checked" in page.split('value="perevodnoy"')[1][:40]
    )
    assert '<option value="4" selected>' in page


@pytest.mark.django_db
def test_two_players_press_play_now_and_the_second_goes_to_the_table():
    alla, boris = make_user(), make_user()
    waiting = client_for(alla).post(reverse("matchmaking:play"), form(), **HTMX)
    assert waiting.status_code == 200
    text = waiting.content.decode()
    assert "Looking for opponents" in text and "Cancel" in text
    seated = client_for(boris).post(reverse("matchmaking:play"), form(), **HTMX)
    match = Match.objects.get()
    assert seated["HX-Redirect"] == reverse("table:table", args=[match.pk])
    # Alla's lobby, loaded again, sends her there too.
    page = client_for(alla).get("/").content.decode()
    assert f'data-go="{reverse("table:table", args=[match.pk])}"' in page


@pytest.mark.django_db
def test_a_play_now_game_is_open_to_watch_but_never_an_open_table():
    alla, boris, vera = make_user(), make_user(), make_user()
    services.create_seek(alla, **wishes())
    services.create_seek(boris, **wishes())
    match = Match.objects.get()
    watcher = client_for(vera)
    page = watcher.get(reverse("table:table", args=[match.pk]))
    assert page.status_code == 200
    assert alla.username in page.content.decode() and boris.username in page.content.decode()
    lobby = watcher.get("/").content.decode()
    open_tables, games_in_progress = lobby.split('id="open-tables"')[1].split('id="live-tables"')
    assert reverse("table:table", args=[match.pk]) not in open_tables
    assert reverse("table:table", args=[match.pk]) in games_in_progress


@pytest.mark.django_db
def test_bad_choices_are_refused_in_russian_and_change_nothing():
    user = make_user()
    response = client_for(user, "ru").post(
        reverse("matchmaking:play"), form(players=9, speed="warp"), **HTMX
    )
    text = response.content.decode()
    assert "Играть" in text and 'role="alert"' in text
    response = client_for(user, "ru").post(
        reverse("matchmaking:play"), form(players=6, deck_size=24), **HTMX
    )
    assert "24" in response.content.decode() and "недостаточно" in response.content.decode()
    assert not Seek.objects.exists()


@pytest.mark.django_db
def test_the_waiting_panel_announces_the_bot_in_russian_and_cancels():
    user = make_user()
    client = client_for(user, "ru")
    text = client.post(reverse("matchmaking:play"), form(allow_bots="on"), **HTMX).content.decode()
    assert "Ищем соперников" in text and "бот" in text and "data-bot-at" in text
    text = client.post(reverse("matchmaking:cancel"), **HTMX).content.decode()
    assert "Играть" in text
    assert Seek.objects.get().status == Seek.Status.CANCELLED
    text = client.post(reverse("matchmaking:cancel"), **HTMX).content.decode()
    assert "Вы не ищете игру" in text


@pytest.mark.django_db
@pytest.mark.parametrize("rated_with_bots", [False, True])
def test_the_waiting_panel_says_whether_a_bot_leaves_the_game_rated(rated_with_bots):
    variant, _rules = services.table_for("podkidnoy", 36, 2)
    variant.rated_with_bots = rated_with_bots
    variant.save()
    user = make_user()
    client = client_for(user, "ru")
    text = client.post(reverse("matchmaking:play"), form(allow_bots="on"), **HTMX).content.decode()
    assert ("Партия с ботом идёт без рейтинга" in text) is not rated_with_bots
    text = client_for(user).get("/").content.decode()
    assert ("A game with a bot is not rated" in text) is not rated_with_bots
    # The bot comes, and the table says what the panel promised, in both languages.
    Seek.objects.update(created_at=timezone.now() - timedelta(seconds=60), bots_at=timezone.now())
    [made] = services.pair_all()
    match = Match.objects.get(pk=made)
    assert match.is_rated is rated_with_bots
    table = reverse("table:table", args=[made])
    ru = client.get(table).content.decode()
    en = client_for(user).get(table).content.decode()
    if rated_with_bots:
        assert "Рейтинговая партия" in ru and "Rated game" in en
    else:
        assert "Партия без рейтинга" in ru and "Unrated game" in en


@pytest.mark.django_db
def test_an_unrated_seek_says_nothing_of_bots_and_ratings():
    client = client_for(make_user())
    text = client.post(
        reverse("matchmaking:play"), form(allow_bots="on", is_rated=False), **HTMX
    ).content.decode()
    assert "unrated" in text and "A game with a bot" not in text


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_waiting_seeker_is_sent_to_the_table_over_the_lobby_socket():
    alla, boris = await db(make_user), await db(make_user)
    lobby = Socket("/ws/lobby/", await db(session_cookie, alla))
    assert (await lobby.open())[0]
    await lobby.drain()
    await db(services.create_seek, alla, **wishes())
    await db(services.create_seek, boris, **wishes())
    match = await db(Match.objects.get)
    frame = await lobby.until(lambda f: "data-go" in f)
    assert f'data-go="/games/{match.pk}/"' in frame and 'hx-swap-oob="true"' in frame
    counts = await lobby.until(lambda f: 'id="lobby-counts"' in f and "1 table playing" in f)
    assert "looking for a game" in counts
    await lobby.close()
