import math
import random

import pytest
from django.db import connection, transaction

from durak.engine import Game, Rules
from games.models import Deal, Match
from games.signals import deal_finished, match_aborted
from history import glicko2, services
from history.models import PlayerGame, Rating, RatingChange
from history.seeding import create_match, finish_deal

from .helpers import play_match


def test_glicko2_matches_the_worked_example_of_the_paper():
    # Glickman, "Example of the Glicko-2 system", section 3.
    player = glicko2.Player(1500, 200, 0.06)
    games = [
        glicko2.Outcome(glicko2.Player(1400, 30), 1),
        glicko2.Outcome(glicko2.Player(1550, 100), 0),
        glicko2.Outcome(glicko2.Player(1700, 300), 0),
    ]
    new = glicko2.rate(player, games, tau=0.5)
    # The paper rounds mu' = -0.2069 before converting, hence 1464.06 against 1464.051.
    assert abs(new.rating - 1464.06) < 0.01
    assert abs(new.rd - 151.52) < 0.005
    assert abs(new.volatility - 0.05999) < 0.00001
    assert round((new.rating - 1500) / glicko2.SCALE, 4) == -0.2069
    assert round(new.rd / glicko2.SCALE, 4) == 0.8722


def test_glicko2_a_player_who_did_not_play_only_grows_less_certain():
    player = glicko2.Player(1600, 100, 0.06)
    new = glicko2.rate(player, [])
    assert new.rating == 1600
    assert new.rd == pytest.approx(math.sqrt((100 / glicko2.SCALE) ** 2 + 0.06**2) * glicko2.SCALE)


def _finish_random(match, seed, *, fool_of=None):
    """Play the match's first deal and return (deal, game) without finishing it."""
    rng = random.Random(seed)
    game = Game.new(Rules.from_dict(match.rules), rng)
    deal = Deal.objects.create(
        match=match,
        number=1,
        rules=match.rules,
        deck=game.deck,
        dealer=game.dealer,
        first_attacker=game.first_attacker,
    )
    while not game.is_over:
        game.apply(rng.choice([a for a in game.legal_actions() if a.kind != "resign"]))
    return deal, game


@pytest.mark.django_db
def test_the_fool_loses_to_each_safe_player_and_ratings_move_on_deal_end():
    match = play_match(["anna", "boris", "vera"], "classic", seed=21)
    deal = match.deals.get()
    rows = {
        pg.user.username: pg for pg in PlayerGame.objects.filter(deal=deal).select_related("user")
    }
    assert {pg.result for pg in rows.values()} <= {"fool", "safe"}
    fool = next(name for name, pg in rows.items() if pg.result == "fool")
    ratings = {r.user.username: r for r in Rating.objects.select_related("user")}
    assert all(r.rating_class == "multi" and r.games == 1 for r in ratings.values())
    # Everybody started at 1500; the fool lost two games, each safe player won one.
    assert ratings[fool].rating < 1500
    for name in set(rows) - {fool}:
        assert ratings[name].rating > 1500
        assert rows[name].rating_delta == pytest.approx(ratings[name].rating - 1500)
    assert RatingChange.objects.filter(deal=deal).count() == 3
    expected = glicko2.rate(
        glicko2.Player(), [glicko2.Outcome(glicko2.Player(), 0)] * 2, min_rd=glicko2.MIN_RD
    )
    assert ratings[fool].rating == pytest.approx(expected.rating)


@pytest.mark.django_db
def test_teams_rate_as_teams():
    match = play_match(["anna", "boris", "vera", "gleb"], "teams-2x2", seed=4)
    deal = match.deals.get()
    losing = deal.result["fool_team"]
    assert losing is not None
    for seat in match.seats.select_related("user"):
        rating = Rating.objects.get(user=seat.user, rating_class="teams")
        if seat.number % 2 == losing:
            assert rating.rating < 1500
        else:
            assert rating.rating > 1500
    # Each member had one game against the other team's composite.
    assert len({round(r.rating, 6) for r in Rating.objects.all()}) == 2


@pytest.mark.django_db
def test_games_with_bots_unrated_unless_the_variant_allows_it():
    play_match(["anna", "medium"], "classic", seed=1)
    assert PlayerGame.objects.get().is_rated is False
    assert not Rating.objects.exists()
    match = create_match(["anna", "hard"], "classic")
    match.variant.rated_with_bots = True
    match.variant.save()
    deal, game = _finish_random(match, 2)
    finish_deal(deal, game)
    assert Rating.objects.get(user__username="anna").games == 1
    # Unrated tables and aborted matches never move ratings.
    play_match(["anna", "boris"], "classic", seed=3, is_rated=False)
    assert Rating.objects.filter(user__username="boris").count() == 0


@pytest.mark.django_db
def test_an_aborted_match_is_taken_back():
    match = play_match(["anna", "boris"], "classic", seed=8)
    assert Rating.objects.get(user__username="anna").games == 1
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
        match_aborted.send(sender=Match, match=match, reason="test", by=None)
    anna = Rating.objects.get(user__username="anna")
    assert (anna.rating, anna.rd, anna.games) == (1500, 350, 0)
    assert not RatingChange.objects.exists()
    assert PlayerGame.objects.filter(is_rated=True).count() == 0


@pytest.mark.django_db(transaction=True)
def test_ratings_update_in_the_same_transaction_as_the_deal_end():
    match = create_match(["anna", "boris"], "classic")
    deal, game = _finish_random(match, 5)
    seen = {}

    def spy(sender, deal, **kwargs):
        seen["atomic"] = connection.in_atomic_block

    deal_finished.connect(spy, dispatch_uid="test-spy")
    try:
        # A crash after the signal (later in the finishing transaction) takes the rating back.
        with pytest.raises(RuntimeError), transaction.atomic():
            finish_deal(deal, game)
            assert Rating.objects.filter(user__username="anna").exists()
            raise RuntimeError("crash")
    finally:
        deal_finished.disconnect(dispatch_uid="test-spy")
    assert seen["atomic"] is True
    assert not Rating.objects.exists() and not PlayerGame.objects.exists()
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.PLAYING
    # And a failing receiver fails the deal's end: it never finishes unrated.
    deal.refresh_from_db()
    original = services.record_finished_deal

    def broken(deal):
        raise RuntimeError("ratings unavailable")

    services.record_finished_deal = broken
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            finish_deal(deal, game)
    finally:
        services.record_finished_deal = original
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.PLAYING
    with transaction.atomic():
        finish_deal(deal, game)
    assert Rating.objects.count() == 2
    # Sending the signal twice records the deal once.
    with transaction.atomic():
        deal_finished.send(sender=Deal, deal=deal)
    assert PlayerGame.objects.count() == 2 and Rating.objects.get(user__username="anna").games == 1


@pytest.mark.django_db
def test_the_rating_chart_starts_at_1500_before_the_first_game():
    match = play_match(["anna", "boris", "vera"], "classic", seed=21)
    anna = match.seats.get(user__username="anna").user
    series = services.rating_series(anna)
    assert series["multi"][0] == 1500
    assert series["multi"][1] == Rating.objects.get(user=anna).rating
