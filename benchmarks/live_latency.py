"""Action-to-update latency of live play over real WebSockets.

Drives N concurrent two-player games (no bots) against a daphne server: each seat is a
WebSocket client that reads its own pushed HTML, picks a legal move from the controls
the server rendered for it (beat if it can, else done/take, else lead), and sends it
after a short think time.  Latency is measured from sending an action until BOTH
seats' sockets have received a render carrying the new version.  The server's CPU is
read from /proc for the sockets' opening, the play (per action), and their closing
apart: with a game of 20 moves a socket's open and close would weigh as much as its
moves, where a player's socket outlives many games.

Then it plays one game in-process and counts the database queries per action (the
service call plus one render per seat), early moves against late ones.

    .venv/bin/python benchmarks/live_latency.py --games 50
    .venv/bin/python benchmarks/live_latency.py --games 200 --think 1.0

Without ``--url`` it migrates a fresh SQLite database in a temporary directory and
starts ``daphne`` on a free port itself.  With ``--url`` the server must use the
database this process sees (same DATABASE_URL/SQLITE_PATH), since users and tables
are created here directly.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from durak_site.cluster import free_port  # noqa: E402

VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"[^>]*data-status="(\w+)"')
# A push may carry only the pieces of the table that changed: each root element has an
# id, and the client keeps the latest of each, as htmx's out-of-band swaps do.
PIECE = re.compile(r'<(\w+) id="(table-[\w-]+)"')
HAND = re.compile(
    r'class="hand-card"( disabled)? data-card="(\w\w)" data-lead="([^"]*)" data-beats="([^"]*)"'
)
CONTROL = re.compile(r'class="button control control-(take|done)" data-action="([^"]*)"')
TARGET = re.compile(r'class="attack-target" data-attack="(\w\w)"')


def wait_until_serving(base: str, seconds: float = 90) -> None:
    """Until the server answers HTTP (daphne loads Django before it serves)."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=5).close()
            return
        except urllib.error.HTTPError:
            return  # Any HTTP answer means the application is up.
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def setup_django(db_path: str | None) -> None:
    if db_path:
        os.environ["SQLITE_PATH"] = db_path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def production_env(sqlite_path: str | None, **extra: str) -> dict[str, str]:
    """The environment of a server run as in production (no debug query log), on plain
    HTTP, on the SQLite file ``sqlite_path`` (None: the environment's database);
    ``extra`` adds settings of the run's own."""
    env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "benchmark-only-secret-key-" + "x" * 32),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        **extra,
    }
    if sqlite_path:
        env["SQLITE_PATH"] = sqlite_path
    return env


def share_server_settings(env: dict[str, str], *names: str) -> None:
    """This process reads the settings the server reads: its debug, key and hosts, and
    ``names`` besides."""
    for name in ("DJANGO_DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", *names):
        os.environ[name] = env[name]


def prepare_database(env: dict[str, str]) -> None:
    """Migrate the database of ``env`` and collect the static files: without debug the
    pages name them by their collected, hashed names."""
    for command in ("migrate", "collectstatic"):
        subprocess.run(
            [sys.executable, "manage.py", command, "--noinput", "-v", "0", "--skip-checks"],
            cwd=ROOT,
            env=env,
            check=True,
        )


def session_cookie(user) -> str:
    """A signed-in session for ``user``, as the login view makes it: its cookie value."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def make_tables(games: int) -> list[tuple[int, list[str]]]:
    """N started two-player tables and a session cookie per seat."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import RuleVariant

    User = get_user_model()
    variant = RuleVariant.objects.get(slug="classic")
    tag = f"{os.getpid()}x{int(time.time())}"
    tables = []
    for n in range(games):
        users = [
            User.objects.create_user(username=f"bench{tag}g{n}s{s}", password=None)
            for s in range(2)
        ]
        match = services.create_match(users[0], variant, 2)
        services.join_match(match, users[1])
        tables.append((match.pk, [session_cookie(user) for user in users]))
    return tables


def choose(frame: str, seat: int) -> str | None:
    """A legal action from what the server rendered for this seat, or None."""
    targets = set(TARGET.findall(frame))
    hand = HAND.findall(frame)
    for _disabled, card, _lead, beats in hand:
        for attack in beats.split():
            if attack in targets:
                return f"{seat} defend {attack} {card}"
    controls = dict(CONTROL.findall(frame))
    if "done" in controls:
        return controls["done"]
    if "take" in controls:
        return controls["take"]
    return next((lead for _d, _c, lead, _b in hand if lead), None)


