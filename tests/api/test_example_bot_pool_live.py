"""Two example bots in ``--wait --seek`` mode on a real daphne: each bot account seeks
in the bot pool, they are paired with each other, play the whole game through the
API, and the game moves their bots' rating only."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from django.db import connections

from games.models import Match, Seat
from history.models import PlayerGame, Rating
from matchmaking.bot_accounts import turn_into_bot

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import DurakClient  # noqa: E402
from example_bot import serve  # noqa: E402


@pytest.mark.django_db(transaction=True)
def test_two_waiting_bots_seek_in_the_bot_pool_and_play_each_other(live_server_url):
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    tokens = {"robo": token_of(robo), "droid": token_of(droid)}
    connections.close_all()
    said: dict[str, list[str]] = {"robo": [], "droid": []}
    served: dict[str, int] = {}
    wishes = {"deck_size": 24, "speed": "fast", "is_rated": True}

    def wait(name: str) -> None:
        client = DurakClient(live_server_url, tokens[name])
        served[name] = serve(client, games=1, seek=wishes, log=said[name].append)

    bots = [threading.Thread(target=wait, args=(name,), daemon=True) for name in tokens]
    for bot in bots:
        bot.start()
    for bot in bots:
        bot.join(timeout=90)
        assert not bot.is_alive(), said

    assert served == {"robo": 1, "droid": 1}, said
    assert all(lines[0] == "looking for a game in the bots pool" for lines in said.values())
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED and match.is_rated
    assert set(Seat.objects.filter(match=match).values_list("user__username", flat=True)) == {
        "robo",
        "droid",
    }
    assert set(PlayerGame.objects.values_list("rating_class", "is_rated")) == {("bots", True)}
    assert set(Rating.objects.values_list("user__username", "rating_class", "games")) == {
        ("robo", "bots", 1),
        ("droid", "bots", 1),
    }
