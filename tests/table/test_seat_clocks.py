"""A clock per seat: at a table of three where both attackers are asked whether they
are done, each attacker's clock shows its own deadline, a berserker's half the other's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from arena import services
from arena.berserk import go_berserk
from games import services as games
from games.models import Match
from games.services import clock
from tests.arena.conftest import person, running_arena

pytestmark = pytest.mark.django_db

SEAT_NUMBER = re.compile(r'data-seat="(\d)"')
SEAT_CLOCK = re.compile(r'class="countdown" data-deadline="(\d+)"')
MY_CLOCK = re.compile(r'class="countdown mine" data-deadline="(\d+)"')


def epoch_ms(value) -> int:
    return int(value.timestamp() * 1000)


def page_of(user, match_id: int) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("table:table", args=[match_id])).content.decode()


def seat_clocks(page: str) -> dict[int, int]:
    """The other seats' clocks on a table page: seat number, deadline in epoch ms."""
    clocks = {}
    for seat in page.split('<li class="seat ')[1:]:
        seat = seat.split("</li>", 1)[0]
        if found := SEAT_CLOCK.search(seat):
            clocks[int(SEAT_NUMBER.search(seat)[1])] = int(found[1])
    return clocks


def until_both_attackers_are_asked(match_id: int) -> tuple[Match, list[int]]:
    """Play the defender's beats (or the safe move) until the game waits for two
    seats at once: the attackers, asked whether they are done."""
    for _ in range(40):
        match = Match.objects.get(pk=match_id)
        game = games.load_game(match)
        required = clock.required_seats(game)
        if len(required) >= 2:
            return match, required
        (seat,) = required
        beats = [a for a in game.legal_actions(seat) if a.kind == "defend"]
        action = beats[0] if beats else game.default_action(seat)
        games.apply_action(match_id, seat, str(action), version=match.version)
    raise AssertionError("the attackers were never asked together")


def test_each_attacker_sees_their_own_clock_and_the_defender_sees_both():
    arena = running_arena(players_per_table=3, turn_seconds=20)
    players = [person("clk") for _ in range(3)]
    for user in players:
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    match = Match.objects.get(pk=match_id)
    game = games.load_game(match)
    seats = games.load_seats(match_id)
    # The attacker who does not lead goes berserk before the first move.
    (leader,) = clock.required_seats(game)
    berserker = next(s for s in game.attackers if s != leader)
    user_at = {seat.number: seat.user for seat in seats}
    go_berserk(user_at[berserker], match_id)

    match, required = until_both_attackers_are_asked(match_id)
    assert set(required) == {leader, berserker}
    started = match.turn_started_at
    halved = epoch_ms(started + timedelta(seconds=10))
    whole = epoch_ms(started + timedelta(seconds=20))

    defender = next(n for n in user_at if n not in required)
    assert seat_clocks(page_of(user_at[defender], match_id)) == {
        berserker: halved,
        leader: whole,
    }
    # Each attacker's own clock, and the other's by their seat.
    berserker_page = page_of(user_at[berserker], match_id)
    assert MY_CLOCK.findall(berserker_page) == [str(halved)]
    assert seat_clocks(berserker_page) == {leader: whole}
    leader_page = page_of(user_at[leader], match_id)
    assert MY_CLOCK.findall(leader_page) == [str(whole)]
    assert seat_clocks(leader_page) == {berserker: halved}


def test_one_seat_on_the_clock_shows_the_tables_deadline():
    arena = running_arena(players_per_table=3, turn_seconds=20)
    players = [person("clk") for _ in range(3)]
    for user in players:
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    match = Match.objects.get(pk=match_id)
    (leader,) = clock.required_seats(games.load_game(match))
    watcher = next(s.user for s in games.load_seats(match_id) if s.number != leader)
    assert seat_clocks(page_of(watcher, match_id)) == {leader: epoch_ms(match.turn_deadline)}
