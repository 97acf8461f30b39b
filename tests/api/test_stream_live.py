"""The game stream and the example bot on a real daphne: the stream's lines carry only
what the seat may see, follow each change, count against the socket caps, and end with
the game; the example bot plays a whole game against the site's hard bot."""

from __future__ import annotations

import json
import re
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connections

from durak.engine import Game
from games import services
from games.models import Match, Move, RuleVariant

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import ApiError, DurakClient  # noqa: E402
from example_bot import play_game  # noqa: E402


def open_stream(base: str, secret: str, match_id: int):
    request = urllib.request.Request(f"{base}/api/games/{match_id}/stream")
    request.add_header("Authorization", f"Bearer {secret}")
    return urllib.request.urlopen(request, timeout=20)


def next_state(response) -> dict:
    while True:
        line = response.readline()
        assert line, "the stream ended"
        if line.strip():
            return json.loads(line)


@pytest.mark.django_db(transaction=True)
def test_the_stream_shows_the_seat_its_own_cards_and_each_change(settings, live_server_url):
    ann, bob = make_user("ann"), make_user("bob")
    match = services.create_match(ann, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, bob)
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    secrets = {0: token_of(ann), 1: token_of(bob)}
    connections.close_all()
    with open_stream(live_server_url, secrets[1], match.pk) as stream:
        assert stream.headers["Content-Type"] == "application/x-ndjson"
        first = next_state(stream)
        text = json.dumps(first)
        view = first["view"]
        assert (first["seat"], first["version"], first["status"]) == (1, match.version, "playing")
        assert sorted(view["hand"]) == sorted(game.hand(1))
        assert view["talon"] == game.talon_count and view["trump"] == game.trump
        assert view["legal"] == [str(a) for a in game.legal_actions(1)]
        assert first["deadline"] is not None
        # No card of the other hand, none of the talon but the face-up trump, no deck.
        hidden = [*game.hand(0), *(c for c in match.state["talon"] if c != game.trump)]
        assert [card for card in hidden if f'"{card}"' in text] == []
        assert "deck" not in first and "deck" not in view
        # A move by the other seat comes as the next line.
        seat = game.seats_to_act()[0]
        action = str(game.legal_actions(seat)[0])
        DurakClient(live_server_url, secrets[seat]).play(match.pk, action, match.version)
        second = next_state(stream)
        assert second["version"] == match.version + 1
        game.apply(action)
        assert second["view"]["table"] == game.table()
        assert sorted(second["view"]["hand"]) == sorted(game.hand(1))
        # A resignation ends the game, and the stream with it.
        DurakClient(live_server_url, secrets[0]).resign(match.pk)
        last = next_state(stream)
        assert last["status"] == "finished" and last["view"]["result"]["fool"] == 0
        assert stream.readline() == b""


@pytest.mark.django_db(transaction=True)
def test_streams_count_against_the_socket_caps(settings, live_server_url_with_one_socket):
    base, match, secret = live_server_url_with_one_socket
    with open_stream(base, secret, match.pk) as stream:
        next_state(stream)
        with pytest.raises(urllib.error.HTTPError) as refused:
            open_stream(base, secret, match.pk)
        assert refused.value.code == 429
        assert json.loads(refused.value.read())["code"] == "too_many_streams"
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.fixture
def live_server_url_with_one_socket(settings, transactional_db, request):
    """A server that lets each player one socket at a table (set before it forks)."""
    settings.GAMES_SOCKETS_PER_TABLE = 1
    ann, bob = make_user("ann"), make_user("bob")
    match = services.create_match(ann, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, bob)
    match.refresh_from_db()
    secret = token_of(ann)
    base = request.getfixturevalue("live_server_url")
    return base, match, secret


class RecordingClient(DurakClient):
    """The reference client, keeping every stream line it read."""

    lines: list[dict]

    def stream(self, match_id: int):
        self.lines = []
        for state in super().stream(match_id):
            self.lines.append(state)
            yield state


CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


@pytest.mark.django_db(transaction=True)
def test_the_example_bot_plays_a_whole_game_against_the_hard_bot(fast_bots, live_server_url):
    secret = token_of(make_user("botwriter"))
    connections.close_all()
    client = RecordingClient(live_server_url, secret)
    table = client.create_table(level="hard", players=2, bot_speed="fast")
    played: list[str] = []
    last = play_game(client, table["match_id"], log=played.append)
    match = Match.objects.get(pk=table["match_id"])
    assert match.status == Match.Status.FINISHED
    assert last["status"] == "finished" and last["view"]["is_over"]
    assert last["view"]["result"] == match.live_deal.result
    # Every move the bot posted was played, in order, by its seat.
    posted = [line.split(": ", 1)[1] for line in played if "refused" not in line]
    mine = list(
        Move.objects.filter(match=match, seat=0).order_by("seq").values_list("action", flat=True)
    )
    assert len(mine) >= 2 and posted == mine
    # No line showed a card but the seat's own, those on the table and the trump.
    versions = [line["version"] for line in client.lines]
    assert versions == sorted(set(versions)) and len(versions) > len(mine)
    for line in client.lines:
        view = line["view"]
        seen = set(view["hand"]) | {card for pair in view["table"] for card in pair if card}
        assert set(CARD.findall(json.dumps(line))) <= seen | {view["trump"]}, line
    with pytest.raises(ApiError) as over:
        client.resign(match.pk)
    assert over.value.code == "not_playing"