def keep_pieces(pieces: dict[str, str], message: str) -> None:
    """Keep the latest of each piece of the table a push carries, by its root's id."""
    starts = list(PIECE.finditer(message))
    for found, after in zip(starts, [*starts[1:], None], strict=True):
        end = after.start() if after is not None else len(message)
        pieces[found.group(2)] = message[found.start() : end]


class Seat:
    def __init__(self, ws, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.version = -1
        self.status = ""
        self.pieces: dict[str, str] = {}
        self.changed = asyncio.Event()

    @property
    def frame(self) -> str:
        return "".join(self.pieces.values())

    def keep_pieces(self, message: str) -> None:
        keep_pieces(self.pieces, message)

    async def reader(self) -> None:
        async for message in self.ws:
            self.keep_pieces(message)
            found = VERSION.search(message)
            if found:
                self.version = int(found.group(1))
                self.status = found.group(2)
                self.changed.set()

    async def wait_version(self, version: int, timeout: float = 30) -> None:
        deadline = time.perf_counter() + timeout
        while self.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.001, deadline - time.perf_counter()))


async def connect_game(base: str, match_id: int, cookies: list[str], gate: asyncio.Semaphore):
    import websockets

    url = base.replace("http", "ws", 1) + f"/ws/games/{match_id}/"
    sockets = []
    for cookie in cookies:
        async with gate:  # Open sockets a few at a time, as real arrivals would.
            sockets.append(
                await websockets.connect(
                    url,
                    additional_headers={"Cookie": f"sessionid={cookie}", "Origin": base},
                    max_size=2**22,
                    open_timeout=60,
                )
            )
    return sockets


async def play_game(match_id: int, sockets, args, latencies: list[float], errors: list[str]) -> int:
    seats = [Seat(ws, n) for n, ws in enumerate(sockets)]
    readers = [asyncio.create_task(s.reader()) for s in seats]
    rng = random.Random(match_id)
    moves = 0
    try:
        await asyncio.gather(*(s.wait_version(0) for s in seats))
        while moves < args.max_moves:
            version = max(s.version for s in seats)
            await asyncio.gather(*(s.wait_version(version) for s in seats))
            if seats[0].status != "playing":
                break
            mover, action = None, None
            for s in seats:
                action = choose(s.frame, s.seat)
                if action:
                    mover = s
                    break
            if mover is None:
                errors.append(f"match {match_id}: no move found")
                break
            await asyncio.sleep(rng.uniform(args.think * 0.5, args.think * 1.5))
            start = time.perf_counter()
            await mover.ws.send(
                f'{{"type": "action", "action": "{action}", "version": {mover.version}}}'
            )
            try:
                await asyncio.gather(*(s.wait_version(version + 1) for s in seats))
            except TimeoutError:
                errors.append(f"match {match_id}: no update for {action}")
                break
            latencies.append((time.perf_counter() - start) * 1000)
            moves += 1
    finally:
        for task in readers:
            task.cancel()
    return moves


async def drive(
    base: str, tables, args, server_cpu
) -> tuple[list[float], list[str], float, int, float | None]:
    latencies: list[float] = []
    errors: list[str] = []
    gate = asyncio.Semaphore(4)
    cpu_at_connect = server_cpu()
    connected = await asyncio.gather(
        *(connect_game(base, m, c, gate) for m, c in tables), return_exceptions=True
    )
    for found in connected:
        if isinstance(found, BaseException):
            errors.append(f"connect: {found!r}")
    tables = [t for t, c in zip(tables, connected, strict=True) if not isinstance(c, BaseException)]
    connected = [c for c in connected if not isinstance(c, BaseException)]
    cpu_at_start = server_cpu()
    if cpu_at_connect is not None:
        print(
            f"server CPU opening {2 * len(connected)} sockets: {cpu_at_start - cpu_at_connect:.2f} s"
        )
    print(f"connected {2 * len(connected)} sockets", flush=True)
    started = time.perf_counter()
    results = await asyncio.gather(
        *(
            play_game(m, sockets, args, latencies, errors)
            for (m, _c), sockets in zip(tables, connected, strict=True)
        ),
        return_exceptions=True,
    )
    for r in results:
        if isinstance(r, BaseException):
            errors.append(repr(r))
    moves = sum(r for r in results if isinstance(r, int))
    seconds = time.perf_counter() - started
    cpu = server_cpu() - cpu_at_start if cpu_at_start is not None else None
    # The sockets close after the play, so that the play's CPU is the moves' alone.
    cpu_before_close = server_cpu()
    for sockets in connected:
        for ws in sockets:
            await ws.close()
    if cpu_before_close is not None:
        await asyncio.sleep(2)  # the server's side of the closes
        closing = server_cpu() - cpu_before_close
        print(f"server CPU closing {2 * len(connected)} sockets: {closing:.2f} s")
    return latencies, errors, seconds, moves, cpu


