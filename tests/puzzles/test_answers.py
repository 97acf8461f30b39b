"""Solving a puzzle rates the player and the puzzle; a forged answer changes nothing."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import Action
from games.move_words import suggest_action
from history.seeding import get_user
from puzzles.models import PuzzleAttempt, PuzzleRating
from puzzles.services import open_attempt
from tests.puzzles.helpers import stored_puzzle, wrong_move

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _url(attempt, puzzle_id=None):
    return reverse("puzzles:attempt", args=[puzzle_id or attempt.puzzle_id, attempt.pk])


def _ratings(attempt):
    attempt.refresh_from_db()
    attempt.puzzle.refresh_from_db()
    rating = PuzzleRating.objects.get(user=attempt.user)
    return (
        rating.rating,
        rating.attempts,
        attempt.puzzle.rating,
        attempt.puzzle.attempts,
        attempt.answered_at,
    )


@pytest.fixture
def attempt():
    stored_puzzle()
    return open_attempt(get_user("anna"))


def test_the_next_puzzle_is_the_one_nearest_the_players_rating():
    stored_puzzle(rating=900, index=0)
    near = stored_puzzle(rating=1560, index=1)
    first = open_attempt(get_user("anna"))
    assert first.puzzle == near
    # Unanswered, it stays the player's puzzle: reloading never skips it.
    assert open_attempt(get_user("anna")) == first


def test_the_page_shows_the_goal_and_the_moves_in_words_in_russian(attempt):
    client = _client(attempt.user)
    response = client.get(reverse("puzzles:next"), HTTP_ACCEPT_LANGUAGE="ru", follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Цель" in html and "Ваш ход" in html
    # Engine notation only in the buttons' values; the player reads the moves in words.
    shown = re.sub(r'value="[^"]*"', "", html)
    with translation.override("ru"):
        for option in attempt.puzzle.options:
            assert option not in shown
            assert suggest_action(Action.parse(option)) in html


def test_a_right_answer_raises_the_players_rating_and_lowers_the_puzzles(attempt):
    before = _ratings(attempt)
    response = _client(attempt.user).post(_url(attempt), {"action": attempt.puzzle.answers[0]})
    assert response.status_code == 302
    after = _ratings(attempt)
    assert after[0] > before[0] and after[2] < before[2]
    assert after[1] == after[3] == 1
    page = _client(attempt.user).get(_url(attempt)).content.decode()
    assert 'data-testid="rating-change">+' in page


def test_a_wrong_answer_lowers_the_players_rating_and_shows_the_answer(attempt):
    before = _ratings(attempt)
    client = _client(attempt.user)
    response = client.post(
        _url(attempt), {"action": wrong_move(attempt.puzzle)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Not this one." in response.content.decode()
    after = _ratings(attempt)
    assert after[0] < before[0] and after[2] > before[2]
    attempt.refresh_from_db()
    assert attempt.is_solved is False


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(
            lambda a: (_url(a, a.puzzle_id + 1000), a.puzzle.answers[0]), id="other-puzzle"
        ),
        pytest.param(lambda a: (_url(a), "0 attack 2C"), id="not-legal"),
        pytest.param(lambda a: (_url(a), "hello"), id="not-a-move"),
        pytest.param(lambda a: (_url(a), ""), id="no-move"),
    ],
)
def test_a_forged_answer_is_refused_and_changes_nothing(attempt, forge):
    before = _ratings(attempt)
    url, action = forge(attempt)
    response = _client(attempt.user).post(url, {"action": action})
    assert response.status_code == 400
    assert 'data-testid="puzzle-refused"' in response.content.decode()
    assert _ratings(attempt) == before


def test_a_second_answer_is_refused_and_changes_nothing(attempt):
    client = _client(attempt.user)
    client.post(_url(attempt), {"action": wrong_move(attempt.puzzle)})
    before = _ratings(attempt)
    response = client.post(_url(attempt), {"action": attempt.puzzle.answers[0]})
    assert response.status_code == 409
    assert "You have already answered this puzzle." in response.content.decode()
    assert _ratings(attempt) == before
    attempt.refresh_from_db()
    assert attempt.is_solved is False


def test_someone_elses_attempt_is_refused_and_changes_nothing(attempt):
    before = _ratings(attempt)
    intruder = get_user("boris")
    response = _client(intruder).post(_url(attempt), {"action": attempt.puzzle.answers[0]})
    assert response.status_code == 404
    assert "You have no such puzzle attempt." in response.content.decode()
    assert _ratings(attempt) == before
    assert not PuzzleRating.objects.filter(user=intruder, attempts__gt=0).exists()
    assert _client(intruder).get(_url(attempt)).status_code == 404


def test_a_refusal_is_worded_in_russian(attempt):
    response = _client(attempt.user).post(
        _url(attempt), {"action": "0 attack 2C"}, HTTP_ACCEPT_LANGUAGE="ru", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "Такой ход в этой позиции невозможен." in response.content.decode()


def test_a_player_who_tried_every_puzzle_is_told_so(attempt):
    client = _client(attempt.user)
    client.post(_url(attempt), {"action": attempt.puzzle.answers[0]})
    response = client.get(reverse("puzzles:next"))
    assert response.status_code == 200
    assert 'data-testid="no-puzzles"' in response.content.decode()
    assert PuzzleAttempt.objects.filter(user=attempt.user).count() == 1


def test_puzzles_need_a_signed_in_player():
    response = Client().get(reverse("puzzles:next"))
    assert response.status_code == 302 and "login" in response["Location"]
