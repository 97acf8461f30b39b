import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_requires_secret_key():
    result = run_manage("check", env_extra={"DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "example.org"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_requires_allowed_hosts():
    result = run_manage("check", env_extra={"DJANGO_DEBUG": "0", "SECRET_KEY": "x" * 60})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set" in result.stderr


def test_check_deploy_is_clean_in_production_mode():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env_extra={
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": "q8#vK2!mZp0@rT5^wX9&yB3*nC7(eF1)hJ4_lM6+sA8=dG2?uI0",
            "ALLOWED_HOSTS": "durak.example.org",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_default_settings_are_sqlite_wal_and_in_memory_layer():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='durak_site.settings';"
        "django.setup(); from django.conf import settings as s; from django.db import connection;"
        "c = connection.cursor(); c.execute('PRAGMA journal_mode');"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'],"
        " c.fetchone()[0], s.DEBUG)"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG"}
    }
    env["SQLITE_PATH"] = str(ROOT / ".settings-probe.sqlite3")
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(env["SQLITE_PATH"]) + suffix).unlink(missing_ok=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "durak_site.channel_layers.InMemoryChannelLayer",
        "wal",
        "True",
    ]


def test_urls_switch_to_postgres_and_redis():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='durak_site.settings';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'],"
        " s.CACHES['default']['BACKEND'])"
    )
    env = dict(os.environ)
    env.update(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "durak_site.channel_layers.RedisChannelLayer",
        "django.core.cache.backends.redis.RedisCache",
    ]
