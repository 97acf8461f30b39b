"""What a push costs and carries, piece by piece, in one process.

Plays two-player Classic games through the service layer in a fresh SQLite database
(in a temporary directory).  After every move each seat's push is rendered as its
socket renders it (``render_state`` with the record of what its page shows), and a
full render beside it.  Prints how often each piece of the table changes, bytes per
push and per full render, CPU per render, per piece partial, per table read, and the
engine's snapshot parse and write at the longest history played.

    .venv/bin/python benchmarks/push_pieces.py --games 20
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cpu_ms(function, repeat: int) -> float:
    """Mean CPU milliseconds (``time.process_time``) of one call."""
    started = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - started) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=300, help="calls per timing")
    args = parser.parse_args()

    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.template.loader import get_template

    from durak.engine import Game
    from games import services
    from games.models import Match, RuleVariant
    from games.table_sql import table_rows
    from table import rendering

    call_command("migrate", verbosity=0)
    settings.DEBUG = False  # as in production: compiled templates are kept
    users = [get_user_model().objects.create_user(f"pieces{s}") for s in range(2)]
    viewers = [rendering.Viewer(u.pk, seat) for seat, u in enumerate(users)]
    rng = random.Random(1)
    changed: Counter[str] = Counter()
    pushes = 0
    push_bytes, full_bytes, push_ms, full_ms = [], [], [], []
    longest: Game | None = None
    match = None
    for _ in range(args.games):
        match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
        services.join_match(match, users[1])
        shown: list[dict] = [{}, {}]
        for seat, viewer in enumerate(viewers):
            rendering.render_state(match.pk, viewer, full=True, shown=shown[seat])
        while True:
            match = Match.objects.get(pk=match.pk)
            if match.status != Match.Status.PLAYING:
                break
            game = Game.from_snapshot(match.state)
            if longest is None or len(game.history) > len(longest.history):
                longest = game
            action = rng.choice(game.legal_actions())
            services.apply_action(match.pk, users[action.seat], str(action), version=match.version)
            for seat, viewer in enumerate(viewers):
                # Whichever renders second finds warmer caches: take turns.
                order = ["push", "full"] if pushes % 2 else ["full", "push"]
                for kind in order:
                    started = time.process_time()
                    if kind == "push":
                        _, html = rendering.render_state(match.pk, viewer, shown=shown[seat])
                        push_ms.append((time.process_time() - started) * 1000)
                    else:
                        _, full = rendering.render_state(match.pk, viewer)
                        full_ms.append((time.process_time() - started) * 1000)
                pushes += 1
                push_bytes.append(len(html.encode()))
                full_bytes.append(len(full.encode()))
                changed.update(p for p in rendering.PIECES if f'id="table-{p}"' in html)

    print(f"{args.games} two-player games, {pushes} pushes (one per seat and move)")
    print(
        "pushes carrying each piece: "
        + ", ".join(f"{piece} {changed[piece] / pushes:.0%}" for piece in rendering.PIECES)
    )
    print(
        f"bytes: push mean {statistics.mean(push_bytes):,.0f}, "
        f"full render mean {statistics.mean(full_bytes):,.0f}"
    )
    print(
        f"CPU per render (read, context, templates): push median "
        f"{statistics.median(push_ms):.3f} ms, full median {statistics.median(full_ms):.3f} ms"
    )

    # One mid-game position, timed piece by piece.
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    for _ in range(6):
        match = Match.objects.get(pk=match.pk)
        action = rng.choice(Game.from_snapshot(match.state).legal_actions())
        services.apply_action(match.pk, users[action.seat], str(action), version=match.version)
    context = rendering.table_context(Match.objects.get(pk=match.pk), viewers[0], with_chat=False)
    parts = {piece: get_template(rendering.PARTIALS + piece) for piece in rendering.PIECES}
    piece_ms = {p: cpu_ms(lambda t=t: t.render(context), args.repeat) for p, t in parts.items()}
    print(
        "CPU per piece partial, ms: "
        + ", ".join(f"{piece} {ms:.3f}" for piece, ms in piece_ms.items())
        + f"; all {sum(piece_ms.values()):.3f}"
    )
    print(f"CPU per table read: {cpu_ms(lambda: table_rows(match.pk), args.repeat):.3f} ms")
    if longest is not None:
        snapshot = longest.snapshot()
        print(
            f"engine at {len(longest.history)} actions of history: from_snapshot "
            f"{cpu_ms(lambda: Game.from_snapshot(snapshot), args.repeat):.3f} ms, "
            f"snapshot {cpu_ms(longest.snapshot, args.repeat):.3f} ms"
        )


if __name__ == "__main__":
    main()
