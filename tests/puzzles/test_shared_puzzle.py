"""A puzzle has an address of its own to share: whoever opens it tries that puzzle,
once, as any other."""

import pytest
from django.test import Client
from django.urls import reverse

from history.seeding import get_user
from puzzles.models import PuzzleAttempt
from tests.puzzles.helpers import stored_puzzle

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_shared_puzzle_opens_the_players_attempt_at_it_once():
    puzzle = stored_puzzle()
    vera = get_user("vera")
    client = _client(vera)
    first = client.get(reverse("puzzles:puzzle", args=[puzzle.pk]))
    attempt = PuzzleAttempt.objects.get(user=vera, puzzle=puzzle)
    assert first.status_code == 302
    assert first.url == reverse("puzzles:attempt", args=[puzzle.pk, attempt.pk])
    again = client.get(reverse("puzzles:puzzle", args=[puzzle.pk]))
    assert again.url == first.url
    assert PuzzleAttempt.objects.filter(user=vera).count() == 1


def test_the_puzzle_page_shares_the_puzzles_own_address():
    puzzle = stored_puzzle()
    client = _client(get_user("vera"))
    page = client.get(reverse("puzzles:puzzle", args=[puzzle.pk]), follow=True)
    html = page.content.decode()
    assert f'data-share-path="{reverse("puzzles:puzzle", args=[puzzle.pk])}"' in html


def test_a_missing_puzzle_is_refused_in_words_and_opens_nothing():
    client = _client(get_user("vera"))
    answer = client.get(reverse("puzzles:puzzle", args=[987654]), HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 404
    assert "Такой задачи нет." in answer.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_a_visitor_signs_in_first():
    puzzle = stored_puzzle()
    answer = Client().get(reverse("puzzles:puzzle", args=[puzzle.pk]))
    assert answer.status_code == 302 and reverse("accounts:login") in answer.url
    assert not PuzzleAttempt.objects.exists()
