"""Public pages answered before Django's middleware: a conditional GET's ``304`` and a page from
the cache, for visitors with nothing the middleware would act on.

A viewer's phone asks again every few seconds whether the standings or his own page changed. The
answer is decided by one query, the page's version (:class:`~tournaments.public_cache.CachedPublicPage`),
yet behind Django's handler and its middleware (sessions, authentication, CSRF, locale, CSP,
messages, django-axes …) it cost several times that query. :class:`EarlyPublicPages` wraps the WSGI
application (``config/wsgi.py``) and answers such a request itself when

- it is a ``GET`` or ``HEAD`` without a session cookie (so the visitor is anonymous) and without a
  messages cookie (so no message waits for him), whose CSRF cookie, if any, is well-formed (the
  CSRF middleware would replace it), not to be redirected to HTTPS, for an allowed host;
- its path resolves to a view whose ``dispatch`` is
  :meth:`CachedPublicPage.dispatch <tournaments.public_cache.CachedPublicPage.dispatch>` itself
  (not overridden, not decorated);
- and that view answers without a render
  (:meth:`~tournaments.public_cache.CachedPublicPage.unrendered_answer`): ``304``, or the page
  from the cache.

The answer carries the headers the full stack gives it: the view's (``ETag``, ``Cache-Control``,
``Vary``, ``Content-Encoding`` for a page sent gzipped), ``Content-Length`` and
``Content-Language`` (the language chosen as ``LocaleMiddleware`` chooses it: cookie, then
``Accept-Language``) and those of the header-only middleware (``X-Frame-Options``,
``Content-Security-Policy``, ``X-Content-Type-Options``, ``Referrer-Policy``,
``Cross-Origin-Opener-Policy``, HSTS over HTTPS), which are learned from that middleware itself
(:func:`_middleware_headers`). Every other request, and any of these that would need a render (a
miss, a cache outage, a failed precondition, a database error), goes to Django unchanged. With a
``MIDDLEWARE`` entry this module does not know, it answers nothing.

On PostgreSQL the page's version comes from the stamps this process keeps between the database's
notifications of a change (:mod:`tournaments.version_watch`), without a round trip.

The database connection is treated as at the end of a request (``CONN_MAX_AGE``): closed when it
is too old or failed, kept otherwise.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import NamedTuple

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import close_caches
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest
from django.core.signals import setting_changed
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import CSRF_SECRET_LENGTH, CSRF_TOKEN_LENGTH, invalid_token_chars_re
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.urls import Resolver404, get_resolver
from django.utils.module_loading import import_string
from django.utils.translation import get_language_from_request

from tournaments import version_watch
from tournaments.public_cache import CachedPublicPage, recent_pages

logger = logging.getLogger("config.conditional")

# Middleware whose work on such a request is known: what it adds to the answer is added here
# (learned from the classes marked "headers", computed for the others), and it does nothing else
# that a visitor without a session or messages cookie would see.
HEADERS_ONLY = {
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
}
CONTENT_LENGTH = "django.middleware.common.CommonMiddleware"
CONTENT_LANGUAGE = "django.middleware.locale.LocaleMiddleware"
NOTHING_TO_ADD = {
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files only, never a page's path
    "django.contrib.sessions.middleware.SessionMiddleware",  # Vary: Cookie, as the view sets it
    "django.middleware.csrf.CsrfViewMiddleware",  # a cookie only for an ill-formed one
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # acts on logins only
    "publishing.middleware.MirrorAliasMiddleware",  # acts on a 404 only (a mirror's old address)
}


class EarlyPublicPages:
    """WSGI middleware around Django's application: answers the conditional GETs and cache hits of
    public pages without Django's handler (see the module), hands every other request to ``app``."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        answer = early_answer(environ)
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]


def early_answer(environ: dict) -> tuple[str, list[tuple[str, str]], bytes] | None:
    """``(status line, headers, body)`` for a request the module answers, ``None`` for one Django
    must answer. Raises nothing: a database error or a bug leaves the request to Django."""
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        return None
    config = _config()
    if config is None:
        return None
    try:
        request = WSGIRequest(environ)
        if not _plain_visitor(request, config):
            return None
        found = _public_view(config.urlconf, request.path_info)
        if found is None:
            return None
        view_class, initkwargs, args, kwargs = found
        secure = request.is_secure()
        if config.ssl_redirect and not secure:
            return None  # SecurityMiddleware redirects it
        if request.path_info.startswith(config.csp_excluded):
            return None  # no policy there: not what the headers learned say
        if not _host_allowed(request, secure):
            return None  # CommonMiddleware refuses it (400)
        view = view_class(**initkwargs)
        view.setup(request, *args, **kwargs)
        language = _language(request, config)
        fragment = "f" if environ.get("HTTP_HX_REQUEST") == "true" else "p"  # django-htmx's request.htmx
        with version_watch.watching():
            answer = view.unrendered_answer(language, fragment)
    except DatabaseError:
        return None  # Django answers: its own connection check, and its error page
    except Exception:
        logger.exception("answering %s before the middleware failed; Django answers it", environ.get("PATH_INFO"))
        return None
    finally:
        _end_of_request(config)
    if answer is None:
        return None
    status, tag, body, content_type, encoding = answer
    headers = []
    for name, value in _view_headers(status, content_type, encoding):
        headers.append((name, tag if value is _TAG else value))
    for name, value in _middleware_headers(secure, status):
        if value is _CONTENT_LENGTH:
            value = str(len(body))
        elif value is _CONTENT_LANGUAGE:
            value = language
        headers.append((name, value))
    return _STATUS_LINES[status], headers, body


