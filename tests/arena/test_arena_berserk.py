"""Berserk: half one's own clock before the first move, a point more if not the fool."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from arena import services
from arena.berserk import go_berserk
from arena.models import ArenaGame, ArenaPlayer
from arena.scoring import Outcome, score
from games import services as games
from games.models import Match, Move
from games.services import Refused, clock

from .conftest import end_with_fool, entry, person, running_arena

pytestmark = pytest.mark.django_db


def paired(**fields):
    """A running arena (20 s a turn), two players paired at one table."""
    arena = running_arena(turn_seconds=20, **fields)
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    return arena, a, b, match_id


def user_to_act(match_id: int, *users):
    """Of ``users``, the one the first turn's clock runs for (the leading attacker)."""
    match = Match.objects.get(pk=match_id)
    seats = games.load_seats(match_id)
    (number,) = clock.required_seats(games.load_game(match))
    return next(u for u in users if u.pk == seats[number].user_id)


def first_move(match_id: int, user) -> None:
    match = Match.objects.get(pk=match_id)
    seat = next(s for s in games.load_seats(match_id) if s.user_id == user.pk)
    action = games.load_game(match).default_action(seat.number)
    games.apply_action(match_id, user, str(action), version=match.version)


def test_berserk_adds_a_point_to_a_game_not_the_fool_only():
    assert score(Outcome.NOT_FOOL, 0, berserk=True).points == 3
    assert score(Outcome.NOT_FOOL, 2, berserk=True).points == 5  # on fire: 4, plus 1
    assert score(Outcome.DRAW, 0, berserk=True).points == 1
    assert score(Outcome.FOOL, 3, berserk=True).points == 0
    assert score(Outcome.NOT_FOOL, 0).points == 2


def test_berserk_halves_the_players_own_clock_and_the_timer_keeps_it():
    arena, a, b, match_id = paired()
    mover = user_to_act(match_id, a, b)
    started = Match.objects.get(pk=match_id).turn_started_at
    go_berserk(mover, match_id)
    match = Match.objects.get(pk=match_id)
    assert match.turn_deadline == started + timedelta(seconds=10)
    # Eleven seconds in, a berserker's turn is over: the timer plays their safe move.
    assert games.expire_deadlines(started + timedelta(seconds=11)) == 1
    assert Move.objects.filter(match_id=match_id, source=Move.Source.TIMEOUT).count() == 1


def test_without_berserk_the_turn_keeps_the_whole_clock():
    arena, a, b, match_id = paired()
    started = Match.objects.get(pk=match_id).turn_started_at
    assert Match.objects.get(pk=match_id).turn_deadline == started + timedelta(seconds=20)
    assert games.expire_deadlines(started + timedelta(seconds=11)) == 0
    assert not Move.objects.filter(match_id=match_id).exists()


def test_the_other_players_clock_stays_whole():
    arena, a, b, match_id = paired()
    mover = user_to_act(match_id, a, b)
    other = b if mover == a else a
    go_berserk(other, match_id)
    match = Match.objects.get(pk=match_id)
    assert match.turn_deadline == match.turn_started_at + timedelta(seconds=20)
    assert clock.seat_turn_seconds(games.load_seats(match_id)) == {
        next(s.number for s in games.load_seats(match_id) if s.user_id == other.pk): 10
    }


def test_a_berserker_not_the_fool_scores_a_point_more_and_standings_agree():
    arena, a, b, match_id = paired()
    go_berserk(a, match_id)
    go_berserk(b, match_id)
    end_with_fool(match_id, b)
    winner, loser = entry(arena, a), entry(arena, b)
    assert (winner.points, winner.berserks) == (3, 1)
    assert (loser.points, loser.berserks) == (0, 1)
    recomputed = services.recompute(arena)
    for row in ArenaPlayer.objects.filter(arena=arena):
        assert recomputed[row.user_id] == (
            row.points,
            row.games,
            row.on_fire,
            row.performance,
            row.bot_games,
        )


def unchanged(match_id: int):
    match = Match.objects.get(pk=match_id)
    berserks = ArenaGame.objects.get(match_id=match_id).berserk_seats
    return match.version, match.turn_deadline, berserks


def refused(user, match_id: int) -> Refused:
    before = unchanged(match_id)
    with pytest.raises(Refused) as refusal:
        go_berserk(user, match_id)
    assert unchanged(match_id) == before
    return refusal.value


def test_berserk_after_the_first_move_is_refused():
    arena, a, b, match_id = paired()
    first_move(match_id, user_to_act(match_id, a, b))
    for user in (a, b):
        refusal = refused(user, match_id)
        assert refusal.code == "too_late"
        assert "before the first move" in refusal.message


def test_berserk_twice_is_refused():
    arena, a, b, match_id = paired()
    go_berserk(a, match_id)
    refusal = refused(a, match_id)
    assert refusal.code == "repeated"
    assert "already" in refusal.message


def test_berserk_by_someone_not_seated_is_refused():
    arena, a, b, match_id = paired()
    stranger = person()
    services.join(stranger, arena)
    assert refused(stranger, match_id).code == "not_seated"


def test_berserk_in_a_finished_game_is_refused():
    arena, a, b, match_id = paired()
    end_with_fool(match_id, b)
    assert refused(a, match_id).code == "finished"


def test_berserk_at_a_table_outside_an_arena_is_refused():
    arena, a, b, match_id = paired()
    ArenaGame.objects.filter(match_id=match_id).delete()
    with pytest.raises(Refused) as refusal:
        go_berserk(a, match_id)
    assert refusal.value.code == "not_found"
    with pytest.raises(Refused):
        go_berserk(a, 987654)


def test_the_refusal_is_in_russian_for_a_russian_player():
    arena, a, b, match_id = paired()
    go_berserk(a, match_id)
    with translation.override("ru"), pytest.raises(Refused) as refusal:
        go_berserk(a, match_id)
    assert "уже" in refusal.value.message


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("language", "button"), [("en", "Berserk: half the time"), ("ru", "Берсерк")]
)
def test_the_table_offers_berserk_before_the_first_move_only(language, button):
    arena, a, b, match_id = paired()
    table = reverse("table:table", args=[match_id])
    client = client_of(a, language)
    assert button in client.get(table).content.decode()
    assert button not in client_of(person(), language).get(table).content.decode()
    first_move(match_id, user_to_act(match_id, a, b))
    page = client.get(table).content.decode()
    assert button not in page
    assert "data-moved" in page  # what hides the button on a page loaded before the move


def test_the_berserk_button_posts_and_the_standings_mark_the_berserker():
    arena, a, b, match_id = paired()
    client = client_of(a)
    response = client.post(reverse("arena:berserk", args=[match_id]))
    assert response.status_code == 302
    assert ArenaGame.objects.get(match_id=match_id).berserk_seats != []
    assert "Berserk: half the time" not in client.get(response.url).content.decode()
    end_with_fool(match_id, b)
    standings = client.get(reverse("arena:standings", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-berserk"' in standings
    again = client.post(reverse("arena:berserk", args=[match_id]), follow=True)
    assert "This game is over." in again.content.decode()
    assert client.get(reverse("arena:berserk", args=[match_id])).status_code == 405


def test_a_forged_table_id_goes_back_to_the_arenas_with_the_refusal():
    client = client_of(person(), "ru")
    response = client.post(reverse("arena:berserk", args=[987654]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("arena:list")
    assert "Это не партия арены." in response.content.decode()
    assert not ArenaGame.objects.exists()
