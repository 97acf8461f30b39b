"""Settings for the Durak site, read from the environment (twelve-factor).

With nothing set, the site runs in debug mode on SQLite with the in-memory
channel layer. ``DATABASE_URL`` switches to PostgreSQL and ``REDIS_URL`` to
channels-redis and a shared Redis cache, which is what several daphne
processes need to serve one site together.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
import redis
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG:
    SECRET_KEY = SECRET_KEY or "django-insecure-development-key-never-use-in-production"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]", "testserver"]
else:
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_DEBUG=0.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_DEBUG=0.")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "durak_site.errors.csrf_failure"

INSTALLED_APPS = [
    "daphne",
    # Django's admin with the statistics dashboard added (moderation/sites.py).
    "moderation.admin_apps.DurakAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_tasks",
    "moderation.admin_apps.TaskQueueConfig",
    "django_htmx",
    "template_partials",
    # The API's schema and docs page (its static files, so no CDN is needed).
    "ninja",
    "accounts",
    "games",
    "cards",
    "matchmaking",
    "friends",
    "history",
    "moderation",
    "analysis",
    "puzzles",
    "daily",
    "api",
    "opendata",
    "arena",
    "table",
    "notifications",
    # The site as a whole: its worker commands (task_worker) beside the settings, and
    # the close of each request's database connections (apps.py).
    "durak_site",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "accounts.time_zone.TimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: it is synchronous only, and Django runs every middleware above the last
    # such one on the request's thread, in one go.  One below it ran on the event loop,
    # and each of its hooks took a hop from the loop to that thread and back.
    "moderation.middleware.SuspendedUserMiddleware",
]

ROOT_URLCONF = "durak_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

ASGI_APPLICATION = "durak_site.asgi.application"

# --- Database -------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# Test databases are named per process, so concurrent test runs on one machine
# (and pytest-xdist workers) never share one.
_TEST_DB_TAG = os.environ.get("TEST_DB_TAG") or str(os.getpid())
if DATABASE_URL:
    # Under ASGI every request runs on a thread of its own, so persistent
    # per-thread connections pile up.  Django's psycopg pool bounds them instead:
    # each process holds at most DATABASE_POOL_MAX connections, and a request that
    # finds them all busy waits up to DATABASE_POOL_TIMEOUT seconds for one.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_health_checks=True)}
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", "10")),
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "10")),
    }
    DATABASES["default"]["TEST"] = {"NAME": f"test_durak_{_TEST_DB_TAG}"}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Keep connections: live play runs every socket's queries through one
            # thread, and reopening SQLite (with its PRAGMAs) per call adds up.
            "CONN_MAX_AGE": int(os.environ.get("SQLITE_CONN_MAX_AGE", "60")),
            # IMMEDIATE makes every transaction take the write lock up front, so
            # concurrent game actions serialise on SQLite, where select_for_update
            # is a no-op.  WAL lets readers carry on while one writer works.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000;"
                ),
            },
            # A file, not memory: live-server tests run daphne in another process.
            "TEST": {
                "NAME": str(Path(tempfile.gettempdir()) / f"durak-test-{_TEST_DB_TAG}.sqlite3")
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Channels and cache ---------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# A connection the pool kept from before a Redis restart fails its next command:
# reconnect and send it once more, so the first push after a restart is not lost.
# (A push sent twice is harmless: each socket skips a version it already shows.)
REDIS_HOST_OPTIONS = {"retry_on_error": [redis.exceptions.ConnectionError]}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group is one subscription per process, so a socket
            # joining (or rejoining on its heartbeat) a group its process already
            # hears costs no round trip, and a push is one PUBLISH.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{**REDIS_HOST_OPTIONS, "address": REDIS_URL}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "durak"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "durak"),
            "OPTIONS": REDIS_HOST_OPTIONS,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions live in the database, which every process shares; a socket reads its
# session there on its heartbeat and when its account changes (games/socket_guard.py).
SESSION_ENGINE = "django.contrib.sessions.backends.db"


# --- Background tasks -----------------------------------------------------
# Post-game analyses run on a task worker (`manage.py task_worker`), never in a
# web process; the queue is a table in the site's own database.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# The monthly open-data files (opendata/): written by the task worker, served by the
# site's own view, so every web process and worker must see the same folder.
OPEN_DATA_DIR = Path(os.environ.get("OPEN_DATA_DIR", BASE_DIR / "var" / "open-data"))

# Web Push (notifications/): with no VAPID keys (development), push notifications are off
# and never offered.  docs/deploy.md says how to make the keys.
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_CONTACT = os.environ.get("WEBPUSH_CONTACT", "")

# Analyses a user may have waiting or running at once, and may ask for per day.
ANALYSIS_QUOTA_ACTIVE = int(os.environ.get("ANALYSIS_QUOTA_ACTIVE", "2"))
ANALYSIS_QUOTA_PER_DAY = int(os.environ.get("ANALYSIS_QUOTA_PER_DAY", "20"))
# Analyses waiting or running at once from one IP address, whatever the accounts.
ANALYSIS_QUOTA_ACTIVE_PER_IP = int(os.environ.get("ANALYSIS_QUOTA_ACTIVE_PER_IP", "4"))
# Per step of a deal: the wall-time cap of all its options, and the judge's sampled
# deals (search iterations) per option (durak.bots.analysis.AnalysisBudget).
ANALYSIS_SECONDS = float(os.environ.get("ANALYSIS_SECONDS", "2.0"))
ANALYSIS_SAMPLES = int(os.environ.get("ANALYSIS_SAMPLES", "200"))
# The rule variants (slugs) that get a daily deal, two players each (docs/daily.md).
DAILY_VARIANTS = tuple(
    slug.strip() for slug in os.environ.get("DAILY_VARIANTS", "classic").split(",") if slug.strip()
)


# --- Live play (defaults of the rest: games/conf.py) -----------------------
def env_floats(name: str, default: str) -> tuple[float, ...]:
    return tuple(float(x) for x in os.environ.get(name, default).split(","))


# A bot waits a random time in this range (seconds) before moving, like a person.
GAMES_BOT_DELAY = env_floats("GAMES_BOT_DELAY", "0.7,1.6")
# The hard bot's search per move, in playouts of a deal's first move (not wall time:
# a busy machine answers later, never weaker).  Bot workers run it, never daphne.
GAMES_BOT_PLAYOUTS = int(os.environ.get("GAMES_BOT_PLAYOUTS", "600"))
# A hint is the same search, longer (also on a bot worker).
GAMES_HINT_PLAYOUTS = int(os.environ.get("GAMES_HINT_PLAYOUTS", "1500"))
# Whatever its playouts, a search (a bot's move or a hint) stops after this much CPU:
# some positions at 6-8 seats have playouts far longer than a deal's first move's.
GAMES_SEARCH_CPU_SECONDS = float(os.environ.get("GAMES_SEARCH_CPU_SECONDS", "3"))
# Tables with bots one user may have waiting or playing at once: the workers' searches
# are shared between people, and this keeps one person's share to a few tables.
GAMES_BOT_TABLES_PER_USER = int(os.environ.get("GAMES_BOT_TABLES_PER_USER", "3"))
# Tables one user, and one IP address, may open within the window (seconds): the
# lobby's form, "Play bots" and "Play on from here" together.
TABLE_RATE_LIMIT_USER = int(os.environ.get("TABLE_RATE_LIMIT_USER", "6"))
TABLE_RATE_LIMIT_ADDRESS = int(os.environ.get("TABLE_RATE_LIMIT_ADDRESS", "20"))
TABLE_RATE_LIMIT_WINDOW = int(os.environ.get("TABLE_RATE_LIMIT_WINDOW", "60"))
# How often each web process plays expired timers and pushes to its sockets the
# moves other processes (the bot workers) committed; the ticker can be turned off
# for a process that only serves pages.
GAMES_TICK_SECONDS = float(os.environ.get("GAMES_TICK_SECONDS", "0.2"))
GAMES_TICKER = env_bool("GAMES_TICKER", True)
# Each process beats this often; one silent for GAMES_SERVER_TIMEOUT is taken for
# dead and its sockets are released (their seats count as away).
GAMES_SERVER_BEAT_SECONDS = float(os.environ.get("GAMES_SERVER_BEAT_SECONDS", "5"))
GAMES_SERVER_TIMEOUT = float(os.environ.get("GAMES_SERVER_TIMEOUT", "30"))

# --- Auth -----------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    # Django's default (0.7) lets "alice12345" through for alice; at 0.6 it is refused,
    # while a long password that merely shares letters with a short name still passes.
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"max_similarity": 0.6},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "table:lobby"
# The routes of a stored game's pages, for the apps below the apps that serve them
# (games.links): the lobby and the live table (table), the replay (analysis).
GAME_PAGE_URLS = {"lobby": "table:lobby", "table": "table:table", "replay": "analysis:replay"}
LOGOUT_REDIRECT_URL = "table:lobby"

# Failed log-ins allowed per IP address and per username within the window.
LOGIN_RATE_LIMIT_ATTEMPTS = int(os.environ.get("LOGIN_RATE_LIMIT_ATTEMPTS", "5"))
LOGIN_RATE_LIMIT_WINDOW = int(os.environ.get("LOGIN_RATE_LIMIT_WINDOW", "60"))
# Language switches one user may make within the window (each re-renders their sockets).
LANGUAGE_SWITCH_LIMIT = int(os.environ.get("LANGUAGE_SWITCH_LIMIT", "6"))
LANGUAGE_SWITCH_WINDOW = int(os.environ.get("LANGUAGE_SWITCH_WINDOW", "60"))
# Accounts that may be created from one IP address within the window (seconds).
SIGNUP_RATE_LIMIT_ACCOUNTS = int(os.environ.get("SIGNUP_RATE_LIMIT_ACCOUNTS", "5"))
SIGNUP_RATE_LIMIT_WINDOW = int(os.environ.get("SIGNUP_RATE_LIMIT_WINDOW", "3600"))

# Password-reset mails one IP address, or one address asked for, may cause within the
# window (seconds): the form answers the same either way, and sends no more.
PASSWORD_RESET_LIMIT = int(os.environ.get("PASSWORD_RESET_LIMIT", "3"))
PASSWORD_RESET_WINDOW = int(os.environ.get("PASSWORD_RESET_WINDOW", "3600"))

# Mail (password resets): printed to the console in debug mode, else sent over SMTP.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Durak Online <noreply@localhost>")

# Rated games a player needs in a class to appear on its leaderboard.
LEADERBOARD_MIN_GAMES = int(os.environ.get("LEADERBOARD_MIN_GAMES", "10"))

# --- Internationalisation -------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Collected static files (hashed names, compressed, cached for good) unless debug mode
# serves them straight from the finders.  `make run` collects them, in debug mode too:
# DJANGO_COLLECTED_STATIC=1.
COLLECTED_STATIC = env_bool("DJANGO_COLLECTED_STATIC", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "durak_site.static_storage.HashedStaticFilesStorage"
            if COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = not COLLECTED_STATIC

# --- Content-Security-Policy (django-csp) ---------------------------------
# Everything the pages load comes from this origin: no inline script or style,
# no eval, no frames.  'self' in connect-src covers the site's own ws:/wss: sockets.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Security (production) ------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# --- Logging --------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "games.action_log.JsonFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "json_console": {"class": "logging.StreamHandler", "formatter": "json"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        # Refused game actions, one JSON line each (see games/action_log.py).
        "games.actions": {"handlers": ["json_console"], "level": "INFO", "propagate": False},
    },
}
