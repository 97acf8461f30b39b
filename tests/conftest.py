"""Shared fixtures: a live daphne server and a headless Chromium for browser tests."""

import os
import shutil
from collections.abc import Iterator
from functools import partial

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def find_chromium() -> str | None:
    candidates = [
        os.environ.get("CHROMIUM_PATH", ""),
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
    ]
    for candidate in candidates:
        if candidate and os.path.exists(candidate):
            return candidate
    return shutil.which("chromium")


def _make_application():
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    return ASGIStaticFilesHandler(get_default_application())


@pytest.fixture(autouse=True)
def default_language() -> None:
    """Each test starts in English: a request in Russian leaves its thread's language set."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """Ids repeat once a test's rows are rolled back or flushed, so what the cache keeps
    by id (the log-in and hint limits, cached timelines) must not reach the next test.

    The cache is this run's own: local memory of this process, or this run's prefix on
    the test Redis database (``tests.redis_db.PrefixedRedisCache``).
    """
    from django.core.cache import cache

    from history import replay

    cache.clear()
    replay.forget_all()


@pytest.fixture(autouse=True)
def no_tables_kept_from_earlier_tests() -> None:
    """A flushed test database hands out the same match ids again, so a table kept
    from an earlier test at the same (match, version) would be another table."""
    from games import table_reads

    table_reads.forget_all()


@pytest.fixture(autouse=True)
def scripted_clients_act_fast(settings) -> None:
    """Scripted players send frames far faster than people; tests of the flood
    limit set their own, tighter rate."""
    settings.GAMES_FRAME_RATE = (10_000, 10_000)


@pytest.fixture(autouse=True)
def open_data_in_a_temporary_folder(settings, tmp_path_factory) -> None:
    """A finished game may queue last month's open-data file (opendata.receivers), which
    the immediate task backend builds at once: into this test's folder, not the site's."""
    settings.OPEN_DATA_DIR = tmp_path_factory.mktemp("open-data")


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """A cheap password hash: the site's costs most of a second per sign-up or log-in
    (a failed one too), and no test is about that cost; passwords are still checked."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def test_redis() -> Iterator[None]:
    """The cache and the channel layer on the test Redis database, under this run's prefix.

    ``TEST_REDIS_DB`` picks the database (tests/redis_db.py); the prefixes name the
    run and the xdist worker, so parallel runs and workers neither meet in a group
    ("match-1" of two test databases) nor clear each other's counters.
    """
    from django.conf import settings
    from django.test.utils import override_settings

    from tests.redis_db import redis_url_for_tests, run_prefix

    cache = settings.CACHES["default"]
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" not in cache["BACKEND"].lower():
        yield
        return
    prefix = run_prefix()
    location = redis_url_for_tests(cache["LOCATION"])
    hosts = [
        {**host, "address": redis_url_for_tests(host["address"])}
        if isinstance(host, dict)
        else redis_url_for_tests(host)
        for host in layer["CONFIG"]["hosts"]
    ]
    with override_settings(
        CACHES={
            "default": {
                **cache,
                "BACKEND": "tests.redis_db.PrefixedRedisCache",
                "LOCATION": location,
                "KEY_PREFIX": prefix,
            }
        },
        CHANNEL_LAYERS={
            "default": {**layer, "CONFIG": {**layer["CONFIG"], "prefix": prefix, "hosts": hosts}}
        },
    ):
        yield


