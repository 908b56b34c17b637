"""The shared cache may fail: a Redis outage makes pages slower, never errors.

With ``REDIS_URL`` set the cache is django-redis with ``IGNORE_EXCEPTIONS`` (``config.settings``):
a read that cannot reach Redis is a miss, a write is dropped, and the page is rendered without
the cache. Two pieces here keep such an outage cheap and quiet:

- :class:`FailFastRedis`, the Redis client class: after a connection error or a timeout it does
  not ask Redis again for :data:`RETRY_AFTER_S` seconds (each cache call fails at once, as if
  Redis had answered "down"), so an unreachable host costs one timeout per process every few
  seconds instead of one per cache call.
- :class:`OncePerInterval`, a logging filter for django-redis's logger: the first ignored error
  is logged as one warning line, the next ones in the same minute are counted and reported with
  the next warning, so a dead Redis writes about one line a minute per app process, not one per
  request.
"""

from __future__ import annotations

import logging
import threading
import time

import redis

# Seconds a process leaves Redis alone after it failed to answer; then one call tries again.
RETRY_AFTER_S = 10.0


def redis_cache(location: str, timeout: float) -> dict:
    """The ``CACHES`` entry of a django-redis cache at ``location`` (``redis://host:port/db``)
    that survives an outage: errors ignored, ``timeout`` seconds (a float) to connect and to wait
    for an answer, the client :class:`FailFastRedis`."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": location,
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": timeout,
            "SOCKET_TIMEOUT": timeout,
            "REDIS_CLIENT_CLASS": "config.cache.FailFastRedis",
        },
    }


class FailFastRedis(redis.Redis):
    """:class:`redis.Redis` that stops asking a Redis which just failed.

    The moment of the last failure is kept on the connection pool, which django-redis shares
    between every client of one process for the same ``LOCATION``. While it is less than
    :data:`RETRY_AFTER_S` seconds ago, :meth:`execute_command` raises
    :class:`redis.ConnectionError` without touching the network; django-redis turns that into an
    ignored error (the value ``None``, or the default of ``get``). Pipelines are not guarded (the
    cache does not use them for pages)."""

    def execute_command(self, *args, **options):
        """Run a command, or raise :class:`redis.ConnectionError` at once while Redis is
        considered down; a :class:`redis.ConnectionError` or :class:`redis.TimeoutError` of the
        command itself marks it down and is raised."""
        pool = self.connection_pool
        failed_at = getattr(pool, "tarock_failed_at", None)
        if failed_at is not None and time.monotonic() - failed_at < RETRY_AFTER_S:
            raise redis.ConnectionError("Redis did not answer a moment ago; not asked again yet")
        try:
            result = super().execute_command(*args, **options)
        except (redis.ConnectionError, redis.TimeoutError):
            pool.tarock_failed_at = time.monotonic()
            raise
        if failed_at is not None:
            pool.tarock_failed_at = None
            logging.getLogger("django_redis.cache").info("The Redis cache answers again.")
        return result


class OncePerInterval(logging.Filter):
    """Let one record through per ``seconds`` (default 60) and drop the rest, per process.

    The record let through is rewritten to one plain warning line: ``message`` (default: the
    cache is unreachable and pages are rendered without it) with the error it carried and how
    many were dropped since the last line; its traceback is left out (the error is the network,
    not the code). Records of level INFO and below (the "answers again" line) pass unchanged."""

    def __init__(self, seconds: float = 60.0, message: str = "") -> None:
        super().__init__()
        self.seconds = float(seconds)
        self.message = message or "The Redis cache is unreachable; pages are rendered without it"
        self._last = float("-inf")
        self._dropped = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or record.exc_info is None:
            return True
        with self._lock:
            now = time.monotonic()
            if now - self._last < self.seconds:
                self._dropped += 1
                return False
            self._last, dropped, self._dropped = now, self._dropped, 0
        error = record.exc_info[1]
        cause = getattr(error, "__cause__", None) or error
        text = f"{self.message} ({type(cause).__name__}: {cause})"
        if dropped:
            text += f"; {dropped} more such errors since the last report"
        record.msg, record.args = text, None
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True
