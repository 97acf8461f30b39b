"""The bots package is pure Python: it imports without Django and never names it."""

import pathlib
import subprocess
import sys

import pytest

import durak.bots
from durak.bots import LEVELS, get_bot


def test_no_django_in_the_bots_package():
    root = pathlib.Path(durak.bots.__file__).parent
    for path in root.glob("*.py"):
        assert "django" not in path.read_text(), path.name


def test_bots_import_without_django_settings():
    code = "import sys, durak.bots; assert not any(m.startswith('django') for m in sys.modules)"
    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=pathlib.Path(durak.bots.__file__).parents[2]
    )
    assert done.returncode == 0


def test_registry():
    assert LEVELS == ("random", "easy", "medium", "hard")
    assert [get_bot(level).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(ValueError):
        get_bot("grandmaster")


def test_the_site_levels_load_no_numpy():
    # Only a process that plays the learned bot on trial loads numpy and its weights.
    code = (
        "import sys, random, durak.bots as b; from durak.engine import Game, Rules; "
        "g = Game.new(Rules(players=2), 1); s = b.decider_of(g.knowledge(g.attacker)); "
        "[b.get_bot(lv) for lv in b.LEVELS + b.BASELINES]; assert 'numpy' not in sys.modules; "
        "b.get_bot('learned'); assert 'numpy' in sys.modules"
    )
    cwd = pathlib.Path(durak.bots.__file__).parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=cwd).returncode == 0
