"""Solving a puzzle rates the player and the puzzle; a forged answer changes nothing."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from durak.engine import Action
from games.move_words import suggest_action
from history.seeding import get_user
from puzzles.models import PuzzleAttempt, PuzzleRating
from puzzles.services import open_attempt, played_cards
from tests.puzzles.helpers import (
    found_puzzles,
    puzzle_of,
    right_line,
    store,
    stored_puzzle,
    wrong_move,
)

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
    puzzle_of(moves=1)
    return open_attempt(get_user("anna"))


@pytest.fixture
def long_attempt():
    puzzle_of(moves=2)
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
    assert "Цель" in html and "Ваши карты" in html
    offered(html, attempt.puzzle.line)
    # Engine notation only in the buttons' values; the player reads the moves in words.
    assert not any(
        option in re.sub(r'value="[^"]*"', "", html) for option in attempt.puzzle.options
    )
    response = client.post(
        _url(attempt),
        {"action": wrong_move(attempt.puzzle.line)},
        HTTP_ACCEPT_LANGUAGE="ru",
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Не тот ход." in html
    with translation.override("ru"):
        for answer in attempt.puzzle.answers:
            assert suggest_action(Action.parse(answer)) in html
        # The move chosen, named as a choice rather than as advice to follow.
        tried = re.search(r'data-testid="puzzle-tried">([^<]*)<', html).group(1)
        assert tried.startswith("Вы выбрали «")
        assert suggest_action(Action.parse(wrong_move(attempt.puzzle.line))) not in tried


def offered(html: str, step: dict) -> None:
    """Every move of the decision can be played: its cards are enabled buttons of the
    hand, a move without cards a button of its own."""
    for text in step["options"]:
        cards = played_cards(Action.parse(text))
        for card in cards:
            assert re.search(rf'name="card" value="{card}"[^>]*>', html)
            assert not re.search(rf'name="card" value="{card}"[^>]*disabled', html)
        if not cards:
            assert f'name="action" value="{text}"' in html


def test_a_right_move_with_more_to_come_keeps_the_attempt_open(long_attempt):
    before = _ratings(long_attempt)
    first, second = right_line(long_attempt.puzzle.line)
    client = _client(long_attempt.user)
    response = client.post(_url(long_attempt), {"action": first}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Right! Keep going." in html and "Your move 2" in html
    assert _ratings(long_attempt) == before
    # The next decision's moves are offered, the first decision's are gone.
    step = long_attempt.puzzle.step_after([first])
    offered(html, step)
    client.post(_url(long_attempt), {"action": second})
    after = _ratings(long_attempt)
    assert after[0] > before[0] and after[1] == 1
    long_attempt.refresh_from_db()
    assert long_attempt.path == [first, second] and long_attempt.is_solved is True


def test_a_wrong_second_move_fails_and_shows_that_decisions_answers(long_attempt):
    before = _ratings(long_attempt)
    first = right_line(long_attempt.puzzle.line)[0]
    step = long_attempt.puzzle.step_after([first])
    client = _client(long_attempt.user)
    client.post(_url(long_attempt), {"action": first})
    response = client.post(_url(long_attempt), {"action": wrong_move(step)}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "Not this one." in html
    with translation.override("en"):
        for answer in step["answers"]:
            assert suggest_action(Action.parse(answer)) in html
    after = _ratings(long_attempt)
    assert after[0] < before[0] and after[2] > before[2]


def test_a_move_of_an_earlier_decision_is_refused_later(long_attempt):
    first = right_line(long_attempt.puzzle.line)[0]
    client = _client(long_attempt.user)
    client.post(_url(long_attempt), {"action": first})
    before = _ratings(long_attempt)
    response = client.post(_url(long_attempt), {"action": first})
    assert response.status_code == 400
    assert _ratings(long_attempt) == before
    long_attempt.refresh_from_db()
    assert long_attempt.path == [first]


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
        _url(attempt), {"action": wrong_move(attempt.puzzle.line)}, HTTP_HX_REQUEST="true"
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
    client.post(_url(attempt), {"action": wrong_move(attempt.puzzle.line)})
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


def moves_by_card(step: dict) -> dict[str, list[str]]:
    by_card: dict[str, list[str]] = {}
    for text in step["options"]:
        for card in played_cards(Action.parse(text)):
            by_card.setdefault(card, []).append(text)
    return by_card


def first_puzzle(wanted) -> tuple:
    """The first puzzle of the seeded bot games with a card ``wanted(card, moves, line)``
    accepts, stored, with that card."""
    for seed in range(100):
        for found in found_puzzles(seed):
            for card, moves in moves_by_card(found.line).items():
                if wanted(card, moves, found.line):
                    return store(found), card
    raise AssertionError("no such puzzle in 100 bot games")


def test_a_card_that_makes_one_right_move_plays_it():
    puzzle, card = first_puzzle(
        lambda card, moves, line: (
            moves == [line["answers"][0]] and line["next"][moves[0]]["step"] is None
        )
    )
    attempt = open_attempt(get_user("anna"))
    assert attempt.puzzle == puzzle
    _client(attempt.user).post(_url(attempt), {"card": card})
    attempt.refresh_from_db()
    assert attempt.path == [puzzle.answers[0]] and attempt.is_solved is True


def test_a_card_that_makes_several_moves_offers_them_and_changes_nothing():
    puzzle, card = first_puzzle(lambda card, moves, line: len(moves) > 1)
    attempt = open_attempt(get_user("anna"))
    assert attempt.puzzle == puzzle
    before = _ratings(attempt)
    response = _client(attempt.user).post(_url(attempt), {"card": card}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'data-testid="puzzle-ways"' in html
    assert all(f'name="action" value="{m}"' in html for m in moves_by_card(puzzle.line)[card])
    assert _ratings(attempt) == before
    assert attempt.path == []


def test_a_card_that_cannot_be_played_is_refused_and_changes_nothing(attempt):
    before = _ratings(attempt)
    playable = {c for o in attempt.puzzle.options for c in played_cards(Action.parse(o))}
    unplayable = next(c for c in ["2C", "3D", "4H", "5S"] if c not in playable)
    response = _client(attempt.user).post(_url(attempt), {"card": unplayable})
    assert response.status_code == 400
    assert "That card cannot be played now." in response.content.decode()
    assert _ratings(attempt) == before


def test_the_admin_lists_and_shows_puzzles_ratings_and_attempts(attempt, admin_client):
    _client(attempt.user).post(_url(attempt), {"action": attempt.puzzle.answers[0]})
    for model in ("puzzle", "puzzlerating", "puzzleattempt", "puzzlescan"):
        assert admin_client.get(reverse(f"admin:puzzles_{model}_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:puzzles_puzzle_change", args=[attempt.puzzle_id]))
    assert page.status_code == 200


def test_a_move_without_cards_is_a_button_worded_as_advice_without_a_full_stop():
    found = next(
        f
        for seed in range(1, 40)
        for f in found_puzzles(seed)
        if any(not played_cards(Action.parse(o)) for o in f.line["options"])
    )
    store(found)
    client = _client(get_user("anna"))
    html = client.get(reverse("puzzles:next"), HTTP_ACCEPT_LANGUAGE="ru", follow=True)
    html = html.content.decode()
    for text in found.line["options"]:
        if played_cards(Action.parse(text)):
            continue
        with translation.override("ru"):
            advice = suggest_action(Action.parse(text))
        assert advice.endswith(".")
        assert re.search(rf'value="{text}"[^>]*>{re.escape(advice[:-1])}</button>', html), advice
