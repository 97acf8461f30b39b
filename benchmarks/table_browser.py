"""The table page in Chromium: first-visit weight, a reload, and move-to-screen latency.

Starts daphne as ``make run`` serves (static files collected: hashed names, compressed,
cached for good) on a fresh SQLite database, seats two people at a two-player table
and opens it in two Chromium pages, motion on, as players see it.

- **First visit**: requests and bytes on the wire (headers and compressed bodies, from
  the page's own network log, ``Network.loadingFinished``), empty cache, up to the
  socket's first render.
- **Reload**: how many requests went to the server besides the page itself.
- **Latency**: each move is clicked in one page; the other page's time when the push
  carrying it has been swapped in, minus the click's time (both pages' clocks are
  ``performance.timeOrigin + performance.now()`` on one machine).  Also the same
  span on the wire: the mover's socket frame sent to the other's frame received.

    .venv/bin/python benchmarks/table_browser.py --moves 40
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_latency import make_tables, setup_django, wait_until_serving  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Clicks one legal move (a beat, else Done/Take, else a lead) and returns the click's
# time, or null when this page has nothing to play.
MOVE = """() => {
  const now = () => performance.timeOrigin + performance.now();
  const beater = document.querySelector('#table-hand .hand-card:not([disabled])[data-beats]:not([data-beats=""])');
  if (beater) {
    beater.click();
    const target = document.querySelector("#table-felt .attack-target.can-beat");
    if (target) { const t = now(); target.click(); return t; }
    beater.click();
  }
  const control = document.querySelector("#table-controls .control-done, #table-controls .control-take");
  const lead = document.querySelector('#table-hand .hand-card:not([disabled])[data-lead]:not([data-lead=""])');
  const button = control || lead;
  if (!button) return null;
  const t = now();
  button.click();
  return t;
}"""
RECORD = """() => {
  window.seen = {};
  window.arrived = {};
  window.sent = [];
  const now = () => performance.timeOrigin + performance.now();
  document.body.addEventListener("htmx:wsAfterSend", () => window.sent.push(now()));
  document.body.addEventListener("htmx:wsBeforeMessage", (event) => {
    const found = /id="table-version"[^>]*data-version="(\\d+)"/.exec(event.detail.message || "");
    if (found && !(found[1] in window.arrived)) window.arrived[found[1]] = now();
  });
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const v = document.getElementById("table-version").dataset.version;
    if (!(v in window.seen)) window.seen[v] = performance.timeOrigin + performance.now();
  });
}"""
VERSION = "() => parseInt(document.getElementById('table-version').dataset.version, 10)"
OVER = "() => document.getElementById('table-version').dataset.status !== 'playing'"


class NetworkLog:
    """A page's requests, from the DevTools protocol, as the page's own network log."""

    def __init__(self, context, page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.requests: dict[str, dict] = {}
        self.frames_sent: list[float] = []
        self.frames_received: list[tuple[float, str]] = []
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.requestServedFromCache", self._from_cache)
        self.cdp.on("Network.webSocketFrameSent", lambda e: self.frames_sent.append(e["timestamp"]))
        self.cdp.on(
            "Network.webSocketFrameReceived",
            lambda e: self.frames_received.append((e["timestamp"], e["response"]["payloadData"])),
        )
        self.cdp.send("Network.enable")

    def _sent(self, event) -> None:
        self.requests[event["requestId"]] = {"url": event["request"]["url"], "bytes": 0}

    def _response(self, event) -> None:
        entry = self.requests.setdefault(event["requestId"], {"url": event["response"]["url"]})
        entry["status"] = event["response"]["status"]
        entry["cached"] = event["response"].get("fromDiskCache") or event["response"].get(
            "fromMemoryCache"
        )

    def _from_cache(self, event) -> None:
        self.requests.setdefault(event["requestId"], {"url": "?"})["cached"] = True

    def _finished(self, event) -> None:
        self.requests.setdefault(event["requestId"], {"url": "?"})["bytes"] = event[
            "encodedDataLength"
        ]

    def clear(self) -> None:
        self.requests.clear()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--port", type=int, default=8141)
    parser.add_argument(
        "--reduced-motion", action="store_true", help="players who turned motion off"
    )
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory()
    db_path = os.path.join(tmp.name, "db.sqlite3")
    env = {**os.environ, "SQLITE_PATH": db_path, "DJANGO_COLLECTED_STATIC": "1"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    python = sys.executable
    for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_COLLECTED_STATIC"] = "1"
    setup_django(db_path)
    server = subprocess.Popen(
        [str(Path(python).parent / "daphne"), "-b", "127.0.0.1", "-p", str(args.port)]
        + ["durak_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(tmp.name, "daphne.log"), "w"),  # noqa: SIM115
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        wait_until_serving(base)
        [(match_id, cookies)] = make_tables(1)
        url = f"{base}/games/{match_id}/"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            pages = []
            for cookie in cookies:
                context = browser.new_context(
                    viewport={"width": 390, "height": 844},
                    reduced_motion="reduce" if args.reduced_motion else "no-preference",
                )
                context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
                page = context.new_page()
                pages.append((context, page, NetworkLog(context, page)))
            report_weight(pages[0], url)
            open_table(pages[1][1], url)
            latency(pages, args.moves)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


def open_table(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")


def report_weight(opened, url: str) -> None:
    _context, page, log = opened
    open_table(page, url)
    page.wait_for_timeout(500)
    first = [r for r in log.requests.values() if r["url"].startswith("http")]
    total = sum(r.get("bytes", 0) for r in first)
    print(f"first visit: {len(first)} requests, {total / 1024:.1f} KiB on the wire")
    for r in sorted(first, key=lambda r: -r.get("bytes", 0)):
        print(f"  {r.get('bytes', 0):>7}  {r.get('status')}  {r['url'].split('/', 3)[-1]}")
    log.clear()
    page.reload()
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_timeout(500)
    again = [r for r in log.requests.values() if r["url"].startswith("http")]
    # A file taken from the browser's cache has no bytes on the wire; a revalidation has.
    network = [r for r in again if (r.get("status") == 304 or r.get("bytes")) and r["url"] != url]
    print(
        f"reload: {len(again)} requests, {len(network)} to the server besides the page itself"
        + "".join(f"\n  {r.get('status')} {r.get('bytes')} {r['url']}" for r in network)
    )


def latency(pages, moves: int) -> None:
    for _context, page, _log in pages:
        page.evaluate(RECORD)
    seen_ms: list[float] = []
    wire_ms: list[float] = []
    send_ms: list[float] = []
    swap_ms: list[float] = []
    made = 0
    deadline = time.time() + 300
    while made < moves and time.time() < deadline:
        if pages[0][1].evaluate(OVER):
            break
        moved = False
        for mover, watcher in ((0, 1), (1, 0)):
            page, other, other_log = pages[mover][1], pages[watcher][1], pages[watcher][2]
            log = pages[mover][2]
            version = page.evaluate(VERSION)
            sent_before = len(log.frames_sent)
            received_before = len(other_log.frames_received)
            clicked = page.evaluate(MOVE)
            if clicked is None:
                continue
            other.wait_for_function(f"() => window.seen['{version + 1}'] !== undefined")
            key = f"'{version + 1}'"
            seen, arrived = other.evaluate(f"() => [window.seen[{key}], window.arrived[{key}]]")
            seen_ms.append(seen - clicked)
            if arrived:
                swap_ms.append(seen - arrived)
            sent = page.evaluate(f"() => window.sent.find((t) => t >= {clicked})")
            if sent:
                send_ms.append(sent - clicked)
            # The mover's page takes its own push before its next click.
            page.wait_for_function(f"() => window.seen['{version + 1}'] !== undefined")
            marker = f'data-version="{version + 1}"'
            frames = [
                t for t, text in other_log.frames_received[received_before:] if marker in text
            ]
            if frames and len(log.frames_sent) > sent_before:
                wire_ms.append((frames[0] - log.frames_sent[sent_before]) * 1000)
            made += 1
            moved = True
            break
        if not moved:
            time.sleep(0.05)
    for name, values in (
        ("seen by the other player", seen_ms),
        ("on the wire (frame sent to frame received)", wire_ms),
        ("in the mover's page (click to frame sent)", send_ms),
        ("in the other page (frame in to swapped)", swap_ms),
    ):
        if values:
            print(
                f"move to the other page, {name}: n={len(values)} "
                f"p50 {statistics.median(values):.1f} ms, p90 {percentile(values, 0.9):.1f} ms, "
                f"max {max(values):.1f} ms"
            )


if __name__ == "__main__":
    sys.exit(main())
