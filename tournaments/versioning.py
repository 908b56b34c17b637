"""Every tournament has a data version: a counter bumped in the same transaction as each change
of what its pages show (hands, seating, registrations, settings, flags, lots, player names).

A second counter, the *layout version*, is bumped with it by every change except one of a
table's hands (entered, edited, deleted, restored, raw rows): the pages that show no hand — the
seating and the rules — are keyed by it and stay cached while the hands come in. A command that
is not a hand change cannot forget it: :func:`touch` bumps both unless told ``hands_only``.

Cached pages and exports are keyed by it (:mod:`tournaments.public_cache`,
:mod:`scoring.exporters`), and the public pages send it as their ``ETag``. Because the counter
lives in the database row and changes with the data in one commit, every app server sees a new
version the moment the change is visible, whatever cache backend it uses. (On PostgreSQL the
early answers of public pages keep the stamps between changes, renewed by the database's
notifications of each change: :mod:`tournaments.version_watch`.)

Lock order. :func:`touch` is an ``UPDATE`` of the tournament row, so it also locks that row until
the transaction ends. Every command calls it *first*, before it locks tables, rounds or hands:
with one order everywhere, two commands never wait for each other in a circle (a hand being saved
at table 3 and the round being verified, say). Hand saves of one tournament therefore take turns
for the few milliseconds of their transaction.

A read-only mirror (``Tournament.mirrored_from`` not empty: a copy a venue publishes to this site,
:mod:`publishing`) is never changed here: :func:`touch` and :func:`touch_table` leave its row
alone and raise :class:`MirrorReadOnly`, so every command, which touches first, changes nothing
of it. Its copy is written whole by the publishing, which touches nothing; a patch of hands
(:mod:`archive.patch`) moves its data version alone. Only a change of the player register
(:func:`touch_players`: a name on the pages of every tournament the player played) bumps a
mirror's versions too: the register is this site's own. Every page of a mirror names its data
version, so the stamps of its pages keyed by less carry it too (:func:`with_mirror_version`).
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable, Iterable

from django.core.exceptions import PermissionDenied
from django.db import connections
from django.db.models import F, QuerySet, Subquery
from django.utils.translation import gettext as _

from . import version_watch
from .errors import Refused
from .models import Registration, Tournament


class MirrorReadOnly(Refused, PermissionDenied):
    """A change of a read-only mirror (a tournament run at a venue and published here), refused
    with nothing changed; ``message`` says so, translated. It is also a ``PermissionDenied``, so a
    view that does not catch it answers ``403``, never ``500``."""


def _mirror_refusal(tournament: Tournament | None) -> MirrorReadOnly:
    name = tournament.name if tournament is not None else ""
    return MirrorReadOnly(
        _("“%(name)s” is a read-only copy of a tournament run at %(source)s: it is changed there, not on this site.")
        % {"name": name, "source": tournament.mirrored_from if tournament is not None else ""}
    )


def _bumps(hands_only: bool) -> dict:
    bumps = {"data_version": F("data_version") + 1}
    if not hands_only:
        bumps["layout_version"] = F("layout_version") + 1
    return bumps


def touch(tournament_id: int, *, hands_only: bool = False) -> None:
    """Bump the data version of tournament ``tournament_id`` (and its layout version unless
    ``hands_only``: the change is one of a table's hands and nothing else) and lock its row until
    the current transaction ends. Call it first in the transaction of every change (outside a
    transaction it is a change of its own). Raises :class:`MirrorReadOnly` for a read-only
    mirror, whose row it leaves alone (one ``UPDATE``; a second query only when it changed no
    row). A tournament that does not exist is no error (as before)."""
    if not Tournament.objects.filter(pk=tournament_id, mirrored_from="").update(**_bumps(hands_only)):
        mirror = Tournament.objects.filter(pk=tournament_id).exclude(mirrored_from="").only("name", "mirrored_from").first()
        if mirror is not None:
            raise _mirror_refusal(mirror)


def touch_table(table_id: int, *, hands_only: bool = False) -> None:
    """:func:`touch` for the tournament that table ``table_id`` belongs to (the same refusal of a
    mirror's)."""
    if not Tournament.objects.filter(round_set__tables=table_id, mirrored_from="").update(**_bumps(hands_only)):
        mirror = Tournament.objects.filter(round_set__tables=table_id).exclude(mirrored_from="").only("name", "mirrored_from").first()
        if mirror is not None:
            raise _mirror_refusal(mirror)


def move_past(tournament_id: int, version: int) -> int | None:
    """Move the data version of tournament ``tournament_id`` to ``version`` + 1 when it is not
    above ``version`` (and bump its layout version: every page and the next push are of a new
    version as a whole). One ``UPDATE`` of a tournament that is no read-only mirror; returns the
    new data version, or ``None`` when nothing moved (the tournament is beyond ``version``, a
    mirror, or gone). What it is for: a public site holds version ``version`` of this tournament
    with other content than this database's, as after a restore from an earlier backup, and the
    director publishes this one over it (:func:`publishing.venue.publish_over`); nothing else of
    the tournament changes."""
    moved = Tournament.objects.filter(pk=tournament_id, mirrored_from="", data_version__lte=version).update(
        data_version=version + 1, layout_version=F("layout_version") + 1
    )
    return version + 1 if moved else None


def tournaments_of_players(player_ids: Iterable[int]) -> list[int]:
    """Ids of the tournaments in which one of ``player_ids`` is registered, in order."""
    return sorted(set(Tournament.objects.filter(registrations__player__in=list(player_ids)).values_list("pk", flat=True)))


def touch_players(player_ids: Iterable[int]) -> None:
    """:func:`touch` for every tournament in which one of ``player_ids`` is registered (a player's
    name is on all their pages), in the order of their ids; read-only mirrors too (the register
    is this site's own, and a mirror's pages show its names), without a refusal."""
    for tournament_id in tournaments_of_players(player_ids):
        Tournament.objects.filter(pk=tournament_id).update(**_bumps(False))


def stamp(data_version: int, created) -> str:
    """The version as cache keys and ETags carry it: ``"<data version>.<created, µs>"``. The
    creation time tells a tournament from one created later under the same id (after a database
    was reset), whose counter starts at 0 again."""
    return f"{data_version}.{int(created.timestamp() * 1_000_000)}"


class PreparedQuery:
    """A ``values_list`` query written with the ORM and compiled to SQL once per database
    connection, then run with new parameter values: the ORM's own SQL and value conversion
    without building and compiling the query again for every request. The version queries of
    the public pages run on every conditional GET, where building, compiling and sending them
    through Django's cursor cost several times the query itself.

    On PostgreSQL with psycopg 3 the statement is also prepared (:func:`_statement_cursor`):
    planned once per connection instead of once per request; its timestamps come as aware
    datetimes in the session's time zone (the same instants as the ORM's).

    ``build(*params)`` returns the query for ``params`` (whole numbers: ids); it is called once
    per connection with stand-in values, which must each appear once among the compiled
    query's parameters (else every call builds the query anew, as the ORM would). :meth:`rows`
    returns the rows as tuples, converted as the ORM converts them; errors are Django's
    database errors, and the query is in the query log like any other (``DEBUG``, tests)."""

    _STAND_INS = (-730_001, -730_002, -730_003, -730_004)

    def __init__(self, build: Callable[..., QuerySet], arity: int):
        self._build = build
        self._arity = arity
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _compile(self, connection):
        stand_ins = self._STAND_INS[: self._arity]
        compiler = self._build(*stand_ins).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        params = list(params)
        slots = [[i for i, value in enumerate(params) if value == stand_in] for stand_in in stand_ins]
        if any(len(found) != 1 for found in slots):
            return None
        converters = compiler.get_converters([column for column, _sql, _alias in compiler.select[: compiler.col_count]])
        return sql, params, [found[0] for found in slots], compiler, converters

    def rows(self, *params: int, using: str = "default") -> list[tuple]:
        """The query's rows for ``params`` on database ``using``."""
        connection = connections[using]
        compiled = self._compiled.get(connection, False)
        if compiled is False:
            compiled = self._compiled[connection] = self._compile(connection)
        if compiled is None:
            return list(self._build(*params).using(using))
        sql, values, slots, compiler, converters = compiled
        values = list(values)
        for slot, value in zip(slots, params, strict=True):
            values[slot] = int(value)
        cursor = _statement_cursor(connection)
        if cursor is None or connection.queries_logged or connection.execute_wrappers:
            # Django's cursor wrapper: the query log, execute_wrapper()s, a broken transaction refused
            wrapped = connection.cursor() if cursor is None else connection.make_debug_cursor(cursor)
            if cursor is not None and not connection.queries_logged:
                wrapped = connection.make_cursor(cursor)
            with wrapped:
                wrapped.execute(sql, values)
                found = wrapped.fetchall()
        else:
            connection.validate_no_broken_transaction()
            with connection.wrap_database_errors:
                cursor.execute(sql, values, prepare=True)
                found = cursor.fetchall()
        if not converters:
            return [tuple(row) for row in found]
        return [tuple(row) for row in compiler.apply_converters(found, converters)]


# Per Django connection: (its psycopg connection, a cursor on it that prepares its statements).
_statement_cursors: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _statement_cursor(connection):
    """A psycopg 3 cursor for ``connection`` (connected first, as Django's ``cursor()`` does) that
    binds its parameters on the server and prepares its statements, kept while the connection
    lasts; ``None`` for another database or driver (then Django's cursor serves). Django's own
    cursors bind on the client and prepare nothing, so PostgreSQL would plan every version
    query anew: half of its time."""
    if connection.vendor != "postgresql" or _preparing_cursor_class() is None:
        return None
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = connection.connection
    kept = _statement_cursors.get(connection)
    if kept is not None and kept[0] is raw and not kept[1].closed:
        return kept[1]
    with connection.wrap_database_errors:
        cursor = _preparing_cursor_class()(raw)
        # psycopg's own timestamp loader (in C), not Django's (in Python, setting the time zone
        # Django's connection has): the same instants, in the session's time zone.
        from psycopg import adapters
        from psycopg.pq import Format

        timestamptz = adapters.types["timestamptz"].oid
        cursor.adapters.register_loader(timestamptz, adapters.get_loader(timestamptz, Format.TEXT))
    _statement_cursors[connection] = (raw, cursor)
    return cursor


@functools.cache
def _preparing_cursor_class():
    """psycopg 3's cursor with server-side binding whose ``execute`` always prepares (also when
    Django's debug wrapper calls it); ``None`` without psycopg 3."""
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    if not is_psycopg3:
        return None
    import psycopg

    class PreparingCursor(psycopg.Cursor):
        def execute(self, query, params=None, **kwargs):
            return super().execute(query, params, prepare=True)

    return PreparingCursor


_STAMPS = {
    False: PreparedQuery(lambda pk: Tournament.objects.filter(pk=pk).order_by().values_list("data_version", "created"), arity=1),
    True: PreparedQuery(
        lambda pk: Tournament.objects.filter(pk=pk).order_by().values_list("layout_version", "created", "data_version", "mirrored_from"),
        arity=1,
    ),
}

# Between a page's own stamp and the data version of a mirror, whose every page names it.
MIRROR_MARK = "~"


def with_mirror_version(page_stamp: str, data_version: int, mirrored_from: str) -> str:
    """``page_stamp`` of a page keyed by less than the data version (the layout stamp, a score
    sheet's), for a read-only mirror (``mirrored_from`` not empty) followed by
    :data:`MIRROR_MARK` and its data version: every page of a mirror says which version it is
    and when it came (``templates/mirror_note.html``), so each version is a page of its own for
    the cache and the browser. The page's content stays that of ``page_stamp``
    (:func:`without_mirror_version`), which :class:`~tournaments.public_cache.CachedPublicPage`
    keeps once and gives the new note per version. Other tournaments: ``page_stamp`` as it is."""
    return f"{page_stamp}{MIRROR_MARK}{data_version}" if mirrored_from else page_stamp


def without_mirror_version(page_stamp: str) -> tuple[str, bool]:
    """``(the stamp of the page's content, whether it names a mirror's version)`` of a stamp
    :func:`with_mirror_version` made."""
    content, mark, _version = page_stamp.partition(MIRROR_MARK)
    return content, bool(mark)


def current_stamp(tournament_id: int, *, layout: bool = False) -> str | None:
    """:func:`stamp` of the tournament as committed now (of its layout version with ``layout``,
    with a mirror's data version: :func:`with_mirror_version`), ``None`` if there is no such
    tournament. One query, compiled once (:class:`PreparedQuery`); none in an early answer while
    this process keeps the stamp (:mod:`tournaments.version_watch`)."""
    return version_watch.kept(("t", tournament_id, layout), lambda: _read_stamp(tournament_id, layout))


def _read_stamp(tournament_id: int, layout: bool) -> tuple[str, tuple[int]] | None:
    rows = _STAMPS[layout].rows(tournament_id)
    if not rows:
        return None
    if not layout:
        return stamp(*rows[0]), (tournament_id,)
    version, created, data_version, mirrored_from = rows[0]
    return with_mirror_version("L" + stamp(version, created), data_version, mirrored_from), (tournament_id,)


def _player_tournaments(tournament_id, registration_id) -> QuerySet:
    player = Registration.objects.filter(pk=registration_id, tournament_id=tournament_id).order_by().values("player_id")[:1]
    return (
        Tournament.objects.filter(registrations__player_id=Subquery(player))
        .order_by("pk")
        .values_list("pk", "data_version", "created")
    )


_PLAYER_STAMPS = PreparedQuery(_player_tournaments, arity=2)


def player_stamp(tournament_id: int, registration_id: int) -> str | None:
    """The version of a player's own page, which shows his results in every tournament he plays:
    the :func:`stamp` of each tournament his player is registered in, joined (``"<id>:<stamp>"``
    by id, with ``-``) and hashed (SHA-256, 20 hex digits). ``None`` when registration
    ``registration_id`` is not one of tournament ``tournament_id``. One query, compiled once; none
    in an early answer while this process keeps the stamp (:mod:`tournaments.version_watch`)."""
    return version_watch.kept(
        ("p", tournament_id, registration_id), lambda: _read_player_stamp(tournament_id, registration_id), registrations=True
    )


def _read_player_stamp(tournament_id: int, registration_id: int) -> tuple[str, list[int]] | None:
    rows = _PLAYER_STAMPS.rows(tournament_id, registration_id)
    if not rows:
        return None
    joined = "-".join(f"{pk}:{stamp(version, created)}" for pk, version, created in rows)
    return hashlib.sha256(joined.encode()).hexdigest()[:20], [pk for pk, _version, _created in rows]