def _fresh_child_state() -> None:
    """Runs in the forked server before it serves: drop state that did not survive the fork."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers

    # The parent's database thread is not copied by fork; its executor would
    # wait on it forever.  The parent closed its connections before forking.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def standard_variants(request) -> None:
    """Keep the variants of the data migrations in place for every database test,
    with their house rule bounds.

    Transactional tests flush every table afterwards, data migrations included,
    so a later test in the same worker would otherwise find no variants, or
    variants that let a creator change nothing.
    """
    if request.node.get_closest_marker("django_db") is not None:
        request.getfixturevalue("_django_db_helper")
    elif {"transactional_db", "live_server_url"} & set(request.fixturenames):
        request.getfixturevalue("transactional_db")
    elif "db" in request.fixturenames:
        request.getfixturevalue("db")
    else:
        return
    from importlib import import_module

    from django.apps import apps

    if not apps.get_model("games", "RuleVariant").objects.exists():
        # As the migrations leave them: seeded, then mended and renamed.
        import_module("games.migrations.0002_standard_variants").create_variants(apps, None)
        import_module("games.migrations.0014_seven_players_at_52_cards").mend(apps, None)
        import_module("games.migrations.0016_variant_russian_words").rename(apps, None)
    bounds = import_module("matchmaking.migrations.0003_standard_house_rule_bounds")
    if not apps.get_model("matchmaking", "HouseRuleBounds").objects.exists():
        bounds.create_bounds(apps, None)


@pytest.fixture
def fresh_process_state() -> None:
    """For tests that act in this process beside a live server: no state of earlier
    tests here either (a channel layer tied to another event loop, an executor whose
    database thread a forked child would lack)."""
    _fresh_child_state()


@pytest.fixture
def live_server_url(transactional_db) -> Iterator[str]:
    """A real daphne (HTTP and WebSocket) in a child process, on the test database."""
    from daphne.testing import DaphneProcess
    from django.db import connections

    # The child is forked: it must not inherit open database handles, pooled ones
    # included (the pool's threads do not survive a fork; the child makes its own).
    connections.close_all()
    for connection in connections.all(initialized_only=True):
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()
    process = DaphneProcess("127.0.0.1", partial(_make_application), setup=_fresh_child_state)
    process.start()
    if not process.ready.wait(timeout=30):
        process.terminate()
        raise RuntimeError("daphne did not start")
    try:
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture
def no_puzzle_search() -> Iterator[None]:
    """No puzzle search queued by a finished deal or analysis.

    On the immediate task backend such a search runs at once, for tens of seconds,
    in the process that finished the deal or the analysis (a server process too),
    where the site runs it on a task worker.  For tests that read no puzzles; the
    queueing itself is tested in tests/puzzles.
    """
    from analysis.signals import analysis_done
    from games.signals import deal_finished
    from puzzles import receivers

    hooks = [
        (deal_finished, receivers.on_deal_finished, "puzzles.queue_puzzle_search"),
        (analysis_done, receivers.on_analysis_done, "puzzles.queue_swing_search"),
    ]
    for signal, _receiver, uid in hooks:
        signal.disconnect(dispatch_uid=uid)
    try:
        yield
    finally:
        for signal, receiver, uid in hooks:
            signal.connect(receiver, dispatch_uid=uid)


@pytest.fixture(scope="session")
def browser():
    path = find_chromium()
    if path is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("REQUIRE_BROWSER is set but no Chromium was found")
        pytest.skip("no Chromium on this machine; install Debian's chromium to run browser tests")
    # Playwright's sync API runs an event loop in this thread; the Django ORM
    # calls made by test code around it are still plain synchronous calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def close_browser_pages(request) -> Iterator[None]:
    """Close every page a browser test opened, whether it passed or not: a page left
    open keeps running its scripts (a socket reconnecting to a stopped server) and
    takes the CPU the next tests' timers need."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    new_page = context.new_page()
    yield new_page
    context.close()


def pytest_collection_modifyitems(config, items) -> None:
    # Any test that drives Chromium belongs to the separate browser pass.
    for item in items:
        if {"page", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


def bot_worker_env(**extra: str) -> dict[str, str]:
    """The environment of a bot worker process on this test's database and layer."""
    from django.conf import settings
    from django.db import connection

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" in layer["BACKEND"].lower():
        # The same layer as this test's server, so the worker's pushes reach it.
        host = layer["CONFIG"]["hosts"][0]
        env["REDIS_URL"] = host["address"] if isinstance(host, dict) else host
        env["CHANNELS_PREFIX"] = layer["CONFIG"].get("prefix", "asgi")
    env.update(LOG_LEVEL="WARNING", GAMES_HINT_PLAYOUTS="20", GAMES_BOT_PLAYOUTS="20")
    # The worker schedules the next bot after each bot move it plays: with the
    # server's delay, or a table of bots would wait the default second per move.
    env["GAMES_BOT_DELAY"] = ",".join(str(seconds) for seconds in settings.GAMES_BOT_DELAY)
    env.update(extra)
    return env


def start_bot_worker(**extra: str):
    """A real ``manage.py bot_worker`` process on the test database (the caller stops it)."""
    import subprocess
    import sys

    from django.db import connections

    from tests.subprocesses import ROOT

    connections.close_all()
    return subprocess.Popen(
        [sys.executable, "manage.py", "bot_worker"],
        cwd=ROOT,
        env=bot_worker_env(**extra),
        stdout=subprocess.DEVNULL,
    )


def run_bot_worker() -> Iterator[None]:
    import signal
    import subprocess
    import time

    process = start_bot_worker()
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            # Its stacks go to this test's captured stderr; then it is stopped for good,
            # so that it holds no database session into the next test.
            process.send_signal(signal.SIGUSR1)
            time.sleep(1)
            process.kill()
            process.wait()
            raise


@pytest.fixture
def bot_worker(transactional_db) -> Iterator[None]:
    """A bot worker process beside the test's server: bots move and hints are answered."""
    yield from run_bot_worker()


@pytest.fixture
def fast_bots(settings, transactional_db) -> Iterator[None]:
    """Bots that move within hundredths of a second, searched by a bot worker process.

    Requested by an autouse fixture of a browser module, it runs before
    ``live_server_url`` forks the server, which inherits these settings; the worker
    is started after them, so it plays with the same delay.
    """
    settings.GAMES_BOT_DELAY = (0.02, 0.05)
    settings.GAMES_TICK_SECONDS = 0.1
    yield from run_bot_worker()
