"""The checks, figures and table of ``benchmarks/arena_load.py`` after its arena is over,
read from the database: who sat at two tables at once, games lost, the standings against
a recomputation from the stored games, and the standings' push latency."""

from __future__ import annotations

import bisect
import json
from collections import Counter, defaultdict
from itertools import pairwise
from typing import Any

from live_latency import pct


def check(run: Any) -> dict:
    """``run``: the load's ``Run`` (its arena, the pages' refreshes, what it saw)."""
    from django.db import close_old_connections

    from arena.models import Arena, ArenaGame, ArenaPlayer
    from arena.services import recompute
    from games.models import Deal, Match, Move

    close_old_connections()
    arena = Arena.objects.get(pk=run.arena_id)
    games = list(ArenaGame.objects.filter(arena=arena).select_related("match"))
    first_deals = {
        d.match_id: d for d in Deal.objects.filter(match__arena_game__arena=arena, number=1)
    }
    finished = {
        m: d for m, d in first_deals.items() if d.status == Deal.Status.FINISHED and d.finished_at
    }
    unfinished = [g.match_id for g in games if g.match.status != Match.Status.FINISHED]
    unscored = [g.match_id for g in games if g.match_id in finished and g.scored is None]
    scored_unended = [
        g.match_id for g in games if g.scored is not None and g.match_id not in finished
    ]
    missing = run.seen_finished - set(finished)
    # Overlapping tables of one player in the stored games.
    spans = defaultdict(list)
    for game in games:
        end = finished.get(game.match_id)
        stop = end.finished_at if end else game.match.finished_at
        for user in game.match.seats.values_list("user_id", flat=True):
            spans[user].append((game.match.created_at, stop))
    overlapping = 0
    for user_spans in spans.values():
        user_spans.sort(key=lambda s: s[0])
        overlapping += sum(1 for a, b in pairwise(user_spans) if a[1] is None or b[0] < a[1])
    expected = recompute(arena)
    differ = []
    for entry in ArenaPlayer.objects.filter(arena=arena):
        points, games_played, on_fire, *_ = expected.get(entry.user_id, (0, 0, False, 0, 0))
        if (entry.points, entry.games, entry.on_fire) != (points, games_played, on_fire):
            differ.append(
                f"user {entry.user_id}: stored {entry.points} points, {entry.games} games, "
                f"fire {entry.on_fire}; recomputed {points}, {games_played}, {on_fire}"
            )
    # Standings' push latency: each game end to the first refresh after it, every page.
    ends = sorted(d.finished_at.timestamp() for d in finished.values())
    latencies, unseen = [], 0
    # The first page to hear of each game end: the commit and the layer's delivery,
    # before each page's own throttle and its process's loop add theirs.
    first = [float("inf")] * len(ends)
    for arrivals in run.refreshes.values():
        for number, end in enumerate(ends):
            at = bisect.bisect_left(arrivals, end)
            if at == len(arrivals):
                unseen += 1
            else:
                latencies.append(arrivals[at] - end)
                first[number] = min(first[number], arrivals[at] - end)
    first = [x for x in first if x != float("inf")]
    sources = Counter(
        Move.objects.filter(match__arena_game__arena=arena).values_list("source", flat=True)
    )
    entries = ArenaPlayer.objects.filter(arena=arena)
    return {
        "arena_status": arena.status,
        "games": len(games),
        "games_finished": len(finished),
        "games_lost": len(unfinished) + len(unscored) + len(scored_unended) + len(missing),
        "games_unfinished": len(unfinished),
        "games_unscored": len(unscored),
        "games_seen_ended_not_stored": len(missing),
        "seated_twice_sampled": run.seated_twice,
        "seated_twice_samples": run.seated_twice_samples,
        "overlapping_tables_stored": overlapping,
        "standings_differ": len(differ),
        "standings_differ_examples": differ[:5],
        "players_with_games": sum(1 for e in entries if e.games),
        "withdrawn": sum(1 for e in entries if e.withdrawn),
        "moves_by_source": dict(sources),
        "push_samples": len(latencies),
        "push_unseen": unseen,
        **{f"push_p{q}_ms": round(1000 * pct(latencies, q), 1) for q in (50, 90, 99)},
        "push_max_ms": round(1000 * max(latencies), 1) if latencies else None,
        **{f"push_first_page_p{q}_ms": round(1000 * pct(first, q), 1) for q in (50, 99)},
        "refreshes": sum(len(v) for v in run.refreshes.values()),
    }


FAILURES = ("games_lost", "seated_twice_sampled", "overlapping_tables_stored", "standings_differ")


def print_result(r: dict) -> None:
    cpu = r["cpu_s"]
    verdict = "met" if r["push_p99_ms"] is not None and r["push_p99_ms"] <= 1000 else "NOT met"
    rows = [
        (
            "players, arena",
            f"{r['players']} players, {r['minutes']} min, turn {r['turn_seconds']} s, "
            f"think {r['think_s'][0]:g}-{r['think_s'][1]:g} s, 24-card deck, 2 seats",
        ),
        (
            "played",
            f"{r['played_s']} s; {r['games']} games ({r['games_finished']} finished), "
            f"{r['moves']} moves ({r['refused_moves']} refused as stale); "
            f"{r['players_with_games']} players played",
        ),
        (
            "standings push",
            f"{r['push_samples']} (game end, page) pairs: p50 {r['push_p50_ms']} "
            f"ms, p90 {r['push_p90_ms']} ms, p99 {r['push_p99_ms']} ms, max {r['push_max_ms']} ms; "
            f"unseen {r['push_unseen']}; 1 s at p99 {verdict}; the first page to hear of a game "
            f"end: p50 {r['push_first_page_p50_ms']} ms, p99 {r['push_first_page_p99_ms']} ms",
        ),
        (
            "CPU",
            f"daphne {cpu['daphne']} s ({r['daphne_cores']} cores), "
            f"{r['daphne_cpu_ms_per_game_end']} ms per game end; workers {cpu['workers']} s",
        ),
        (
            "standings fetched",
            f"{r['standings_fetches']} of {r.get('pushes_to_fetch', '?')} pushes saying "
            f"fetch (share {r['fetch_share']}): "
            f"p50 {r['fetch_p50_ms']} ms, p99 {r['fetch_p99_ms']} ms",
        ),
        (
            "seated twice",
            f"{r['seated_twice_sampled']} in {r['seated_twice_samples']} samples; "
            f"overlapping tables stored {r['overlapping_tables_stored']}",
        ),
        (
            "games lost",
            f"{r['games_lost']} (unfinished {r['games_unfinished']}, unscored "
            f"{r['games_unscored']}, seen ended but not stored {r['games_seen_ended_not_stored']})",
        ),
        ("standings = recompute", f"{r['standings_differ']} players differ"),
        ("moves by source", json.dumps(r["moves_by_source"])),
        ("load average", f"before {r['load_average_before']}, after {r['load_average_after']}"),
        (
            "errors",
            f"{r['errors']}; arena pages dropped {r['page_drops']}; table sockets opened again "
            f"{r['table_sockets_reopened']}; tables looked at again after their players gave "
            f"up {r.get('tables_looked_at_again', 0)}",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    for example in [*r["error_examples"], *r["standings_differ_examples"]]:
        print(f"  {example}")
