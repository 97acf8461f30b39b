"""On another player's profile: the reader's games with them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from history.models import PlayerGame

from .helpers import play_match

pytestmark = pytest.mark.django_db


def user(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def profile_as(reader, name: str, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    if reader is not None:
        client.force_login(reader)
    return client.get(f"/u/{name}/").content.decode()


def together(html: str) -> str:
    if 'data-testid="head-to-head"' not in html:
        return ""
    return html.split('data-testid="head-to-head"', 1)[1].split("</section>", 1)[0]


def test_the_reader_sees_their_games_with_the_player_and_who_was_the_fool():
    ilya, kira, lev = user("ilya"), user("kira"), user("lev")
    play_match([ilya, kira], deals=4, seed=3)
    play_match([ilya, kira, "easy"], deals=1, seed=5)
    play_match([ilya, lev], deals=2, seed=7)  # not with kira: not counted
    games = PlayerGame.objects.filter(user=ilya, match__seats__user=kira).distinct()
    expected_ilya = games.filter(result=PlayerGame.Result.FOOL).count()
    expected_kira = PlayerGame.objects.filter(user=kira, result=PlayerGame.Result.FOOL).count()
    english = together(profile_as(ilya, "kira"))
    assert "5 games at one table." in english
    assert f"Fool: you {expected_ilya}, kira {expected_kira}." in english
    assert 'href="/u/ilya/games/?opponent=kira"' in english
    russian = together(profile_as(ilya, "kira", "ru"))
    assert "5 партий за одним столом." in russian and "Ваши партии с kira" in russian
    # Kira reads the same games from her side.
    assert f"Fool: you {expected_kira}, ilya {expected_ilya}." in together(profile_as(kira, "ilya"))


def test_nothing_shows_without_games_together_on_ones_own_profile_or_signed_out():
    ilya, kira, lev = user("ilya"), user("kira"), user("lev")
    play_match([ilya, kira], deals=1, seed=1)
    assert together(profile_as(lev, "kira")) == ""
    assert together(profile_as(kira, "kira")) == ""
    assert together(profile_as(None, "kira")) == ""
    assert together(profile_as(ilya, "kira")) != ""
