"""Django settings for the Tarock tournament system.

Everything that differs between a laptop, CI and production is read from the environment, with safe
development defaults:

- ``DATABASE_URL``: any URL dj-database-url understands; default a SQLite file ``db.sqlite3`` beside
  ``manage.py``. ``postgres://postgres@127.0.0.1:5432/tarock`` selects PostgreSQL.
- ``DEBUG``: ``1``/``true`` to switch on; default off. The development commands switch it on
  (``scripts/demo``, and ``manage.py runserver`` through ``manage.py``); ``scripts/serve`` never does.
- ``SECRET_KEY``: default a random key kept in ``DATA_DIR/secret_key`` (created on first start, so
  logins survive a restart of the venue laptop).
- ``DATA_DIR``: where the server keeps its own files (the secret key, rendered exports under
  ``media/``, tournament archives under ``backups/``); default ``var/`` beside ``manage.py``.
- ``PUBLIC_URL``: the address every absolute link and QR code uses (table cards, score sheets,
  private links), e.g. ``https://tarock.example.org``; unset, ``http://<LAN address>:<PORT>`` as
  found at start (see :mod:`config.network`). An ``https://`` address switches on Secure cookies,
  the redirect to HTTPS and HSTS (``HSTS_SECONDS``, default a year; ``HSTS_PRELOAD=1`` and
  ``HSTS_INCLUDE_SUBDOMAINS=1`` only when asked); plain ``http://`` at a venue works as is.
- ``ALLOWED_HOSTS``: comma-separated; default the host of ``PUBLIC_URL``, this machine's name and
  ``127.0.0.1,localhost``.
- ``REDIS_URL``: a shared cache (django-redis) for several app servers; unset, each process caches
  in its own memory (correct either way: cached pages are keyed by the tournament's data version).
  Redis is optional at run time too: while it is down pages are rendered without it (one warning
  a minute in the log), hands are saved and nobody sees an error.
- ``REDIS_TIMEOUT``: seconds to wait for Redis to connect or answer (default ``0.5``); after a
  failure a process leaves it alone for 10 seconds (:mod:`config.cache`).
- ``RATE_LIMIT_PAGES`` (default ``600/m``), ``RATE_LIMIT_EXPORTS`` (``60/m``): how many public pages
  and downloads one address may have rendered (not served from the cache) per minute without
  login; ``RATE_LIMIT_PRIVATE_POSTS`` (``30/m``): confirmations and flags through one table's private
  link from one address. Written as django-ratelimit rates (``100/m``, ``5/s``, ``1000/h``); a
  request over the limit gets 429. ``RATE_LIMIT_IP_HEADER``: the header a reverse proxy sets to the
  visitor's address (e.g. ``X-Real-IP``); unset, the connection's address (the proxy's, behind one).
- ``CONN_MAX_AGE``: seconds to keep database connections open; default 0.
- ``LOG_LEVEL``: the project's own log level on stderr (default ``INFO``); errors with tracebacks
  are always written to stderr.
- ``STATIC_ROOT``: where ``collectstatic`` puts the static files WhiteNoise serves; default
  ``staticfiles/`` beside ``manage.py``. ``STATIC_MANIFEST=1`` (set by ``scripts/serve``): hashed
  and compressed copies.
- ``EXPORT_LEASE_SECONDS`` (default 30): an export whose worker died is taken up again after this.
- ``EXPORT_HEAVY_FROM``: ``results:30,score-sheets:40``, from how many tables an export is
  rendered by the background worker (the exporters' own figures by default).
- ``LOGIN_FAILURE_LIMIT`` (default 5) and ``LOGIN_LOCKOUT_MINUTES`` (default 15): the login
  lock-out after wrong passwords for one user name from one address (django-axes).
- ``EMAIL_HOST`` (unset: no e-mail at all; the password-reset page then says to ask the
  tournament's organiser for a one-time password), ``EMAIL_PORT`` (587), ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` (on), ``DEFAULT_FROM_EMAIL``: the password-reset mail.
"""

