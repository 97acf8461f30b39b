"""The example bot against a person on the table page, on a real daphne: a bot account
runs ``serve`` (it takes the person's friend request and their challenge, then plays
its seat through the API) while the person plays each of their moves over the table's
WebSocket with the frames the page's action form sends, to the game's end; both are
told the result."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connections

from durak.engine import Game
from friends.models import Friendship
from friends.services import request_friend
from games.models import Deal, Match, Move
from history.models import PlayerGame
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.challenges import challenge
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, db, in_own_loop, session_cookie

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import DurakClient  # noqa: E402
from example_bot import serve  # noqa: E402

PERSON_SEAT = 0  # the challenger opens the table, in seat 0

pytestmark = pytest.mark.django_db(transaction=True)


def accounts() -> tuple[object, object, str, str]:
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    return person, robo, token_of(robo), session_cookie(person)


def befriended(person) -> bool:
    return Friendship.objects.filter(from_user=person, accepted_at__isnull=False).exists()


def table_now(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def page_frame(action: str, version: int) -> dict:
    """What the page's hidden action form sends (the ws extension sends its fields as
    text, with the request's headers)."""
    headers = {"HX-Request": "true", "HX-Trigger": "action-form", "HX-Target": "action-form"}
    return {"type": "action", "action": action, "version": str(version), "HEADERS": headers}


async def play_the_person(page: TableClient, match_id: int) -> list[str]:
    """Every move of the person's seat, chosen from what they may play now and sent
    over the page's socket; returns what was sent.  Each round waits for the page to
    show the next version (the person's own move or the bot's)."""
    rng = random.Random(match_id)
    sent: list[str] = []
    for _ in range(400):
        match = await db(table_now, match_id)
        if match.status == Match.Status.FINISHED:
            return sent
        if match.status == Match.Status.PLAYING:
            mine = Game.from_snapshot(match.state).legal_actions(PERSON_SEAT)
            if mine:
                await page.until_version(match.version)
                action = str(rng.choice(mine))
                await page.send(page_frame(action, match.version))
                sent.append(action)
        await page.until_version(match.version + 1, timeout=30)
    raise AssertionError("the game did not end in 400 rounds")


@in_own_loop
async def test_the_example_bot_plays_a_whole_game_against_a_person_on_the_page(
    live_server_url,
):
    person, robo, bot_secret, cookie = await db(accounts)
    said: list[str] = []
    served: list[int] = []
    bot = threading.Thread(
        target=lambda: served.append(
            serve(DurakClient(live_server_url, bot_secret), games=1, log=said.append)
        ),
        daemon=True,
    )
    bot.start()

    # The person asks the bot account to be friends, then challenges it to a short
    # deal, as the profile's buttons do; the bot takes both from its event stream.
    await db(request_friend, person, robo)
    deadline = time.monotonic() + 30
    while not await db(befriended, person):
        assert time.monotonic() < deadline, said
        await asyncio.sleep(0.1)
    match = await db(challenge, person, robo, {"deck_size": 24, "is_rated": False})
    page = TableClient(live_server_url, match.pk, cookie)
    await page.open()

    sent = await play_the_person(page, match.pk)

    # The person's page shows the result ...
    if not any("Game over" in frame for frame in page.frames):
        await page.until(lambda frame: "Game over" in frame, timeout=15)
    last = next(frame for frame in reversed(page.frames) if "Game over" in frame)
    await page.close()
    await asyncio.to_thread(bot.join, 60)
    assert not bot.is_alive(), said
    # ... and the bot's event stream told it, as its last word says.
    assert served == [1]
    assert said[:2] == ["friends with ann", f"accepted ann's challenge: table {match.pk}"]

    def stored() -> tuple[dict, dict, list[tuple[int, str]]]:
        deal = Deal.objects.get(match_id=match.pk)
        results = dict(
            PlayerGame.objects.filter(match_id=match.pk).values_list("user__username", "result")
        )
        moves = list(Move.objects.filter(match_id=match.pk).order_by("seq"))
        return deal.result, results, [(move.seat, move.action) for move in moves]

    result, results, moves = await db(stored)
    assert (await db(table_now, match.pk)).status == Match.Status.FINISHED
    assert said[-1] == f"table {match.pk}: finished, {results['robo']}"
    if result.get("fool") == PERSON_SEAT:
        assert "You are the fool." in last and results == {"ann": "fool", "robo": "safe"}
    elif result.get("fool") == 1:
        assert "robo is the fool." in last and results == {"ann": "safe", "robo": "fool"}
    else:
        assert "nobody is the fool" in last and set(results.values()) == {"draw"}

    # Every move of the person's seat came from their page's socket, in order (a move
    # sent just after the bot's was refused as stale, with an error on the page) ...
    person_moves = [action for seat, action in moves if seat == PERSON_SEAT]
    refusals = sum(1 for frame in page.frames if frame.startswith(f"<div {ERROR}"))
    played = iter(sent)
    assert all(move in played for move in person_moves), (person_moves, sent)
    assert len(person_moves) >= 2 and len(sent) - len(person_moves) <= refusals
    # ... and every move of the bot's seat from the example bot, through the API.
    posted = [line.split(": ", 1)[1] for line in said if line.startswith("v")]
    posted = [action for action in posted if "refused" not in action]
    assert len(posted) >= 2 and posted == [action for seat, action in moves if seat == 1]
    await db(connections.close_all)
