"""Size and render time of one table push, as each seat receives it.

Sets up a four-player Classic table in a fresh SQLite database, plays a few moves
through the service layer, then renders every seat's push (``render_state``) many
times: bytes per frame, and mean microseconds per render.

    .venv/bin/python benchmarks/table_render.py --renders 300

Run it from two checkouts one after the other, on the same machine, to compare them.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=300, help="renders per seat")
    parser.add_argument("--moves", type=int, default=6, help="moves played before measuring")
    args = parser.parse_args()

    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import translation

    from games import services
    from games.models import RuleVariant
    from table import rendering

    call_command("migrate", verbosity=0)
    # The same deal in every checkout: the server's shuffle draws from a seeded generator.
    secrets.SystemRandom = lambda: random.Random(7)
    # As in production, where the renderer keeps its compiled templates.
    settings.DEBUG = False
    users = [get_user_model().objects.create_user(f"bench{s}") for s in range(4)]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 4)
    for user in users[1:]:
        services.join_match(match, user)
    match.refresh_from_db()
    if match.status == "waiting":
        services.start_match(match, users[0])
    for _ in range(args.moves):
        match.refresh_from_db()
        game = services.load_game(match)
        mover, legal = next(
            (seat, game.view(seat)["legal"])
            for seat in game.view(None)["to_act"]
            if game.view(seat)["legal"]
        )
        choice = next((a for a in legal if " attack " in a or " defend " in a), legal[0])
        services.apply_action(match.pk, users[mover], choice, version=match.version)

    print(
        f"{ROOT.name}: table #{match.pk}, {args.moves} moves played, {args.renders} renders a seat"
    )
    for language in ("en", "ru"):
        with translation.override(language):
            sizes, elapsed = [], 0.0
            for seat in range(4):
                viewer = rendering.Viewer(users[seat].pk, seat)
                _, html = rendering.render_state(match.pk, viewer)
                sizes.append(len(html.encode()))
                start = time.perf_counter()
                for _ in range(args.renders):
                    rendering.render_state(match.pk, viewer)
                elapsed += time.perf_counter() - start
            mean_us = elapsed / (4 * args.renders) * 1e6
            print(f"  {language}: {sum(sizes) / 4:,.0f} bytes a frame, {mean_us:,.0f} µs a render")


if __name__ == "__main__":
    main()
