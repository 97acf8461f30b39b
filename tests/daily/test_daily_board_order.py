"""The day's board ranks a played-out game above one given up with the same result, a
better-played game above a worse one, and names its time column for what it is."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from daily import services
from daily.models import DailyDeal, DailyEntry
from games import services as games
from games.models import Deal, RuleVariant

pytestmark = pytest.mark.django_db

FOOL = DailyEntry.Result.FOOL
OUT_FIRST = DailyEntry.Result.OUT_FIRST


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 40


def classic_today() -> DailyDeal:
    return services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))


def finished_try(
    name: str, daily: DailyDeal, result: str, accuracy, seconds: int, *, ending: str
) -> DailyEntry:
    """A finished try of ``name``: resigned at the table, then given the result, the
    accuracy, the thinking time and the way the deal ended (``ending``)."""
    user = get_user_model().objects.create_user(username=name, password="pw-" + name)
    entry = services.start_daily(user, daily)
    games.resign(entry.match_id, user)
    DailyEntry.objects.filter(pk=entry.pk).update(
        result=result,
        result_rank=DailyEntry.RESULT_RANK[result],
        accuracy=accuracy,
        think_seconds=seconds,
    )
    Deal.objects.filter(match_id=entry.match_id).update(end_reason=ending)
    return entry


def board_names(html: str) -> list[str]:
    board = html.split('class="data daily-board"', 1)[1]
    return re.findall(r'<tr data-user="([^"]+)"', board)


@pytest.fixture
def day_of_fools() -> DailyDeal:
    daily = classic_today()
    normal, resigned = Deal.EndReason.NORMAL, Deal.EndReason.RESIGNED
    # An instant resign: no move judged, no thinking time.
    finished_try("quitter", daily, FOOL, None, 0, ending=resigned)
    # A resign after a few good moves: a perfect accuracy over them.
    finished_try("early_quitter", daily, FOOL, 100.0, 4, ending=resigned)
    finished_try("careless", daily, FOOL, 41.0, 120, ending=normal)
    finished_try("fighter", daily, FOOL, 77.0, 400, ending=normal)
    finished_try("unanalysed", daily, FOOL, None, 200, ending=normal)
    finished_try("leaver", daily, FOOL, 90.0, 60, ending=Deal.EndReason.FORFEIT)
    finished_try("winner", daily, OUT_FIRST, 52.0, 300, ending=normal)
    return daily


def test_a_game_given_up_ranks_below_every_played_out_game_with_its_result(day_of_fools):
    names = [entry.user.username for entry in services.board(day_of_fools)]
    assert names == [
        "winner",
        "fighter",
        "careless",
        "unanalysed",
        "early_quitter",
        "leaver",
        "quitter",
    ]


@pytest.mark.parametrize(
    ("language", "column", "resigned", "left"),
    [
        ("en", "Thinking time", "(resigned)", "(ran out of reconnect time)"),
        ("ru", "Время на раздумья", "(партия сдана)", "(время на возвращение вышло)"),
    ],
)
def test_the_board_page_shows_the_order_why_and_the_thinking_time(
    day_of_fools, language, column, resigned, left
):
    client = Client()
    client.force_login(get_user_model().objects.get(username="fighter"))
    html = client.get(reverse("daily:today"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert board_names(html) == [
        "winner",
        "fighter",
        "careless",
        "unanalysed",
        "early_quitter",
        "leaver",
        "quitter",
    ]
    assert f"<th>{column}</th>" in html
    assert re.search(r'data-user="quitter".*?</tr>', html, re.S).group(0).count(resigned) == 1
    assert left in re.search(r'data-user="leaver".*?</tr>', html, re.S).group(0)
    assert resigned not in re.search(r'data-user="fighter".*?</tr>', html, re.S).group(0)
    # The player's own line names its time as thinking time too.
    mine = re.search(r'class="daily-mine">.*?</p>', html, re.S).group(0)
    assert f"{column.lower()} 6:40" in mine.lower()
