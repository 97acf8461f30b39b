"""A push names the version only; each viewer's render of it comes from the database."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from durak.engine import Game
from games import services
from games.models import Match
from table import rendering

from .test_timers import table

pytestmark = pytest.mark.django_db(transaction=True)

# The felt partial, up to the hand partial that follows it in every state render.
FELT = re.compile(r'<div id="table-felt".*?(?=<div id="table-hand")', re.S)
HAND_CARD = re.compile(r'class="hand-card"[^>]*data-card="(\w\w)"')


def _apply(match_id: int, users, rng: random.Random) -> dict:
    match = Match.objects.get(pk=match_id)
    action = rng.choice(Game.from_snapshot(match.state).legal_actions())
    with services.collected_pushes() as pushes:
        services.apply_action(match_id, users[action.seat], str(action), version=match.version)
    [push] = [p for p in pushes if p.message.get("what") == "state"]
    return push.message


def test_a_push_carries_the_version_and_no_table_state():
    match, users = table()
    message = _apply(match.pk, users, random.Random(3))
    assert message == {
        "type": "match.changed",
        "match_id": match.pk,
        "version": match.version + 1,
        "what": "state",
    }


def test_every_viewer_renders_the_pushed_version_with_the_same_felt_and_only_its_own_hand():
    match, users = table()
    viewers = [rendering.Viewer(u.pk, seat) for seat, u in enumerate(users)]
    rng = random.Random(5)
    for _ in range(30):
        message = _apply(match.pk, users, rng)
        match = Match.objects.get(pk=match.pk)
        game = Game.from_snapshot(match.state)
        renders = [rendering.render_state(match.pk, v) for v in viewers]
        assert {version for version, _html in renders} == {message["version"]}
        felts = {FELT.search(html).group(0) for _version, html in renders}
        assert len(felts) == 1
        for seat, (_version, html) in enumerate(renders):
            assert set(HAND_CARD.findall(html)) == set(game.view(seat)["hand"] or [])
        if match.status != Match.Status.PLAYING:
            break


def test_the_felt_of_one_version_is_rendered_in_each_viewers_language():
    match, users = table()
    viewer = rendering.Viewer(users[0].pk, 0)
    with translation.override("en"):
        english = FELT.search(rendering.render_state(match.pk, viewer)[1]).group(0)
    with translation.override("ru"):
        russian = FELT.search(rendering.render_state(match.pk, viewer)[1]).group(0)
    assert "Trump" in english
    assert "Козырь" in russian
