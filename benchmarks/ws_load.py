"""The players of ``benchmarks/cluster_load.py``: WebSocket seats and the coroutines
that play the tables.

A two-human table is driven by one coroutine that keeps its own engine copy, plays
whichever seat may move and waits until BOTH seats' sockets saw the new version. A
table against a bot is driven by one that plays the person's seat only, choosing
from what the server rendered for it, and waits for the bot's pushes in between.
When a game ends the table's rematch starts the next one, so the load stays constant.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_latency import VERSION, choose, keep_pieces  # noqa: E402

ERROR = 'id="table-error"'
TIMEOUT = 15.0
# How long a person waits for the bot past its delay before the table counts as stalled.
BOT_TIMEOUT = 60.0


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


@dataclass
class Stats:
    # Action-to-update at the two-human tables (both seats saw it).
    latencies: list[float] = field(default_factory=list)
    # At the tables against a bot: the person's own action-to-update, and the time from
    # the person seeing the bot's turn begin to seeing the bot's move.
    person_latencies: list[float] = field(default_factory=list)
    bot_answers: list[float] = field(default_factory=list)
    # A person's actions the server refused because the bot moved first at that version.
    refused: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[int, list[str]] = field(default_factory=dict)
    # Sent but never seen back (the run timed out on it): it may or may not be stored.
    in_flight: dict[int, str] = field(default_factory=dict)
    rematches: int = 0
    connect_retries: int = 0
    socket_drops: int = 0
    # (seconds since play started, latency) per acknowledged two-human action, for --trace.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    # How late this client's own event loop woke up for a 10 ms timer.
    loop_lags: list[float] = field(default_factory=list)
    # CPU seconds each kind of server process used during play.
    cpu: dict[str, float] = field(default_factory=dict)
    frame_bytes: int = 0
    frames: int = 0
    started: float = 0.0
    started_wall: float = 0.0


class Seat:
    """One player's socket: the latest version and status it saw and when it first saw
    that version; with ``keep_frame``, also the latest of each piece of the table."""

    def __init__(self, url: str, match_id: int, cookie: str, keep_frame: bool = False) -> None:
        self.url = url
        self.match_id = match_id
        self.cookie = cookie
        self.version = -1
        self.status = ""
        self.seen_at = 0.0
        self.pieces: dict[str, str] | None = {} if keep_frame else None
        self.conn = None
        self.waiters: list[tuple[int, asyncio.Future]] = []
        self.reader: asyncio.Task | None = None
        self.refusals: list[str] = []
        self.errors: list[str] = []
        self.received_bytes = 0
        self.received_frames = 0

    async def open(self) -> int:
        """Connect, retrying like the page's ws extension does; returns the retries needed."""
        from websockets.asyncio.client import connect

        host = self.url.split("://", 1)[1]
        for attempt in range(8):
            try:
                self.conn = await connect(
                    f"ws://{host}/ws/games/{self.match_id}/",
                    origin=self.url,
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    compression=None,
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                )
                break
            except (OSError, TimeoutError, Exception) as error:
                # daphne drops a socket the application did not accept within 5 s.
                if attempt == 7:
                    raise RuntimeError(f"could not connect to {self.url}: {error!r}") from error
                await asyncio.sleep(0.5 * 2**attempt)
        self.reader = asyncio.ensure_future(self._read())
        return attempt

    @property
    def frame(self) -> str:
        return "".join((self.pieces or {}).values())

    async def _read(self) -> None:
        try:
            async for frame in self.conn:
                if isinstance(frame, bytes):
                    frame = frame.decode()
                self.received_bytes += len(frame)
                self.received_frames += 1
                if ERROR in frame:
                    self.refusals.append(re.sub(r"<[^>]+>", "", frame)[:200])
                if self.pieces is not None:
                    keep_pieces(self.pieces, frame)
                found = VERSION.search(frame)
                if found and int(found.group(1)) >= self.version:
                    if int(found.group(1)) > self.version:
                        self.version, self.seen_at = int(found.group(1)), time.perf_counter()
                    self.status = found.group(2)
                    ready = [w for w in self.waiters if w[0] <= self.version]
                    for item in ready:
                        self.waiters.remove(item)
                        if not item[1].done():
                            item[1].set_result(time.perf_counter())
        except Exception as error:  # A dropped socket is an error of the run.
            self.errors.append(f"socket closed: {error!r}")
        finally:
            # Whoever waits on this socket learns at once that it is gone.
            for _, future in self.waiters:
                if not future.done():
                    future.set_exception(ConnectionError("socket closed"))
            self.waiters.clear()

    @property
    def alive(self) -> bool:
        return self.reader is not None and not self.reader.done()

    def wait_version(self, version: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        if self.version >= version:
            future.set_result(time.perf_counter())
        elif not self.alive:
            future.set_exception(ConnectionError("socket closed"))
        else:
            self.waiters.append((version, future))
        return future

    async def send(self, data: dict) -> None:
        await self.conn.send(json.dumps(data))

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


def pick(game, rng: random.Random):
    legal = game.legal_actions()
    # People rarely take when they can beat: keep games of a realistic length.
    weights = [0.2 if a.kind == "take" else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


async def in_thread(read: Callable):
    """A database read off the event loop, on a connection fit for it."""

    def run():
        from django.db import close_old_connections

        close_old_connections()
        return read()

    return await asyncio.to_thread(run)


async def load_state(match_id: int) -> tuple[dict, int]:
    from games.models import Match

    match = await in_thread(lambda: Match.objects.get(pk=match_id))
    return match.state, match.version


async def settle(match_id: int, acknowledged: list[str], pending: str) -> None:
    """An action whose fate the client cannot see counts as acknowledged only if the
    database holds it as the next move; the check afterwards still compares everything."""
    from games.models import Move

    stored = await in_thread(
        lambda: list(
            Move.objects.filter(match_id=match_id, source="player")
            .order_by("seq")
            .values_list("action", flat=True)
        )
    )
    if stored == [*acknowledged, pending]:
        acknowledged.append(pending)


async def reconnect(table: dict, seats: list[Seat], stats: Stats, pending: str | None) -> None:
    """A socket was dropped: open it again, as the page does."""
    stats.socket_drops += sum(1 for seat in seats if not seat.alive)
    for seat in seats:
        if not seat.alive:
            await seat.open()
    if pending is not None:
        await settle(table["id"], stats.acknowledged[table["id"]], pending)


async def rematch(table: dict, seats: list[Seat], version: int, stats: Stats) -> bool:
    """Both people ask for the rematch: a person's ask is an offer, and the next game
    starts once every person seated asked (``games.services.start_next_deal``); each
    ask moves the table's version on by one."""
    for asked, seat in enumerate(seats, start=1):
        waits = [other.wait_version(version + asked) for other in seats]
        await seat.send({"type": "rematch"})
        try:
            await asyncio.wait_for(asyncio.gather(*waits), TIMEOUT)
        except TimeoutError:
            stats.errors.append(f"match {table['id']}: no rematch")
            return False
    stats.rematches += 1
    return True


async def drive_humans(table: dict, seats: list[Seat], stats: Stats, stop_at: float, args) -> None:
    from durak.engine import Game

    rng = random.Random(table["id"])
    game = Game.from_snapshot(table["state"])
    version = table["version"]
    acknowledged = stats.acknowledged.setdefault(table["id"], [])
    # Spread the first moves so the load does not come in one wave.
    await asyncio.sleep(rng.uniform(0, args.think[1]))
    while time.perf_counter() < stop_at:
        if game.is_over:
            if not await rematch(table, seats, version, stats):
                return
            state, version = await load_state(table["id"])
            game = Game.from_snapshot(state)
            continue
        if not all(seat.alive for seat in seats) or any(s.version > version for s in seats):
            if all(seat.alive for seat in seats):
                stats.errors.append(f"match {table['id']}: moved on without its players")
            await reconnect(table, seats, stats, None)
            state, version = await load_state(table["id"])
            game = Game.from_snapshot(state)
            continue
        action = pick(game, rng)
        waits = [seat.wait_version(version + 1) for seat in seats]
        sent = time.perf_counter()
        try:
            await seats[action.seat].send(
                {"type": "action", "action": str(action), "version": version}
            )
            seen = await asyncio.wait_for(asyncio.gather(*waits), TIMEOUT)
        except TimeoutError:
            stats.errors.append(f"match {table['id']}: no update for {action} at v{version}")
            stats.in_flight[table["id"]] = str(action)
            return
        except Exception as error:
            stats.errors.append(f"match {table['id']}: {error!r} during {action}")
            for waiter in waits:
                waiter.cancel()
            await reconnect(table, seats, stats, str(action))
            state, version = await load_state(table["id"])
            game = Game.from_snapshot(state)
            continue
        stats.latencies.append(max(seen) - sent)
        stats.timeline.append((sent - stats.started, max(seen) - sent))
        acknowledged.append(str(action))
        game.apply(action)
        version += 1
        await asyncio.sleep(rng.uniform(*args.think))


async def drive_against_bot(table: dict, seat: Seat, stats: Stats, stop_at: float, args) -> None:
    """Play the person's seat only; between its moves, wait for the bot's pushes.

    The bot may move while the person thinks (a throw-in while the person defends):
    then the person's action at the old version is refused. Which of the two came first
    shows only in a refusal frame, which may follow the bot's push; so the person's
    action is confirmed just before the next one is sent (or when the run ends).
    """
    rng = random.Random(table["id"])
    acknowledged = stats.acknowledged.setdefault(table["id"], [])
    pending: tuple[str, int, float] | None = None  # (action, refusals before it, latency)

    async def confirm() -> None:
        nonlocal pending
        if pending is not None:
            action, refusals, latency = pending
            pending = None
            if len(seat.refusals) == refusals:
                acknowledged.append(action)
                stats.person_latencies.append(latency)
            else:
                stats.refused.append(f"match {table['id']}: {action}: {seat.refusals[refusals]}")
                await settle(table["id"], acknowledged, action)

    await asyncio.sleep(rng.uniform(0, args.think[1]))
    try:
        while time.perf_counter() < stop_at:
            if not seat.alive:
                await reconnect(table, [seat], stats, None)
                continue
            version, seen_at = seat.version, seat.seen_at
            if seat.status == "finished":
                await confirm()
                if not await rematch(table, [seat], version, stats):
                    return
                continue
            action = choose(seat.frame, 0)
            if action is None:  # The bot's turn: how long until its move shows.
                try:
                    await asyncio.wait_for(seat.wait_version(version + 1), BOT_TIMEOUT)
                except TimeoutError:
                    stats.errors.append(f"match {table['id']}: the bot never moved at v{version}")
                    return
                except ConnectionError:
                    continue
                if stats.started <= seen_at and seat.seen_at <= stop_at:
                    stats.bot_answers.append(seat.seen_at - seen_at)
                continue
            await asyncio.sleep(rng.uniform(*args.think))
            if seat.version != version or time.perf_counter() >= stop_at:
                continue  # The bot moved meanwhile: look at the table again.
            await confirm()
            refusals = len(seat.refusals)
            sent = time.perf_counter()
            try:
                await seat.send({"type": "action", "action": action, "version": version})
                seen = await asyncio.wait_for(seat.wait_version(version + 1), TIMEOUT)
            except TimeoutError:
                stats.errors.append(f"match {table['id']}: no update for {action} at v{version}")
                stats.in_flight[table["id"]] = action
                return
            except Exception as error:
                stats.errors.append(f"match {table['id']}: {error!r} during {action}")
                await reconnect(table, [seat], stats, action)
                continue
            pending = (action, refusals, seen - sent)
    finally:
        if pending is not None:
            await asyncio.sleep(1.0)  # A refusal follows the bot's push within milliseconds.
            await confirm()


async def run_load(
    tables: list[dict], urls: list[str], args, cpu_now: Callable[[], dict[str, float]]
) -> tuple[Stats, float, float]:
    stats = Stats()
    seats_of: dict[int, list[Seat]] = {}
    limit = asyncio.Semaphore(args.connect_concurrency)

    async def open_seat(seat: Seat) -> None:
        async with limit:
            stats.connect_retries += await seat.open()

    for index, table in enumerate(tables):
        # The two players of a table are on different processes whenever there are two.
        seats_of[table["id"]] = [
            Seat(urls[(index + n) % len(urls)], table["id"], cookie, keep_frame=table["bot"])
            for n, cookie in enumerate(table["cookies"])
        ]
    every_seat = [seat for seats in seats_of.values() for seat in seats]
    connect_started = time.perf_counter()
    await asyncio.gather(*(open_seat(seat) for seat in every_seat))
    connect_seconds = time.perf_counter() - connect_started
    progress(
        f"{len(every_seat)} sockets open in {connect_seconds:.1f} s "
        f"({stats.connect_retries} retries); playing"
    )
    first = [s.wait_version(t["version"]) for t in tables for s in seats_of[t["id"]]]
    await asyncio.wait_for(asyncio.gather(*first), TIMEOUT * 4)
    # Every connect pushes a presence update to the table: let that backlog drain first.
    await asyncio.sleep(args.settle)
    cpu_before = cpu_now()
    started = stats.started = time.perf_counter()
    stats.started_wall = time.time()
    stop_at = started + args.duration
    lag_watch = asyncio.ensure_future(watch_loop_lag(stats, stop_at))

    async def cpu_at_stop() -> dict[str, float]:
        # Rates and CPU are taken over the window in which actions are sent, not the
        # tail in which the last ones are seen back.
        await asyncio.sleep(stop_at - time.perf_counter())
        return cpu_now()

    cpu_after = asyncio.ensure_future(cpu_at_stop())
    outcomes = await asyncio.gather(
        *(
            drive_against_bot(t, seats_of[t["id"]][0], stats, stop_at, args)
            if t["bot"]
            else drive_humans(t, seats_of[t["id"]], stats, stop_at, args)
            for t in tables
        ),
        return_exceptions=True,
    )
    _, cpu_at_end = await asyncio.gather(lag_watch, cpu_after)
    stats.cpu = {name: seconds - cpu_before[name] for name, seconds in cpu_at_end.items()}
    stats.errors.extend(f"driver: {o!r}" for o in outcomes if isinstance(o, BaseException))
    for table in tables:
        for seat in seats_of[table["id"]]:
            # At a bot table the driver accounted for each refusal itself.
            refusals = [] if table["bot"] else seat.refusals
            stats.errors.extend(f"match {seat.match_id}: {e}" for e in [*refusals, *seat.errors])
            stats.frame_bytes += seat.received_bytes
            stats.frames += seat.received_frames
    await asyncio.gather(*(seat.close() for seat in every_seat))
    return stats, stop_at - started, connect_seconds


async def watch_loop_lag(stats: Stats, stop_at: float) -> None:
    """Sample this client's own scheduling delay, which would otherwise pass for latency."""
    while time.perf_counter() < stop_at:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.loop_lags.append(time.perf_counter() - before - 0.01)
