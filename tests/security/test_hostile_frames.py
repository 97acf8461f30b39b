"""Hostile frames on a real socket: each gets a clear error frame, the socket stays open,
and the table is exactly as before."""

from __future__ import annotations

import json

import pytest

from durak.engine import Game
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, db, in_own_loop, session_cookie
from tests.table_fingerprint import table_fingerprint

from .helpers import two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


def hostile_frames(action: str, version: int) -> list[tuple[str, str]]:
    """(raw frame, words of its refusal)."""
    deep = "[" * 1000 + "]" * 1000

    def move(text: object, at: object = version) -> str:
        return json.dumps({"type": "action", "action": text, "version": at})

    def move_at(raw_version: str) -> str:
        # Raw JSON: json.dumps cannot write 1e400 (it is infinity once parsed).
        return (
            '{"type": "action", "action": '
            + json.dumps(action)
            + ', "version": '
            + raw_version
            + "}"
        )

    def chat(text: object) -> str:
        return json.dumps({"type": "chat", "text": text})

    return [
        (json.dumps({"type": ["action"]}), "Unknown message type"),
        (json.dumps({"type": {"kind": "action"}}), "Unknown message type"),
        (json.dumps({"type": None}), "Unknown message type"),
        (json.dumps({"type": 7}), "Unknown message type"),
        (deep, "not valid JSON"),
        ('{"type": "action", "a": ' + deep + "}", "not valid JSON"),
        (move_at("1e400"), "no table version"),
        (move_at("2.5"), "no table version"),
        (move_at("true"), "no table version"),
        (move_at('"1e3"'), "no table version"),
        (move("\u00b2 take"), "not a move"),
        (move("\u2462 done"), "not a move"),
        (move(["x"]), "not a move"),
        (move(action + "\u0000"), "not a move"),
        (chat("a\u0000b"), "cannot be shown"),
        ('{"type": "chat", "text": "\\ud800"}', "cannot be shown"),
        (chat({"html": "<b>"}), "Write a message"),
        ("[1, 2]", "not valid JSON"),
        ("\u0000", "not valid JSON"),
    ]


def test_hostile_frames_are_refused_and_change_nothing(live_server_url) -> None:
    match, users = two_player_table()
    game = Game.from_snapshot(match.state)
    legal = game.legal_actions()[0]
    cookie = session_cookie(users[legal.seat])
    frames = hostile_frames(str(legal), match.version)

    @in_own_loop
    async def run():
        sock = TableClient(live_server_url, match.pk, cookie)
        await sock.open()
        before = await db(table_fingerprint, match.pk)
        answers = []
        for raw, _words in frames:
            await sock.conn.send(raw)
            answers.append(await sock.until(lambda f: ERROR in f))
        # Still open and serving: a sync brings the table back.
        await sock.send({"type": "sync"})
        synced = await sock.until(lambda f: 'id="table-version"' in f)
        after = await db(table_fingerprint, match.pk)
        await sock.close()
        return before, answers, synced, after

    before, answers, synced, after = run()
    for (raw, words), answer in zip(frames, answers, strict=True):
        assert words.lower() in answer.lower(), (raw[:60], answer)
    assert synced and after == before
