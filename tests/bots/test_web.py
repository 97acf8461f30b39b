"""Hint endpoint and analysis views (database tests)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from analysis import services
from analysis.models import DealAnalysis
from games.bots import Budget
from games.bots.analysis import AnalysisBudget
from games.engine import Action, Game, Rules
from history.seeding import create_match, get_user, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_hint_budget(monkeypatch):
    monkeypatch.setattr(services, "HINT_BUDGET", Budget(iterations=20))


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


def test_hint_gives_a_legal_action_for_the_asking_seat():
    match, game, users = _live()
    seat = game.to_act()[0]
    response = _hint(users[seat], match)
    assert response.status_code == 200
    action = Action.parse(response.json()["action"])
    assert action.seat == seat
    assert action in game.legal_actions()


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
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hint"' in html and f'data-hint-action="{seat} ' in html


class _InlineThread:
    """Runs the analysis at once: the test database is not visible to a real thread
    (and the thread's connection clean-up would close the test's connection)."""

    def __init__(self, target, args=(), daemon=None):
        assert target is services._run_in_thread
        self.args = args

    def start(self):
        services.run_analysis(*self.args)


def test_analysis_runs_once_and_shows_the_result(monkeypatch):
    monkeypatch.setattr(services.threading, "Thread", _InlineThread)
    monkeypatch.setattr(
        services, "ANALYSIS_BUDGET", AnalysisBudget(seconds=0.01, samples=1, min_samples=1)
    )
    monkeypatch.setattr(services, "analysis_seats", lambda deal: [0])
    match = play_match(["alice", "bob"], deals=1, seed=3, is_rated=False)
    deal = match.deals.get()
    url = reverse("analysis:deal_analysis", args=[match.pk, deal.number])
    client = Client()
    client.force_login(get_user("alice"))
    before = client.get(url)
    assert before.status_code == 200 and "hx-post" in before.content.decode()
    response = client.post(url)
    assert response.status_code == 200
    row = DealAnalysis.objects.get(deal=deal)
    assert row.status == DealAnalysis.Status.DONE and row.progress == 100
    assert row.result["decisions"]
    html = client.get(url).content.decode()
    assert "every 1s" not in html and "analysis-table" in html
    # A second request does not start a second run.
    row_id = row.pk
    _, started = services.start_analysis(deal, get_user("bob"))
    assert not started
    assert DealAnalysis.objects.filter(deal=deal).count() == 1
    assert DealAnalysis.objects.get().pk == row_id


def test_running_analysis_polls(monkeypatch):
    match = play_match(["alice", "bob"], deals=1, seed=5, is_rated=False)
    deal = match.deals.get()
    DealAnalysis.objects.create(deal=deal, status=DealAnalysis.Status.RUNNING, progress=40)
    client = Client()
    html = client.get(reverse("analysis:deal_analysis", args=[match.pk, deal.number])).content
    assert b'hx-trigger="every 1s"' in html and b"40%" in html


def test_stale_run_is_claimed_again_but_a_fresh_one_is_not(monkeypatch):
    monkeypatch.setattr(services.threading, "Thread", _InlineThread)
    monkeypatch.setattr(
        services, "ANALYSIS_BUDGET", AnalysisBudget(seconds=0.01, samples=1, min_samples=1)
    )
    monkeypatch.setattr(services, "analysis_seats", lambda deal: [0])
    match = play_match(["alice", "bob"], deals=1, seed=6, is_rated=False)
    deal = match.deals.get()
    row = DealAnalysis.objects.create(deal=deal, status=DealAnalysis.Status.RUNNING)
    _, started = services.start_analysis(deal, get_user("alice"))
    assert not started
    DealAnalysis.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - services.STALE_AFTER - timedelta(seconds=1)
    )
    _, started = services.start_analysis(deal, get_user("alice"))
    assert started
    assert DealAnalysis.objects.get(pk=row.pk).status == DealAnalysis.Status.DONE


@pytest.mark.parametrize(
    ("language", "hard", "note"),
    [
        ("en", "Hard (Elo ~{elo})", "Bot strength is on the Elo scale"),
        ("ru", "Сильный (Эло ~{elo})", "Сила ботов — по шкале Эло"),
    ],
)
def test_lobby_shows_each_bot_level_with_its_elo(language, hard, note):
    from django.utils import translation
    from django.utils.formats import number_format

    from games.bots import ELO

    client = Client()
    client.force_login(get_user("alice"))
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        elo = number_format(ELO["hard"], force_grouping=True)
    assert hard.format(elo=elo) in page
    assert note in page
