"""A process that holds the previous version renders a push from the action's changes alone."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import live_cache, rendering, services
from games.engine import Game
from games.models import Match

from .test_timers import table

pytestmark = pytest.mark.django_db(transaction=True)

NOW = re.compile(r'data-now="\d+"')


def _same(html: str) -> str:
    return NOW.sub('data-now=""', html)


def _apply_and_capture(match_id: int, users, rng: random.Random) -> tuple[Match, dict]:
    match = Match.objects.get(pk=match_id)
    action = rng.choice(Game.from_snapshot(match.state).legal_actions())
    with services.collected_pushes() as pushes:
        services.apply_action(match_id, users[action.seat], str(action), version=match.version)
    [(_group, message)] = [p for p in pushes if p[1].get("what") == "state"]
    return Match.objects.get(pk=match_id), message


def test_renders_from_the_pushed_changes_equal_renders_from_the_database():
    match, users = table()
    viewers = [rendering.Viewer(u.pk, seat) for seat, u in enumerate(users)]
    rng = random.Random(5)
    checked = 0
    while True:
        live_cache._recent.clear()
        rendering.render_state(match.pk, viewers[0])  # this process now holds version N
        before = live_cache._recent[match.pk]
        match, message = _apply_and_capture(match.pk, users, rng)
        if "changes" not in message:
            # The deal ended: a finished deal's push makes every process read it fresh.
            assert match.status == Match.Status.FINISHED
            break
        live_cache._recent[match.pk] = before  # as in a process that did not apply it
        with CaptureQueriesContext(connection) as queries:
            fast = [
                rendering.render_cached_state(match.pk, v, message["version"], message["changes"])
                for v in viewers
            ]
        assert len(queries) == 0, [q["sql"] for q in queries]
        live_cache._recent.clear()
        fresh = [rendering.render_state(match.pk, v) for v in viewers]
        assert [(version, _same(html)) for version, html in fast] == [
            (version, _same(html)) for version, html in fresh
        ]
        checked += 1
    assert checked > 10


def test_changes_for_a_version_this_process_does_not_follow_are_not_used():
    match, users = table()
    viewer = rendering.Viewer(users[0].pk, 0)
    rng = random.Random(6)
    live_cache._recent.clear()
    rendering.render_state(match.pk, viewer)
    before = live_cache._recent[match.pk]
    _apply_and_capture(match.pk, users, rng)
    match, message = _apply_and_capture(match.pk, users, rng)  # two versions on
    live_cache._recent[match.pk] = before
    assert not live_cache.advance(
        match.pk, message["version"], message["changes"], services.load_game
    )
    assert (
        rendering.render_cached_state(match.pk, viewer, message["version"], message["changes"])
        is None
    )