import datetime
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import network
from config.cache import redis_cache

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", False)
DATA_DIR = Path(os.environ.get("DATA_DIR") or BASE_DIR / "var")
SECRET_KEY = os.environ.get("SECRET_KEY") or network.stored_secret_key(DATA_DIR / "secret_key")

PUBLIC_URL = network.public_url(os.environ.get("PUBLIC_URL"), os.environ.get("PORT"))
_public = urlsplit(PUBLIC_URL)
PUBLIC_HTTPS = _public.scheme == "https"

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", network.default_hosts(_public.hostname))
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [f"{_public.scheme}://{_public.netloc}"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_tasks",
    "django_tasks_db",
    "django_htmx",
    "simple_history",
    "axes",
    "csp",
    # The project's apps, lowest floor first: tournaments below scoring, scoring's parts by
    # purpose above its hands and standings, the archive above them all (README, "Layout").
    "tournaments",
    "scoring",
    "scoring.entry",
    "scoring.exporters",
    "scoring.live",
    "scoring.prizes",
    "scoring.cups",
    "scoring.finale",
    "scoring.api",
    "archive",
    "publishing",
    "rest_framework",
    "drf_spectacular",
]

# What the "Organisers" group may do (tournaments.roles.organisers_group): create tournaments and
# cups and keep the player register.
ORGANISER_PERMISSIONS = [
    "tournaments.add_tournament",
    "tournaments.add_player",
    "tournaments.change_player",
    "tournaments.delete_player",
    "cups.add_cup",
    "cups.change_cup",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "publishing.middleware.MirrorAliasMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with its own page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

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
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        # An empty DATABASE_URL (``DATABASE_URL= scripts/test``) means the default, not an error.
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections are for production (CONN_MAX_AGE=60); off by default, so a test
        # run can drop its database at the end.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        # A kept connection is checked before a request uses it: one that a database restart or
        # outage cut is replaced instead of failing that request with a 500.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a kept connection's health check that asks the server only when its
    # socket says something happened (config/postgresql/base.py): one round trip less a request.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # select_for_update() is a no-op on SQLite: take the write lock when a transaction starts and
    # wait for it, so two scorers saving at once queue instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English")), ("sl", _("Slovenian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Vienna"
USE_I18N = True
FORMAT_MODULE_PATH = ["config.formats"]  # English times on the 24-hour clock (config/formats/en)
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
MEDIA_ROOT = DATA_DIR / "media"
MEDIA_URL = "media/"  # never served: exports are answered by their view, which checks the audience
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # WhiteNoise serves what collectstatic put in STATIC_ROOT. scripts/serve collects them with
    # hashed names (cached by browsers for ever) and compressed copies (STATIC_MANIFEST=1); the
    # development commands and the tests use the plain storage, and in DEBUG WhiteNoise finds the
    # files in static/ itself.
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if _env_bool("STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Cached pages and exports are keyed by the tournament's data version (tournaments.versioning), so
# any backend is correct; Redis shares the work between several app servers. The cache is an
# optimisation and may fail: django-redis ignores connection errors (a read is a miss, a write is
# dropped), so a Redis outage renders pages uncached instead of answering 500. Short timeouts and
# config.cache.FailFastRedis keep a dead Redis to milliseconds per request; config.cache's log
# filter reports the outage once a minute per process instead of once per cache call. Sessions
# and the login lock-out are in the database, not in the cache.
_cache_prefix = network.release()
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT") or 0.5)
CACHES = {
    "default": (
        redis_cache(os.environ["REDIS_URL"], REDIS_TIMEOUT)
        if os.environ.get("REDIS_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}
    )
    | {"KEY_PREFIX": _cache_prefix, "TIMEOUT": 6 * 3600},
}
DJANGO_REDIS_IGNORE_EXCEPTIONS = True  # for any other django-redis cache a deployment adds
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True  # through the "django_redis.cache" logger, filtered below


def _rate(name: str, default: str) -> str:
    """A django-ratelimit rate from the environment (``30/m``, ``5/s``, ``1000/h``, ``100/5m``)."""
    value = (os.environ.get(name) or default).strip()
    if not re.fullmatch(r"[0-9]+/[0-9]*[smhd]", value):
        raise ImproperlyConfigured(f"{name}={value!r}: write a rate as a count per period, e.g. 30/m, 5/s or 1000/h")
    return value


# Bounds on what strangers can make the server do (django-ratelimit, counted in the cache above,
# per visitor address; tournaments.ratelimits). Only work is counted: a page or download served
# from the cache or the storage, and a 304, is never limited; neither is anyone logged in. A venue's
# phones share the hall's one Wi-Fi address, so the limits are the whole hall's:
# - RATE_LIMIT_PAGES: each player's own page asks again every 15 s and, while hands are being
#   saved, is a fresh render nearly every time: 150 phones make up to 600 renders a minute. A
#   stranger at one address can then cost the server at most about a core (0.05-0.1 s a page).
# - RATE_LIMIT_EXPORTS: a download is rendered once per data version and then served to the whole
#   hall from the storage; 60 fresh renders a minute leaves room for a hall downloading while
#   hands are saved, and bounds a stranger to a PDF a second.
# - RATE_LIMIT_PRIVATE_POSTS: a table's players confirm their sheet once and flag a few hands; 30
#   posts a minute through one table's link from one address is far beyond that.
# With the per-process memory cache (no REDIS_URL) each app process counts for itself (up to
# WEB_CONCURRENCY times the limit). The limiter fails open: with the cache down nothing is
# limited and everything still renders.
RATE_LIMIT_PAGES = _rate("RATE_LIMIT_PAGES", "600/m")
RATE_LIMIT_EXPORTS = _rate("RATE_LIMIT_EXPORTS", "60/m")
RATE_LIMIT_PRIVATE_POSTS = _rate("RATE_LIMIT_PRIVATE_POSTS", "30/m")
# The request.META key of RATE_LIMIT_IP_HEADER ("X-Real-IP" → "HTTP_X_REAL_IP"); "" for the connection's.
_ip_header = (os.environ.get("RATE_LIMIT_IP_HEADER") or "").strip()
RATE_LIMIT_IP_HEADER = "HTTP_" + _ip_header.upper().replace("-", "_") if _ip_header else ""
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = True
# No RATELIMIT_IP_META_KEY: every count passes its own key (tournaments.ratelimits.over_limit, the
# address from client_address), and django-ratelimit reads that setting only for its "ip" keys.

# Background work (heavy exports): django-tasks with its database backend; the worker is
# ``manage.py run_worker``, started and restarted by scripts/serve beside the app server. The
# development server (DEBUG on) runs no worker: there a task runs at once, in the request that asked.
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if DEBUG
        else "django_tasks_db.DatabaseBackend"
    }
}
# How long the worker's lease on an export lasts unless renewed (it renews it every quarter of
# that while rendering): an export whose worker was killed is taken up again this long after.
EXPORT_LEASE_SECONDS = int(os.environ.get("EXPORT_LEASE_SECONDS", "30"))
# From how many tables an export is left to the worker, by exporter, overriding the exporter's own
# figure: ``EXPORT_HEAVY_FROM=results:30,score-sheets:40``.
EXPORT_HEAVY_FROM = {
    name.strip(): int(limit)
    for name, _sep, limit in (item.partition(":") for item in _env_list("EXPORT_HEAVY_FROM", []))
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:list"
LOGOUT_REDIRECT_URL = "tournaments:list"

# Content-Security-Policy (django-csp): scripts only from this site's own files (no inline script,
# no eval: htmx and the entry form's script are static files; confirmations are data-confirm
# attributes), no plugins, no framing, forms post only here. Inline styles stay allowed: htmx
# inserts its indicator style and a few templates size their cards with style attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# Login lock-out (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one user name from
# one address, that pair is locked for LOGIN_LOCKOUT_MINUTES (a venue's phones share one address
# behind its Wi-Fi: locking the address alone would lock out the whole hall). A success resets
# the count. ``manage.py axes_reset`` lifts every lock at once.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Password reset by e-mail through Django's own views, by SMTP when EMAIL_HOST is set (with
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, default on, and
# DEFAULT_FROM_EMAIL). Without it no mail is sent anywhere, the console and so the server's log
# included (a reset link in a log is a key to the account): the reset page asks the user to get a
# one-time password from his organiser instead.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.dummy.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tarock@localhost")

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# WeasyPrint resolves relative URLs (the print stylesheet) against the file system, never over HTTP
# from the running server: a PDF request must not depend on the server answering itself.
WEASYPRINT_BASEURL = str(BASE_DIR / "static") + "/"

# Plain http:// at a venue must work: Secure cookies and HSTS only behind an https:// PUBLIC_URL
# (a reverse proxy that terminates TLS and sets X-Forwarded-Proto).
if PUBLIC_HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = _env_bool("HSTS_PRELOAD", False)
    # Preloading and covering subdomains bind every subdomain for years: the operator's choice
    # (HSTS_PRELOAD=1, HSTS_INCLUDE_SUBDOMAINS=1), so check --deploy does not ask for them.
    SILENCED_SYSTEM_CHECKS = [
        *(["security.W005"] if not SECURE_HSTS_INCLUDE_SUBDOMAINS else []),
        *(["security.W021"] if not SECURE_HSTS_PRELOAD else []),
    ]

# Errors with their tracebacks on stderr (gunicorn passes it to the terminal or the journal), with
# DEBUG on or off; the project's own loggers at LOG_LEVEL. A refused request (403, 400, any answer
# below 500) is one line with its status, path and user, without a traceback, and no log line
# holds the key of a reset or sign-in link (config.log_filters.OneLineClientErrors).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {
        "redis_outage": {"()": "config.cache.OncePerInterval", "seconds": 60},
        "one_line_client_errors": {"()": "config.log_filters.OneLineClientErrors"},
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["one_line_client_errors"]}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        # A Redis outage: one line a minute per process (config.cache.OncePerInterval), not one per
        # cache call, and one when it answers again.
        "django_redis.cache": {"handlers": ["stderr"], "level": "INFO", "filters": ["redis_outage"], "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "tournaments": {"level": os.environ.get("LOG_LEVEL", "INFO")},
        "scoring": {"level": os.environ.get("LOG_LEVEL", "INFO")},
        "publishing": {"level": os.environ.get("LOG_LEVEL", "INFO")},
    },
}

