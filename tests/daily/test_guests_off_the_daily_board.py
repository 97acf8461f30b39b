"""A guest may play the daily deal, but is on neither the day's board nor the
leaderboard page's daily board."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from daily import services
from daily.leaderboards import daily_leaders
from daily.models import DailyEntry
from games import services as games
from games.models import RuleVariant
from matchmaking.guests import create_guest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 40


def test_a_guests_daily_try_is_on_no_board():
    daily = services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))
    guest = create_guest("10.9.9.9", "en")
    player = get_user_model().objects.create(username="player")
    for user in (guest, player):
        entry = services.start_daily(user, daily)
        games.resign(entry.match_id, user)
        DailyEntry.objects.filter(pk=entry.pk).update(
            result=DailyEntry.Result.FOOL, result_rank=DailyEntry.RESULT_RANK["fool"], streak=1
        )
    assert [e.user for e in services.board(daily)] == [player]
    assert [row["user_id"] for row in daily_leaders()] == [player.pk]
    # The field's shares still count every try.
    assert services.field_of(daily).players == 2
