"""Records of play in the admin: staff read them, nobody writes one by hand."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from history.models import PlayerGame, Rating
from history.seeding import play_match
from matchmaking.models import Seek
from matchmaking.services import cancel_seek, create_seek

# Every admin of a record the site writes as people play.
RECORDS = [
    "history_playergame",
    "history_rating",
    "history_ratingchange",
    "puzzles_puzzlerating",
    "puzzles_puzzleattempt",
    "puzzles_puzzlescan",
    "daily_dailyentry",
    "analysis_dealanalysis",
    "matchmaking_seek",
]


@pytest.mark.django_db
@pytest.mark.parametrize("admin", RECORDS + ["puzzles_puzzle"])
def test_no_record_is_added_by_hand(admin_client, admin):
    assert admin_client.get(reverse(f"admin:{admin}_add")).status_code == 403
    changelist = admin_client.get(reverse(f"admin:{admin}_changelist")).content.decode()
    assert reverse(f"admin:{admin}_add") not in changelist


@pytest.mark.django_db
def test_a_game_record_and_a_rating_are_shown_but_not_changed(admin_client):
    play_match(["anna", "boris"], "classic", seed=7)
    game = PlayerGame.objects.filter(user__username="anna").get()
    rating = Rating.objects.get(user__username="anna")
    page = admin_client.get(reverse("admin:history_playergame_change", args=[game.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "anna" in text
    assert 'name="_save"' not in text
    # A forged edit is refused and changes nothing.
    url = reverse("admin:history_rating_change", args=[rating.pk])
    before = (rating.rating, rating.rd, rating.games)
    response = admin_client.post(url, {"rating": 3000, "rd": 30, "volatility": 0.06, "games": 9})
    assert response.status_code == 403
    rating.refresh_from_db()
    assert (rating.rating, rating.rd, rating.games) == before


@pytest.mark.django_db
def test_an_account_with_records_but_no_games_can_still_be_deleted(admin_client):
    # Accounts that sat at a table are kept with their games; one that only looked for a
    # game (a spam sign-up, say) goes, and its records go with it.
    spam = get_user_model().objects.create_user("spam")
    create_seek(
        spam,
        mode="podkidnoy",
        players=2,
        deck_size=36,
        speed="normal",
        is_rated=True,
        allow_bots=False,
    )
    cancel_seek(spam)
    response = admin_client.post(
        reverse("admin:accounts_user_delete", args=[spam.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="spam").exists()
    assert not Seek.objects.exists()
