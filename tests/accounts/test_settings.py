import subprocess
from pathlib import Path

from tests.subprocesses import ROOT, run_python


def run_manage(*args: str, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    return run_python(
        "manage.py",
        *args,
        drop={"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"},
        env=env_extra,
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
    sqlite_path = str(ROOT / ".settings-probe.sqlite3")
    try:
        result = run_python(
            "-c",
            code,
            drop={"DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG"},
            env={"SQLITE_PATH": sqlite_path},
            timeout=60,
        )
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(sqlite_path + suffix).unlink(missing_ok=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
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
    result = run_python(
        "-c",
        code,
        env={
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
        },
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.pubsub.RedisPubSubChannelLayer",
        "django.core.cache.backends.redis.RedisCache",
    ]
