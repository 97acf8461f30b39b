"""A player's profile shows their puzzle rating and record, in English and Russian."""

import pytest
from django.test import Client
from django.urls import reverse

from history.seeding import get_user
from puzzles.models import PuzzleRating
from puzzles.services import open_attempt
from tests.puzzles.helpers import puzzle_of, right_line

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _profile(client: Client, username: str, language: str) -> str:
    url = reverse("accounts:profile", args=[username])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_solved_puzzle_shows_on_the_profile_in_both_languages():
    puzzle_of(moves=1)
    anna = get_user("anna")
    attempt = open_attempt(anna)
    mine = _client(anna)
    mine.post(
        reverse("puzzles:attempt", args=[attempt.puzzle_id, attempt.pk]),
        {"action": right_line(attempt.puzzle.line)[0]},
    )
    rating = PuzzleRating.objects.get(user=anna)
    assert rating.solved == 1 and rating.rating > 1500

    html = _profile(mine, "anna", "en")
    assert f'data-stat="puzzle-rating">{rating.rating:.0f}<' in html
    assert f"puzzle rating, ±{rating.rd:.0f}" in html
    assert 'data-stat="puzzles-solved">1<' in html
    assert "Solve a puzzle" in html

    html = _profile(mine, "anna", "ru")
    assert f"рейтинг в задачах, ±{rating.rd:.0f}" in html
    assert "решено задач" in html and "Решить задачу" in html

    # Another player sees the figures, without the link to the visitor's own puzzles.
    other = _profile(_client(get_user("boris")), "anna", "en")
    assert f'data-stat="puzzle-rating">{rating.rating:.0f}<' in other
    assert "Solve a puzzle" not in other


def test_a_player_without_puzzles_is_told_so_and_nothing_is_stored():
    boris = get_user("boris")
    assert "No puzzles tried yet." in _profile(_client(boris), "boris", "en")
    assert "Пока ни одной задачи." in _profile(_client(), "boris", "ru")
    assert not PuzzleRating.objects.filter(user=boris).exists()
