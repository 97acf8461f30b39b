"""The lobby's games in progress: public tables in play, listed for anyone to watch and
kept current over the lobby socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from friends.services import block
from games.models import Match, RuleVariant
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
    assert reverse("table:table", args=[public.pk]) in english
    assert "Watch" in english and alla.username in english and "Bot 2 (Medium)" in english
    for hidden in (private, waiting):
        assert reverse("table:table", args=[hidden.pk]) not in english
    russian = live_list(lobby_for(vera, "ru"))
    assert "Смотреть" in russian and "Бот 2 (Средний)" in russian
    # A player finds their own game in the list as a way back to it.
    own = live_list(lobby_for(alla, "en"))
    assert reverse("table:table", args=[public.pk]) in own
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
        url = reverse("table:table", args=[match.pk])
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
    assert reverse("table:table", args=[match.pk]) not in live_list(frame)
    assert "No game to watch right now." in live_list(frame)
    assert "0 tables playing" in frame
    await lobby.close()


def games_in_play(count: int) -> list:
    """``count`` public games against a bot, each by a player of its own, oldest first."""
    return [create_match(make_user(), classic(), 2, bots=["easy"]) for _ in range(count)]


def table_links(html: str) -> list[str]:
    return [
        line.split('href="', 1)[1].split('"', 1)[0]
        for line in html.split("\n")
        if 'class="button button-small button-secondary" href="/games/' in line
    ]


@pytest.mark.django_db
def test_the_lobby_lists_ten_and_links_to_the_rest():
    viewer = make_user()
    games_in_play(10)
    assert "All games in progress" not in live_list(lobby_for(viewer, "en"))
    newest = games_in_play(1)[0]
    listed = live_list(lobby_for(viewer, "en"))
    assert len(table_links(listed)) == 10
    assert reverse("table:table", args=[newest.pk]) in table_links(listed)
    assert f'href="{reverse("table:live")}"' in listed and "All games in progress" in listed
    assert "Все идущие партии" in live_list(lobby_for(viewer, "ru"))


@pytest.mark.django_db
def test_every_public_game_in_play_is_on_a_page_newest_first():
    games = games_in_play(27)
    # Started a minute apart, the newest seven minutes ago.
    now = timezone.now()
    for age, game in enumerate(reversed(games), start=7):
        Match.objects.filter(pk=game.pk).update(started_at=now - timedelta(minutes=age))
    private = create_match(make_user(), classic(), 2, bots=["easy"], is_private=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    first = client.get(reverse("table:live")).content.decode()
    second = client.get(reverse("table:live") + "?page=2").content.decode()
    urls = [reverse("table:table", args=[g.pk]) for g in reversed(games)]
    assert table_links(first) == urls[:25] and table_links(second) == urls[25:]
    assert (
        "7\xa0minutes ago" in first
        and "Page 1 of 2" in first
        and "?page=2" in first
        and "Page 2 of 2" in second
    )
    assert reverse("table:table", args=[private.pk]) not in first + second
    # A page past the end shows the last one rather than an error.
    assert table_links(client.get(reverse("table:live") + "?page=9").content.decode()) == urls[25:]
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("table:live")).content.decode()
    assert (
        "Идущие партии" in russian
        and "Страница 1 из 2" in russian
        and "7\xa0минут назад" in russian
    )


@pytest.mark.django_db
def test_the_page_leaves_out_the_games_of_a_player_who_blocked_you():
    alla, vera = make_user(), make_user()
    block(alla, vera)
    hidden = create_match(alla, classic(), 2, bots=["medium"])
    client = Client()
    client.force_login(vera)
    page = client.get(reverse("table:live")).content.decode()
    assert reverse("table:table", args=[hidden.pk]) not in page
    assert "No game to watch right now." in page