# The public API (scoring.api, Django REST framework): read-only JSON for everybody. Its views set
# their own authentication (none), permission (anyone) and renderer (JSON); these defaults say the
# same for any DRF view that forgets to, and give the OpenAPI schema (drf-spectacular).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
# The schema at /api/v1/schema/ (YAML, ?format=json for JSON). No Swagger UI: it loads its scripts
# from a CDN, which the Content-Security-Policy forbids.
SPECTACULAR_SETTINGS = {
    "TITLE": "Tarock tournaments: public API",
    "DESCRIPTION": (
        "Read-only: tournaments, standings, rounds and tables, a player's results, cup tables. No "
        "authentication. Every answer has an ETag (send it back as If-None-Match: 304 while nothing "
        "changed); ?lang=de|en|sl picks the language of its texts. The standings widget for an "
        "<iframe> is at /t/{id}/widget/?top=10."
    ),
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_AUTHENTICATION": [],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
}

# Publishing (a public site taking pushes from venues, publishing.site): the largest push taken
# (bytes, refused with 413 before it is read; None: the largest archive a restore reads,
# archive.backup.MAX_PACKED_BYTES, 16 MB, also the most it takes), the pushes one publishing key
# may send (a django-ratelimit rate, counted per key in the cache above; a venue pushes at most
# once per saved hand), and how long the old addresses of a mirror's player and table pages lead
# on to its current copy (seconds).
PUBLISH_MAX_BYTES = int(os.environ["PUBLISH_MAX_BYTES"]) if os.environ.get("PUBLISH_MAX_BYTES") else None
PUBLISH_RATE = _rate("PUBLISH_RATE", "120/m")
PUBLISH_ALIAS_SECONDS = int(os.environ.get("PUBLISH_ALIAS_SECONDS") or 24 * 3600)
