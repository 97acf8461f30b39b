"""A bot's search is dropped once nobody wants its move: the table ended, or the turn
passed to another worker (its lease ran out). It neither runs on nor lands."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import bot_runner, services
from games.models import Match
from games.services.timers import claim_due_bot_turn, prepare_bot_move

from .test_bot_worker import bot_moves, bot_table

pytestmark = pytest.mark.django_db(transaction=True)


def end_the_table(match: Match) -> None:
    services.abort_match(match, "ended while the bot was thinking")


def hand_the_turn_to_another_worker(match: Match) -> None:
    later = timezone.now() + timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(bot_due_at=later)


@pytest.mark.parametrize("meanwhile", [end_the_table, hand_the_turn_to_another_worker])
def test_a_search_nobody_wants_any_more_stops_at_its_next_look_and_plays_nothing(
    settings, monkeypatch, meanwhile
):
    # Without the drop, this search would run to its CPU cap (seconds).
    settings.GAMES_BOT_PLAYOUTS = 10_000_000
    settings.GAMES_SEARCH_CPU_SECONDS = 600
    match, _ = bot_table("hard", bot_leads=True)
    claim = claim_due_bot_turn(timezone.now() + timedelta(seconds=5))
    assert claim is not None and claim.match_id == match.pk
    looks: list[bool] = []
    search = bot_runner.choose_action

    def search_while_the_table_changes(game, seat, level, *, seed="", stop=None):
        assert stop is not None, "the worker's search cannot be stopped"
        assert not stop()  # the turn is still this worker's when the search starts
        meanwhile(match)

        def counted() -> bool:
            looks.append(stop())
            return looks[-1]

        return search(game, seat, level, seed=seed, stop=counted)

    monkeypatch.setattr(bot_runner, "choose_action", search_while_the_table_changes)
    assert prepare_bot_move(claim) is None
    assert looks == [True]  # it stopped at the first look after the change
    assert bot_moves(match.pk) == 0
