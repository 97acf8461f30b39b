"""The result panel's ratings: what a finished rated game did to each player's rating."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from durak.engine import Game
from games import services
from games.models import Match, RuleVariant
from history.models import Rating
from history.seeding import play_match

pytestmark = pytest.mark.django_db


def ratings_url(match) -> str:
    return reverse("history:deal_ratings", args=[match.pk, 1])


def test_each_player_reads_their_new_rating_and_the_change(client):
    match = play_match(["anna", "boris"], "classic", seed=8)
    fool = match.deals.get().result["fool"]
    fool_name = match.seats.get(number=fool).user.username
    client.force_login(get_user_model().objects.get(username="anna"))
    html = client.get(ratings_url(match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ratings after this game" in html
    for rating in Rating.objects.select_related("user"):
        shown = f"{rating.rating:.0f} "
        assert shown in html
        change = round(rating.rating - 1500)
        sign = "\u2212" if rating.user.username == fool_name else "+"
        assert f"{sign}{abs(change)}</span>" in html
    # The asking player's row is marked.
    assert '<tr class="is-viewer"><td>anna</td>' in html


def test_the_ratings_speak_russian(client):
    match = play_match(["anna", "boris"], "classic", seed=8)
    html = client.get(ratings_url(match), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Рейтинг после партии" in html
    assert "Рейтинг" in html and "Игрок" in html


def test_an_unrated_game_has_nothing_to_show(client):
    match = play_match(["anna", "boris"], "classic", seed=8, is_rated=False)
    assert client.get(ratings_url(match)).status_code == 204


def test_a_private_game_keeps_its_ratings_from_strangers(client):
    match = play_match(["anna", "boris"], "classic", seed=8, is_private=True)
    stranger = get_user_model().objects.create(username="vera")
    client.force_login(stranger)
    assert client.get(ratings_url(match)).status_code == 404
    client.force_login(get_user_model().objects.get(username="anna"))
    assert client.get(ratings_url(match)).status_code == 200


def play_live_to_the_end(*, is_rated: bool):
    """Two people's table played to its end through the service layer, as the sockets do."""
    users = [get_user_model().objects.create(username=n) for n in ("kira", "lev")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    Match.objects.filter(pk=match.pk).update(is_rated=is_rated)
    rng = random.Random(5)
    match.refresh_from_db()
    while match.status == Match.Status.PLAYING:
        game = Game.from_snapshot(match.state)
        action = rng.choice([a for a in game.legal_actions() if a.kind != "swap"])
        services.apply_action(match.pk, action.seat, str(action), version=match.version)
        match.refresh_from_db()
    return match, users


def test_the_result_panel_of_a_rated_game_loads_the_ratings(client):
    match, users = play_live_to_the_end(is_rated=True)
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Партия окончена" in page
    assert f'hx-get="{ratings_url(match)}"' in page
    html = client.get(ratings_url(match), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<tr class="is-viewer"><td>kira</td>' in html and "<td>lev</td>" in html
    # A page open since before the end shows the ratings of its load in the header: the
    # panel's ratings replace them.
    kira, lev = (round(Rating.objects.get(user=u).rating) for u in users)
    assert 1500 not in (kira, lev)
    header = f"Рейтинг: kira <strong>{kira}</strong>, lev <strong>{lev}</strong></p>"
    assert header in html
    assert (
        'id="table-ratings" class="table-ratings muted" data-testid="table-ratings" hx-swap-oob="true"'
        in html
    )


def test_the_result_panel_of_an_unrated_game_has_no_ratings(client):
    match, users = play_live_to_the_end(is_rated=False)
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "Game over" in page
    assert "/ratings/" not in page


def test_a_rated_tables_header_shows_each_players_rating(client):
    users = [get_user_model().objects.create(username=n) for n in ("kira", "lev")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # Never rated in the class: Glicko-2's starting 1500.
    assert "Рейтинг: kira <strong>1500</strong></p>" in page
    Rating.objects.create(user=users[1], rating_class="two_player", rating=1712.4)
    services.join_match(match, users[1])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "Ratings: kira <strong>1500</strong>, lev <strong>1712</strong></p>" in page


def test_an_unrated_tables_header_shows_no_ratings(client):
    user = get_user_model().objects.create(username="kira")
    match = services.create_match(user, RuleVariant.objects.get(slug="classic"), 2)
    Match.objects.filter(pk=match.pk).update(is_rated=False)
    client.force_login(user)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'data-testid="table-ratings"' not in page and "Reliability:" in page


def test_the_profile_and_the_games_list_show_each_games_rating_change(client):
    match = play_match(["anna", "boris"], "classic", seed=8)
    fool = match.seats.get(number=match.deals.get().result["fool"]).user.username
    for name in ("anna", "boris"):
        change = round(Rating.objects.get(user__username=name).rating - 1500)
        shown = f"(\u2212{-change})" if name == fool else f"(+{change})"
        profile = client.get(reverse("accounts:profile", args=[name])).content.decode()
        games = client.get(reverse("history:games", args=[name])).content.decode()
        assert shown in profile and shown in games, (name, shown)
