"""Live play with bots at the table, on the stack `make run` starts.

Drives H two-human tables beside B tables where one person plays a bot (the hard
one by default), over real WebSockets, for a fixed time.  The server is the
launcher of `make run` (``python -m durak_site.cluster --embedded``: one daphne on
SQLite with the in-memory layer, a task worker and, where the tree has them, bot
workers), with ``DJANGO_DEBUG=0``.  It reports:

- the humans' action-to-update latency (send until both seats saw the new
  version), p50 and p99, and their actions per second;
- the person's own action-to-update at the bot tables;
- the bots' answer time (the person saw the bot's turn begin until they saw the
  bot's move) against its delay, which is fixed here (``--bot-delay``), p50/p99;
- the CPU of the daphne process, and of the bot workers, per second of play.

    .venv/bin/python benchmarks/bots_at_the_table.py --humans 80 --bots 30 --seconds 60

``--bot-workers N`` sets the bot workers; the default is `make run`'s, one per core.
``--bot-workers 0`` starts the launcher without that option, for a tree whose daphne
plays the bots itself.  ``--flood N`` also gives one account N six-seat tables of
five bots each (made as the services make them, past any per-account cap), away from
them as one who opened them all and left: the measured bots then answer beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_latency import (  # noqa: E402
    VERSION,
    Seat,
    choose,
    connect_game,
    cpu_seconds,
    free_port,
    make_tables,
    pct,
    prepare_database,
    production_env,
    session_cookie,
    setup_django,
    share_server_settings,
)


class TimedSeat(Seat):
    """A seat that also notes when each new version first arrived."""

    def __init__(self, ws, seat: int) -> None:
        super().__init__(ws, seat)
        self.seen_at = 0.0

    async def reader(self) -> None:
        async for message in self.ws:
            self.keep_pieces(message)
            found = VERSION.search(message)
            if found:
                version = int(found.group(1))
                if version > self.version:
                    self.seen_at = time.perf_counter()
                self.version = version
                self.status = found.group(2)
                self.changed.set()


def make_bot_tables(count: int, level: str, variant=None) -> list[tuple[int, list[str]]]:
    """``count`` started tables of a person (seat 0) against a bot, with the person's cookie.

    They are opened as the lobby opens them (``create_match`` with the bot's level);
    ``variant`` defaults to the classic rules.
    """
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import RuleVariant

    variant = variant or RuleVariant.objects.get(slug="classic")
    tag = f"{os.getpid()}x{int(time.time())}"
    tables = []
    for n in range(count):
        user = get_user_model().objects.create_user(username=f"botbench{tag}g{n}", password=None)
        match = services.create_match(user, variant, 2, bots=(level,))
        tables.append((match.pk, [session_cookie(user)]))
    return tables


def make_flood_tables(count: int, level: str, turn_seconds: int) -> None:
    """``count`` started six-seat tables of one person against five bots of ``level``.

    The person never connects, so their turns time out after ``turn_seconds``; the
    bots' moves between them keep the bot workers busy.
    """
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import RuleVariant

    variant = RuleVariant.objects.get(slug="classic")
    name = f"botflood{os.getpid()}x{int(time.time())}"
    user = get_user_model().objects.create_user(username=name, password=None)
    for _ in range(count):
        services.create_match(user, variant, 6, bots=(level,) * 5, turn_seconds=turn_seconds)


class Stats:
    def __init__(self) -> None:
        self.human: list[float] = []
        self.person: list[float] = []
        self.bot_answer: list[float] = []
        self.errors: list[str] = []
        self.window: tuple[datetime, datetime] | None = None


async def play_humans(match_id: int, sockets, args, stop_at: float, stats: Stats) -> None:
    seats = [TimedSeat(ws, n) for n, ws in enumerate(sockets)]
    readers = [asyncio.create_task(s.reader()) for s in seats]
    rng = random.Random(match_id)
    try:
        await asyncio.gather(*(s.wait_version(0) for s in seats))
        while time.perf_counter() < stop_at:
            version = max(s.version for s in seats)
            await asyncio.gather(*(s.wait_version(version) for s in seats))
            if seats[0].status != "playing":
                break
            mover = next((s for s in seats if choose(s.frame, s.seat)), None)
            if mover is None:
                stats.errors.append(f"match {match_id}: no move found")
                break
            action = choose(mover.frame, mover.seat)
            await asyncio.sleep(rng.uniform(args.think * 0.5, args.think * 1.5))
            if time.perf_counter() >= stop_at:
                break
            start = time.perf_counter()
            await mover.ws.send(
                f'{{"type": "action", "action": "{action}", "version": {mover.version}}}'
            )
            try:
                await asyncio.gather(*(s.wait_version(version + 1) for s in seats))
            except TimeoutError:
                stats.errors.append(f"match {match_id}: no update for {action}")
                break
            stats.human.append((time.perf_counter() - start) * 1000)
    finally:
        for task in readers:
            task.cancel()


async def play_against_bot(match_id: int, ws, args, stop_at: float, stats: Stats) -> None:
    me = TimedSeat(ws, 0)
    reader = asyncio.create_task(me.reader())
    rng = random.Random(match_id)
    try:
        await me.wait_version(0)
        while time.perf_counter() < stop_at and me.status == "playing":
            version, seen_at = me.version, me.seen_at
            action = choose(me.frame, 0)
            if action is None:  # the bot's turn: how long until its move shows
                try:
                    await me.wait_version(version + 1, timeout=60)
                except TimeoutError:
                    stats.errors.append(f"match {match_id}: the bot never answered")
                    break
                if me.seen_at < stop_at:
                    stats.bot_answer.append((me.seen_at - seen_at) * 1000)
                continue
            await asyncio.sleep(rng.uniform(args.think * 0.5, args.think * 1.5))
            if time.perf_counter() >= stop_at or me.version != version:
                continue
            start = time.perf_counter()
            await ws.send(f'{{"type": "action", "action": "{action}", "version": {version}}}')
            try:
                await me.wait_version(version + 1, timeout=30)
            except TimeoutError:
                stats.errors.append(f"match {match_id}: no update for {action}")
                break
            stats.person.append((time.perf_counter() - start) * 1000)
    finally:
        reader.cancel()


async def drive(base: str, humans, bots, args, pids: dict[str, list[int]]) -> tuple:
    stats = Stats()
    gate = asyncio.Semaphore(4)
    tables = [*humans, *bots]
    connected = await asyncio.gather(*(connect_game(base, m, c, gate) for m, c in tables))
    print(f"connected {sum(len(c) for c in connected)} sockets", flush=True)
    cpu_before = {name: [cpu_seconds(p) for p in group] for name, group in pids.items()}
    started = time.perf_counter()
    window_start = datetime.now(UTC)
    stop_at = started + args.seconds
    await asyncio.gather(
        *(
            play_humans(m, sockets, args, stop_at, stats)
            if n < len(humans)
            else play_against_bot(m, sockets[0], args, stop_at, stats)
            for n, ((m, _c), sockets) in enumerate(zip(tables, connected, strict=True))
        )
    )
    elapsed = time.perf_counter() - started
    stats.window = (window_start, datetime.now(UTC))
    cpu = {
        name: sum(cpu_seconds(p) for p in group) - sum(cpu_before[name])
        for name, group in pids.items()
    }
    for sockets in connected:
        for ws in sockets:
            await ws.close()
    return stats, elapsed, cpu


LOG: deque[str] = deque(maxlen=200)


def start_stack(env: dict[str, str], port: int, bot_workers: int) -> tuple[subprocess.Popen, dict]:
    """The launcher of `make run`, and the pids it reports: daphne and the bot workers.

    Its output is read to the end in a thread, or the children would block on a full pipe.
    """
    command = [sys.executable, "-m", "durak_site.cluster", "--embedded", "--no-migrate"]
    command += ["--ports", str(port), "--workers", "1"]
    if bot_workers:
        command += ["--bot-workers", str(bot_workers)]
    launcher = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    pids: dict[str, list[int]] = {"daphne": [], "bot workers": []}
    seen = []
    for line in launcher.stdout:  # type: ignore[union-attr]
        seen.append(line)
        if "(pid" in line:
            pid = int(line.rsplit("(pid ", 1)[1].split(")")[0])
            if f":{port}/" in line:
                pids["daphne"].append(pid)
            elif "bot worker" in line:
                pids["bot workers"].append(pid)
        if "Ctrl-C stops them all" in line:
            threading.Thread(target=LOG.extend, args=(launcher.stdout,), daemon=True).start()
            return launcher, pids
    raise RuntimeError("the launcher stopped before it served:\n" + "".join(seen[-40:]))


def count_bot_moves(window: tuple[datetime, datetime]) -> int:
    """The bots' moves stored between the two times (the bot worker's CPU is per move)."""
    from games.models import Move

    start, end = window
    return Move.objects.filter(
        source=Move.Source.BOT, created_at__gte=start, created_at__lt=end
    ).count()


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"p50 {statistics.median(values):.0f} ms, p99 {pct(values, 99):.0f} ms, "
        f"max {max(values):.0f} ms ({len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--humans", type=int, default=80, help="two-human tables")
    parser.add_argument("--bots", type=int, default=30, help="tables of a person against a bot")
    parser.add_argument("--level", default="hard", help="the bots' level")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--seconds", type=float, default=60, help="how long the tables play")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the bots' fixed delay")
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=os.cpu_count() or 1,
        help="as `make run`: one per core (0: a tree without them)",
    )
    parser.add_argument("--port", type=int, default=0, help="daphne's port (default: a free one)")
    parser.add_argument(
        "--flood", type=int, default=0, help="six-seat tables of bots one other account owns"
    )
    parser.add_argument(
        "--flood-turn-seconds", type=int, default=5, help="the flood's turn timer, seconds"
    )
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="durak-bots-bench-")
    db_path = os.path.join(tmp.name, "bench.sqlite3")
    env = production_env(db_path, GAMES_BOT_DELAY=f"{args.bot_delay},{args.bot_delay}")
    share_server_settings(env, "GAMES_BOT_DELAY")
    setup_django(db_path)
    prepare_database(env)
    humans = make_tables(args.humans)
    bots = make_bot_tables(args.bots, args.level)
    make_flood_tables(args.flood, args.level, args.flood_turn_seconds)
    port = args.port or free_port()
    launcher, pids = start_stack(env, port, args.bot_workers)
    try:
        stats, elapsed, cpu = asyncio.run(
            drive(f"http://127.0.0.1:{port}", humans, bots, args, pids)
        )
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=60)
    answers_over_delay = [a - args.bot_delay * 1000 for a in stats.bot_answer]
    print(f"tables: {args.humans} two-human, {args.bots} against the {args.level} bot")
    if args.flood:
        print(f"beside them: one account's {args.flood} tables of five {args.level} bots")
    print(f"think {args.think:.1f} s mean; bot delay {args.bot_delay:.1f} s; {elapsed:.0f} s")
    print(
        f"humans: {len(stats.human)} actions, {len(stats.human) / elapsed:.1f} actions/s; "
        f"action-to-update {summary(stats.human)}"
    )
    print(f"person at a bot table, own action-to-update: {summary(stats.person)}")
    print(f"bot answer time: {summary(stats.bot_answer)}")
    print(f"bot answer time less its delay: {summary(answers_over_delay)}")
    for name, seconds in cpu.items():
        if pids[name]:
            print(f"{name} CPU: {seconds:.1f} s, {seconds / elapsed:.2f} cores")
    bot_moves = count_bot_moves(stats.window)
    print(f"bot moves committed while the tables played: {bot_moves}", end="")
    if pids["bot workers"] and bot_moves:
        per_move = cpu["bot workers"] / bot_moves * 1000
        print(f", {bot_moves / elapsed:.1f} a second, bot worker CPU {per_move:.0f} ms a move")
    else:
        print()
    pushed = len(stats.human) + len(stats.person) + len(stats.bot_answer)
    if pushed:
        print(f"daphne CPU per action pushed: {cpu['daphne'] / pushed * 1000:.2f} ms")
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
    tmp.cleanup()


if __name__ == "__main__":
    main()
