"""A patch: the tables of a tournament whose hands changed since an earlier version, to bring a copy
of that version up to date in place without sending, checking and writing the whole tournament.

A public site's mirror (:mod:`publishing.site`) is a copy of a tournament run at a venue. Between
two versions a venue usually saved a hand or two: one table changed, the other seventy-four did
not. A patch carries only what a *hands-only* change touches (:func:`tournaments.versioning.touch`
with ``hands_only``: a hand entered, edited, struck, restored, deleted or renumbered, raw rows),
for each table that changed: its hands, every version of them in their history, the flags and
confirmations of the table (a deleted hand takes its flags with it) and its seats' round scores.
Anything else (names, seats, the draw, settings, flags, confirmations, prizes) bumps the layout
version, and the venue then sends the whole archive (:func:`archive.backup.export_tournament`).

Tables are named by round and table number (``"2.7"``), the same on every copy; rows keep the
venue's ids, which only link the patch's rows to each other.

The patch is gzip-compressed JSON like an archive, of its own format::

    {"format": "tarock-patch", "version": 1, "uid": "<the tournament's>", "data_version": 215,
     "base": {"version": 214, "tables": {"1.1": 57, ...}}, "exported_at": "...", "release": "...",
     "sha256": "<of the canonical JSON of data>",
     "data": {"tables": [{"id": 9, "round": 1, "number": 1, "seats": [{"position": 0, "score": 12,
              "substitute_score": 0}, ...]}], "hands": [...], "hand_history": [...], "flags": [...],
              "confirmations": [...], "users": {"3": "anna"}}}

``base`` is the version the patch changes and the *sheet stamps* of that version
(:func:`sheet_stamps`: the entries in each table's hand history, which every write of a hand adds
to): a copy takes the patch only when its own stamps are exactly those, so a copy that is not the
base, whatever its version number says (a venue's database restored from an older file, a lost
answer), is refused and gets the whole archive instead.

A patch is checked as content exactly as an archive is (:mod:`archive.backup`: its size packed and
unpacked, nesting, numbers, checksum, every value as its field validates it, every link, hands
numbered without gaps up to the table's cap, every hand re-scored by the ruleset and compared, the
seats' scores adding up), by the same checker, run on the copy's own rows for everything the patch
does not carry (the tournament's settings, the ruleset, rounds, tables, seats, names).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from . import backup

FORMAT = "tarock-patch"
VERSION = 1
# The parts of an archive a patch carries for each changed table, in the order they are written.
PARTS = ("hands", "hand_history", "flags", "confirmations")


class PatchDoesNotFit(backup.BackupRefused):
    """The copy is not the version the patch changes (its sheet stamps, its tables or seats
    differ): nothing was changed, and the whole archive is needed. ``message`` says why."""


def table_key(round_number: int, table_number: int) -> str:
    """A table's name in a patch: ``"<round>.<table>"``."""
    return f"{round_number}.{table_number}"


def sheet_stamps(tournament_id: int) -> dict[str, int]:
    """``{"<round>.<table>": entries in the history of its hands}`` of every table of tournament
    ``tournament_id`` that has had a hand (the table's sheet version,
    :func:`scoring.services.tables.sheet_versions`, by round and table number). One query."""
    from scoring.services.tables import history_counts

    rows = history_counts(table__round__tournament_id=tournament_id).values_list("table__round__number", "table__number", "versions")
    return {table_key(round_number, number): versions for round_number, number, versions in rows}


def changed_tables(stamps: dict[str, int], base: dict[str, int]) -> list[str]:
    """The tables whose sheet stamp differs between ``base`` and ``stamps`` (a table missing in
    one has had no hand there), sorted."""
    return sorted(key for key in set(stamps) | set(base) if stamps.get(key, 0) != base.get(key, 0))


