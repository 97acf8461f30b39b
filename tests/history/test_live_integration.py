"""The history app fed by the real table service: a deal played through
games.services ends rated, listed and replayable, with the engine's own record."""

import random

import pytest

from games import services as table
from games.models import Deal, Match, RuleVariant
from history.models import PlayerGame, Rating
from history.replay import deal_record
from history.seeding import get_user

pytestmark = pytest.mark.django_db(transaction=True)


def _play_out(match: Match, rng: random.Random):
    while True:
        match.refresh_from_db()
        game = table.load_game(match)
        if game.is_over:
            return game
        action = rng.choice([a for a in game.legal_actions() if a.kind != "resign"])
        table.apply_action(match.pk, action.seat, str(action), version=match.version)


def test_a_deal_played_at_a_table_is_recorded_rated_and_replayable():
    anna, boris = get_user("anna"), get_user("boris")
    match = table.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
    table.join_match(match, boris)
    match.refresh_from_db()
    if match.status == Match.Status.WAITING:
        table.start_match(match, anna)
    rng = random.Random(1)
    games = [_play_out(match, rng)]
    table.start_next_deal(match, anna)
    table.start_next_deal(match, boris)
    games.append(_play_out(match, rng))
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d.status for d in deals] == [Deal.Status.FINISHED] * 2
    for deal, game in zip(deals, games, strict=True):
        # The record rebuilt from the stored rows is the live engine's own record.
        assert deal_record(deal) == game.to_record()
        assert PlayerGame.objects.filter(deal=deal).count() == 2
    assert Rating.objects.get(user=anna, rating_class="two_player").games == 2
    # Aborting the table takes its ratings back (nobody played a later game).
    table.abort_match(match, "test")
    rating = Rating.objects.get(user=anna, rating_class="two_player")
    assert (rating.games, rating.rating, rating.rd) == (0, 1500, 350)
