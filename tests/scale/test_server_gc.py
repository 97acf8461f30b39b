"""The server process tunes its garbage collector (durak_site.server_gc)."""

import gc
import json
import weakref

import pytest

from durak_site.server_gc import collect_due_generation, parse_thresholds
from tests.subprocesses import run_python

PROBE = (
    "import gc, json, durak_site.asgi; "
    "print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
)


def load_asgi(**env: str) -> tuple[list[int], int]:
    done = run_python(
        "-c",
        PROBE,
        drop={"SERVER_GC_THRESHOLDS"},
        env={"DJANGO_SETTINGS_MODULE": "durak_site.settings", **env},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    thresholds, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    return thresholds, frozen


def test_a_server_process_freezes_what_it_loaded_and_raises_the_thresholds():
    thresholds, frozen = load_asgi()
    assert thresholds == [50000, 200, 100]
    # Django and the apps are loaded by then: tens of thousands of objects.
    assert frozen > 10000


def test_an_empty_setting_leaves_the_collector_alone():
    thresholds, frozen = load_asgi(SERVER_GC_THRESHOLDS="")
    assert thresholds == [700, 10, 10]
    assert frozen == 0


def test_thresholds_are_parsed_strictly():
    assert parse_thresholds("2000,5") == (2000, 5)
    assert parse_thresholds(" ") is None
    for bad in ("a,b", "1,2,3,4", "-1"):
        with pytest.raises(ValueError):
            parse_thresholds(bad)


@pytest.fixture
def collector_thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


class Node:
    def __init__(self) -> None:
        self.me = self  # A cycle: only the collector frees it.


def test_a_timed_step_collects_the_young_and_an_older_generation_when_it_is_due(
    collector_thresholds,
):
    gc.set_threshold(1_000_000, 2, 1)
    gc.collect()  # Counts start at zero.
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        garbage = weakref.ref(Node())
        generations = [collect_due_generation() for _ in range(12)]
    finally:
        gc.callbacks.remove(note)
    # As in the collector, a generation is due once its count passes its threshold.
    assert generations == [0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 0]
    assert seen == generations
    assert garbage() is None  # The cycle was freed with no allocation-count trigger.


TIMER_PROBE = """
import gc, json, sys
from twisted.internet import asyncioreactor
asyncioreactor.install()
from twisted.internet import reactor
from durak_site.server_gc import collect_on_a_timer
seen = []
gc.callbacks.append(lambda phase, info: phase == "start" and seen.append(info["generation"]))
gc.disable()  # Only the timer collects.
collect_on_a_timer(float(sys.argv[1]))
reactor.callLater(0.55, reactor.stop)
reactor.run()
print(json.dumps(seen))
"""


def collections_on_a_timer(interval: str) -> list[int]:
    done = run_python("-c", TIMER_PROBE, interval, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_under_the_reactor_the_timer_collects_every_interval_and_zero_turns_it_off():
    seen = collections_on_a_timer("0.1")
    assert 3 <= len(seen) <= 6 and set(seen) <= {0, 1, 2}
    assert collections_on_a_timer("0") == []