def queries_per_action(
    max_moves: int,
) -> tuple[list[int], list[int], int, list[float], list[float]]:
    """Queries and CPU per move, in-process: the service call, then the seats' renders."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from durak.engine import Game
    from games import services
    from games.models import Match, RuleVariant
    from table import rendering

    User = get_user_model()
    tag = f"q{os.getpid()}x{int(time.time())}"
    users = [User.objects.create_user(username=f"{tag}s{s}", password=None) for s in range(2)]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    viewers = [rendering.Viewer(u.pk, n) for n, u in enumerate(users)]
    applied, renders = [], []
    cpu_apply: list[float] = []
    cpu_render: list[float] = []
    rng = random.Random(1)
    for _ in range(max_moves):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        game = Game.from_snapshot(match.state)
        # Long games on purpose: prefer taking, so late moves carry a long history.
        legal = [a for a in game.legal_actions() if a.kind != "swap"]
        takes = [a for a in legal if a.kind == "take"]
        action = takes[0] if takes and rng.random() < 0.7 else rng.choice(legal)
        started = time.process_time()
        with CaptureQueriesContext(connection) as q_apply:
            outcome = services.apply_action(
                match.pk, users[action.seat], str(action), version=match.version
            )
        applied_at = time.process_time()
        with CaptureQueriesContext(connection) as q_render:
            for viewer in viewers:
                rendering.render_state(match.pk, viewer)
        cpu_apply.append((applied_at - started) * 1000)
        cpu_render.append((time.process_time() - applied_at) * 1000)
        # The game-ending move also writes the result and ratings: counted apart.
        if not outcome.is_over:
            applied.append(len(q_apply.captured_queries))
            renders.append(len(q_render.captured_queries))
    history = len(Game.from_snapshot(Match.objects.get(pk=match.pk).state).history)
    return applied, renders, history, cpu_apply, cpu_render


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--max-moves", type=int, default=40, help="moves per game at most")
    parser.add_argument("--port", type=int, help="the port of the daphne it starts (default: free)")
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="durak-bench-")
    server = None
    db_path = None if args.url else os.path.join(tmp.name, "bench.sqlite3")
    env = production_env(db_path)
    if not args.url:
        share_server_settings(env)
    setup_django(db_path)
    if not args.url:
        prepare_database(env)
        port = args.port or free_port()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "--websocket_connect_timeout",
                "60",
                "durak_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp.name, "daphne.log"), "w"),  # noqa: SIM115
        )
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base)
    else:
        base = args.url.rstrip("/")
    try:
        tables = make_tables(args.games)
        latencies, errors, seconds, moves, server_cpu = asyncio.run(
            drive(base, tables, args, lambda: cpu_seconds(server.pid) if server else None)
        )
    except BaseException:
        if server is not None:
            print(Path(tmp.name, "daphne.log").read_text()[-3000:])
        raise
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    applied, renders, history, cpu_apply, cpu_render = queries_per_action(120)

    print(f"games: {args.games} concurrent two-player games, {2 * args.games} WebSockets")
    print(f"think time: {args.think:.2f} s mean; moves per game <= {args.max_moves}")
    print(f"actions: {moves} in {seconds:.1f} s ({moves / seconds:.1f} actions/s)")
    if latencies:
        print(
            "action-to-update latency (both seats updated): "
            f"p50 {statistics.median(latencies):.1f} ms, p90 {pct(latencies, 90):.1f} ms, "
            f"p99 {pct(latencies, 99):.1f} ms, max {max(latencies):.1f} ms"
        )
    if server_cpu is not None and moves:
        print(
            f"server process CPU during play: {server_cpu:.1f} s, "
            f"{server_cpu / moves * 1000:.2f} ms per action (sockets, service, renders)"
        )
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    n = len(applied)

    def early_late(values: list[int]) -> str:
        return (
            f"{statistics.mean(values[:10]):.1f} early / {statistics.mean(values[-10:]):.1f} late"
        )

    print(
        f"db queries per action, moves 1-10 vs {n - 9}-{n} (history {history} actions): "
        f"apply {early_late(applied)}; 2 renders {early_late(renders)}"
    )
    print(
        "cpu per action in-process (median, queries captured): "
        f"apply {statistics.median(cpu_apply):.2f} ms; "
        f"2 renders {statistics.median(cpu_render):.2f} ms"
    )
    tmp.cleanup()


if __name__ == "__main__":
    main()
