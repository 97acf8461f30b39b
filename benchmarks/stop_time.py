"""How long `make run`'s launcher takes to stop on SIGTERM with work in hand.

Each round starts the launcher (``durak_site.cluster --embedded``: one daphne on SQLite
with the in-memory layer, a task worker and a bot worker) on a fresh database, and waits
until the bot worker searches a hard bot's turn that cannot end by itself (a budget of
10^8 playouts), the task worker runs an analysis that cannot either (60 s a decision),
and the person at that table has its socket open.  Then it sends SIGTERM and reports:

- the stop: from the signal until the launcher has exited, after every process it
  started (docs/deploy.md promises 2 s);
- the socket: from the signal until the person's socket is closed;
- what was lost: a turn not given back (it must be due again at its own time with no
  bot move played) or an analysis not back in the queue.

    .venv/bin/python benchmarks/stop_time.py --rounds 10

``tests/scale/test_shutdown.py`` checks the same stop for what it loses and that no
process had to be killed; the time itself is this script's, measured on a quiet
machine (a test on a loaded one measures the load).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cluster_load import machine  # noqa: E402
from live_latency import session_cookie  # noqa: E402

# Work that cannot end by itself during a round: whatever stops it is the stop.
ENDLESS = {
    "GAMES_BOT_PLAYOUTS": "100000000",
    "GAMES_SEARCH_CPU_SECONDS": "600",
    "ANALYSIS_SECONDS": "60",
    "GAMES_BOT_DELAY": "0,0",
}


def environment(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    env.update(ENDLESS, LOG_LEVEL="WARNING", SQLITE_PATH=str(workdir / "stop.sqlite3"))
    return env


def setup_django(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()


def work_in_hand(round_number: int):
    """A hard bot's turn due now at a person's table, and an analysis in the queue."""
    from django.contrib.auth import get_user_model
    from django_tasks_db.models import DBTaskResult

    from analysis import services as analysis_services
    from durak.engine import Game
    from games import services
    from games.models import RuleVariant
    from history.seeding import get_user, play_match

    # Each round's own players: a player may have only so many analyses waiting.
    names = [f"olga{round_number}", f"pavel{round_number}"]
    deal = play_match(names, deals=1, seed=round_number, is_rated=False).deals.get()
    DBTaskResult.objects.all().delete()  # earlier rounds' tasks and the deal's puzzle search
    analysis, started = analysis_services.start_analysis(deal, get_user(names[0]))
    assert started
    for attempt in range(40):
        user = get_user_model().objects.create_user(f"stop{round_number}-{attempt}")
        # A long turn: only the stop, never the turn timer, may end the bot's turn.
        match = services.create_match(
            user, RuleVariant.objects.get(slug="classic"), 2, bots=("hard",), turn_seconds=600
        )
        match.refresh_from_db()
        if Game.from_snapshot(match.state).to_act() == [1]:
            return match, user, analysis
        services.abort_match(match, "the person leads")
    raise RuntimeError("no deal where the bot leads in forty")


def wait_until(check, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {timeout:.0f} s")
        time.sleep(0.05)


def launch(env: dict[str, str], port: int) -> tuple[subprocess.Popen, queue.Queue]:
    process = subprocess.Popen(
        [sys.executable, "-m", "durak_site.cluster", "--embedded", "--no-migrate"]
        + ["--ports", str(port), "--workers", "1", "--bot-workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stdout:  # type: ignore[union-attr]
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if "Ctrl-C stops them all" in lines.get(timeout=0.2):
                return process, lines
        except queue.Empty:
            continue
    process.kill()
    raise RuntimeError("the launcher did not start in 60 s")


async def stop_with_socket_open(process: subprocess.Popen, port: int, match_id: int, cookie: str):
    from websockets.asyncio.client import connect

    conn = await connect(
        f"ws://127.0.0.1:{port}/ws/games/{match_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=20,
        ping_interval=None,
    )
    await conn.recv()  # the table's first render: the socket is in
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(conn.wait_closed(), 30)
    closed = time.monotonic() - started
    await asyncio.to_thread(process.wait, 60)
    return time.monotonic() - started, closed


def one_round(env: dict[str, str], round_number: int) -> dict:
    from django.db import connections
    from django_tasks_db.models import DBTaskResult

    from analysis.models import DealAnalysis
    from durak_site.cluster import free_port
    from games import services
    from games.models import Match, Move

    match, user, analysis = work_in_hand(round_number)
    due = match.bot_due_at
    cookie = session_cookie(user)
    connections.close_all()
    port = free_port()
    process, lines = launch(env, port)
    try:
        wait_until(
            lambda: DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.RUNNING,
            "the analysis never started",
        )
        wait_until(lambda: Match.objects.get(pk=match.pk).bot_due_at != due, "no claim")
        connections.close_all()
        took, socket_closed = asyncio.run(stop_with_socket_open(process, port, match.pk, cookie))
    finally:
        if process.poll() is None:
            process.kill()
    turn_back = (
        Match.objects.get(pk=match.pk).bot_due_at == due
        and not Move.objects.filter(match_id=match.pk, source=Move.Source.BOT).exists()
    )
    analysis_back = (
        DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.QUEUED
        and DBTaskResult.objects.get(task_path="analysis.tasks.analyse_deal").status == "READY"
    )
    if not (turn_back and analysis_back):  # which process did what, in its own words
        printed = []
        while not lines.empty():
            printed.append(lines.get_nowait())
        print("".join(printed), flush=True)
    services.abort_match(Match.objects.get(pk=match.pk), "the round is over")
    return {
        "stop_s": round(took, 3),
        "socket_closed_s": round(socket_closed, 3),
        "turn_given_back": turn_back,
        "analysis_given_back": analysis_back,
        "exit_code": process.returncode,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--json", help="also write the rounds to this file")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="durak-stop-time-"))
    env = environment(workdir)
    setup_django(env)
    rounds = []
    for number in range(1, args.rounds + 1):
        result = one_round(env, number)
        rounds.append(result)
        print(f"round {number}: {json.dumps(result)}", flush=True)
    stops = [r["stop_s"] for r in rounds]
    lost = sum(not (r["turn_given_back"] and r["analysis_given_back"]) for r in rounds)
    print(
        f"stop: p50 {statistics.median(stops):.2f} s, max {max(stops):.2f} s over {len(stops)} "
        f"rounds; within 2 s: {sum(s <= 2.0 for s in stops)}; rounds that lost work: {lost}; "
        f"load average after {os.getloadavg()}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rounds, indent=1))
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
