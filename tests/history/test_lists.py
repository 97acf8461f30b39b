import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from history.models import PlayerGame
from history.seeding import get_user

from .helpers import play_match

pytestmark = pytest.mark.django_db


def _deals(html):
    return {int(n) for n in re.findall(r'<tr data-deal="(\d+)"', html)}


@pytest.fixture
def games():
    public = play_match(["anna", "boris"], "classic", deals=2, seed=1)
    private = play_match(["anna", "vera"], "classic", seed=2, is_private=True)
    transfer = play_match(["anna", "boris", "gleb"], "transfer", seed=3)
    return {"public": public, "private": private, "transfer": transfer}


def _ids(match):
    return set(match.deals.values_list("id", flat=True))


def test_private_games_show_only_to_their_players(client, games):
    url = reverse("history:games", args=["anna"])
    everyone = _ids(games["public"]) | _ids(games["transfer"])
    assert _deals(client.get(url).content.decode()) == everyone
    client.force_login(get_user("boris"))
    assert _deals(client.get(url).content.decode()) == everyone
    client.force_login(get_user("vera"))
    assert _deals(client.get(url).content.decode()) == everyone | _ids(games["private"])
    client.force_login(get_user("anna"))
    assert _deals(client.get(url).content.decode()) == everyone | _ids(games["private"])
    # The profile's recent games hide them too.
    client.logout()
    profile = client.get(reverse("accounts:profile", args=["anna"])).content.decode()
    assert f"/games/{games['private'].pk}/replay/" not in profile
    assert f"/games/{games['public'].pk}/replay/" in profile


def test_filters_update_the_list_fragment(client, games):
    url = reverse("history:games", args=["anna"])
    response = client.get(
        url, {"variant": "transfer", "result": "", "opponent": ""}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "<html" not in html and 'id="game-list"' in html
    assert response["Vary"] and "HX-Request" in response["Vary"]
    assert _deals(html) == _ids(games["transfer"])
    assert response["HX-Push-Url"] == url + "?variant=transfer"
    assert _deals(client.get(url, {"opponent": "BORIS"}).content.decode()) == _ids(
        games["public"]
    ) | _ids(games["transfer"])
    assert (
        _deals(client.get(url, {"opponent": "gleb", "variant": "classic"}).content.decode())
        == set()
    )
    for result in ("fool", "safe"):
        expected = set(
            PlayerGame.objects.filter(
                user__username="anna", result=result, is_private=False
            ).values_list("deal_id", flat=True)
        )
        assert _deals(client.get(url, {"result": result}).content.decode()) == expected
    # An unknown result is ignored rather than an error.
    assert client.get(url, {"result": "nonsense"}).status_code == 200
    # Each row names the opponents and the move count.
    html = client.get(url).content.decode()
    assert "boris" in html and "gleb" in html


def test_list_is_paginated(client):
    for seed in range(3):
        play_match(["anna", "boris"], "short-deck-24", seed=seed)
    from history import views

    original = views.GAMES_PER_PAGE
    views.GAMES_PER_PAGE = 2
    try:
        url = reverse("history:games", args=["anna"])
        first = _deals(client.get(url).content.decode())
        second = _deals(client.get(url, {"page": 2}).content.decode())
    finally:
        views.GAMES_PER_PAGE = original
    assert len(first) == 2 and len(second) == 1 and not first & second


def test_profile_statistics_and_chart(client, games):
    url = reverse("accounts:profile", args=["anna"])
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url).content.decode()
    rows = PlayerGame.objects.filter(user__username="anna")
    assert re.search(f'data-stat="games">{rows.count()}<', html)
    assert re.search(f'data-stat="fools">{rows.filter(result="fool").count()}<', html)
    assert re.search(f'data-stat="safe">{rows.filter(result="safe").count()}<', html)
    assert (
        "<svg" in html
        and "<polyline" in html
        and "<script" not in html.split("<svg")[1].split("</svg>")[0]
    )
    assert 'data-testid="stats-variant"' in html and 'data-testid="stats-players"' in html
    first = len(queries.captured_queries)
    # More games do not mean more queries.
    play_match(["anna", "boris", "vera", "gleb"], "transfer", deals=3, seed=9)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    assert len(queries.captured_queries) == first


@override_settings(LEADERBOARD_MIN_GAMES=2)
def test_leaderboard_needs_the_minimum_number_of_games(client):
    play_match(["anna", "boris"], "classic", deals=2, seed=4)
    play_match(["anna", "vera"], "classic", seed=5)
    page = client.get(reverse("daily:leaderboard")).content.decode()
    # The rating board: the week's boards beside it list everyone who played.
    html = page.split('data-testid="leaderboard"', 1)[1].split("</table>", 1)[0]
    assert "anna" in html and "boris" in html and "vera" not in html
    teams = client.get(reverse("daily:leaderboard"), {"class": "teams"}).content.decode()
    assert 'data-testid="leaderboard"' not in teams
    order = re.findall(r'/u/(\w+)/"', html)
    ratings = {n: get_user(n).ratings.get(rating_class="two_player").rating for n in order}
    assert order == sorted(order, key=lambda n: -ratings[n])
