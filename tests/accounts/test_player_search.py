"""Finding a player by name, from the lobby's friends panel or the players page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def names_found(html: str) -> list[str]:
    results = re.search(r'data-testid="player-results">(.*?)</ul>', html, re.S)
    return re.findall(r'<a href="/u/[^"]+/">([^<]+)</a>', results.group(1)) if results else []


def make(*names: str, **fields) -> None:
    for name in names:
        get_user_model().objects.create(username=name, **fields)


def test_the_name_itself_first_then_names_starting_with_it_then_the_rest(client):
    make("Anna", "annabel", "Joanna", "hannah", "boris")
    page = client.get(reverse("accounts:players"), {"q": "  ANNA "}).content.decode()
    assert names_found(page) == ["Anna", "annabel", "hannah", "Joanna"]
    assert 'value="ANNA"' in page


def test_closed_accounts_are_not_found_and_a_miss_says_so_in_russian(client):
    make("vera")
    make("veronika", is_active=False)
    page = client.get(
        reverse("accounts:players"), {"q": "ver"}, HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert names_found(page) == ["vera"]
    page = client.get(
        reverse("accounts:players"), {"q": "<zz>"}, HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "Нет игрока, в имени которого есть «&lt;zz&gt;»." in page
    assert names_found(page) == []


def test_one_letter_is_too_few_and_many_matches_are_cut_short(client):
    make(*(f"player{n:02}" for n in range(25)))
    page = client.get(reverse("accounts:players"), {"q": "p"}).content.decode()
    assert names_found(page) == [] and "Type at least 2 letters of the name." in page
    page = client.get(reverse("accounts:players"), {"q": "player"}).content.decode()
    assert names_found(page) == [f"player{n:02}" for n in range(20)]
    assert "Only the first 20 names are shown" in page


def test_the_lobby_friends_panel_offers_the_search(client):
    make("kira")
    client.force_login(get_user_model().objects.get(username="kira"))
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    panel = page[page.index('id="friends-panel"') :]
    assert f'action="{reverse("accounts:players")}"' in panel
    assert "Найти" in panel and "Друзей пока нет: найдите игрока по имени" in panel
