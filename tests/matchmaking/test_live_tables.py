"""The lobby's games in progress: public tables in play, listed for anyone to watch and
kept current over the lobby socket."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from friends.services import block
from games.models import RuleVariant
from games.services import create_match, resign
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import make_user


def live_list(html: str) -> str:
    """The lobby's list of games in progress, from a page or a push."""
    return html.split('id="live-tables"', 1)[1].split("</div>", 1)[0]


def lobby_for(user, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get("/").content.decode()


def classic() -> RuleVariant:
    return RuleVariant.objects.get(slug="classic")


@pytest.mark.django_db
def test_public_games_in_play_are_listed_to_watch_in_english_and_russian():
    alla, boris, vera = make_user(), make_user(), make_user()
    public = create_match(alla, classic(), 2, bots=["medium"])
    private = create_match(boris, classic(), 2, bots=["medium"], is_private=True)
    waiting = create_match(vera, classic(), 2)
    english = live_list(lobby_for(vera, "en"))
    assert reverse("games:table", args=[public.pk]) in english
    assert "Watch" in english and alla.username in english and "Bot 2 (Medium)" in english
    for hidden in (private, waiting):
        assert reverse("games:table", args=[hidden.pk]) not in english
    russian = live_list(lobby_for(vera, "ru"))
    assert "Смотреть" in russian and "Бот 2 (Средний)" in russian
    # A player finds their own game in the list as a way back to it.
    own = live_list(lobby_for(alla, "en"))
    assert reverse("games:table", args=[public.pk]) in own
    assert "Back to your game" in own and "Watch" not in own


@pytest.mark.django_db
def test_the_tables_of_a_player_who_blocked_you_are_left_out_of_your_lists():
    alla, boris, vera = make_user(), make_user(), make_user()
    block(alla, vera)
    playing = create_match(alla, classic(), 2, bots=["medium"])
    waiting = create_match(alla, classic(), 3)
    tables = {
        name: lobby_for(user, "en").split('id="open-tables"')[1]
        for name, user in (("boris", boris), ("vera", vera))
    }
    for match in (playing, waiting):
        url = reverse("games:table", args=[match.pk])
        assert url in tables["boris"] and url not in tables["vera"]


@pytest.mark.django_db
def test_with_nothing_to_watch_the_list_says_so():
    create_match(make_user(), classic(), 2)
    assert "No game to watch right now." in live_list(lobby_for(make_user(), "en"))
    assert "Сейчас нет партий" in live_list(lobby_for(make_user(), "ru"))


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_game_that_ends_leaves_the_list_and_the_count_over_the_lobby_socket():
    alla, vera = await db(make_user), await db(make_user)
    match = await db(create_match, alla, await db(classic), 2, bots=["medium"])
    lobby = Socket("/ws/lobby/", await db(session_cookie, vera))
    assert (await lobby.open())[0]
    await lobby.drain()
    await db(resign, match.pk, alla)
    frame = await lobby.until(lambda f: 'id="live-tables"' in f)
    assert reverse("games:table", args=[match.pk]) not in live_list(frame)
    assert "No game to watch right now." in live_list(frame)
    assert "0 tables playing" in frame
    await lobby.close()
