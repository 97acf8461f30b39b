"""The result panel of a team game says whether you won, and words the last move."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from durak.engine import Game
from games.models import Match, Seat
from history.replay import deal_record
from history.seeding import play_match
from table import rendering

pytestmark = pytest.mark.django_db


def finished_team_match() -> Match:
    """A finished 2x2 game whose table shows its last state, as after live play."""
    match = play_match(["anna", "boris", "vera", "gleb"], "teams-2x2", seed=4)
    deal = match.deals.get()
    state = Game.from_record(deal_record(deal)).snapshot()
    Match.objects.filter(pk=match.pk).update(state=state, live_deal=deal)
    match.refresh_from_db()
    return match


def panel(match, seat, language="en"):
    user_id = Seat.objects.get(match=match, number=seat).user_id if seat is not None else None
    with translation.override(language):
        context = rendering.table_context(match, rendering.Viewer(user_id, seat))
        return context, render_to_string("table/partials.html#result", context)


def test_a_team_game_tells_each_player_whether_their_team_won():
    match = finished_team_match()
    context, _html = panel(match, None)
    result = context["result"]
    fools = result["fool_team"]
    losers = [s.number for s in Seat.objects.filter(match=match, team=fools)]
    winners = [s.number for s in Seat.objects.filter(match=match).exclude(team=fools)]
    assert len(losers) == len(winners) == 2
    names = {row["number"]: row["name"] for row in context["seats"]}
    for seat in losers:
        _context, html = panel(match, seat)
        assert "Your team lost." in html and "Your team won!" not in html
    for seat in winners:
        _context, html = panel(match, seat)
        assert "Your team won!" in html and "Your team lost." not in html
        _context, html = panel(match, seat, "ru")
        assert "Ваша команда победила!" in html
    assert all(names[s] in _html for s in losers)
    assert f"Team {fools + 1} are the fools: " in _html
    assert "Your team" not in _html  # a spectator has no team
    assert "Last move: " in _html


def test_you_carry_your_team_badge():
    match = finished_team_match()
    context, _html = panel(match, 1)
    html = render_to_string("table/partials.html#hand", context)
    team = context["my_row"]["team"]
    assert f'class="team team-{team}"' in html.split("</strong>", 1)[1].split("</div>", 1)[0]
