"""The public pages' versions kept in each app process and renewed by PostgreSQL's notifications.

A viewer's phone asks every few seconds whether the standings or his own page changed; the answer
before the middleware (:mod:`config.conditional`) is decided by the page's version
(:mod:`tournaments.versioning`). Read from the database it is a round trip that costs more than
the rest of the answer. On PostgreSQL the database says when a version changes instead: a trigger
(migration ``0023_version_notifications``) sends a notification on the channel
:data:`CHANNEL` in the transaction of every change of a tournament's versions (payload
``"t<id>"``; any ``UPDATE``, ``INSERT`` or ``DELETE`` of the row, the publishing's raw writes
included) and of any statement that changes registrations (``"r"``: a player's page shows all
his tournaments). PostgreSQL delivers it when that transaction commits.

Each app process keeps one connection of its own listening on that channel (:class:`Watch`),
and while it listens, keeps the tournament stamps and the players' page stamps it read
(:func:`~tournaments.versioning.current_stamp`, :func:`~tournaments.versioning.player_stamp`).
Before each early answer it reads what has arrived on that connection (no round trip: a read of
its socket) and forgets every stamp a notification names. PostgreSQL sends the notification to
each listener just after the commit (within a millisecond on a server that is not overloaded), so
a hand saved through any app server shows on every other at the first request after that; a
process that has just answered a write request itself (``POST``, ``PUT``, ``PATCH``, ``DELETE``:
a hand saved, a push taken) forgets everything it keeps at that request's end
(:func:`forget_after_writes`), so the page its redirect leads to is read from the database.

Safety nets, each falling back to asking the database as before:

- The kept stamps are used only by the early answer of an anonymous visitor
  (:func:`watching`), outside any transaction (a test's transaction would never commit its
  notifications), on PostgreSQL only (SQLite has no notifications).
- A stamp read while a notification arrived is not kept (:attr:`Watch.generation`), so a value
  read just before a commit is never kept after it.
- Each stamp is kept for :data:`KEEP_SECONDS` at most, so even a notification that never arrives
  (a network that drops the listening connection without closing it) leaves a page at most that
  much behind.
- A listening connection that fails is closed and every stamp forgotten; a new one is tried
  after :data:`RETRY_SECONDS`, and until then every version is read from the database. One that
  has not been read for :data:`IDLE_SECONDS` is replaced by a new one rather than read (a long
  backlog of notifications is not worth reading; everything is forgotten).
- A process made by ``fork`` never uses its parent's connection.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Iterator

from django.core.signals import request_finished, request_started
from django.db import connections

log = logging.getLogger("tournaments.version_watch")

CHANNEL = "tarock_versions"
KEEP_SECONDS = 2.0  # a kept stamp is read again from the database after this long
RETRY_SECONDS = 5.0  # after a listening connection failed, or could not be made
IDLE_SECONDS = 60.0  # a listening connection not read for this long is replaced
CONNECT_TIMEOUT_SECONDS = 2
MAX_KEPT = 20_000  # stamps kept per process (a few MB); at that many, all are forgotten

_MISSING = object()
_active: contextvars.ContextVar[Watch | None] = contextvars.ContextVar("version_watch", default=None)


class Watch:
    """One process's listening connection and the stamps kept by it.

    ``connect()`` returns a psycopg 3 connection in autocommit mode (the default database's
    parameters). :meth:`fresh` reads what has arrived and forgets what it names (``False`` when
    the connection failed: then nothing is kept); :meth:`get` and :meth:`put` read and keep a
    stamp under a key, with the tournaments whose change makes it old and whether any change of
    a registration does too. Thread-safe (the development server answers in threads)."""

    def __init__(self, connect: Callable[[], object]):
        self._connect = connect
        self._lock = threading.Lock()
        self._conn = None
        self._pid = None
        self._down_until = 0.0
        self._last_read = 0.0
        self._kept: dict[Hashable, tuple[float, object, frozenset[int], bool]] = {}
        self._by_tournament: dict[int, set[Hashable]] = {}
        self.generation = 0  # moves with every notification read and every forgetting

    # ------------------------------------------------------------------- the connection

    def fresh(self) -> bool:
        """Read the notifications that have arrived (a read of the socket, no round trip) and
        forget the stamps they name; make the connection if there is none (at most every
        :data:`RETRY_SECONDS`). ``True`` when the kept stamps may be used now."""
        with self._lock:
            now = time.monotonic()
            if self._conn is not None and (self._pid != os.getpid() or now - self._last_read > IDLE_SECONDS):
                self._drop(close=self._pid == os.getpid())  # a forked child never closes its parent's
            if self._conn is None:
                if now < self._down_until:
                    return False
                try:
                    conn = self._connect()
                    conn.execute(f"LISTEN {CHANNEL}")
                except Exception as error:  # noqa: BLE001 - any failure: the database answers instead
                    log.warning("public page versions: cannot listen for changes (%s); asking the database", _first_line(error))
                    self._down_until = now + RETRY_SECONDS
                    return False
                self._conn, self._pid, self._last_read = conn, os.getpid(), now
                return True
            try:
                pgconn = self._conn.pgconn
                pgconn.consume_input()
                pgconn.consume_input()  # a closed connection's last message, then its end: two reads
                named = []
                while (notice := pgconn.notifies()) is not None:
                    named.append(notice.extra.decode())
            except Exception as error:  # noqa: BLE001 - a lost connection: forget, ask the database
                log.warning("public page versions: the listening connection failed (%s); asking the database", _first_line(error))
                self._drop(close=True)
                self._down_until = now + RETRY_SECONDS
                return False
            self._last_read = now
            if named:
                self._forget(named)
            return True

    def _drop(self, close: bool) -> None:
        conn, self._conn = self._conn, None
        if close and conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        elif conn is not None:
            _inherited.append(conn)  # the parent's: never closed (nor finalized) here
        self._clear()

    def _clear(self) -> None:
        self._kept.clear()
        self._by_tournament.clear()
        self.generation += 1

    def _forget(self, named: Iterable[str]) -> None:
        self.generation += 1
        for payload in named:
            if payload == "r":
                for key in [key for key, entry in self._kept.items() if entry[3]]:
                    self._discard(key)
            elif payload.startswith("t") and payload[1:].isdigit():
                for key in list(self._by_tournament.get(int(payload[1:]), ())):
                    self._discard(key)
            else:  # not ours: forget everything rather than guess
                self._clear()

    def _discard(self, key: Hashable) -> None:
        entry = self._kept.pop(key, None)
        if entry is not None:
            for tournament_id in entry[2]:
                keys = self._by_tournament.get(tournament_id)
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del self._by_tournament[tournament_id]

    # --------------------------------------------------------------------------- stamps

    def get(self, key: Hashable) -> object:
        """The stamp kept under ``key``, or :data:`_MISSING` (none, or kept too long)."""
        entry = self._kept.get(key)
        if entry is None or time.monotonic() - entry[0] > KEEP_SECONDS:
            return _MISSING
        return entry[1]

    def put(self, key: Hashable, value: object, tournaments: Iterable[int], *, registrations: bool, seen: int) -> None:
        """Keep ``value`` under ``key`` unless a notification was read since generation ``seen``
        (taken before the database was asked): it may be older than that change. ``tournaments``:
        whose change makes it old; ``registrations``: whether a change of registrations does."""
        with self._lock:
            if self._conn is None or self.generation != seen:
                return
            self._discard(key)
            if len(self._kept) >= MAX_KEPT:
                self._clear()
            ids = frozenset(tournaments)
            self._kept[key] = (time.monotonic(), value, ids, registrations)
            for tournament_id in ids:
                self._by_tournament.setdefault(tournament_id, set()).add(key)

    def forget_all(self) -> None:
        """Forget every kept stamp (they are read from the database again)."""
        with self._lock:
            self._clear()

    def close(self) -> None:
        """Close the connection and forget everything (tests; a process's end)."""
        with self._lock:
            self._drop(close=self._pid == os.getpid())


_inherited: list = []


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def _listening_connection():
    """A new psycopg 3 connection with the default database's parameters, in autocommit mode."""
    import psycopg

    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.setdefault("connect_timeout", CONNECT_TIMEOUT_SECONDS)  # an unreachable server holds one request that long at most
    return psycopg.connect(**params, autocommit=True)


_watch: Watch | None = None
_watch_lock = threading.Lock()


def process_watch() -> Watch:
    """This process's :class:`Watch` (made once)."""
    global _watch
    if _watch is None:
        with _watch_lock:
            if _watch is None:
                _watch = Watch(_listening_connection)
    return _watch


def usable() -> bool:
    """Whether the default database can notify and is outside a transaction now (PostgreSQL with
    psycopg 3, autocommit)."""
    connection = connections["default"]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return False
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    return is_psycopg3


@contextlib.contextmanager
def watching() -> Iterator[Watch | None]:
    """Within this block the version queries of :mod:`tournaments.versioning` use the stamps this
    process keeps, renewed first (:meth:`Watch.fresh`), where they can be used (:func:`usable`);
    otherwise they ask the database as always. Yields the watch in use or ``None``."""
    watch = process_watch() if usable() else None
    if watch is not None and not watch.fresh():
        watch = None
    token = _active.set(watch)
    try:
        yield watch
    finally:
        _active.reset(token)


_writing = threading.local()
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def _request_started(sender=None, environ=None, **kwargs) -> None:
    _writing.flag = (environ or {}).get("REQUEST_METHOD", "GET") not in SAFE_METHODS


def forget_after_writes(sender=None, **kwargs) -> None:
    """At the end of a request Django answered (``request_finished``): after a write request,
    this process forgets every stamp it keeps, so its own next answers read the versions the
    write committed rather than wait for the database's notification."""
    if getattr(_writing, "flag", False):
        _writing.flag = False
        if _watch is not None:
            _watch.forget_all()


request_started.connect(_request_started, dispatch_uid="tournaments.version_watch.started")
request_finished.connect(forget_after_writes, dispatch_uid="tournaments.version_watch.finished")


def kept(key: Hashable, read: Callable[[], tuple[object, Iterable[int]] | None], *, registrations: bool = False) -> object:
    """The stamp under ``key``: kept by the active watch, or ``read()`` (the database) and kept.
    ``read`` returns ``(stamp, the tournaments it depends on)`` or ``None`` (nothing found; not
    kept). Returns the stamp or ``None``."""
    watch = _active.get()
    if watch is None:
        found = read()
        return None if found is None else found[0]
    value = watch.get(key)
    if value is not _MISSING:
        return value
    seen = watch.generation
    found = read()
    if found is None:
        return None
    watch.put(key, found[0], found[1], registrations=registrations, seen=seen)
    return found[0]
