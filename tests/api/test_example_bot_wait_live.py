"""The example bot's ``--wait`` mode on a real daphne: a bot account reads its event
stream, takes a person's friend request, accepts their challenge and plays the whole
game through the API, while the person (through their own token) plays the other
seat."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connections

from friends.models import Friendship
from games.models import Match, Move
from matchmaking.bot_accounts import turn_into_bot

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import DurakClient  # noqa: E402
from example_bot import play_game, serve  # noqa: E402


@pytest.mark.django_db(transaction=True)
def test_a_waiting_bot_accepts_a_challenge_and_plays_it_to_the_end(live_server_url):
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    ann, bot = token_of(person), token_of(robo)
    connections.close_all()
    said: list[str] = []
    served: list[int] = []
    waiting = threading.Thread(
        target=lambda: served.append(
            serve(DurakClient(live_server_url, bot), games=1, log=said.append)
        ),
        daemon=True,
    )
    waiting.start()

    ann_client = DurakClient(live_server_url, ann)
    assert ann_client.befriend("robo") == {"username": "robo", "friends": False}
    deadline = time.monotonic() + 20
    while not Friendship.objects.filter(from_user=person, accepted_at__isnull=False).exists():
        assert time.monotonic() < deadline, said
        time.sleep(0.1)
    made = ann_client.challenge("robo", deck_size=24, is_rated=False)
    last = play_game(ann_client, made["match_id"], log=lambda line: None)

    waiting.join(timeout=60)
    assert not waiting.is_alive(), said
    assert served == [1]
    assert last["status"] == "finished" and last["view"]["is_over"]
    match = Match.objects.get(pk=made["match_id"])
    assert match.status == Match.Status.FINISHED
    assert said[:2] == ["friends with ann", f"accepted ann's challenge: table {match.pk}"]
    assert said[-1].startswith(f"table {match.pk}: finished, ")
    # The bot played its own seat through the API: every move it logged was played.
    posted = [line.split(": ", 1)[1] for line in said if line.startswith("v")]
    posted = [action for action in posted if "refused" not in action]
    played = Move.objects.filter(match=match, seat=1).order_by("seq")
    assert len(posted) >= 2 and posted == list(played.values_list("action", flat=True))
