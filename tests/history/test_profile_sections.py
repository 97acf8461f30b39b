"""On another player's profile the reader's games with them stand apart from the
player's own figures: the figures under a heading naming the player, the games together
in a section of their own after them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from .helpers import play_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "theirs", "together"),
    [
        ("en", "kira's games", "Your games together"),
        ("ru", "Партии игрока kira", "Ваши партии"),
    ],
)
def test_the_games_together_follow_the_players_own_figures(language, theirs, together):
    users = get_user_model().objects
    ilya = users.create_user(username="ilya", password="pw-ilya")
    kira = users.create_user(username="kira", password="pw-kira")
    play_match([ilya, kira], deals=2, seed=3)
    client = Client(headers={"accept-language": language})
    client.force_login(ilya)
    html = client.get("/u/kira/").content.decode()
    heading = html.index(f"<h2>{theirs}</h2>")
    tiles = html.index('data-stat="games"')
    games_together = html.index('data-testid="head-to-head"')
    assert heading < tiles < games_together
    assert together in html[games_together:]
    # The player's card ends before the reader's games with them begin.
    assert "</section>" in html[tiles:games_together]
    assert html.rindex('<section class="card', 0, games_together) > tiles