def export_patch(tournament, base_version: int, base_stamps: dict[str, int], stamps: dict[str, int]) -> bytes:
    """The patch (see the module) that brings a copy of ``tournament`` at ``base_version``, whose
    sheet stamps were ``base_stamps``, to the tournament as it stands (``tournament`` as read in
    the caller's snapshot transaction, ``stamps`` its :func:`sheet_stamps` read there too).
    Seven queries at most, whatever the size of the tournament but for the changed tables' rows."""
    from config.network import release
    from scoring.models import Hand, HandFlag, SheetConfirmation
    from tournaments.models import Seat, Table

    wanted = set(changed_tables(stamps, base_stamps))
    tables = [
        row for row in Table.objects.filter(round__tournament_id=tournament.pk).order_by("pk").values("id", "round__number", "number")
        if table_key(row["round__number"], row["number"]) in wanted
    ]
    ids = [row["id"] for row in tables]
    seats: dict[int, list] = {table_id: [] for table_id in ids}
    for table_id, position, score, substitute_score in Seat.objects.filter(table_id__in=ids).order_by("table_id", "position").values_list(
        "table_id", "position", "score", "substitute_score"
    ):
        seats[table_id].append({"position": position, "score": score, "substitute_score": substitute_score})
    data: dict = {
        "tables": [{"id": row["id"], "round": row["round__number"], "number": row["number"], "seats": seats[row["id"]]} for row in tables],
        "hands": backup._rows(Hand, table_id__in=ids),
        "hand_history": backup._rows(Hand.history.model, table_id__in=ids),
        "flags": backup._rows(HandFlag, hand__table_id__in=ids),
        "confirmations": backup._rows(SheetConfirmation, table_id__in=ids),
    }
    user_ids = {row[name] for part in ("hands", "hand_history") for row in data[part] for name in ("entered_by_id", "history_user_id") if row.get(name) is not None}
    data["users"] = backup.user_names(user_ids)
    body = backup._canonical(data)
    envelope = {
        "format": FORMAT,
        "version": VERSION,
        "uid": str(tournament.uid),
        "data_version": tournament.data_version,
        "base": {"version": base_version, "tables": base_stamps},
        "exported_at": timezone.now().isoformat(),
        "release": release(),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    # As export_tournament writes it: sorted keys, "data" first, the body already canonical.
    return gzip.compress(b'{"data":' + body + b"," + backup._canonical(envelope)[1:], compresslevel=6)


@dataclass(frozen=True)
class CheckedPatch:
    """A patch that passed every check against the copy ``copy_id``: the checked rows
    (:class:`archive.backup._Checked`, the changed tables under the copy's ids), the copy's ids of
    the changed tables, the version it brings the copy to."""

    checked: object
    copy_id: int
    tables: tuple[int, ...]
    version: int


def _stamps_of(value) -> dict[str, int] | None:
    if not isinstance(value, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0 for k, v in value.items()):
        return None
    return {k: v for k, v in value.items() if v}


@dataclass(frozen=True)
class CopyLayout:
    """A copy's rows that only a whole archive changes (its layout version stays with a patch), as
    the archive's checker reads them: its rounds (rows, by id), tables (row by id), the tables'
    ids by name (:func:`table_key`), seats (rows by table id, by id), the registrations and players
    its seats name (row by id). Shared: never change one; copy what is to be changed."""

    rounds: list
    tables: dict
    found: dict
    seats: dict
    registrations: dict
    players: dict


def copy_layout(copy) -> CopyLayout:
    """The :class:`CopyLayout` of ``copy`` (a :class:`~tournaments.models.Tournament` as read with
    its mirror): read from the database (five queries) the first time, then kept in this process
    under the copy's id, creation time and layout version, which a whole archive changes (it makes
    a new copy), and so does a change of the site's player register
    (:func:`tournaments.versioning.touch_players`), while a patch does not (:func:`apply_patch`).
    A mirror patched every few seconds is checked without reading its rounds, tables, seats,
    registrations and players each time."""
    return _layout(copy.pk, copy.created, copy.layout_version)


@functools.lru_cache(maxsize=64)  # the copies most recently patched in this process
def _layout(copy_id: int, created, layout_version: int) -> CopyLayout:
    """:func:`copy_layout` of the copy ``copy_id``, read from the database; ``created`` and
    ``layout_version`` only key the cache."""
    from tournaments.models import Player, Registration, Round, Seat, Table

    rounds = backup._rows(Round, tournament_id=copy_id)
    round_numbers = {row["id"]: row["number"] for row in rounds}
    tables = {row["id"]: row for row in backup._rows(Table, round__tournament_id=copy_id)}
    seats: dict[int, list] = {}
    for row in backup._rows(Seat, table__round__tournament_id=copy_id):
        seats.setdefault(row["table_id"], []).append(row)
    named = {row[name] for rows in seats.values() for row in rows for name in ("registration_id", "substitute_id") if row[name] is not None}
    registrations = {row["id"]: row for row in backup._rows(Registration, pk__in=named)}
    players = {row["id"]: row for row in Player.objects.filter(pk__in={row["player_id"] for row in registrations.values()}).order_by("pk").values("id", "name", "club")}
    return CopyLayout(
        rounds=rounds, tables=tables, seats=seats, registrations=registrations, players=players,
        found={table_key(round_numbers[row["round_id"]], row["number"]): pk for pk, row in tables.items()},
    )


def check_patch(content: bytes, copy, uid: str, version: int, base_version: int) -> CheckedPatch:
    """Check the patch ``content`` (see the module) of the tournament ``uid`` from
    ``base_version`` to ``version`` against ``copy`` (a :class:`~tournaments.models.Tournament`
    of this database at ``base_version``); nothing is written. Raises
    :class:`PatchDoesNotFit` when the copy is not the patch's base (its sheet stamps, a table
    or its seats differ), :class:`archive.backup.BackupRefused` (with its ``part``) for a patch
    an archive's checks refuse or whose envelope does not name ``uid``, ``version`` and
    ``base_version``. Asks one query (the copy's sheet stamps), and the five of
    :func:`copy_layout` the first time a copy's layout is checked in this process."""
    from tournaments.models import Tournament

    envelope, data = backup._read(content, FORMAT)
    if envelope.get("uid") != uid:
        raise backup.BackupRefused(_("The patch is of another tournament (identifier %(patch)s) than the push names (%(header)s). Nothing was stored.")
                                   % {"patch": str(envelope.get("uid"))[:40], "header": uid})
    if envelope.get("data_version") != version:
        raise backup.BackupRefused(_("The patch brings version %(patch)s, the push names version %(header)s. Nothing was stored.")
                                   % {"patch": str(envelope.get("data_version"))[:20], "header": version})
    base = envelope.get("base")
    base_stamps = _stamps_of(base.get("tables")) if isinstance(base, dict) else None
    if not isinstance(base, dict) or base.get("version") != base_version or base_stamps is None:
        raise backup.BackupRefused(_("The patch does not say which version it changes as the push does. Nothing was stored."))
    if sheet_stamps(copy.pk) != base_stamps:
        raise PatchDoesNotFit(_("This site's copy is not version %(version)s as the venue has it: the whole archive is needed.") % {"version": base_version})

    tables = data.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise backup.BackupRefused(_("The patch has no list of tables. Nothing was stored."))
    layout = copy_layout(copy)
    found = layout.found
    to_copy: dict[int, int] = {}
    patched_seats: dict[int, dict[int, dict]] = {}
    for table in tables:
        venue_id, r, n, seats = table.get("id"), table.get("round"), table.get("number"), table.get("seats")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (venue_id, r, n)) or not isinstance(seats, list):
            raise backup.BackupRefused(_("A table of the patch is not named by its id, round and number. Nothing was stored."))
        target = found.get(table_key(r, n))
        if target is None:
            raise PatchDoesNotFit(_("This site's copy has no round %(round)s, table %(table)s: the whole archive is needed.") % {"round": r, "table": n})
        if venue_id in to_copy or target in to_copy.values():
            raise backup.BackupRefused(_("Round %(round)s, table %(table)s is in the patch twice. Nothing was stored.") % {"round": r, "table": n})
        to_copy[venue_id] = target
        patched_seats[target] = {s.get("position"): s for s in seats if isinstance(s, dict)}
    for part in PARTS:
        rows = data.get(part)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise backup.BackupRefused(_("The patch's part “%(part)s” is missing or is not a list of rows. Nothing was stored.") % {"part": part})
        if part == "flags":
            continue  # a flag names its hand, which names its table
        for row in rows:
            table_id = row.get("table_id")
            if isinstance(table_id, bool) or table_id not in to_copy:
                raise backup.BackupRefused(_("A row of the patch's part “%(part)s” belongs to no table of the patch. Nothing was stored.") % {"part": part})
            row["table_id"] = to_copy[table_id]

    copy_tables = sorted(to_copy.values())
    seat_rows = sorted((dict(row) for pk in copy_tables for row in layout.seats.get(pk, ())), key=lambda row: row["id"])
    for row in seat_rows:
        given = patched_seats[row["table_id"]].pop(row["position"], None)
        if given is None:
            raise PatchDoesNotFit(_("The seats of a table of the patch are not the copy's: the whole archive is needed."))
        row["score"], row["substitute_score"] = given.get("score"), given.get("substitute_score")
    if any(patched_seats.values()):
        raise PatchDoesNotFit(_("The seats of a table of the patch are not the copy's: the whole archive is needed."))
    registration_ids = {row[name] for row in seat_rows for name in ("registration_id", "substitute_id") if row[name] is not None}
    registrations = [layout.registrations[pk] for pk in sorted(registration_ids)]
    tournament = {name: getattr(copy, name) for name in backup._fields(Tournament)}
    tournament.update(uid=uid, data_version=version)
    checked_data = {
        "tournament": tournament,
        "players": [layout.players[pk] for pk in sorted({row["player_id"] for row in registrations})],
        "registrations": registrations,
        "rounds": layout.rounds,
        "tables": [layout.tables[pk] for pk in copy_tables],
        "seats": seat_rows,
        **{part: data[part] for part in PARTS},
        "actions": [],
        "roles": [],
        "users": data.get("users"),
        "cup": None,
    }
    # As an archive holds them: times and dates as text, which the checks read.
    checked_data = json.loads(backup._canonical(checked_data))
    checker = backup._Checker(envelope, checked_data)
    try:
        checked = checker.run()
    except backup.BackupRefused as refused:
        refused.part = checker.stage
        raise
    return CheckedPatch(checked=checked, copy_id=copy.pk, tables=tuple(copy_tables), version=version)