# What the two questions below answered, by what they read of the request (a few hundred
# distinct values in a day: hosts, and browsers' language cookies and Accept-Language headers).
_hosts: dict[tuple, bool] = {}
_languages: dict[tuple, str] = {}
REMEMBERED = 512


def _host_allowed(request: HttpRequest, secure: bool) -> bool:
    """Whether ``request.get_host()`` accepts the request's host (``ALLOWED_HOSTS``)."""
    meta = request.META
    key = (meta.get("HTTP_X_FORWARDED_HOST"), meta.get("HTTP_HOST"), meta.get("SERVER_NAME"), meta.get("SERVER_PORT"),
           meta.get("HTTP_X_FORWARDED_PORT"), secure)
    allowed = _hosts.get(key)
    if allowed is None:
        try:
            request.get_host()
            allowed = True
        except DisallowedHost:
            allowed = False
        if len(_hosts) >= REMEMBERED:
            _hosts.clear()
        _hosts[key] = allowed
    return allowed


def _language(request: HttpRequest, config: _Config) -> str:
    """The language LocaleMiddleware activates for ``request`` (no language in the URL patterns):
    :func:`~django.utils.translation.get_language_from_request`, from the language cookie and
    ``Accept-Language``."""
    key = (request.COOKIES.get(config.language_cookie) if "HTTP_COOKIE" in request.META else None,
           request.META.get("HTTP_ACCEPT_LANGUAGE"))
    language = _languages.get(key)
    if language is None:
        language = get_language_from_request(request)
        if len(_languages) >= REMEMBERED:
            _languages.clear()
        _languages[key] = language
    return language


def _plain_visitor(request: HttpRequest, config: _Config) -> bool:
    """Whether the middleware would leave ``request`` as an anonymous visitor with nothing waiting
    and set no cookie: no session cookie, no messages cookie, no ill-formed CSRF cookie."""
    if not request.META.get("HTTP_COOKIE"):
        return True
    cookies = request.COOKIES
    if config.session_cookie in cookies or CookieStorage.cookie_name in cookies:
        return False
    token = cookies.get(config.csrf_cookie)
    return token is None or (len(token) in (CSRF_SECRET_LENGTH, CSRF_TOKEN_LENGTH) and not invalid_token_chars_re.search(token))


@lru_cache(maxsize=4096)
def _public_view(urlconf: str, path: str):
    """``(view class, its as_view() arguments, args, kwargs)`` for a path whose view is a
    :class:`CachedPublicPage` answered by its own ``dispatch``; ``None`` for any other path. Kept
    per path (a few thousand: the public pages of a day), since resolving costs more than the
    rest of the answer."""
    try:
        match = get_resolver(urlconf).resolve(path)
    except Resolver404:
        return None
    view = match.func
    view_class = getattr(view, "view_class", None)
    if (
        view_class is None
        or not issubclass(view_class, CachedPublicPage)
        or view_class.dispatch is not CachedPublicPage.dispatch
        or "__wrapped__" in view.__dict__  # a decorated view, or a decorated dispatch
    ):
        return None
    return view_class, view.view_initkwargs, match.args, match.kwargs


