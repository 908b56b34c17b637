"""A whole tournament as one self-contained archive, and back.

:func:`export_tournament` writes everything the tournament is: its settings, players (by name and
club), registrations, rounds with their draw reports, tables, seats, hands with every version of
their history (deleted hands' versions too), flags, sheet confirmations (with the version of the
sheet they confirmed), the action log (with each actor's name), the roles (users by user name),
the prizes (fund, categories and their members) and the Ö-Finale settings (its Finalpunkte table,
its option and its qualifying cups by name).
The archive is gzip-compressed JSON::

    {"format": "tarock-tournament", "version": 1, "exported_at": "...", "release": "...",
     "sha256": "<of the canonical JSON of data>", "data": {"tournament": {...}, "players": [...], ...}}

:func:`restore` brings it back into any database as a new tournament (new ids) and says what it
could not bring back (:class:`Restored`); :func:`summarize` runs the same checks without writing
(:class:`ArchiveSummary`), for a page to show before restoring. A checksum only proves that nobody
changed the file by accident, so an archive is checked as content, the way the project's own
forms and services check what they store, before anything is written:

- its size, packed and unpacked (read in bounded pieces), its nesting and its numbers;
- its format, version and checksum;
- its ruleset and edition, asked of the registry in :mod:`variants`, and the tournament's settings
  as the tournament form checks them (:class:`tournaments.forms.TournamentForm`);
- every value as its model field validates it (names, lengths, choices, the ranges a database
  column holds), the prize fund as its form does, the Ö-Finale's Finalpunkte table as its settings
  form does (:func:`scoring.finale.points.parse_finalpunkte`); ids unique, every link to a row of
  the archive;
- the counts the draw and the forms allow: rounds up to the tournament's rounds, tables of the
  ruleset's sizes, hands numbered without gaps up to the table's cap;
- every hand re-scored by its ruleset after the earlier hands of its table
  (:func:`scoring.services.rescoring.table_rows`, as ``manage.py recompute`` does) and compared
  with its stored row; rows of a zero-sum ruleset summing to 0; the seats' round scores adding up.

Anything else is refused with :class:`BackupRefused`, whose message names the reason (which hand,
which row, which field), and nothing is written. Players are matched by name (and club among
namesakes) or created, users by user name (:attr:`ArchiveSummary.granted_roles` and
``matched_users`` list whom that links, to show before a restore); an actor missing in this
database is kept by name (the
action log's ``user_name``; the hand history's in the restore's own log entry), a role of a missing
user is reported in :attr:`ArchiveSummary.skipped_roles`. The tournament joins the site's cup of the
archive's cup name only where the restoring user keeps that cup and it ranks the tournament's
ruleset (:func:`restore_cup`); otherwise it is restored without a cup, and the summary and the
report say why. An Ö-Finale is linked to the site's cups of its cups' names, whoever restores it
(it only reads their tables, as its settings form lets any director choose them); a cup this site
lacks is left out, and the summary and the report name it (:func:`restore_finale_cups`).
Archives of version 1 written before the action log kept names (no ``user_name``, no prizes, no
clock, no Ö-Finale) or confirmations their sheet's version restore too (the version is read from
the hand history up to the confirmation's time).

Memory: the packed file is refused above :data:`MAX_PACKED_BYTES` before it is opened, the
unpacked stream is read in pieces of :data:`READ_CHUNK` and refused once it passes
:data:`MAX_UNPACKED_BYTES`, so no more than that is ever held.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import uuid
import math
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tournaments import text
from tournaments.atomic import write_atomically
from tournaments.errors import Refused

FORMAT = "tarock-tournament"
VERSION = 1
# A 1,000-player day of seven rounds (27,940 hands, each with its history) packs to 1.2 MB and
# unpacks to 18.5 MB; checking it takes about 150 MB (``bench/backup_bench.py``). The limits leave
# room for three times that day, and bound what an archive can make the server hold.
MAX_PACKED_BYTES = 16 * 1024 * 1024
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
READ_CHUNK = 1024 * 1024
# The deepest a row's JSON value nests (a hand record's bonuses are 3 levels; a draw report 3).
MAX_DEPTH = 12
# Digits of the longest integer read (a 64-bit column holds 19).
MAX_DIGITS = 19


class BackupRefused(Refused):
    """An archive that cannot be restored (or, from :func:`delete_with_backup`, did not read
    back); ``message`` says why, translated. Nothing was written.

    A refusal of the archive's content also says where: ``where`` (the row in words, "player 3",
    "round 2, table 5, hand 7"), ``problem`` (what is wrong with it, one sentence), ``part`` (the
    part of the archive it is in: ``"players"``, ``"hands"``, ``"tournament"`` …) and ``row_id``
    (the row's id where it names a player); :func:`how_to_fix` turns them into what to correct on
    the site. A refusal of the file's form (damaged, truncated, another format) has them ``None``."""

    where: str | None = None
    problem: str | None = None
    part: str | None = None
    row_id: int | None = None


@dataclass(frozen=True)
class ArchiveSummary:
    """What an archive holds, after every check :func:`restore` makes (:func:`summarize`), and
    what a restore of it does with its cup and users: what the restore page shows before the
    confirmation and :class:`Restored` reports after it.

    ``name``, ``venue``, ``date`` (a ``datetime.date``) of the tournament; ``ruleset`` (the
    registry's key), ``edition`` and ``ruleset_label`` (ruleset and edition as players name them,
    translated, as the tournament form offers them: "Tiroler Tarockcup 2019/20", "Cego
    Ichenheim"); ``players`` (registrations), ``rounds`` (rounds drawn), ``planned_rounds`` (the
    tournament's rounds), ``hands`` (hands stored now), ``deleted_hands`` (hands deleted, kept in
    their history); ``exported_at`` (an aware ``datetime``, ``None`` if the file does not say);
    ``skipped_roles`` (``(user name, role as shown)`` of roles whose user this database lacks,
    which a restore leaves out) and ``unknown_users`` (actors this database lacks, kept by name);
    ``granted_roles`` (``(user name, role as shown)`` of roles a restore gives to the users of
    this database that have those user names: not necessarily the same people, so shown before a
    restore) and ``matched_users`` (the archive's users, actors and role holders, that a restore
    links to this database's users of the same user name); ``cup``, the name of the cup of this
    site the tournament joins ("" for none), and ``cup_dropped``, why it does not join the
    archive's cup (a sentence, translated; ``None`` when it does or the archive names none), for
    the user the summary was made for (:func:`restore_cup`); ``oe_finale``, whether it is an
    Ö-Finale, ``oe_finale_cups``, the names of this site's cups its Ö-Finale is linked to, and
    ``oe_finale_dropped``, one sentence (translated) per cup of the archive's Ö-Finale this site
    lacks, left out (:func:`restore_finale_cups`); ``uid``, the tournament's identifier across
    sites ("" in an archive written before it), and ``data_version``, the data version it was
    exported at (``None`` if it does not say): a public site's mirror checks both against the push
    that carries the archive (a restore keeps both where the identifier is free: :func:`restore`).
    """

    name: str
    ruleset: str
    edition: str
    ruleset_label: str
    date: date
    players: int
    rounds: int
    planned_rounds: int
    hands: int
    deleted_hands: int
    exported_at: datetime | None
    venue: str = ""
    skipped_roles: tuple[tuple[str, str], ...] = ()
    unknown_users: tuple[str, ...] = ()
    granted_roles: tuple[tuple[str, str], ...] = ()
    matched_users: tuple[str, ...] = ()
    cup: str = ""
    cup_dropped: str | None = None
    oe_finale: bool = False
    oe_finale_cups: tuple[str, ...] = ()
    oe_finale_dropped: tuple[str, ...] = ()
    uid: str = ""
    data_version: int | None = None


@dataclass(frozen=True)
class Restored:
    """What :func:`restore` did: the new ``tournament``, and ``summary``, the
    :class:`ArchiveSummary` of what it restored as it was restored (the cup it joined or why not,
    the roles given and left out, the users kept by name)."""

    tournament: object
    summary: ArchiveSummary


def restore_cup(name: str | None, ruleset: str, user=None):
    """``(cup, why not)``: the cup of this site a tournament restored from an archive whose cup
    is ``name`` (``None`` or "": none) and whose ruleset is ``ruleset`` (the registry's key)
    joins, or ``None`` and why not (a sentence, translated). It joins the cup of that name only
    when the cup ranks that ruleset and ``user`` may put a tournament in it
    (:func:`scoring.cups.roles.may_put_in_cup`: one of its organisers); ``user`` ``None`` is a
    management command run by the site's operator, who may. The archive's checksum proves
    nothing here: anyone can recompute it after writing another cup's name into it."""
    from scoring.cups.models import Cup
    from scoring.cups.roles import may_put_in_cup

    if not name:
        return None, None
    cup = Cup.objects.filter(name=name).first()
    if cup is None:
        return None, _("The archive's cup “%(cup)s” is not on this site: the tournament is restored without a cup.") % {"cup": name}
    if user is not None and not may_put_in_cup(user, cup):
        return None, _("Only the organisers of the cup “%(cup)s” may put a tournament in it: the tournament is restored without a cup.") % {"cup": name}
    if cup.ruleset != ruleset:
        return None, _("The cup “%(cup)s” of this site ranks another ruleset: the tournament is restored without a cup.") % {"cup": name}
    return cup, None


def restore_finale_cups(names) -> tuple[list, list[str]]:
    """``(cups, notices)`` for the Ö-Finale of an archive whose cups are ``names`` (checked
    names, no two alike): this site's cups of those names, by name, and one sentence
    (translated) per name no cup of this site has, which the restored Ö-Finale leaves out.

    No permission is asked of the cups (unlike :func:`restore_cup`): an Ö-Finale only reads its
    cups' tables and changes nothing in them, and its settings form lets any director of the
    tournament choose any cup of the site."""
    from scoring.cups.models import Cup

    names = list(names or ())
    found = {}
    for start in range(0, len(names), 500):  # within every database's limit of parameters
        found.update((c.name, c) for c in Cup.objects.filter(name__in=names[start:start + 500]))
    notices = [
        _("The archive's cup “%(cup)s” is not on this site: the Ö-Finale is restored without it.") % {"cup": name}
        for name in names if name not in found
    ]
    return sorted((found[n] for n in names if n in found), key=lambda c: c.name), notices


def _models():
    """``(key, model, {foreign key attname: key of the table it points to or "user"}, the lookup
    from the model to its tournament's id)`` in the order they are written and restored (parents
    first)."""
    from scoring.finale.models import OeFinale
    from scoring.models import Hand, HandFlag, SheetConfirmation
    from scoring.prizes.models import PrizeCategory, PrizeFund
    from tournaments.models import ActionLog, Registration, Round, Seat, Table, TournamentRole

    at_table = "table__round__tournament_id"
    return [
        ("registrations", Registration, {"tournament_id": "tournament", "player_id": "players"}, "tournament_id"),
        ("rounds", Round, {"tournament_id": "tournament"}, "tournament_id"),
        ("tables", Table, {"round_id": "rounds"}, "round__tournament_id"),
        ("seats", Seat, {"table_id": "tables", "registration_id": "registrations", "substitute_id": "registrations"}, at_table),
        ("hands", Hand, {"table_id": "tables", "entered_by_id": "user"}, at_table),
        # Its own key is history_id; "id" is the hand's (a deleted hand's too: not a link).
        ("hand_history", Hand.history.model, {"table_id": "tables", "entered_by_id": "user", "history_user_id": "user"}, at_table),
        ("flags", HandFlag, {"hand_id": "hands"}, "hand__table__round__tournament_id"),
        ("confirmations", SheetConfirmation, {"table_id": "tables"}, at_table),
        ("actions", ActionLog, {"tournament_id": "tournament", "user_id": "user"}, "tournament_id"),
        ("roles", TournamentRole, {"tournament_id": "tournament", "user_id": "user"}, "tournament_id"),
        ("prize_fund", PrizeFund, {"tournament_id": "tournament"}, "tournament_id"),
        ("prize_categories", PrizeCategory, {"tournament_id": "tournament"}, "tournament_id"),
        ("prize_members", PrizeCategory.members.through, {"prizecategory_id": "prize_categories", "registration_id": "registrations"}, "prizecategory__tournament_id"),
        # Its cups are not in the archive: their names are, in data["oe_finale_cups"].
        ("oe_finale", OeFinale, {"tournament_id": "tournament"}, "tournament_id"),
    ]


# Tables added to the archive after its format's first release: an older archive has none of them.
ADDED_LATER = {"prize_fund", "prize_categories", "prize_members", "oe_finale"}


def _fields(model) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def _rows(model, **where) -> list[dict]:
    return list(model.objects.filter(**where).order_by(model._meta.pk.attname).values(*_fields(model)))


class _Encoder(DjangoJSONEncoder):
    """Django's JSON encoder, but times keep their microseconds: a hand's versions saved within a
    millisecond keep their order and their times."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def _canonical(data) -> bytes:
    """The canonical JSON of ``data`` (sorted keys, no spaces, UTF-8): what the checksum is of."""
    return json.dumps(data, cls=_Encoder, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


# ------------------------------------------------------------------------------------- export


def user_names(user_ids) -> dict[str, str]:
    """``{user id as text: user name}`` of ``user_ids``, as an archive holds its users. The ids are
    text, as JSON gives them back, so the canonical JSON a checksum is of is the same when the
    archive is read: with whole-number keys it sorted them as numbers (2 before 10) and, read
    back, as text ("10" before "2"), and the archive did not match its own checksum."""
    if not user_ids:
        return {}
    return {str(pk): name for pk, name in get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")}


def _checksum_matches(data, expected) -> bool:
    """Whether ``expected`` is the SHA-256 of the canonical JSON of ``data``, as written now or as
    releases before :func:`user_names` wrote it (the users' ids sorted as numbers), so their
    archives restore too."""
    if not isinstance(data, dict) or not isinstance(expected, str):
        return False
    if hashlib.sha256(_canonical(data)).hexdigest() == expected:
        return True
    users = data.get("users")
    if not isinstance(users, dict) or not all(isinstance(k, str) and k.isdigit() and len(k) <= MAX_DIGITS for k in users):
        return False
    return hashlib.sha256(_canonical({**data, "users": {int(k): v for k, v in users.items()}})).hexdigest() == expected


def export_tournament(tournament) -> bytes:
    """The archive of ``tournament`` (gzip-compressed JSON, see the module's docstring), as bytes."""
    from config.network import release
    from tournaments.models import Player, Tournament

    user_ids: set[int] = set()
    data: dict = {"tournament": _rows(Tournament, pk=tournament.pk)[0]}
    data["tournament"].pop("restored_from")  # this database's own state, not the tournament's
    for key, model, links, to_tournament in _models():
        rows = _rows(model, **{to_tournament: tournament.pk})
        for row in rows:
            user_ids.update(row[a] for a, target in links.items() if target == "user" and row[a] is not None)
        data[key] = rows
    player_ids = {row["player_id"] for row in data["registrations"]}
    data["players"] = list(Player.objects.filter(pk__in=player_ids).order_by("pk").values("id", "name", "club"))
    data["users"] = user_names(user_ids)
    data["cup"] = tournament.cup.name if tournament.cup_id else None  # by name: see restore_cup
    data["oe_finale_cups"] = _finale_cup_names(tournament.pk)  # by name: see restore_finale_cups
    body = _canonical(data)
    del data
    envelope = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "release": release(),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    # The canonical JSON of the whole archive without parsing the body again: sorted, "data" comes
    # first, and the body is already the canonical JSON of it.
    return gzip.compress(b'{"data":' + body + b"," + _canonical(envelope)[1:], compresslevel=6)


def _finale_cup_names(tournament_id: int) -> list[str]:
    """The names of the cups of the tournament's Ö-Finale, sorted (``[]``: none, or no Ö-Finale)."""
    from scoring.cups.models import Cup

    return sorted(Cup.objects.filter(oe_finales__tournament_id=tournament_id).values_list("name", flat=True))


def write_archive(tournament, path: Path) -> int:
    """Write the archive of ``tournament`` to ``path`` whole or not at all
    (:func:`tournaments.atomic.write_atomically`: a temporary file of its own in the same folder,
    synced to the disk, then renamed), readable by its owner only (it holds people's names);
    returns its size in bytes. Raises ``OSError`` (``ENOSPC`` for a full disk) with nothing left
    behind and ``path`` as it was."""
    content = export_tournament(tournament)
    write_atomically(path, content)
    return len(content)


# -------------------------------------------------------------------------------------- read


class _TooLong(ValueError):
    """A number in the archive with more digits than any column holds."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _TooLong(text)
    return value


def _parse_constant(text: str):
    raise ValueError(_("“%(value)s” is not a number JSON knows") % {"value": text})


def _unpack(content: bytes) -> bytes:
    """The unpacked bytes of a gzip file, read in pieces of :data:`READ_CHUNK` and refused once
    they pass :data:`MAX_UNPACKED_BYTES`; the packed size is refused above
    :data:`MAX_PACKED_BYTES` before anything is unpacked."""
    if len(content) > MAX_PACKED_BYTES:
        raise BackupRefused(
            _("The archive is %(size)s MB; at most %(max)s MB are read. Nothing was restored.")
            % {"size": len(content) // 2**20, "max": MAX_PACKED_BYTES // 2**20}
        )
    pieces, size = [], 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(content)) as unpacked:
            while size <= MAX_UNPACKED_BYTES and (piece := unpacked.read(READ_CHUNK)):
                pieces.append(piece)
                size += len(piece)
    except (OSError, EOFError, zlib.error) as error:
        pieces.clear()  # the refusal's traceback keeps this frame: not what was read with it
        raise BackupRefused(_("This is not a complete tournament archive (%(error)s).") % {"error": error}) from error
    if size > MAX_UNPACKED_BYTES:
        pieces.clear()
        raise BackupRefused(
            _("The archive unpacks to more than %(mb)s MB; refused, nothing was restored.") % {"mb": MAX_UNPACKED_BYTES // 2**20}
        )
    return b"".join(pieces)


def _read(content: bytes, kind: str = FORMAT) -> tuple[dict, dict]:
    """``(envelope, data)`` of a checked archive (of format ``kind``: a whole tournament's, or a
    patch of :mod:`archive.patch`): the envelope without its data, and the data whose checksum
    matched. Raises :class:`BackupRefused`."""
    raw = _unpack(content)
    try:
        archive = json.loads(raw, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except _TooLong as error:
        raise BackupRefused(
            _("The archive holds the number %(value)s…, longer than any column holds: damaged or edited. Nothing was restored.")
            % {"value": str(error)[:24]}
        ) from error
    except RecursionError as error:
        raise BackupRefused(_("The archive nests deeper than a tournament archive does: damaged or edited. Nothing was restored.")) from error
    except (ValueError, UnicodeDecodeError) as error:
        raise BackupRefused(_("The archive is damaged: %(error)s.") % {"error": error}) from error
    finally:
        del raw  # the refusal's traceback keeps this frame
    if not isinstance(archive, dict) or archive.get("format") != kind:
        raise BackupRefused(_("This file is not a tournament archive of this program."))
    version = archive.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise BackupRefused(
            _("The archive has format version %(version)s; this program reads up to version %(known)s. Update the program first.")
            % {"version": version, "known": VERSION}
        )
    data = archive.pop("data", None)
    try:
        matches = _checksum_matches(data, archive.get("sha256"))
    except (RecursionError, ValueError, TypeError):
        matches = False
    if not matches:
        raise BackupRefused(_("The archive's content does not match its checksum: it was damaged or edited."))
    return archive, data


def read_archive(content: bytes) -> dict:
    """The checked ``data`` of an archive (``{"tournament": {...}, "hands": [...], ...}``).
    Raises :class:`BackupRefused` for a file too large, damaged or truncated, another format, a
    newer version or content that does not match its checksum. It checks the form of the file,
    not its content: :func:`summarize` checks both."""
    return _read(content)[1]


# ------------------------------------------------------------------------------------- checks


def _refuse(where: str, problem: str) -> BackupRefused:
    """The refusal of the archive at ``where`` (a row, a field) for ``problem``, one sentence
    whatever punctuation the problem's own message ends with."""
    problem = str(problem).rstrip()
    if not problem.endswith((".", "!", "?", "…")):
        problem += "."
    refused = BackupRefused(_("The archive was refused (%(where)s): %(problem)s Nothing was restored.") % {"where": where, "problem": problem})
    refused.where, refused.problem = str(where), problem
    return refused


def how_to_fix(refused: BackupRefused) -> str:
    """What to correct on the site so that the next archive of a tournament restores, for a
    refusal of its content (:attr:`BackupRefused.part`), translated: "rename the player on the
    register (/players/3/edit/)"; for a part no page changes, that the stored row must be
    corrected where it is kept."""
    from django.urls import reverse

    part = refused.part
    if part == "players":
        if refused.row_id is not None:
            return _("rename the player on the register (%(url)s)") % {
                "url": reverse("tournaments_director:player_edit", args=[refused.row_id])}
        return _("rename the player on the register")
    fixes = {
        "users": _("rename the user in the site's administration"),
        "tournament": _("correct it on the tournament's settings page"),
        "cup": _("rename the cup on its settings page"),
        "hands": _("correct the hand on its table's sheet"),
        "prize_fund": _("correct it on the tournament's prizes page"),
        "prize_categories": _("correct it on the tournament's prizes page"),
        "oe_finale": _("correct it on the tournament's Ö-Finale settings page"),
        "oe_finale_cups": _("rename the cup on its settings page"),
    }
    return fixes.get(part) or _("no page changes this row: the site's operator corrects it in the database")


def _int_range(model_field) -> tuple[int | None, int | None]:
    """The values an integer column holds on every database the project runs on."""
    return BaseDatabaseOperations.integer_field_ranges.get(model_field.get_internal_type(), (None, None))


def _depth_problem(value) -> str | None:
    """What is wrong with a JSON value's nesting (deeper than :data:`MAX_DEPTH`), else ``None``."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _("it nests deeper than %(max)s levels") % {"max": MAX_DEPTH}
        for v in item.values() if isinstance(item, dict) else item:
            if isinstance(v, (dict, list)):
                stack.append((v, depth + 1))
    return None


def _name_like_fields() -> dict:
    """``{model: its fields checked as names}``: the fields the forms that write them check as
    names (``name_like_fields`` of :class:`tournaments.text.CleanTextFormMixin`); every other text
    is checked as text (:func:`tournaments.text.text_problem`)."""
    from scoring.entry.forms import ConfirmSheetForm
    from scoring.models import SheetConfirmation
    from scoring.prizes.models import PrizeCategory, PrizeFund
    from scoring.prizes.views import PrizeCategoryForm, PrizeFundForm
    from tournaments.forms import PlayerForm, TournamentForm
    from tournaments.models import ActionLog, Player, Tournament

    forms = {Player: PlayerForm, Tournament: TournamentForm, PrizeFund: PrizeFundForm,
             PrizeCategory: PrizeCategoryForm, SheetConfirmation: ConfirmSheetForm}
    fields = {model: set(getattr(form, "name_like_fields", ())) for model, form in forms.items()}
    fields[ActionLog] = {"user_name"}  # who did it, shown as a name
    return fields


def _note_problem(record) -> str | None:
    """What is wrong with a hand record's note (shown on the sheet beside the names, so checked as
    the hand form checks it: as a name), else ``None``."""
    from scoring.entry.forms import HandForm

    note = record.get("note") if isinstance(record, dict) else None
    if not isinstance(note, str):
        return None
    return text.text_problem(note, name_like="note" in HandForm.name_like_fields)


class _Cleaner:
    """Checks one model's values as its fields do and converts them to what the field stores."""

    STRINGS = {"CharField", "TextField", "SlugField", "EmailField"}
    INTEGERS = {"IntegerField", "SmallIntegerField", "BigIntegerField", "PositiveIntegerField",
                "PositiveSmallIntegerField", "PositiveBigIntegerField", "AutoField", "BigAutoField"}

    def __init__(self, model, skip=()):
        self.model = model
        self.fields = {f.attname: f for f in model._meta.concrete_fields if f.attname not in skip}
        self.kinds = {name: f.get_internal_type() for name, f in self.fields.items()}
        self.ranges = {name: _int_range(f) for name, f in self.fields.items() if self.kinds[name] in self.INTEGERS}
        self.name_like = _name_like_fields().get(model, set())
        # A hand's history is written by django-simple-history, never by a form: an empty reason
        # is what it stores for "none given".
        self.blank_ok = hasattr(model, "instance_type")  # django-simple-history's historical models

    def clean(self, name: str, value):
        """``value`` of field ``name`` as the field stores it; raises ``ValidationError``."""
        f = self.fields[name]
        if value is None:
            if not f.null:
                raise ValidationError(f.error_messages["null"])
            return None
        kind = self.kinds[name]
        if kind in self.STRINGS:
            if not isinstance(value, str):
                raise ValidationError(_("text was expected, not %(value)s") % {"value": json.dumps(value)[:40]})
            problem = text.text_problem(value, name_like=name in self.name_like, multiline=kind == "TextField")
            if problem:
                raise ValidationError(problem)
        elif kind in self.INTEGERS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValidationError(_("a whole number was expected, not %(value)s") % {"value": json.dumps(value)[:40]})
            low, high = self.ranges[name]
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValidationError(_("%(value)s is out of the range this column holds") % {"value": value})
        elif kind == "JSONField":
            # Read from JSON, so JSON it is: only its nesting is checked (and a value the field
            # refuses as empty).
            problem = _depth_problem(value) if isinstance(value, (dict, list)) else None
            if problem:
                raise ValidationError(problem)
            if not f.blank and value in ("", [], {}):
                raise ValidationError(f.error_messages["blank"])
            return value
        elif kind == "BooleanField":
            if not isinstance(value, bool):
                raise ValidationError(_("true or false was expected, not %(value)s") % {"value": json.dumps(value)[:40]})
        elif kind in ("DateTimeField", "DateField"):
            if not isinstance(value, str):
                raise ValidationError(_("a date was expected, not %(value)s") % {"value": json.dumps(value)[:40]})
        elif kind == "DecimalField":
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise ValidationError(_("an amount was expected, not %(value)s") % {"value": json.dumps(value)[:40]})
        if kind == "DateTimeField":
            try:
                value = datetime.fromisoformat(value)  # as the archive writes them; quicker than Django's parser
            except ValueError:
                value = f.to_python(value)
            if value is not None and timezone.is_naive(value):
                value = timezone.make_aware(value, timezone.get_default_timezone())
        else:
            value = f.to_python(value)
        if not (self.blank_ok and value == ""):
            f.validate(value, None)
        f.run_validators(value)
        return value


def _message(error: ValidationError) -> str:
    return " ".join(str(m) for m in error.messages)


@dataclass
class _Checked:
    """An archive that passed every check: its envelope, its data with every value converted to
    what its field stores, the ruleset, and which of its users this database has (by user name)
    and lacks."""

    envelope: dict
    data: dict
    ruleset: object
    users: dict[int, str]
    known_users: dict[str, int]
    deleted_hands: dict[int, int]  # a deleted hand's id -> its table's id (archive ids)
    skipped_roles: list[tuple[str, str]]
    unknown_users: list[str]
    granted_roles: list[tuple[str, str]]  # (user name, role as shown): given to this site's user of that name
    matched_users: list[str]  # the archive's users (actors, role holders) taken for this site's of that name
    uid: str = ""  # the tournament's identifier across sites ("" in an archive written before it)
    data_version: int | None = None  # the data version it was exported at (None: not said)


class _Checker:
    """Every check of an archive's content (the module's docstring lists them); :meth:`run`
    returns a :class:`_Checked` or raises :class:`BackupRefused`."""

    def __init__(self, envelope: dict, data: dict):
        self.envelope = envelope
        self.data = data
        self.stage: str | None = None  # the part being checked: a refusal's part
        self.ids: dict[str, set] = {}
        self.round_number: dict[int, int] = {}
        self.table_of: dict[int, tuple[int, int]] = {}  # table id -> (round number, table number)
        self.player_name: dict[int, str] = {}
        self.registration_name: dict[int, str] = {}
        self.uid = ""
        self.data_version: int | None = None

    # naming rows in messages ------------------------------------------------------------

    def where_table(self, table_id) -> str:
        found = self.table_of.get(table_id)
        if found is None:
            return _("table %(id)s") % {"id": table_id}
        return _("round %(round)s, table %(table)s") % {"round": found[0], "table": found[1]}

    def where_hand(self, table_id, number) -> str:
        return _("%(table)s, hand %(hand)s") % {"table": self.where_table(table_id), "hand": number}

    def where(self, key: str, model, row: dict) -> str:
        """The row in words: "round 2, table 5, hand 7", "player “Anna”", else "seat 812"."""
        if key in ("hands", "hand_history") and isinstance(row.get("number"), int):
            return self.where_hand(row.get("table_id"), row["number"])
        if key in ("seats", "confirmations") and row.get("table_id") in self.table_of:
            return self.where_table(row["table_id"])
        if key == "tables" and row.get("round_id") in self.round_number:
            return _("round %(round)s, table %(table)s") % {"round": self.round_number[row["round_id"]], "table": row.get("number")}
        if key == "rounds" and isinstance(row.get("number"), int):
            return _("round %(round)s") % {"round": row["number"]}
        if key == "registrations" and row.get("player_id") in self.player_name:
            return _("registration of %(name)s") % {"name": self.player_name[row["player_id"]]}
        return f"{model._meta.verbose_name} {row.get('id', row.get('history_id', '?'))}"

    # the parts --------------------------------------------------------------------------

    def part(self, key: str) -> list:
        rows = self.data.get(key, []) if key in ADDED_LATER else self.data.get(key)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise _refuse(key, _("this part of the archive is missing or is not a list of rows."))
        return rows

    def unique_ids(self, key: str, model, rows: list, name: str = "id") -> set:
        seen: set = set()
        for row in rows:
            value = row.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise _refuse(self.where(key, model, row), _("its %(field)s is not a whole number.") % {"field": name})
            if value in seen:
                raise _refuse(key, _("the id %(id)s is there twice.") % {"id": value})
            seen.add(value)
        return seen

    def clean_row(self, key: str, model, row: dict, cleaner: _Cleaner, links: dict) -> None:
        """Check every value of ``row`` and convert it in place; links point at rows of the archive."""
        unknown = set(row) - set(cleaner.fields) - set(links) - {"id", "history_id"}
        if unknown:
            raise _refuse(self.where(key, model, row), _("it has fields this program does not know: %(fields)s.") % {"fields": ", ".join(sorted(unknown))})
        for name, target in links.items():
            value = row.get(name)
            if value is None:
                if not model._meta.get_field(name[:-3] if name.endswith("_id") else name).null:
                    raise _refuse(self.where(key, model, row), _("its %(field)s is missing.") % {"field": name})
                row[name] = None
                continue
            known = self.users if target == "user" else self.ids[target]
            if isinstance(value, bool) or value not in known:
                raise _refuse(self.where(key, model, row), _("its %(field)s %(value)s points at no row of the archive.") % {"field": name, "value": json.dumps(value)[:40]})
        for name, f in cleaner.fields.items():
            if name in links or name in ("id", "history_id"):
                continue
            if name not in row:
                if f.has_default() or f.null or (f.blank and f.empty_strings_allowed):
                    row[name] = f.get_default()  # an older archive: the field's default ("" or None where it has none)
                elif not getattr(f, "auto_now_add", False):
                    raise _refuse(self.where(key, model, row), _("its field “%(field)s” is missing.") % {"field": f.verbose_name})
                continue
            try:
                row[name] = cleaner.clean(name, row[name])
            except ValidationError as error:
                raise _refuse(self.where(key, model, row), _("its field “%(field)s”: %(problem)s") % {"field": f.verbose_name, "problem": _message(error)}) from error

    def unique(self, key: str, rows: list, fields: tuple, words) -> None:
        """Refuse two rows of ``key`` alike in ``fields`` (a constraint of the model): ``words(row)`` names one."""
        seen = set()
        for row in rows:
            value = tuple(row.get(f) for f in fields)
            if value in seen:
                raise _refuse(words(row), _("it is in the archive twice."))
            seen.add(value)

    # the whole archive ------------------------------------------------------------------

    def run(self) -> _Checked:
        import variants
        from tournaments.models import Player, Tournament, TournamentRole

        data = self.data
        self.stage = "users"
        self.users = self.check_users(data.get("users"))
        self.stage = "tournament"
        tournament = data.get("tournament")
        if not isinstance(tournament, dict) or not isinstance(tournament.get("id"), int):
            raise _refuse(_("tournament"), _("the archive has no tournament."))
        key, edition, options = tournament.get("ruleset"), tournament.get("edition"), tournament.get("options")
        try:
            if not isinstance(key, str) or not isinstance(edition, str) or not isinstance(options, dict):
                raise variants.UnknownRuleset(key)
            rs = variants.get_ruleset(key, edition, options)
        except variants.UnknownRuleset as error:
            raise _refuse(
                _("tournament"),
                _("it is played under the ruleset “%(ruleset)s”, edition “%(edition)s”, which this program does not know.")
                % {"ruleset": key, "edition": edition},
            ) from error
        self.rs = rs
        self.check_tournament(tournament, Tournament)
        self.ids["tournament"] = {tournament["id"]}
        self.stage = "cup"
        cup = data.get("cup")
        if not isinstance(cup, (str, type(None))):
            raise _refuse(_("cup"), _("the cup's name is not text."))
        if cup and (problem := text.text_problem(cup, name_like=True)):
            raise _refuse(_("cup"), problem)

        self.stage = "players"
        players = self.part("players")
        self.ids["players"] = self.unique_ids("players", Player, players)
        cleaner = _Cleaner(Player, skip=("created",))
        for row in players:
            try:
                self.clean_row("players", Player, row, cleaner, {})
            except BackupRefused as refused:
                refused.row_id = row["id"]  # a player of this site when it is a backup of it
                raise
            self.player_name[row["id"]] = row["name"]

        models = _models()
        for key, model, links, _to_tournament in models:
            self.stage = key
            rows = self.part(key)
            if key == "hand_history":
                self.unique_ids(key, model, rows, "history_id")
                for row in rows:
                    if not isinstance(row.get("id"), int) or isinstance(row.get("id"), bool):
                        raise _refuse(self.where(key, model, row), _("it names no hand."))
            else:
                self.ids[key] = self.unique_ids(key, model, rows)
            cleaner = _Cleaner(model)
            for row in rows:
                self.clean_row(key, model, row, cleaner, links)
            getattr(self, f"check_{key}", lambda rows: None)(rows)
        self.stage = "oe_finale_cups"
        self.check_oe_finale_cups(data.get("oe_finale_cups", []))

        self.stage = None
        history = data["hand_history"]
        deleted = {row["id"]: row["table_id"] for row in history if row["id"] not in self.ids["hands"]}
        known_users = dict(get_user_model().objects.filter(username__in=self.users.values()).values_list("username", "pk"))
        skipped, granted = [], []
        levels = dict(TournamentRole.Level.choices)
        for row in sorted(data["roles"], key=lambda r: self.users[r["user_id"]]):
            name = self.users[row["user_id"]]
            (granted if name in known_users else skipped).append((name, str(levels.get(row["level"], row["level"]))))
        actors = {row["user_id"] for row in data["actions"]}
        actors |= {row["history_user_id"] for row in history} | {row["entered_by_id"] for row in history}
        actors |= {row["entered_by_id"] for row in data["hands"]}
        named = {self.users[u] for u in actors if u is not None}
        unknown = sorted(name for name in named if name not in known_users)
        matched = sorted({name for name in named if name in known_users} | {name for name, _level in granted})
        return _Checked(
            envelope=self.envelope, data=data, ruleset=rs, users=self.users, known_users=known_users,
            deleted_hands=deleted, skipped_roles=skipped, unknown_users=unknown, granted_roles=granted, matched_users=matched,
            uid=self.uid, data_version=self.data_version,
        )

    def check_users(self, users) -> dict[int, str]:
        from tournaments.models import ActionLog

        if not isinstance(users, dict):
            raise _refuse(_("users"), _("the list of users is missing."))
        cleaner = _Cleaner(ActionLog)
        found = {}
        for key, name in users.items():
            if not (isinstance(key, str) and key.isdigit() and len(key) <= MAX_DIGITS):
                raise _refuse(_("users"), _("“%(key)s” is not a user's id.") % {"key": key[:40]})
            try:
                found[int(key)] = cleaner.clean("user_name", name)
            except ValidationError as error:
                raise _refuse(_("user %(id)s") % {"id": key}, _message(error)) from error
            if not name:
                raise _refuse(_("user %(id)s") % {"id": key}, _("the user has no name."))
        return found

    def check_tournament(self, row: dict, Tournament) -> None:
        """The tournament's values as its fields check them, then its settings as the tournament
        form checks them (rounds and hands within the form's limits, the draw mode, the options)."""
        from tournaments.forms import TournamentForm

        # Its identifier and data version say which tournament at which version it is (a public
        # site's mirror checks them against the push that carries it); a restore keeps them only
        # where no tournament has that identifier (restore), and never makes it a mirror.
        uid, version = row.get("uid"), row.get("data_version")
        try:
            self.uid = str(uuid.UUID(uid)) if uid is not None else ""
        except (TypeError, ValueError, AttributeError):
            raise _refuse(_("tournament"), _("its identifier is not a UUID.")) from None
        self.data_version = version if isinstance(version, int) and not isinstance(version, bool) and version >= 0 else None
        skipped = ("data_version", "layout_version", "cup_id", "uid", "mirrored_from", "restored_from")
        cleaner = _Cleaner(Tournament, skip=("id", *skipped))
        for name in skipped:
            row.pop(name, None)
        self.clean_row("tournament", Tournament, row, cleaner, {})
        options = row.get("options") or {}
        for name, on in options.items():
            if not isinstance(on, bool):
                raise _refuse(_("tournament"), _("its option “%(option)s” is not on or off.") % {"option": name})
        value = f"{self.rs.key}|{self.rs.edition}"
        form = TournamentForm(data={
            "name": row.get("name"),
            "date": row.get("date"),
            "venue": row.get("venue", ""),
            "ruleset_edition": value,
            "rounds": row.get("rounds", 3),
            "hands_per_round": row.get("hands_per_round", 16),
            "ruleset_options": [f"{value}:{name}" for name, on in options.items() if on],
            "draw_mode": row.get("draw_mode", Tournament.DrawMode.AVOID_REPEATS),
            "away": "on" if row.get("away") else "",
            "status": row.get("status", Tournament.Status.PLANNED),
        })
        if not form.is_valid():
            name, errors = next(iter(form.errors.items()))
            label = form.fields[name].label if name in form.fields else name
            raise _refuse(_("tournament"), _("its field “%(field)s”: %(problem)s") % {"field": label, "problem": " ".join(errors)})
        missing = [o for o in options if o not in self.rs.option_defaults]
        if missing:
            raise _refuse(_("tournament"), _("its ruleset has no option “%(option)s”.") % {"option": missing[0]})

    def check_registrations(self, rows) -> None:
        from tournaments.models import Registration

        for row in rows:
            self.registration_name[row["id"]] = self.player_name[row["player_id"]]
        self.unique("registrations", rows, ("player_id",), lambda r: self.where("registrations", Registration, r))
        self.unique("registrations", rows, ("start_number",), lambda r: _("start number %(number)s") % {"number": r["start_number"]})

    def check_rounds(self, rows) -> None:
        """Rounds numbered 1 to at most the tournament's rounds, as the draw numbers them."""
        planned = self.data["tournament"]["rounds"]
        numbers = sorted(row["number"] for row in rows)
        for row in rows:
            if not 1 <= row["number"] <= planned:
                raise _refuse(_("round %(round)s") % {"round": row["number"]}, _("the tournament has %(rounds)s rounds.") % {"rounds": planned})
            self.round_number[row["id"]] = row["number"]
        if numbers != list(range(1, len(numbers) + 1)):
            raise _refuse(_("rounds"), _("the rounds are numbered %(numbers)s; the draw numbers them 1, 2, 3 …") % {"numbers": ", ".join(map(str, numbers))})

    def check_tables(self, rows) -> None:
        from tournaments.models import Table

        for row in rows:
            if row["number"] < 1:
                raise _refuse(self.where("tables", Table, row), _("tables are numbered from 1."))
            self.table_of[row["id"]] = (self.round_number[row["round_id"]], row["number"])
        self.unique("tables", rows, ("round_id", "number"), lambda r: self.where("tables", Table, r))
        self.unique("tables", rows, ("token",), lambda r: _("the private link of %(table)s") % {"table": self.where("tables", Table, r)})

    def check_seats(self, rows) -> None:
        """Every table seats a number of players the ruleset plays at, in positions 0, 1, …, each
        registration once; the first dealer and the hands of a change sit within the table."""
        by_table = defaultdict(list)
        for row in rows:
            by_table[row["table_id"]].append(row)
        self.unique("seats", rows, ("table_id", "registration_id"), lambda r: _("%(table)s, %(name)s") % {"table": self.where_table(r["table_id"]), "name": self.registration_name[r["registration_id"]]})
        self.seats = {}
        for table in self.data["tables"]:
            seats = sorted(by_table.get(table["id"], []), key=lambda r: r["position"])
            size = len(seats)
            where = self.where_table(table["id"])
            if size not in self.rs.table_sizes:
                raise _refuse(where, _("%(size)s players sit at it; %(ruleset)s plays at tables of %(sizes)s.") % {"size": size, "ruleset": _(self.rs.name), "sizes": "/".join(map(str, self.rs.table_sizes))})
            if [s["position"] for s in seats] != list(range(size)):
                raise _refuse(where, _("its seats are not numbered 1 to %(size)s.") % {"size": size})
            if not 0 <= table["first_dealer"] < size:
                raise _refuse(where, _("its first dealer is not one of its seats."))
            self.seats[table["id"]] = seats

    def check_hands(self, rows) -> None:
        """Hands numbered 1, 2, … without gaps up to the table's cap; every row as wide as its
        table, summing to 0 where the ruleset is zero-sum; every hand re-scored by the ruleset
        after the earlier hands of its table and compared with its stored row; the seats' round
        scores the sums of their hands."""
        from scoring.services.rescoring import table_rows
        from tournaments.models import Tournament
        from tournaments.problems import translate_problem

        tournament = Tournament(**{k: v for k, v in self.data["tournament"].items() if k in ("ruleset", "edition", "options", "hands_per_round")})
        by_table = defaultdict(list)
        for row in rows:
            by_table[row["table_id"]].append(row)
        self.unique("hands", rows, ("table_id", "number"), lambda r: self.where_hand(r["table_id"], r["number"]))
        for table in self.data["tables"]:
            hands = sorted(by_table.get(table["id"], []), key=lambda r: r["number"])
            seats = self.seats[table["id"]]
            size = len(seats)
            names = {s["position"]: self.registration_name[s["registration_id"]] for s in seats}
            cap = tournament.hand_cap(size, table["ended_after"])
            numbers = [h["number"] for h in hands]
            if numbers != list(range(1, len(hands) + 1)):
                raise _refuse(self.where_table(table["id"]), _("its hands are numbered %(numbers)s; hands are numbered 1, 2, 3 … without gaps.") % {"numbers": ", ".join(map(str, numbers))})
            if len(hands) > cap:
                raise _refuse(self.where_table(table["id"]), _("it has %(hands)s hands; a table of %(size)s plays %(cap)s in a round.") % {"hands": len(hands), "size": size, "cap": cap})
            for hand in hands:
                self.check_row(hand, size)
                if not isinstance(hand["record"], dict):
                    raise _refuse(self.where_hand(table["id"], hand["number"]), _("its record is not a hand record."))
                if problem := _note_problem(hand["record"]):
                    raise _refuse(self.where_hand(table["id"], hand["number"]), _("its note: %(problem)s") % {"problem": problem})
                seats_played = hand["record"].get("seats")
                if seats_played is not None and not (
                    isinstance(seats_played, list) and all(isinstance(s, int) and not isinstance(s, bool) for s in seats_played)
                    and sorted(set(seats_played)) == seats_played and seats_played and 0 <= seats_played[0] and seats_played[-1] < size
                    and len(seats_played) in self.rs.table_sizes
                ):
                    raise _refuse(self.where_hand(table["id"], hand["number"]), _("the seats that played it are not seats of its table."))
            try:
                computed = table_rows(self.rs, [h["record"] for h in hands], size)
            except Exception as error:  # a record no ruleset reads: refused, whatever it broke
                raise _refuse(self.where_table(table["id"]), _("its hands cannot be read by the ruleset (%(error)s).") % {"error": type(error).__name__}) from error
            for hand, row in zip(hands, computed):
                if row is None:
                    record = hand["record"]
                    played = len(record.get("seats") or range(size))
                    problems = self.rs.validate(record, played)
                    words = "; ".join(translate_problem(p, names) for p in problems) or _("the ruleset refuses it")
                    raise _refuse(self.where_hand(table["id"], hand["number"]), _("it is not a hand the ruleset accepts: %(problems)s") % {"problems": words})
                if list(row) != hand["scores"]:
                    raise _refuse(self.where_hand(table["id"], hand["number"]), _("its row is %(stored)s, but the ruleset scores it %(computed)s.") % {"stored": ", ".join(map(str, hand["scores"])), "computed": ", ".join(map(str, row))})
            self.check_seat_scores(table, seats, hands)

    def check_row(self, row: dict, size: int) -> None:
        """A stored row: one whole number per seat of the table, summing to 0 where the ruleset is."""
        scores = row["scores"]
        if not isinstance(scores, list) or len(scores) != size or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            raise _refuse(self.where_hand(row["table_id"], row["number"]), _("its row is not %(size)s whole numbers, one per seat.") % {"size": size})
        if self.rs.zero_sum and sum(scores):
            raise _refuse(self.where_hand(row["table_id"], row["number"]), _("its row %(row)s does not sum to 0, but every row of %(ruleset)s does.") % {"row": ", ".join(map(str, scores)), "ruleset": _(self.rs.name)})

    def check_seat_scores(self, table: dict, seats: list, hands: list) -> None:
        """The seats' round scores are their hands' sums (what the standings read), as
        :func:`scoring.services.rescoring.refresh_seat_scores` keeps them."""
        totals, later = [0] * len(seats), [0] * len(seats)
        for hand in hands:
            for i, s in enumerate(hand["scores"]):
                start = seats[i]["substitute_from"]
                if start is not None and hand["number"] >= start:
                    later[i] += s
                else:
                    totals[i] += s
        for seat, total, sub in zip(seats, totals, later):
            if (seat["score"], seat["substitute_score"]) != (total, sub):
                raise _refuse(
                    _("%(table)s, %(name)s") % {"table": self.where_table(table["id"]), "name": self.registration_name[seat["registration_id"]]},
                    _("the round score is %(stored)s, but the hands add up to %(sum)s.") % {"stored": seat["score"] + seat["substitute_score"], "sum": total + sub},
                )

    def check_hand_history(self, rows) -> None:
        """Every version of a hand: a record, and a row as wide as its table summing to 0 where
        the ruleset is zero-sum (earlier versions are not re-scored: the hands before them may
        have changed since)."""
        sizes = {t: len(s) for t, s in self.seats.items()}
        for row in rows:
            if not isinstance(row["record"], dict):
                raise _refuse(self.where_hand(row["table_id"], row["number"]), _("a version in its history has no hand record."))
            if problem := _note_problem(row["record"]):
                raise _refuse(self.where_hand(row["table_id"], row["number"]), _("the note of a version in its history: %(problem)s") % {"problem": problem})
            self.check_row(row, sizes[row["table_id"]])

    def check_confirmations(self, rows) -> None:
        """A confirmation confirms a version of its table's sheet that the table had: at most the
        entries of its hands' history in the archive (:func:`scoring.services.tables.sheet_versions`).
        One written before confirmations kept their version gets it here: the entries up to its
        time, as the migration that added the field gave the rows of its day."""
        from scoring.models import SheetConfirmation

        dates = defaultdict(list)
        for row in self.data["hand_history"]:
            dates[row["table_id"]].append(row["history_date"])
        for row in rows:
            versions = dates.get(row["table_id"], [])
            if row["sheet_version"] is None and row.get("created") is not None:
                row["sheet_version"] = sum(1 for when in versions if when is not None and when <= row["created"])
            if row["sheet_version"] is not None and row["sheet_version"] > len(versions):
                raise _refuse(
                    self.where("confirmations", SheetConfirmation, row),
                    _("a confirmation of version %(version)s of the sheet, but its hands have %(versions)s versions.")
                    % {"version": row["sheet_version"], "versions": len(versions)},
                )

    def check_roles(self, rows) -> None:
        self.unique("roles", rows, ("user_id",), lambda r: _("the role of %(name)s") % {"name": self.users[r["user_id"]]})

    def check_prize_fund(self, rows) -> None:
        """At most one fund, with the values its form accepts."""
        from scoring.prizes.views import PrizeFundForm

        if len(rows) > 1:
            raise _refuse(_("prize fund"), _("a tournament has one prize fund, the archive has %(count)s.") % {"count": len(rows)})
        for row in rows:
            form = PrizeFundForm(data={k: row.get(k) for k in ("entry_fee", "payout_percent", "kontra_amount", "currency")})
            if not form.is_valid():
                name, errors = next(iter(form.errors.items()))
                raise _refuse(_("prize fund"), _("its field “%(field)s”: %(problem)s") % {"field": form.fields[name].label if name in form.fields else name, "problem": " ".join(errors)})

    def check_prize_categories(self, rows) -> None:
        """The categories' values as their form accepts them; no two of one name."""
        from django import forms

        from scoring.prizes.views import PrizeCategoryForm

        seen = set()
        members = defaultdict(list)
        for row in self.data.get("prize_members", []):
            if isinstance(row, dict):
                members[row.get("prizecategory_id")].append(row.get("registration_id"))
        for row in rows:
            where = _("prize category “%(name)s”") % {"name": row["name"]}
            if row["name"].strip().casefold() in seen:
                raise _refuse(where, _("it is in the archive twice."))
            seen.add(row["name"].strip().casefold())
            form = PrizeCategoryForm(data={
                **{k: "" if row.get(k) is None else row.get(k) for k in ("order", "kind", "name", "places", "shares", "amount", "description", "club")},
                "members": [str(m) for m in members.get(row["id"], [])],
            })
            form.fields["members"] = forms.MultipleChoiceField(required=False, choices=[(str(i), str(i)) for i in self.ids["registrations"]])
            if not form.is_valid():
                name, errors = next(iter(form.errors.items()))
                raise _refuse(where, _("its field “%(field)s”: %(problem)s") % {"field": form.fields[name].label if name in form.fields else name, "problem": " ".join(errors)})

    def check_prize_members(self, rows) -> None:
        self.unique("prize_members", rows, ("prizecategory_id", "registration_id"), lambda r: _("prize category member %(id)s") % {"id": r["id"]})

    def check_oe_finale(self, rows) -> None:
        """At most one Ö-Finale; its Finalpunkte table a list of whole numbers that passes the
        checks of its settings form (:func:`scoring.finale.points.parse_finalpunkte`, worded by
        :func:`scoring.finale.forms.problem_text`, each problem naming its rank)."""
        from scoring.finale import points
        from scoring.finale.forms import problem_text

        if len(rows) > 1:
            raise _refuse(_("Ö-Finale"), _("a tournament is one Ö-Finale at most, the archive has %(count)s.") % {"count": len(rows)})
        for row in rows:
            table = row["finalpunkte"]
            if not isinstance(table, list):
                raise _refuse(_("Ö-Finale"), _("its Finalpunkte table is not a list of numbers."))
            problems = [
                points.Problem(points.NOT_A_NUMBER, rank, json.dumps(value, ensure_ascii=False)[:40])
                for rank, value in enumerate(table, start=1)
                if not isinstance(value, int) or isinstance(value, bool)
            ]
            if not problems:
                problems = points.check(table)
            if problems:
                raise _refuse(
                    _("Ö-Finale"),
                    _("its Finalpunkte table: %(problems)s") % {"problems": " ".join(problem_text(p) for p in problems[:10])},
                )

    def check_oe_finale_cups(self, names) -> None:
        """The names of the Ö-Finale's cups: a list of names checked as the cup's own name
        (``data["cup"]``), no name twice, and only beside an Ö-Finale."""
        if not isinstance(names, list):
            raise _refuse(_("the Ö-Finale's cups"), _("this part of the archive is not a list of names."))
        seen = set()
        for name in names:
            if not isinstance(name, str) or not name:
                raise _refuse(_("the Ö-Finale's cups"), _("“%(value)s” is not a cup's name.") % {"value": json.dumps(name, ensure_ascii=False)[:40]})
            where = _("the Ö-Finale's cup “%(cup)s”") % {"cup": name[:80]}
            if problem := text.text_problem(name, name_like=True):
                raise _refuse(where, problem)
            if name in seen:
                raise _refuse(where, _("it is in the archive twice."))
            seen.add(name)
        if names and not self.data.get("oe_finale"):
            raise _refuse(_("the Ö-Finale's cups"), _("the archive names cups of an Ö-Finale but has no Ö-Finale."))


def _check(content: bytes) -> _Checked:
    """The archive ``content`` read and checked; raises :class:`BackupRefused` (with its ``part``
    when its content was refused)."""
    envelope, data = _read(content)
    checker = _Checker(envelope, data)
    try:
        return checker.run()
    except BackupRefused as refused:
        refused.part = checker.stage
        raise


@dataclass(frozen=True)
class ArchiveCheck:
    """An archive read back by :func:`check_archive`: its form was right (it unpacked, parsed and
    matched its checksum), and ``tournament`` is its tournament row as written (``id``,
    ``created`` as ISO text, ``data_version``, ``name`` …). Then either its content passed every
    check of a restore (``summary``, an :class:`ArchiveSummary`, and ``refusal`` ``None``) or it
    did not (``refusal``, the :class:`BackupRefused` a restore would raise, and ``summary``
    ``None``)."""

    tournament: dict
    summary: ArchiveSummary | None = None
    refusal: BackupRefused | None = None


def check_archive(content: bytes, user=None) -> ArchiveCheck:
    """Read the archive ``content`` once (unpack, parse, checksum) and check its content as
    :func:`restore` would, nothing written. Raises :class:`BackupRefused` only when the file
    itself is not a whole archive of this program (as :func:`read_archive`); a refusal of its
    content is returned in :attr:`ArchiveCheck.refusal`, so a backup that holds something the
    checks refuse (a name stored before they existed) is still known to be a whole file.
    ``user``: who would restore it (``None``: a management command), for the summary's cup."""
    envelope, data = _read(content)
    row = data.get("tournament")
    row = dict(row) if isinstance(row, dict) else {}  # as written: the checks convert the data in place
    checker = _Checker(envelope, data)
    try:
        checked = checker.run()
    except BackupRefused as refused:
        # Without its traceback, which holds the checker's frames and with them the whole archive.
        verdict = BackupRefused(refused.message)
        verdict.where, verdict.problem, verdict.part, verdict.row_id = refused.where, refused.problem, checker.stage, refused.row_id
        return ArchiveCheck(tournament=row, refusal=verdict)
    cup, cup_dropped = restore_cup(checked.data.get("cup"), checked.ruleset.key, user)
    finale_cups = restore_finale_cups(checked.data.get("oe_finale_cups"))
    return ArchiveCheck(tournament=row, summary=_summary(checked, cup, cup_dropped, finale_cups))


def summarize(content: bytes, user=None) -> ArchiveSummary:
    """What the archive ``content`` holds (:class:`ArchiveSummary`), after every check
    :func:`restore` makes, and what a restore by ``user`` (``None``: a management command) would
    do with its cup; nothing is written. Raises :class:`BackupRefused` exactly as :func:`restore`
    would, so a page can show the refusal before restoring."""
    check = check_archive(content, user)
    if check.refusal is not None:
        raise check.refusal
    return check.summary


def _summary(checked: _Checked, cup, cup_dropped: str | None, finale_cups: tuple[list, list[str]]) -> ArchiveSummary:
    """The :class:`ArchiveSummary` of ``checked``, joining ``cup`` (a :class:`Cup` or ``None``,
    and why not: :func:`restore_cup`), its Ö-Finale linked to ``finale_cups`` (the cups and the
    notices of :func:`restore_finale_cups`)."""
    t = checked.data["tournament"]
    exported = checked.envelope.get("exported_at")
    exported = parse_datetime(exported) if isinstance(exported, str) else None
    return ArchiveSummary(
        name=t["name"],
        ruleset=checked.ruleset.key,
        edition=checked.ruleset.edition,
        ruleset_label=_(checked.ruleset.label),
        date=t["date"],
        players=len(checked.data["registrations"]),
        rounds=len(checked.data["rounds"]),
        planned_rounds=t["rounds"],
        hands=len(checked.data["hands"]),
        deleted_hands=len(checked.deleted_hands),
        exported_at=exported,
        venue=t.get("venue", ""),
        skipped_roles=tuple(checked.skipped_roles),
        unknown_users=tuple(checked.unknown_users),
        granted_roles=tuple(checked.granted_roles),
        matched_users=tuple(checked.matched_users),
        cup=cup.name if cup is not None else "",
        cup_dropped=cup_dropped,
        oe_finale=bool(checked.data.get("oe_finale")),
        oe_finale_cups=tuple(c.name for c in finale_cups[0]),
        oe_finale_dropped=tuple(finale_cups[1]),
        uid=checked.uid,
        data_version=checked.data_version,
    )


# ------------------------------------------------------------------------------------ restore


def _stamped_fields(model) -> list[str]:
    """The ``auto_now_add``/``auto_now`` fields of ``model``: creating a row sets them to now, so
    the archive's times are written afterwards."""
    return [f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)]


def _write_times(model, objects: list, stamps: list[dict], names: list[str]) -> None:
    """Give rows just created (``objects``, as ``bulk_create`` returned them, with their ids) the
    archive's times ``stamps`` (one ``{field: aware datetime or None}`` per object, fields among
    ``names``), which creating them replaced with "now" (``auto_now_add``); a time the archive
    lacks stays as created (:func:`update_by_pk`)."""
    update_by_pk(model, {
        name: [(obj.pk, connection.ops.adapt_datetimefield_value(times[name])) for obj, times in zip(objects, stamps) if times.get(name) is not None]
        for name in names
    })


def update_by_pk(model, values: dict[str, list[tuple[int, object]]]) -> None:
    """Set fields of rows of ``model`` to values of each row's own: ``values`` is ``{field name:
    [(pk, value adapted for the database)]}``; a row or a field of a row not named keeps its value.
    One ``UPDATE … SET f = CASE pk WHEN … END, g = CASE pk WHEN … END WHERE pk IN (…)`` per chunk of
    rows (all fields in one statement), values passed as parameters, a chunk within the database's
    limit of parameters; nothing is read first.

    Not ``bulk_update``, which writes the same statement: on the 1,000-player day of
    ``bench/backup_bench.py`` (28,000 hands) it took 7.4–9.7 s of a 17–24 s restore on SQLite and
    9.4 s of 24.5 s on PostgreSQL, building and compiling a ``When`` expression per row, where
    this takes 0.6–0.8 s and 2.0 s (restores of 12.4–14.4 s); for a patch's eight seats it cost
    several milliseconds of every push."""
    quote = connection.ops.quote_name
    pk = quote(model._meta.pk.column)
    given = {name: dict(pairs) for name, pairs in values.items() if pairs}
    keys = sorted({key for pairs in given.values() for key in pairs})
    limit = connection.features.max_query_params
    size = 400 if limit is None else max(1, min(400, limit // (2 * len(given) + 1)))
    with connection.cursor() as cursor:
        for start in range(0, len(keys), size):
            chunk = keys[start:start + size]
            sets, params = [], []
            for name, by_key in given.items():
                named = [key for key in chunk if key in by_key]
                if named:
                    column = quote(model._meta.get_field(name).column)
                    sets.append(f"{column} = CASE {pk} {' '.join(['WHEN %s THEN %s'] * len(named))} ELSE {column} END")
                    params.extend(v for key in named for v in (key, by_key[key]))
            cursor.execute(
                f"UPDATE {quote(model._meta.db_table)} SET {', '.join(sets)} WHERE {pk} IN ({', '.join(['%s'] * len(chunk))})",
                params + chunk,
            )


def _match_players(rows: list[dict]) -> dict[int, int]:
    """``{archive player id: this database's player id}``: each archive player is matched to a
    player of the same name (the same club first), no two to the same one, or created."""
    from tournaments.models import Player

    candidates = defaultdict(list)
    for player in Player.objects.filter(name__in={r["name"] for r in rows}).order_by("pk"):
        candidates[player.name].append(player)
    found, new = {}, []
    for row in sorted(rows, key=lambda r: r["id"]):
        same = candidates[row["name"]]
        match = next((p for p in same if p.club == row["club"]), same[0] if same else None)
        if match is None:
            new.append((row["id"], Player(name=row["name"], club=row["club"])))
        else:
            same.remove(match)  # namesakes of the archive stay different people here too
            found[row["id"]] = match.pk
    created = Player.objects.bulk_create([p for _id, p in new])
    found.update({old: p.pk for (old, _p), p in zip(new, created)})
    return found


def _reserve_hand_ids(deleted: dict[int, int], tables: dict[int, int]) -> dict[int, int]:
    """``{deleted hand's archive id: a fresh hand id}``: ids this database will never give another
    hand (taken from its own numbering by inserting placeholder hands and deleting them again
    without a history), so a deleted hand's history stays its own."""
    from scoring.models import Hand

    if not deleted:
        return {}
    counters: Counter = Counter()
    placeholders = []
    for old, table in sorted(deleted.items()):
        counters[table] += 1
        # Numbers no hand of the table uses (a round's hands number far below).
        placeholders.append(Hand(table_id=tables[table], number=32767 - counters[table], record={}, scores=[]))
    created = Hand.objects.bulk_create(placeholders)
    reserved = {old: hand.pk for old, hand in zip(sorted(deleted), created)}
    with connection.cursor() as cursor:  # a plain delete: no history entry for a placeholder
        table = connection.ops.quote_name(Hand._meta.db_table)
        ids = list(reserved.values())
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            cursor.execute(f"DELETE FROM {table} WHERE id IN ({', '.join(['%s'] * len(chunk))})", chunk)
    return reserved


def write_rows(key: str, model, links: dict, rows: list[dict], ids: dict[str, dict[int, int]], users: dict[int, str],
               known: dict[str, int], adjust=None) -> list:
    """Create the checked rows of part ``key`` of an archive (``model`` and its ``links`` as
    :func:`_models` gives them) in this database, inside the caller's transaction, with their own
    times (:func:`_write_times`). Links are mapped through ``ids`` (``{part: {archive id: this
    database's id}}``, which gets this part's own ids: a hand history's ``id`` is its hand's), a
    user through his name (``users``) to this database's user of that name (``known``, else
    none). ``adjust(key, values, row)`` may change a row's values before it is created and
    leaves it out by returning ``False``. Returns the created objects, in the rows' order."""
    if key == "hand_history":
        links = {**links, "id": "hands"}
    instances, olds, stamps = [], [], []
    stamped = _stamped_fields(model)
    for row in rows:
        values = dict(row)
        for attname, target in links.items():
            value = values.get(attname)
            if value is None:
                continue
            values[attname] = known.get(users[value]) if target == "user" else ids[target][value]
        if adjust is not None and not adjust(key, values, row):
            continue
        if key == "hand_history":
            values.pop("history_id")  # the history's own numbering; "id" is the hand's
        else:
            olds.append(values.pop("id"))
        stamps.append({name: values[name] for name in stamped if name in values})
        instances.append(model(**values))
    created = model.objects.bulk_create(instances, batch_size=500)
    _write_times(model, created, stamps, stamped)
    if key != "hand_history":
        ids[key] = {old: new.pk for old, new in zip(olds, created)}
    return created


def checked_archive(content: bytes) -> _Checked:
    """The archive ``content`` read and checked exactly as :func:`restore` checks it, nothing
    written, for a caller that looks at what it holds (``.uid``, ``.data_version``,
    ``.ruleset.key``) before restoring it with ``restore(content, checked=...)`` without checking
    it twice. Raises :class:`BackupRefused` (with its ``part`` when its content was refused)."""
    return _check(content)


def restore(content: bytes | None, user=None, *, checked: _Checked | None = None, mirror_of: str = "", cup=None) -> Restored:
    """Restore the archive ``content`` as a new tournament, by ``user`` (logged as its creation;
    ``None``: a management command run by the site's operator). ``checked``: the archive as
    :func:`checked_archive` returned it (``content`` is then not read again).

    ``mirror_of`` (not empty: where the tournament is run, in its venue's words) restores it as a
    public site's read-only mirror (:mod:`publishing.site`): ``mirrored_from`` is set in the same
    ``INSERT``, no role is restored (a mirror is nobody's to edit), no actor is linked to a user of
    this site (each is kept by name), its data and layout versions are the archive's data version,
    its tables get fresh private-link tokens (the venue's stay the venue's), and it joins ``cup``
    (a :class:`Cup` the caller checked, or ``None``) instead of the archive's cup, without an entry
    in the cup's log (the caller logs a mirror joining once, not per version).

    The tournament keeps the archive's identifier (``uid``) and data version when no tournament of
    this database has that identifier: the same tournament carried on here, say on a laptop that
    replaced the venue's broken one, which publishing then updates on its public site; its
    ``restored_from`` is that version until a public site stores a version of it (a site that
    holds a newer one has hands saved after the backup: :func:`publishing.venue.send`). Restored
    beside a tournament of that identifier (the original, or an earlier restore) it is a copy with
    its own identifier, its versions counted from 0. A mirror always gets its own identifier.

    Every check of :func:`summarize` runs first; then, in one transaction, the tournament (in the
    archive's cup only where :func:`restore_cup` allows it, logged in the cup's log), its
    players (matched by name and club or created), rounds, tables, seats, hands with their whole
    history (deleted hands' versions under fresh ids), flags, confirmations, action log, roles,
    prizes and the Ö-Finale (linked to this site's cups of its cups' names,
    :func:`restore_finale_cups`) are written with their own times. An actor this database lacks is
    kept by name; a role of a user it lacks is left out, and so is a cup of the Ö-Finale it lacks.
    Returns :class:`Restored`; raises :class:`BackupRefused` with nothing written."""
    from scoring.cups.roles import log_tournament_cup
    from tournaments import actions
    from tournaments.models import Table, Tournament

    if checked is None:
        checked = _check(content)
    data, users = checked.data, checked.users
    known = {} if mirror_of else checked.known_users
    try:
        with transaction.atomic():
            fields = {k: v for k, v in data["tournament"].items() if k != "id"}
            if mirror_of:
                cup_dropped = None
                version = checked.data_version or 0
                fields.update(mirrored_from=mirror_of, data_version=version, layout_version=version)
            else:
                cup, cup_dropped = restore_cup(data.get("cup"), checked.ruleset.key, user)
                if checked.uid and not Tournament.objects.filter(uid=checked.uid).exists():
                    # The same tournament, carried on here (a venue's laptop replaced by another):
                    # its identifier and versions go on, so publishing it updates its mirror.
                    version = checked.data_version or 0
                    fields.update(uid=uuid.UUID(checked.uid), data_version=version, layout_version=version, restored_from=version)
            finale_cups = restore_finale_cups(data.get("oe_finale_cups"))
            fields["cup"] = cup
            tournament = Tournament.objects.create(**fields)
            stamps = {k: fields[k] for k in _stamped_fields(Tournament) if k in fields}
            if stamps:
                Tournament.objects.filter(pk=tournament.pk).update(**stamps)
            ids: dict[str, dict[int, int]] = {"tournament": {data["tournament"]["id"]: tournament.pk}}
            ids["players"] = _match_players(data["players"])
            # A mirror's tables get fresh tokens: the venue's private links are the venue's.
            tokens = set() if mirror_of else set(Table.objects.values_list("token", flat=True))
            has_role = set(tournament.roles.values_list("user_id", flat=True))

            def adjust(key: str, values: dict, row: dict) -> bool:
                if key == "roles" and (mirror_of or values["user_id"] is None or values["user_id"] in has_role):
                    return False  # no such user here (reported), or he has a role in it already
                if key == "actions" and not values.get("user_name") and row["user_id"] is not None:
                    values["user_name"] = users[row["user_id"]]  # an archive written before the log kept names
                if key == "tables" and (mirror_of or values["token"] in tokens):
                    values["token"] = Table._meta.get_field("token").default()  # restored beside the original
                return True

            for key, model, links, _to_tournament in _models():
                if key == "hand_history":
                    ids["hands"].update(_reserve_hand_ids(checked.deleted_hands, ids["tables"]))
                created = write_rows(key, model, links, data.get(key, []), ids, users, known, adjust)
                if key == "oe_finale":
                    for finale in created:  # one at most (checked)
                        finale.cups.set(finale_cups[0])
            detail = [_("restored from an archive")]
            if mirror_of:
                detail = [_("published from %(source)s, version %(version)s") % {"source": mirror_of, "version": checked.data_version}]
            elif checked.unknown_users:
                detail.append(_("not users of this site, kept by name: %(names)s") % {"names": ", ".join(checked.unknown_users)})
            if checked.granted_roles and not mirror_of:
                detail.append(_("roles given to the users of this site of those user names: %(roles)s") % {
                    "roles": ", ".join(f"{name} ({level})" for name, level in checked.granted_roles)})
            if checked.skipped_roles and not mirror_of:
                detail.append(_("roles not restored, their users are not on this site: %(roles)s") % {
                    "roles": ", ".join(f"{name} ({level})" for name, level in checked.skipped_roles)})
            if cup_dropped:
                detail.append(cup_dropped)
            if data.get("oe_finale"):
                detail.extend(finale_cups[1])
            actions.log(tournament.pk, actions.Action.CREATED, user, detail="; ".join(detail))
            if not mirror_of:
                log_tournament_cup(tournament, None, user)  # the cup's log: it joined (nothing without a cup)
    except DatabaseError as error:
        raise BackupRefused(_("The archive could not be written (%(error)s); nothing was restored.") % {"error": error}) from error
    summary = _summary(checked, cup, cup_dropped, finale_cups)
    if mirror_of:  # nobody's roles, nobody linked: every actor kept by name
        summary = replace(summary, granted_roles=(), skipped_roles=(), matched_users=(),
                          unknown_users=tuple(sorted(set(summary.unknown_users) | set(summary.matched_users))))
    return Restored(tournament=tournament, summary=summary)


def import_tournament(content: bytes, user=None):
    """Restore an archive as a new tournament and return it (:func:`restore` without its report).
    Raises :class:`BackupRefused`, nothing written."""
    return restore(content, user).tournament


def delete_with_backup(tournament) -> Path:
    """Write an archive of ``tournament`` to ``DATA_DIR/backups`` (``tournament-<id>-deleted-<time>``),
    read it back from the disk (its form: it unpacks, parses, matches its checksum and holds this
    tournament; :func:`read_archive`), then delete the tournament with everything in it; returns
    the archive's path. Nothing is deleted when the archive cannot be written (a full disk: no file
    is left) or does not read back (the file is removed): :class:`BackupRefused` says which and
    why. Its content is not checked: a tournament holding a name stored before
    today's checks is still deleted with the best archive there is of it."""
    from scoring.models import Hand

    folder = Path(settings.DATA_DIR) / "backups"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"tournament-{tournament.pk}-deleted-{timezone.now():%Y%m%d-%H%M%S}.tarock.json.gz"
    try:
        write_archive(tournament, path)
    except OSError as error:
        raise BackupRefused(
            _("The archive of %(name)s could not be written to %(folder)s (%(reason)s); nothing was deleted.")
            % {"name": tournament.name, "folder": folder, "reason": error.strerror or error}
        ) from error
    try:
        row = read_archive(path.read_bytes()).get("tournament")
        if not isinstance(row, dict) or row.get("id") != tournament.pk:
            raise BackupRefused(_("it holds another tournament"))
    except (BackupRefused, OSError) as error:
        path.unlink(missing_ok=True)
        reason = error.message if isinstance(error, BackupRefused) else (error.strerror or str(error))
        raise BackupRefused(
            _("The archive of %(name)s did not read back from the disk (%(reason)s); nothing was deleted.")
            % {"name": tournament.name, "reason": reason}
        ) from error
    with transaction.atomic():
        Hand.objects.filter(table__round__tournament=tournament).delete()  # before their seats' players
        tournament.round_set.all().delete()
        tournament.delete()
    return path
