"""The server process tunes its garbage collector (durak_site.server_gc)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from durak_site.server_gc import parse_thresholds

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import gc, json, durak_site.asgi; "
    "print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
)


def load_asgi(**env: str) -> tuple[list[int], int]:
    environ = {k: v for k, v in os.environ.items() if k != "SERVER_GC_THRESHOLDS"}
    environ.update(DJANGO_SETTINGS_MODULE="durak_site.settings", **env)
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    thresholds, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    return thresholds, frozen


def test_a_server_process_freezes_what_it_loaded_and_raises_the_thresholds():
    thresholds, frozen = load_asgi()
    assert thresholds == [50000, 20, 1000]
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
