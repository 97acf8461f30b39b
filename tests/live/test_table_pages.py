"""The other seats' pages rendered in a move's hop show what a render from the
database would, in each seat's own language, and only of the version pushed."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import rendering, services, table_pages
from games.engine import Game
from games.models import Match

from .conftest import card_codes
from .test_push_pieces import Page, full_render
from .test_timers import table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def nothing_watched():
    yield
    for key in list(table_pages._watched):
        table_pages.forget(*key)


def move(match: Match, users, rng: random.Random):
    action = rng.choice(Game.from_snapshot(match.state).legal_actions())
    outcome = services.apply_action(
        match.pk, users[action.seat], str(action), version=match.version
    )
    return action.seat, outcome, Match.objects.get(pk=match.pk)


def first_move_of_seat_0(match: Match, users, rng: random.Random):
    """Play random moves until seat 0 makes one that commits a table: (match, outcome)."""
    while True:
        mover, outcome, match = move(match, users, rng)
        if mover == 0 and outcome.table is not None:
            return match, outcome


@pytest.mark.parametrize(("seed", "language"), [(1, "en"), (2, "ru"), (3, "ru")])
def test_pages_rendered_in_the_movers_hop_match_a_full_render(seed, language):
    match, users = table()
    pages = [Page(rendering.Viewer(u.pk, seat)) for seat, u in enumerate(users)]
    with translation.override(language):
        for seat, page in enumerate(pages):
            page.load(match.pk)
            table_pages.watch(match.pk, seat, users[seat].pk, language)
    rng = random.Random(seed)
    ahead = 0
    while match.status == Match.Status.PLAYING:
        mover, outcome, match = move(match, users, rng)
        if outcome.table is not None:
            # The move's hop runs in the mover's language, whatever the others read.
            with translation.override("ru" if language == "en" else "en"):
                table_pages.render_watched(outcome.table, mover=mover)
        other = pages[1 - mover]
        page = table_pages.page_for(
            match.pk, 1 - mover, users[1 - mover].pk, match.version, language
        )
        assert (page is not None) == (outcome.table is not None)
        with translation.override(language):
            if page is not None:
                other.receive(page.html_for(other.shown))
                ahead += 1
            else:
                other.push(match.pk)
            shows = {k: v for k, v in other.shows.items() if k != "table-chat"}
            assert shows == full_render(match.pk, other.viewer)
        assert (
            table_pages.page_for(match.pk, mover, users[mover].pk, match.version, language) is None
        )
        pages[mover].shown.clear()  # the mover's page is another test's
        pages[mover].shows.clear()
    assert ahead > 10


def test_a_page_is_used_only_in_its_language_for_its_version_and_while_watched():
    match, users = table()
    table_pages.watch(match.pk, 1, users[1].pk, "ru")
    match, outcome = first_move_of_seat_0(match, users, random.Random(4))
    table_pages.render_watched(outcome.table, mover=0)
    page = table_pages.page_for(match.pk, 1, users[1].pk, match.version, "ru")
    assert page is not None and "Козырь" in "".join(page.pieces.values())
    assert table_pages.page_for(match.pk, 1, users[1].pk, match.version, "en") is None
    assert table_pages.page_for(match.pk, 1, users[1].pk, match.version - 1, "ru") is None
    assert (
        table_pages.page_for(match.pk, 0, users[0].pk, match.version, "ru") is None
    )  # the mover's
    table_pages.watch(match.pk, 1, users[1].pk, "en")  # that seat's socket switched language
    assert table_pages.page_for(match.pk, 1, users[1].pk, match.version, "ru") is None
    table_pages.forget(match.pk, 1)
    table_pages.render_watched(outcome.table, mover=0)
    assert table_pages.page_for(match.pk, 1, users[1].pk, match.version, "en") is None


def test_an_older_page_never_replaces_a_newer_one():
    match, users = table()
    table_pages.watch(match.pk, 0, users[0].pk, "en")
    table_pages.watch(match.pk, 1, users[1].pk, "en")
    rng = random.Random(8)
    tables = []
    while len(tables) < 2:
        mover, outcome, match = move(match, users, rng)
        if outcome.table is not None:
            tables.append((mover, outcome.table, match.version))
    (first_mover, first, _), (second_mover, second, newest) = tables
    table_pages.render_watched(second, mover=second_mover)
    table_pages.render_watched(first, mover=first_mover)  # its hop finished last
    for seat in (0, 1):
        if seat != second_mover:
            assert table_pages.page_for(match.pk, seat, users[seat].pk, newest, "en") is not None


def test_a_page_holds_only_its_own_seats_cards():
    match, users = table()
    table_pages.watch(match.pk, 0, users[0].pk, "en")
    table_pages.watch(match.pk, 1, users[1].pk, "en")
    rng = random.Random(9)
    while match.status == Match.Status.PLAYING:
        mover, outcome, match = move(match, users, rng)
        if outcome.table is None:
            continue
        table_pages.render_watched(outcome.table, mover=mover)
        page = table_pages.page_for(match.pk, 1 - mover, users[1 - mover].pk, match.version, "en")
        game = Game.from_snapshot(match.state)
        shown = card_codes(page.html_for({}))
        assert set(game.view(1 - mover)["hand"] or []) <= shown
        assert not set(game.view(mover)["hand"] or []) & shown
    assert outcome.table is None  # the game went to its end


def test_a_socket_of_another_user_on_the_seat_gets_no_page():
    match, users = table()
    table_pages.watch(match.pk, 1, users[0].pk, "en")  # not seat 1's user
    match, outcome = first_move_of_seat_0(match, users, random.Random(12))
    table_pages.render_watched(outcome.table, mover=0)
    for user in users:
        assert table_pages.page_for(match.pk, 1, user.pk, match.version, "en") is None
