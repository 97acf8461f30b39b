"""An API move hands its pooled database connection back before its pushes, which wait
for the event loop: under load, connections held through that wait left the pool dry
and the other requests failed (PostgreSQL only: SQLite has no pool)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from durak.engine import Game
from games import services
from games.models import Match, Move, RuleVariant

from .helpers import api_client, make_user, token_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the connection pool is PostgreSQL's"
    ),
]


@pytest.mark.parametrize("what", ["actions", "resign"])
def test_a_move_is_pushed_with_its_connection_back_in_the_pool(monkeypatch, what):
    ann, bob = make_user("ann"), make_user("bob")
    match = services.create_match(ann, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, bob, token=match.invite_token)
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    seat = game.seats_to_act()[0]
    user = (ann, bob)[seat]
    body = {"action": str(game.legal_actions(seat)[0]), "version": match.version}
    secret = token_of(user)
    connection.close()  # the test's own: the request opens the one it uses

    held_at_push: list[bool] = []
    send_now = services.Push.send_now

    def recording_send_now(push: services.Push) -> None:
        held_at_push.append(connection.connection is not None)
        send_now(push)

    monkeypatch.setattr(services.Push, "send_now", recording_send_now)
    response = api_client(secret).post(
        f"/api/games/{match.pk}/{what}", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert held_at_push and not any(held_at_push)
    assert Move.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).version > match.version
