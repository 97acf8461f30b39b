"""The hint endpoint (database tests): asked over HTTP, answered by a bot worker's step."""

import pytest
from django.test import Client
from django.urls import reverse

from analysis import hints
from durak.engine import Action, Game, Rules
from history.seeding import create_match, get_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_hint_budget(settings):
    settings.GAMES_HINT_PLAYOUTS = 20


def _live(is_rated=False, seed=4):
    alice, bob = get_user("alice"), get_user("bob")
    match = create_match([alice, bob], is_rated=is_rated)
    game = Game.new(Rules.from_dict(match.rules), seed)
    match.state = game.snapshot()
    match.save()
    return match, game, {0: alice, 1: bob}


def _hint(user, match):
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get("/")  # sets the CSRF cookie
    token = client.cookies.get("csrftoken")
    headers = {"HTTP_X_CSRFTOKEN": token.value} if token else {}
    return client.post(reverse("analysis:hint", args=[match.pk]), **headers)


def test_hint_gives_a_legal_action_for_the_asking_seat_once_a_worker_answers():
    match, game, users = _live()
    seat = game.to_act()[0]
    response = _hint(users[seat], match)
    assert response.status_code == 202
    answer = response.json()["answer"]
    client = Client()
    client.force_login(users[seat])
    assert client.get(answer).status_code == 202  # no worker has taken it yet
    assert hints.answer_next_hint()
    response = client.get(answer)
    assert response.status_code == 200
    action = Action.parse(response.json()["action"])
    assert action.seat == seat
    assert action in game.legal_actions()
    # The answer is the asker's own.
    other = Client()
    other.force_login(users[1 - seat])
    assert other.get(answer).status_code == 404


def test_hint_refused_to_a_player_who_may_not_act():
    match, game, users = _live()
    idle = next(s for s in users if s not in game.to_act())
    response = _hint(users[idle], match)
    assert response.status_code == 409
    assert "action" not in response.json()


def test_hint_refused_in_rated_games():
    match, game, users = _live(is_rated=True)
    response = _hint(users[game.to_act()[0]], match)
    assert response.status_code == 403


def test_hint_refused_to_non_players_and_anonymous():
    match, _, _ = _live()
    assert _hint(get_user("carol"), match).status_code == 403
    response = _hint(None, match)
    assert response.status_code == 302  # to the login page


def test_hint_needs_csrf_token():
    match, game, users = _live()
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[game.to_act()[0]])
    assert client.post(reverse("analysis:hint", args=[match.pk])).status_code == 403


def test_hint_as_html_partial_names_the_action():
    match, game, users = _live()
    seat = game.to_act()[0]
    client = Client()
    client.force_login(users[seat])
    response = client.post(reverse("analysis:hint", args=[match.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 202
    html = response.content.decode()
    assert 'id="table-hint"' in html and f'hx-get="{response["Location"]}"' in html
    assert hints.answer_next_hint()
    response = client.get(response["Location"], HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'id="table-hint"' in html and f'data-action="{seat} ' in html