def apply_patch(patch: CheckedPatch) -> None:
    """Write a checked patch into its copy, inside the caller's transaction (which should hold
    the copy's lock): the changed tables' hands, their history, flags and confirmations replaced
    by the patch's (written as a restore writes them: their own times, a deleted hand's history
    under a fresh id, no user linked), their seats' round scores set, and the copy's data version
    set to the patch's version. Its layout version stays: a patch changes hands only, so the
    pages that show none (the seating, the rules) keep their content, and only their note of the
    mirror's version and time is new (:func:`tournaments.versioning.with_mirror_version`). Plain
    ``DELETE`` statements: replacing a hand leaves no history entry of its own."""
    from scoring.models import Hand, HandFlag, SheetConfirmation
    from tournaments.models import Seat, Tournament

    checked, tables = patch.checked, list(patch.tables)
    quote = connection.ops.quote_name
    marks = ", ".join(["%s"] * len(tables))
    hand_table = quote(Hand._meta.db_table)
    deletes = [
        f"DELETE FROM {quote(HandFlag._meta.db_table)} WHERE {quote('hand_id')} IN "
        f"(SELECT {quote('id')} FROM {hand_table} WHERE {quote('table_id')} IN ({marks}))",
        *(f"DELETE FROM {quote(model._meta.db_table)} WHERE {quote('table_id')} IN ({marks})" for model in (Hand.history.model, Hand, SheetConfirmation)),
    ]
    # (A patch of no table only moves the version.) Django's PostgreSQL cursors bind parameters
    # in the client, so the four statements go as one, in one round trip; SQLite (or a server
    # binding them) takes one statement at a time.
    in_one = connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")
    with connection.cursor() as cursor:
        if tables and in_one:
            cursor.execute("; ".join(deletes), tables * len(deletes))
        elif tables:
            for statement in deletes:
                cursor.execute(statement, tables)
    ids: dict[str, dict[int, int]] = {"tables": {pk: pk for pk in tables}}
    parts = {key: (model, links) for key, model, links, _to_tournament in backup._models() if key in PARTS}
    for key in PARTS:
        if key == "hand_history":
            ids["hands"].update(backup._reserve_hand_ids(checked.deleted_hands, ids["tables"]))
        model, links = parts[key]
        backup.write_rows(key, model, links, checked.data[key], ids, checked.users, {})
    # The changed tables' seats, all of them (a few rows), without reading them first.
    backup.update_by_pk(Seat, {name: [(row["id"], int(row[name])) for row in checked.data["seats"]] for name in ("score", "substitute_score")})
    Tournament.objects.filter(pk=patch.copy_id).update(data_version=patch.version)

