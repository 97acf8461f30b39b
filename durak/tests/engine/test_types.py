"""The engine passes ``mypy --strict``, and the same check fails on a typing error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


def strict_mypy(*targets: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *map(str, targets)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_engine_passes_mypy_strict() -> None:
    run = strict_mypy("durak/engine")
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_refuses_an_untyped_function_and_a_wrong_type(tmp_path: Path) -> None:
    bad = tmp_path / "bad_engine_module.py"
    bad.write_text(
        "from durak.engine import Game, Rules\n"
        "def untyped(x):\n"
        "    return x\n"
        "def wrong() -> str:\n"
        "    return Game.new(Rules(), 1).attacker\n"
    )
    run = strict_mypy(bad)
    assert run.returncode == 1
    assert "missing a type annotation" in run.stdout
    assert 'Incompatible return value type (got "int", expected "str")' in run.stdout
