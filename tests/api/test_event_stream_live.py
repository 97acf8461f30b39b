"""The account's event stream on a real daphne, read by the reference client: a line
for a game in progress on opening, then for an invite, a game started and a game
finished as they happen; it counts against the socket caps, and a revoked token
ends it."""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from api import events
from friends import services as friends
from games import services
from games.models import RuleVariant

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import DurakClient  # noqa: E402


def open_events(base: str, secret: str):
    request = urllib.request.Request(f"{base}/api/stream/event")
    request.add_header("Authorization", f"Bearer {secret}")
    return urllib.request.urlopen(request, timeout=20)


def classic():
    return RuleVariant.objects.get(slug="classic")


@pytest.mark.django_db(transaction=True)
def test_the_client_reads_games_starting_and_finishing_and_invites(live_server_url):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    first = services.create_match(bob, classic(), 2)
    services.join_match(first, ann)
    friends.accept_friend(ann, friends.request_friend(cid, ann).pk)
    secret = token_of(ann)
    connections.close_all()
    client = DurakClient(live_server_url, secret)
    lines = client.events()
    assert next(lines) == {"type": "game_started", "match_id": first.pk, "seat": 1}

    waiting = services.create_match(cid, classic(), 2, is_private=True)
    invite = friends.invite(cid, ann, waiting.pk)
    connections.close_all()
    assert next(lines) == {
        "type": "invite", "invite_id": invite.pk, "match_id": waiting.pk, "from": "cid",
    }  # fmt: skip

    # A table the account opens through the API starts at once: told as it starts.
    table = client.create_table(level="easy", bot_speed="normal")
    assert next(lines) == {"type": "game_started", "match_id": table["match_id"], "seat": 0}
    client.resign(table["match_id"])
    assert next(lines) == {
        "type": "game_finished", "match_id": table["match_id"], "status": "finished",
        "result": "fool",
    }  # fmt: skip
    lines.close()


@pytest.fixture
def server_with_one_socket_each(settings, transactional_db, request):
    """A server that lets each account one socket (set before it forks)."""
    settings.GAMES_SOCKETS_PER_USER = 1
    return request.getfixturevalue("live_server_url")


@pytest.mark.django_db(transaction=True)
def test_the_event_stream_counts_against_the_socket_caps(server_with_one_socket_each):
    base = server_with_one_socket_each
    ann, bob = make_user("ann"), make_user("bob")
    match = services.create_match(ann, classic(), 2)
    services.join_match(match, bob)
    secret = token_of(ann)
    connections.close_all()
    with open_events(base, secret) as stream:
        assert json.loads(stream.readline())["type"] == "game_started"
        for path in ("/api/stream/event", f"/api/games/{match.pk}/stream"):
            request = urllib.request.Request(base + path)
            request.add_header("Authorization", f"Bearer {secret}")
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=20)
            assert refused.value.code == 429
            assert json.loads(refused.value.read())["code"] == "too_many_streams"
    # Closed, its place is free again.
    deadline = time.monotonic() + 10
    while True:
        try:
            with open_events(base, secret) as again:
                assert json.loads(again.readline())["type"] == "game_started"
            break
        except urllib.error.HTTPError:
            assert time.monotonic() < deadline, "the closed stream kept its place"
            time.sleep(0.2)


@pytest.fixture
def server_with_quick_keepalives(monkeypatch, transactional_db, request):
    """A server whose event streams send a keep-alive line every half second."""
    monkeypatch.setattr(events, "KEEPALIVE_SECONDS", 0.5)
    monkeypatch.setattr(events, "POLL_SECONDS", 0.2)
    return request.getfixturevalue("live_server_url")


@pytest.mark.django_db(transaction=True)
def test_keepalive_lines_come_and_a_revoked_token_ends_the_stream(server_with_quick_keepalives):
    ann = make_user("ann")
    secret = token_of(ann)
    connections.close_all()
    with open_events(server_with_quick_keepalives, secret) as stream:
        assert stream.readline() == b"\n"  # nothing to tell: a blank line keeps it open
        ann.api_tokens.update(revoked_at=timezone.now())
        connections.close_all()
        rest = stream.read()  # ends, rather than waiting on
        assert rest.strip() == b""
