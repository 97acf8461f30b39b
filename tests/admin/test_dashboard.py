"""The dashboard's figures against a small history whose numbers are worked out by hand."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Deal, Move, RuleVariant
from moderation import dashboard

from .conftest import User, make_deal, make_match

NOW = datetime.datetime(2026, 3, 15, 12, 0, tzinfo=datetime.UTC)
DAY = datetime.timedelta(days=1)
TIMEOUT = Move.Source.TIMEOUT


@pytest.fixture
def history(classic, players):
    """
    match A  classic   ivan, olga           A1 today      fa 0 fool 1  10 moves  5 min, 1 timeout
                                            A2 -2 days    fa 1 fool 1  20 moves 10 min
                                            A3 playing
    match B  transfer  petr, easy, hard bot B1 -10 days   fa 0 fool 1  30 moves 15 min
                                            B2 -10 days   fa 2 draw    40 moves 20 min
                                            B3 -40 days   fa 1 fool 0   5 moves  2 min, forfeit
    match C  classic   ivan, olga           C1 -1 day     aborted       3 moves, 1 timeout
    match D  classic   vera, ivan           D1 -60 days   fa 0 fool 0   8 moves  4 min, resigned
    """
    ivan, olga, petr = players
    vera = User.objects.create_user("vera", password="x")
    transfer = RuleVariant.objects.get(slug="transfer")
    a = make_match(classic, [ivan, olga])
    make_deal(
        a,
        number=1,
        first_attacker=0,
        fool_seat=1,
        moves=10,
        minutes=5,
        sources=(TIMEOUT,),
        finished_at=NOW - datetime.timedelta(hours=1),
    )
    make_deal(
        a, number=2, first_attacker=1, fool_seat=1, moves=20, minutes=10, finished_at=NOW - 2 * DAY
    )
    make_deal(a, number=3, status=Deal.Status.PLAYING, moves=2)
    b = make_match(transfer, [petr], bots=("easy", "hard"))
    make_deal(
        b, number=1, first_attacker=0, fool_seat=1, moves=30, minutes=15, finished_at=NOW - 10 * DAY
    )
    make_deal(
        b,
        number=2,
        first_attacker=2,
        is_draw=True,
        moves=40,
        minutes=20,
        finished_at=NOW - 10 * DAY,
    )
    make_deal(
        b,
        number=3,
        first_attacker=1,
        fool_seat=0,
        moves=5,
        minutes=2,
        end_reason=Deal.EndReason.FORFEIT,
        finished_at=NOW - 40 * DAY,
    )
    c = make_match(classic, [ivan, olga], status="aborted")
    make_deal(
        c,
        status=Deal.Status.ABORTED,
        end_reason=Deal.EndReason.ABORTED,
        moves=3,
        sources=(Move.Source.PLAYER, TIMEOUT),
        finished_at=NOW - DAY,
    )
    d = make_match(classic, [vera, ivan], status="finished")
    make_deal(
        d,
        first_attacker=0,
        fool_seat=0,
        moves=8,
        minutes=4,
        end_reason=Deal.EndReason.RESIGNED,
        finished_at=NOW - 60 * DAY,
    )


@pytest.mark.django_db
def test_figures_match_the_hand_count(history):
    f = dashboard.figures(NOW)

    per_day = dict(f.days)
    assert len(f.days) == 30 and f.days[-1][0] == NOW.date()
    assert f.days[0][0] == NOW.date() - 29 * DAY
    assert per_day[NOW.date()] == 1
    assert per_day[NOW.date() - 2 * DAY] == 1
    assert per_day[NOW.date() - 10 * DAY] == 2
    assert sum(per_day.values()) == 4  # A1, A2, B1, B2; C1 was aborted

    assert (f.active_7, f.active_30) == (2, 3)  # ivan, olga; then petr

    per_variant = {name: n for name, n, _active in f.per_variant}
    assert per_variant["Podkidnoy"] == 3 and per_variant["Perevodnoy"] == 3
    assert sum(per_variant.values()) == 6

    assert f.games == 6
    assert f.avg_moves == pytest.approx(113 / 6)
    assert f.avg_minutes == pytest.approx(56 / 6)
    # Decided games: A1 won, A2 lost, B1 won, B3 won, D1 lost (B2 was a draw).
    assert (f.first_attacker.part, f.first_attacker.whole) == (3, 5)
    assert f.draws == 1

    seats = {r.label: (r.part, r.whole) for r in f.fool_by_seat}
    assert seats == {"1": (2, 6), "2": (3, 6), "3": (0, 3)}
    bots = {r.label: (r.part, r.whole) for r in f.bot_fool}
    assert bots == {"Easy": (1, 3), "Hard": (0, 3)}

    assert (f.aborted, f.forfeit, f.resigned) == (1, 1, 1)
    assert (f.timed_out_30, f.games_30) == (2, 5)  # A1 and C1, of A1 A2 B1 B2 C1


@pytest.mark.django_db
def test_the_number_of_queries_does_not_grow_with_the_history(classic, players, history):
    with CaptureQueriesContext(connection) as before:
        dashboard.figures(NOW)
    for n in range(5):
        more = make_match(classic, players[:2], bots=("medium",))
        make_deal(more, fool_seat=n % 3, moves=4, finished_at=NOW - n * DAY)
    with CaptureQueriesContext(connection) as after:
        figures = dashboard.figures(NOW)
    assert figures.games == 11
    assert len(after) == len(before) <= 8


@pytest.mark.django_db
def test_dashboard_page_draws_svg_charts_for_staff_only(client, moderator, history):
    url = reverse("admin:dashboard")
    assert client.get(url).status_code == 302  # to the admin log-in
    client.force_login(User.objects.create_user("player", password="x"))
    assert client.get(url).status_code == 302
    client.force_login(moderator)
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<svg class="chart"') == 4
    assert 'data-testid="games">6<' in html
    assert "Seat 1" in html and "Easy" in html
    assert "<script" not in html.split('id="content-main"')[1]
    assert url in client.get(reverse("admin:index")).content.decode()


@pytest.mark.parametrize(("language", "text"), [("en", "48.6% (17/35)"), ("ru", "48,6% (17/35)")])
def test_a_rate_is_written_rounded_with_the_languages_decimal_mark(language, text):
    from django.utils import translation

    with translation.override(language):
        assert dashboard.Rate("Seat 1", 17, 35).text == text
        assert dashboard.Rate("Seat 7", 0, 0).text == "—"


@pytest.mark.django_db
def test_the_dashboard_writes_its_rates_in_the_admins_language(client, moderator, history):
    client.force_login(moderator)
    url = reverse("admin:dashboard")
    assert "Seat 1: 33.3% (2/6)" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Место 1: 33,3% (2/6)" in client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
