"""A visitor's time from landing on the lobby to cards in hand, as a guest who taps
«Играть» or (``--sign-up``) as a newcomer who signs up first, on the ``make run`` stack.

Starts the stack as ``make run`` does (``durak_site.cluster --embedded``: daphne with
its ticker, one bot worker; static files collected) on a fresh SQLite database, then
for each run opens a new Chromium context (a new visitor: no cookie) on a Russian
390x844 phone, loads the lobby, taps «Играть» and waits for the hand.  With
``--sign-up`` the visitor first follows the lobby's sign-up link, fills the form (at
once: the figure is the site's part of the wait, not a person's typing) and lands on
the lobby signed in.  Printed per run and as median and worst: the lobby loaded, the
table page reached, cards in hand, each counted from the start of the lobby's
navigation.

The per-address limit of new accounts is raised for the run: every visitor here comes
from 127.0.0.1.

    .venv/bin/python benchmarks/guest_landing.py --runs 10
    .venv/bin/python benchmarks/guest_landing.py --runs 10 --sign-up
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_latency import wait_until_serving  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def sign_up(page, name: str) -> None:
    """Follow the lobby's sign-up link and fill the form, landing signed in."""
    page.get_by_role("link", name="Регистрация").first.click()
    page.fill("#id_username", name)
    page.fill("#id_password1", "a long pass phrase 7193")
    page.fill("#id_password2", "a long pass phrase 7193")
    page.locator("form [type=submit]").last.click()
    page.wait_for_selector(f"text={name}")


def one_visit(browser, base: str, signs_up: bool = False) -> tuple[float, float, float]:
    """(lobby loaded, table reached, cards in hand), seconds from the landing."""
    context = browser.new_context(locale="ru-RU", **PHONE)
    context.set_default_timeout(30_000)
    page = context.new_page()
    landed = time.monotonic()
    page.goto(base + "/")
    if signs_up:
        sign_up(page, f"newcomer{time.monotonic_ns() % 10**9}")
    loaded = time.monotonic() - landed
    page.get_by_role("button", name="Играть", exact=True).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    at_table = time.monotonic() - landed
    page.wait_for_selector("#table-hand .hand-card")
    held = time.monotonic() - landed
    context.close()
    return loaded, at_table, held


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--port", type=int, default=8143)
    parser.add_argument("--sign-up", action="store_true", help="a newcomer who signs up first")
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory()
    env = {
        **os.environ,
        "SQLITE_PATH": os.path.join(tmp.name, "db.sqlite3"),
        "DJANGO_COLLECTED_STATIC": "1",
        "SIGNUP_RATE_LIMIT_ACCOUNTS": "100000",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    python = sys.executable
    for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    stack = subprocess.Popen(
        [python, "-m", "durak_site.cluster", "--embedded", "--no-migrate"]
        + ["--ports", str(args.port), "--workers", "0", "--bot-workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(tmp.name, "stack.log"), "w"),  # noqa: SIM115
    )
    base = f"http://127.0.0.1:{args.port}"
    rows = []
    try:
        wait_until_serving(base)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            one_visit(browser, base, args.sign_up)  # the first pages load the templates
            for run in range(args.runs):
                rows.append(one_visit(browser, base, args.sign_up))
                loaded, at_table, held = rows[-1]
                print(
                    f"run {run + 1}: lobby {loaded:.2f} s, table {at_table:.2f} s, "
                    f"cards in hand {held:.2f} s"
                )
            browser.close()
    except Exception:
        print(Path(tmp.name, "stack.log").read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        stack.terminate()
        stack.wait(timeout=30)
    for name, column in zip(
        ("lobby", "table", "cards in hand"), zip(*rows, strict=True), strict=True
    ):
        print(f"{name}: median {statistics.median(column):.2f} s, worst {max(column):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