def _end_of_request(config: _Config) -> None:
    """What ``request_finished`` does, without making the next request check its connection
    first: a connection past ``CONN_MAX_AGE``, failed or left out of autocommit is closed (a
    failed one after checking it); caches are closed as after every request, unless closing
    does nothing to any of them (the memory cache; django-redis without ``CLOSE_CONNECTION``)."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is None or connection.in_atomic_block:
            continue  # (in a transaction only under a test, which must not lose its connection)
        if (
            connection.errors_occurred
            or (connection.close_at is not None and time.monotonic() >= connection.close_at)
            or connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]
        ):
            connection.close_if_unusable_or_obsolete()
    if config.close_caches:
        close_caches()


# Place-holders in the headers learned below, filled in per request.
_TAG, _CONTENT_LENGTH, _CONTENT_LANGUAGE = object(), object(), object()
_STATUS_LINES = {200: "200 OK", 304: "304 Not Modified"}


@lru_cache(maxsize=64)
def _view_headers(status: int, content_type: str | None, encoding: str | None) -> tuple[tuple[str, object], ...]:
    """The headers :class:`CachedPublicPage` gives an answer it does not render (``304``, or
    ``200`` with a cached page of ``content_type``, its body in ``encoding``: ``"gzip"`` or
    ``None``), in its order, the ``ETag`` as :data:`_TAG`: learned from the view's own answer
    (:meth:`CachedPublicPage._encoded` and :meth:`CachedPublicPage._finish`)."""
    response = HttpResponseNotModified() if status == 304 else HttpResponse(content_type=content_type)
    CachedPublicPage._finish(CachedPublicPage._encoded(response, encoding), "tag")
    return tuple((name, _TAG if name == "ETag" else value) for name, value in response.items())


@lru_cache(maxsize=8)
def _middleware_headers(secure: bool, status: int) -> tuple[tuple[str, object], ...]:
    """The headers ``MIDDLEWARE`` adds to a public page's answer with ``status`` (200 or 304) over
    HTTPS or not, in the order it adds them: learned by running the header-only middleware on an
    answer like the view's; ``Content-Length`` and ``Content-Language`` as place-holders
    (:data:`_CONTENT_LENGTH`, :data:`_CONTENT_LANGUAGE`), where CommonMiddleware and
    LocaleMiddleware add them."""
    probe = _Probe(secure)
    response = HttpResponseNotModified() if status == 304 else HttpResponse()
    before = set(response.headers)
    added: list[tuple[str, object]] = []
    for path in reversed(settings.MIDDLEWARE):
        if path in HEADERS_ONLY:
            import_string(path)(lambda request: response).process_response(probe, response)
            for name, value in response.items():
                if name not in before:
                    added.append((name, value))
                    before.add(name)
        elif path == CONTENT_LENGTH:
            added.append(("Content-Length", _CONTENT_LENGTH))
        elif path == CONTENT_LANGUAGE:
            added.append(("Content-Language", _CONTENT_LANGUAGE))
    return tuple(added)


class _Probe(HttpRequest):
    """A request that is secure or not, for :func:`_middleware_headers`."""

    def __init__(self, secure: bool):
        super().__init__()
        self._secure = secure
        self.path = self.path_info = "/"

    def is_secure(self):
        return self._secure


class _Config(NamedTuple):
    """The settings an early answer reads, read once (settings are slow to read in a request's
    microseconds), again after a test changes one."""

    urlconf: str
    ssl_redirect: bool
    csp_excluded: tuple[str, ...]
    session_cookie: str
    csrf_cookie: str
    language_cookie: str
    close_caches: bool


@lru_cache(maxsize=1)
def _config() -> _Config | None:
    """The settings as :class:`_Config`, or ``None`` when nothing may be answered early: a
    ``MIDDLEWARE`` entry this module does not know, CommonMiddleware's refusals and redirects
    (``DISALLOWED_USER_AGENTS``, ``PREPEND_WWW``), language prefixes in the URL patterns."""
    unknown = [path for path in settings.MIDDLEWARE if path not in HEADERS_ONLY | NOTHING_TO_ADD | {CONTENT_LENGTH, CONTENT_LANGUAGE}]
    if unknown:
        logger.info("public pages are answered by Django only: unknown middleware %s", ", ".join(unknown))
        return None
    if settings.DISALLOWED_USER_AGENTS or settings.PREPEND_WWW or is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
        return None
    excluded: list[str] = []
    for name in ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"):
        excluded += (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
    return _Config(
        urlconf=settings.ROOT_URLCONF,
        ssl_redirect=settings.SECURE_SSL_REDIRECT,
        csp_excluded=tuple(excluded),
        session_cookie=settings.SESSION_COOKIE_NAME,
        csrf_cookie=settings.CSRF_COOKIE_NAME,
        language_cookie=settings.LANGUAGE_COOKIE_NAME,
        close_caches=any(_closes(entry) for entry in settings.CACHES.values()),
    )


def _closes(cache: dict) -> bool:
    """Whether ``close()`` of a cache of this ``CACHES`` entry does anything."""
    if cache["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache":
        return False
    if cache["BACKEND"] == "django_redis.cache.RedisCache":
        return bool(cache.get("OPTIONS", {}).get("CLOSE_CONNECTION", getattr(settings, "DJANGO_REDIS_CLOSE_CONNECTION", False)))
    return True


def _settings_changed(**kwargs) -> None:
    """Tests change settings: forget what was learned from them."""
    recent_pages.clear()
    _hosts.clear()
    _languages.clear()
    _public_view.cache_clear()
    _middleware_headers.cache_clear()
    _view_headers.cache_clear()
    _config.cache_clear()


setting_changed.connect(_settings_changed)
