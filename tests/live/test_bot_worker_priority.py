"""A bot worker's lower CPU priority holds against the web processes, not only its session."""

from __future__ import annotations

from pathlib import Path

from tests.subprocesses import run_python

# Lowers its priority by 7 with the given file standing in for /proc/self/autogroup,
# and prints by how much its nice value rose.
LOWER_BY_7 = """
import os, sys
from pathlib import Path
import django
django.setup()
from games.priority import lower_priority
before = os.nice(0)
lower_priority(7, autogroup=Path(sys.argv[1]))
print(os.nice(0) - before)
"""


def lower_by_7(autogroup: Path, *, new_session: bool) -> str:
    done = run_python("-c", LOWER_BY_7, str(autogroup), new_session=new_session)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_worker_leading_its_own_session_lowers_the_session_weight_too(tmp_path):
    autogroup = tmp_path / "autogroup"
    autogroup.write_text("0")
    assert lower_by_7(autogroup, new_session=True) == "7"
    assert autogroup.read_text() == "7"


def test_a_worker_in_a_shared_session_leaves_the_session_weight_alone(tmp_path):
    autogroup = tmp_path / "autogroup"
    autogroup.write_text("0")
    assert lower_by_7(autogroup, new_session=False) == "7"
    assert autogroup.read_text() == "0"


def test_without_session_weights_the_nice_value_alone_is_lowered(tmp_path):
    assert lower_by_7(tmp_path / "absent" / "autogroup", new_session=True) == "7"
