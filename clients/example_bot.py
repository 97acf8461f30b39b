"""An example bot: opens a table against the site's bot (or plays a table it sits at)
and plays the whole game through the API, reading its seat's stream.  With ``--wait``
it reads its account's event stream instead: it takes each friend request (only a
friend may challenge it), accepts each challenge (invite) sent to it and each rematch
offered to it, and plays each game that starts, as a bot account people challenge does.
With ``--seek`` as well it also looks for a game ("Play now"; a bot account's seek is in
the bot pool, paired with other bot accounts only) and again after each game.

    python clients/example_bot.py --url http://127.0.0.1:8000 --token durak_… --level hard
    python clients/example_bot.py --wait            # accept challenges, play them
    python clients/example_bot.py --wait --seek --games 5   # and play the bot pool

Its play is a simple rule: the cheapest card that may be played (trumps count dearer),
"done" rather than throwing a trump in, "take" only when nothing else is legal.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from durak_api import ApiError, DurakClient  # noqa: E402

RANKS = "23456789TJQKA"
CARD_KINDS = ("attack", "defend", "transfer", "show")


def card_cost(card: str, trump_suit: str) -> int:
    return RANKS.index(card[0]) + (len(RANKS) if card[-1] == trump_suit else 0)


def action_cost(action: str, trump_suit: str) -> int:
    parts = action.split()
    cards = parts[2:]
    if parts[1] == "defend":
        cards = cards[1:]  # the card played, not the attack card it beats
    return sum(card_cost(card, trump_suit) for card in cards)


def choose(view: dict[str, Any]) -> str | None:
    """The action to play from the seat's view, or None when it has none."""
    legal = [action for action in view.get("legal") or [] if action.split()[1] != "swap"]
    if not legal:
        return None
    trump = view["trump_suit"]
    plays = [action for action in legal if action.split()[1] in CARD_KINDS]
    done = next((action for action in legal if action.split()[1] == "done"), None)
    if plays:
        best = min(plays, key=lambda action: action_cost(action, trump))
        throwing_a_trump = view["table"] and best.split()[1] == "attack" and trump in best
        if done is not None and throwing_a_trump:
            return done
        return best
    return done or legal[0]


def play_game(client: DurakClient, match_id: int, *, log: Any = print) -> dict[str, Any]:
    """Play the token's seat at ``match_id`` until the game is over; the last state."""
    acted_at = -1
    last: dict[str, Any] = {}
    for state in client.stream(match_id):
        if state.get("type") != "state":
            continue  # a chat line, or who asks for a rematch
        last = state
        if state["status"] in ("finished", "aborted"):
            break  # the stream would wait on for a rematch
        view = state.get("view")
        if state["status"] != "playing" or view is None or view["is_over"]:
            continue
        if state["version"] <= acted_at:
            continue  # this version is answered already
        action = choose(view)
        if action is None:
            continue
        try:
            client.play(match_id, action, state["version"])
            acted_at = state["version"]
            log(f"v{state['version']}: {action}")
        except ApiError as error:
            # A stale version: the table moved on; the next line brings it.
            log(f"v{state['version']}: {action} refused ({error.code}: {error.message})")
    return last


def look_for_a_game(client: DurakClient, wishes: dict[str, Any], log: Any) -> None:
    """Seek a game with ``wishes`` (in the bot pool, for a bot account)."""
    try:
        made = client.seek(**wishes)
        log(f"looking for a game in the {made['pool']} pool")
    except ApiError as error:  # looking already, or too often: the next game will tell
        log(f"no seek ({error.code}: {error.message})")


def serve(
    client: DurakClient,
    *,
    games: int | None = None,
    seek: dict[str, Any] | None = None,
    log: Any = print,
) -> int:
    """Read the account's event stream: take each friend request, accept each invite
    (a challenge) and each rematch offered, play each game that starts, each in a
    thread of its own, until ``games`` of them finished (None: for as long as the
    stream lasts).  With ``seek`` (wishes, ``{}`` for the first choices) it also looks
    for a game first, and again after each game.  The number of games finished."""
    playing: dict[int, threading.Thread] = {}
    finished = 0
    if seek is not None:
        # Before the stream opens: a game found meanwhile is told as one in progress.
        look_for_a_game(client, seek, log)
    events = client.events()
    try:
        for event in events:
            kind, match_id = event.get("type"), event.get("match_id")
            if kind == "friend_request":
                try:
                    client.befriend(event["from"])
                    log(f"friends with {event['from']}")
                except ApiError as error:
                    log(f"friend request of {event['from']} not taken ({error.code})")
            elif kind == "invite":
                try:
                    client.accept_invite(event["invite_id"])
                    log(f"accepted {event['from']}'s challenge: table {match_id}")
                except ApiError as error:  # withdrawn, expired, taken: wait for the next
                    log(f"challenge {event['invite_id']} not taken ({error.code}: {error.message})")
            elif kind == "rematch_offered":
                try:
                    client.rematch(match_id)
                    log(f"took {', '.join(event['by'])}'s rematch: table {match_id}")
                except ApiError as error:  # declined meanwhile, or the table is gone
                    log(f"rematch at table {match_id} not taken ({error.code}: {error.message})")
            elif kind == "game_started" and match_id not in playing:
                thread = threading.Thread(
                    target=play_game, args=(client, match_id), kwargs={"log": log}, daemon=True
                )
                playing[match_id] = thread
                thread.start()
            elif kind == "game_finished":
                finished += 1
                thread = playing.pop(match_id, None)
                if thread is not None:
                    thread.join(timeout=30)  # its stream ends with the game
                log(f"table {match_id}: {event['status']}, {event['result'] or 'no result'}")
                if games is not None and finished >= games:
                    break
                if seek is not None:
                    look_for_a_game(client, seek, log)
    finally:
        events.close()
    return finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("DURAK_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DURAK_TOKEN"))
    parser.add_argument("--level", default="hard", help="the site bot's level")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", type=int, help="play this table (you sit at it)")
    parser.add_argument(
        "--wait", action="store_true", help="accept challenges and play them (event stream)"
    )
    parser.add_argument("--games", type=int, help="with --wait: stop after this many games")
    parser.add_argument(
        "--seek", action="store_true", help="with --wait: look for games too (the bot pool)"
    )
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set DURAK_TOKEN")
    client = DurakClient(args.url, args.token)
    if args.wait:
        print(f"waiting for challenges as {client.account()['username']}")
        serve(client, games=args.games, seek={} if args.seek else None)
        return 0
    match_id = args.game
    if match_id is None:
        match_id = client.create_table(level=args.level, players=args.players)["match_id"]
        print(f"table {match_id}: {args.url}/games/{match_id}/")
    last = play_game(client, match_id)
    result = (last.get("view") or {}).get("result") or {}
    seat = last.get("seat")
    if result.get("draw"):
        print("a draw")
    elif result.get("fool") == seat:
        print("the bot is the fool")
    else:
        print(f"the bot is safe; the fool is seat {result.get('fool')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
