"""Reliability: finished games raise it, abandoned (forfeited) ones lower it, a resign
does neither harm; minimums at tables and seeks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from durak.engine import Game
from games import services as games
from games.models import Deal, Match, RuleVariant, Seat
from games.services import Refused
from history.reliability import reliability, reliability_of, score
from matchmaking import services
from matchmaking.models import Seek, TableMinimum

from .conftest import make_user, wishes

pytestmark = pytest.mark.django_db


def classic() -> RuleVariant:
    return RuleVariant.objects.get(slug="classic")


def playing_table(first, second) -> Match:
    match = games.create_match(first, classic(), 2)
    games.join_match(match, second)
    match.refresh_from_db()
    return match


def resigned_game(quitter, other) -> None:
    match = playing_table(quitter, other)
    games.resign(match.pk, quitter)


def forfeit(match_id: int, quitter) -> None:
    """Play the table on (everyone but ``quitter`` there, bots answering) until
    ``quitter`` must act, then let their reconnect budget run out: the server resigns
    for them."""
    Seat.objects.filter(match_id=match_id).exclude(user=quitter).update(disconnected_since=None)
    Match.objects.filter(pk=match_id).update(turn_seconds=600)
    for _ in range(50):
        match = Match.objects.get(pk=match_id)
        game = Game.from_snapshot(match.state)
        seats = {seat.number: seat for seat in Seat.objects.filter(match_id=match_id)}
        # The seats the game waits for (not those who may only throw in).
        waits_for = [n for n in game.to_act() if game.default_action(n) is not None]
        if any(seats[n].user_id == quitter.pk for n in waits_for):
            break
        if match.bot_due_at and games.run_bot_turn(match_id, match.bot_due_at) is not None:
            continue
        number = next(n for n in waits_for if seats[n].user_id)
        action = next(a for a in game.legal_actions(number) if a.kind not in ("resign", "swap"))
        games.apply_action(match_id, seats[number].user, str(action), version=match.version)
    turn_started = max(timezone.now(), match.turn_started_at)
    games.expire_deadlines(turn_started + timedelta(seconds=match.reconnect_seconds + 1))
    deal = Match.objects.get(pk=match_id).live_deal
    assert deal.end_reason == Deal.EndReason.FORFEIT
    assert deal.fool_seat == next(n for n, s in seats.items() if s.user_id == quitter.pk)


def abandoned_game(quitter, other) -> None:
    """A game with ``other`` that ``quitter`` forfeits by staying away."""
    forfeit(playing_table(quitter, other).pk, quitter)


def test_the_score_starts_full_falls_with_abandons_and_rises_with_finished_games():
    assert score(0, 0) == 100
    assert score(1, 1) == 83
    assert score(2, 1) < score(10, 1) < score(40, 1) < 100
    assert score(20, 20) == 20 and 0 <= score(1000, 1000) < 1


def test_running_out_of_reconnect_time_lowers_reliability_and_resigning_does_not():
    quitter, other, resigner = make_user(), make_user(), make_user()
    abandoned_game(quitter, other)
    assert reliability_of([quitter.pk, other.pk]) == {quitter.pk: 83, other.pk: 100}
    # Two resigns by a player who is there: finished games, not abandoned ones.
    resigned_game(resigner, other)
    resigned_game(resigner, make_user())
    assert reliability(resigner) == 100
    resigner.refresh_from_db()
    assert resigner.reliability == 100
    # So a table asking for 90+ still seats them.
    match = services.create_table(make_user(), classic(), 2, min_reliability=90)
    games.join_match(match, resigner)
    assert Seat.objects.filter(match=match, user=resigner).exists()


def test_a_table_below_its_minimum_refuses_the_player_and_changes_nothing():
    creator, quitter, other = make_user(), make_user(), make_user()
    abandoned_game(quitter, other)
    match = services.create_table(creator, classic(), 2, min_reliability=90)
    with pytest.raises(Refused) as refused:
        games.join_match(match, quitter)
    assert refused.value.code == "reliability" and "83" in refused.value.message
    assert Seat.objects.filter(match=match, user=quitter).count() == 0
    games.join_match(match, other)  # 100: welcome
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_the_lobby_shows_reliability_next_to_names_and_the_minimum_as_a_tag():
    creator = make_user("rel")
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(creator)
    data = {"variant": classic().pk, "players": 2, "seat_1": "", "min_reliability": "70"}
    assert client.post(reverse("table:create"), data).status_code == 302
    assert TableMinimum.objects.get().minimum == 70
    page = client.get("/").content.decode()
    assert f'{creator.username} <span class="reliability"' in page
    assert "надёжность от 70" in page
    profile = client.get(f"/u/{creator.username}/").content.decode()
    assert "Надёжность" in profile and '<span class="reliability">100</span>' in profile
    # A player who abandoned a game shows the lower score by their open table.
    quitter = make_user()
    abandoned_game(quitter, make_user())
    games.create_match(quitter, classic(), 2)
    page = client.get("/").content.decode()
    assert f'{quitter.username} <span class="reliability" title="Надёжность">83</span>' in page


def test_seeks_pair_only_players_above_each_others_minimum():
    quitter, other, fussy = make_user(), make_user(), make_user()
    abandoned_game(quitter, other)
    waiting = services.create_seek(fussy, **wishes(min_reliability=90))
    low = services.create_seek(quitter, **wishes())
    assert (waiting.status, low.status) == (Seek.Status.WAITING, Seek.Status.WAITING)
    assert low.reliability == 83
    # However long they wait, the fussy seeker never sits with the quitter.
    Seek.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert services.pair_all() == []
    fine = services.create_seek(make_user(), **wishes())
    assert fine.status == Seek.Status.SEATED
    waiting.refresh_from_db()
    assert waiting.match_id == fine.match_id


def test_a_finished_game_keeps_each_players_score_on_their_user_row():
    quitter, other = make_user(), make_user()
    abandoned_game(quitter, other)
    quitter.refresh_from_db()
    other.refresh_from_db()
    assert (quitter.reliability, other.reliability) == (83, 100)
    assert reliability_of([quitter.pk])[quitter.pk] == quitter.reliability


def test_the_live_table_shows_reliability_by_each_seat_name_from_its_one_read(
    django_assert_num_queries,
):
    from games.table_reads import load
    from table.rendering import render_state, viewer_for

    quitter, other = make_user(), make_user()
    abandoned_game(quitter, other)
    match = playing_table(quitter, other)
    table = load(match.pk)
    viewer = viewer_for(match, other)
    with django_assert_num_queries(0):  # the seats' scores came with the table's read
        _version, html = render_state(match.pk, viewer, table=table)
    seats = html[html.index('id="table-seats"') :]
    seats = seats[: seats.index("</ul>")]
    assert f'title="{quitter.username}"' in seats
    assert '<span class="reliability" title="Reliability">83</span>' in seats


def test_the_migration_stores_the_score_of_players_who_finished_games_before_it():
    from importlib import import_module

    from django.apps import apps

    from accounts.models import User

    quitter, other = make_user(), make_user()
    abandoned_game(quitter, other)
    User.objects.filter(pk__in=[quitter.pk, other.pk]).update(reliability=50)
    import_module("history.migrations.0003_stored_reliability").store_scores(apps, None)
    assert dict(
        User.objects.filter(pk__in=[quitter.pk, other.pk]).values_list("pk", "reliability")
    ) == {quitter.pk: 83, other.pk: 100}


def test_games_against_bots_only_count_neither_way():
    player, other = make_user(), make_user()
    against_bots = games.create_match(player, classic(), 3, bots=["easy", "medium"])
    games.resign(against_bots.pk, player)
    finished_with_bots = games.create_match(player, classic(), 2, bots=["random"])
    games.resign(finished_with_bots.pk, player)
    assert reliability(player) == 100
    # With a person at the table (and a bot beside them), abandoning counts.
    mixed = games.create_match(player, classic(), 3, bots=["", "easy"])
    games.join_match(mixed, other)
    forfeit(mixed.pk, player)
    assert reliability_of([player.pk, other.pk]) == {player.pk: 83, other.pk: 100}


def test_the_migration_gives_back_the_score_resigns_took():
    from importlib import import_module

    from django.apps import apps

    from accounts.models import User

    resigner, quitter, other = make_user(), make_user(), make_user()
    resigned_game(resigner, other)
    abandoned_game(quitter, other)
    # As the score stood when a resign counted as abandoning.
    User.objects.filter(pk__in=[resigner.pk, quitter.pk]).update(reliability=83)
    import_module("history.migrations.0006_resigning_is_not_abandoning").store_scores(apps, None)
    assert dict(
        User.objects.filter(pk__in=[resigner.pk, quitter.pk, other.pk]).values_list(
            "pk", "reliability"
        )
    ) == {resigner.pk: 100, quitter.pk: 83, other.pk: 100}
