"""A whole tournament as one self-contained archive, and back (issue 17).

:func:`export_tournament` writes everything the tournament is: its settings, players (by name and
club), registrations, rounds with their draw reports, tables, seats, hands with every version of
their history, flags, sheet confirmations, the action log, the roles (users by user name) and the
prizes (fund, categories and their members). The archive is gzip-compressed JSON::

    {"format": "tarock-tournament", "version": 1, "exported_at": "...", "release": "...",
     "sha256": "<of the canonical JSON of data>", "data": {"tournament": {...}, "players": [...], ...}}

:func:`import_tournament` restores it into any database as a new tournament (new ids): players are
matched by name (and club, where several share the name) or created; users by user name, or left
empty where the database has no such user (the history keeps who it was in the log's text). It
checks everything before it writes anything: a damaged, truncated or edited file, another format
or a newer version is refused with :class:`BackupRefused`, and nothing is written.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .errors import Refused

FORMAT = "tarock-tournament"
VERSION = 1
MAX_ARCHIVE_BYTES = 200 * 1024 * 1024  # unpacked: a 1,000-player day is about 15 MB


class BackupRefused(Refused):
    """An archive that cannot be restored; ``message`` says why, translated."""


def _models():
    """``(key, model, {foreign key attname: key of the table it points to or "user"}, the lookup
    from the model to its tournament's id)`` in the order they are written and restored (parents
    first)."""
    from scoring.models import Hand, HandFlag, PrizeCategory, PrizeFund, SheetConfirmation

    from .models import ActionLog, Registration, Round, Seat, Table, TournamentRole

    at_table = "table__round__tournament_id"
    return [
        ("registrations", Registration, {"tournament_id": "tournament", "player_id": "players"}, "tournament_id"),
        ("rounds", Round, {"tournament_id": "tournament"}, "tournament_id"),
        ("tables", Table, {"round_id": "rounds"}, "round__tournament_id"),
        ("seats", Seat, {"table_id": "tables", "registration_id": "registrations", "substitute_id": "registrations"}, at_table),
        ("hands", Hand, {"table_id": "tables", "entered_by_id": "user"}, at_table),
        # Its own key is history_id; "id" is the hand's.
        ("hand_history", Hand.history.model, {"id": "hands", "table_id": "tables", "entered_by_id": "user", "history_user_id": "user"}, at_table),
        ("flags", HandFlag, {"hand_id": "hands"}, "hand__table__round__tournament_id"),
        ("confirmations", SheetConfirmation, {"table_id": "tables"}, at_table),
        ("actions", ActionLog, {"tournament_id": "tournament", "user_id": "user"}, "tournament_id"),
        ("roles", TournamentRole, {"tournament_id": "tournament", "user_id": "user"}, "tournament_id"),
        ("prize_fund", PrizeFund, {"tournament_id": "tournament"}, "tournament_id"),
        ("prize_categories", PrizeCategory, {"tournament_id": "tournament"}, "tournament_id"),
        ("prize_members", PrizeCategory.members.through, {"prizecategory_id": "prize_categories", "registration_id": "registrations"}, "prizecategory__tournament_id"),
    ]


# Tables added to the archive after its format's first release: an older archive has none of them.
ADDED_LATER = {"prize_fund", "prize_categories", "prize_members"}


def _fields(model) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def _rows(model, **where) -> list[dict]:
    return list(model.objects.filter(**where).order_by(model._meta.pk.attname).values(*_fields(model)))


def _canonical(data: dict) -> bytes:
    return json.dumps(data, cls=DjangoJSONEncoder, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def export_tournament(tournament) -> bytes:
    """The archive of ``tournament`` (gzip-compressed JSON, see the module's docstring)."""
    from config.network import release

    from .models import Player, Tournament

    user_ids: set[int] = set()
    data: dict = {"tournament": _rows(Tournament, pk=tournament.pk)[0]}
    for key, model, links, to_tournament in _models():
        rows = _rows(model, **{to_tournament: tournament.pk})
        for row in rows:
            user_ids.update(row[a] for a, target in links.items() if target == "user" and row[a] is not None)
        data[key] = rows
    player_ids = {row["player_id"] for row in data["registrations"]}
    data["players"] = list(Player.objects.filter(pk__in=player_ids).order_by("pk").values("id", "name", "club"))
    data["users"] = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    data["cup"] = tournament.cup.name if tournament.cup_id else None  # restored into the cup of that name, if there is one
    body = _canonical(data)
    archive = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "release": release(),
        "sha256": hashlib.sha256(body).hexdigest(),
        "data": json.loads(body),
    }
    return gzip.compress(_canonical(archive), compresslevel=6)


def read_archive(content: bytes) -> dict:
    """The checked ``data`` of an archive. Raises :class:`BackupRefused` for a damaged or
    truncated file, another format, a newer version or content that does not match its checksum."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(content)) as unpacked:
            raw = unpacked.read(MAX_ARCHIVE_BYTES + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise BackupRefused(_("This is not a complete tournament archive (%(error)s).") % {"error": error}) from error
    if len(raw) > MAX_ARCHIVE_BYTES:
        raise BackupRefused(_("The archive unpacks to more than %(mb)s MB; refused.") % {"mb": MAX_ARCHIVE_BYTES // 2**20})
    try:
        archive = json.loads(raw)
    except ValueError as error:
        raise BackupRefused(_("The archive is damaged: %(error)s.") % {"error": error}) from error
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise BackupRefused(_("This file is not a tournament archive of this program."))
    version = archive.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise BackupRefused(
            _("The archive has format version %(version)s; this program reads up to version %(known)s. Update the program first.")
            % {"version": version, "known": VERSION}
        )
    data = archive.get("data")
    if not isinstance(data, dict) or hashlib.sha256(_canonical(data)).hexdigest() != archive.get("sha256"):
        raise BackupRefused(_("The archive's content does not match its checksum: it was damaged or edited."))
    return data


def _stamped_fields(model) -> list[str]:
    """The ``auto_now_add``/``auto_now`` fields of ``model``: creating a row sets them to now, so
    the archive's times are written afterwards (:func:`import_tournament`)."""
    return [f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)]


def write_archive(tournament, path: Path) -> int:
    """Write the archive of ``tournament`` to ``path`` under a temporary name first, so a killed
    export never leaves half an archive under the name; returns its size in bytes."""
    content = export_tournament(tournament)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(content)
    partial.replace(path)
    return len(content)


def _field_map(model) -> dict:
    """``{attname: field}`` of the model's concrete fields (looked up once per model, not per value)."""
    return {f.attname: f for f in model._meta.concrete_fields}


def _value(fields: dict, attname: str, value):
    """An archive's value as the field stores it: ISO dates and times read back (aware, as written),
    JSON and numbers as they are."""
    return None if value is None else fields[attname].to_python(value)


def import_tournament(content: bytes, user=None):
    """Restore an archive as a new tournament; returns it. Players are matched by name (and club
    among namesakes) or created; users by user name. Raises :class:`BackupRefused` (nothing
    written) for a file :func:`read_archive` refuses or whose rows do not fit together."""
    from . import actions
    from .models import Cup, Player, Table, Tournament

    data = read_archive(content)
    User = get_user_model()
    try:
        users = {int(k): v for k, v in data["users"].items()}
        known_users = dict(User.objects.filter(username__in=users.values()).values_list("username", "pk"))
        with transaction.atomic():
            own = _field_map(Tournament)
            fields = {k: _value(own, k, v) for k, v in data["tournament"].items() if k not in ("id", "data_version", "layout_version", "cup_id")}
            fields["cup"] = Cup.objects.filter(name=data.get("cup") or "").first()  # this site's cup of that name, or none
            tournament = Tournament.objects.create(**fields)
            Tournament.objects.filter(pk=tournament.pk).update(**{k: fields[k] for k in _stamped_fields(Tournament)})
            ids: dict[str, dict[int, int]] = {"tournament": {data["tournament"]["id"]: tournament.pk}, "players": {}}
            for row in data["players"]:
                same = list(Player.objects.filter(name=row["name"]))
                match = next((p for p in same if p.club == row["club"]), same[0] if same else None)
                ids["players"][row["id"]] = (match or Player.objects.create(name=row["name"], club=row["club"])).pk
            tokens = set(Table.objects.values_list("token", flat=True))
            has_role = set(tournament.roles.values_list("user_id", flat=True))
            for key, model, links, _to_tournament in _models():
                rows, olds, stamps = [], [], []
                stamped = _stamped_fields(model)
                model_fields = _field_map(model)
                for row in data.get(key, []) if key in ADDED_LATER else data[key]:
                    values = {}
                    for attname, value in row.items():
                        target = links.get(attname)
                        if target == "user":
                            value = known_users.get(users.get(value)) if value is not None else None
                        elif target is not None and value is not None:
                            value = ids[target][value]
                        values[attname] = _value(model_fields, attname, value)
                    if key == "roles" and (values["user_id"] is None or values["user_id"] in has_role):
                        continue  # no such user here, or he has a role in it already
                    if key == "hand_history":
                        values.pop("history_id")  # the history's own numbering; "id" is the hand's
                    else:
                        olds.append(values.pop("id"))
                    if key == "tables" and values["token"] in tokens:
                        values["token"] = Table._meta.get_field("token").default()  # restored beside the original
                    stamps.append({name: values[name] for name in stamped})
                    rows.append(model(**values))
                created = model.objects.bulk_create(rows, batch_size=500)
                if stamped:  # creating them set "now": the archive's times go back in
                    for row, times in zip(created, stamps):
                        for name, value in times.items():
                            setattr(row, name, value)
                    model.objects.bulk_update(created, stamped, batch_size=500)
                if key != "hand_history":
                    ids[key] = {old: new.pk for old, new in zip(olds, created)}
            actions.log(tournament.pk, actions.Action.CREATED, user, detail=_("restored from an archive"))
    except (KeyError, TypeError, ValueError, StopIteration, IntegrityError) as error:
        raise BackupRefused(_("The archive's rows do not fit together (%(error)s); nothing was restored.") % {"error": error}) from error
    return tournament


def delete_with_backup(tournament) -> Path:
    """Write an archive of ``tournament`` to ``DATA_DIR/backups`` (``tournament-<id>-deleted-<time>``),
    then delete the tournament with everything in it; returns the archive's path. If the archive
    cannot be written (``OSError``), nothing is deleted."""
    from scoring.models import Hand

    folder = Path(settings.DATA_DIR) / "backups"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"tournament-{tournament.pk}-deleted-{timezone.now():%Y%m%d-%H%M%S}.tarock.json.gz"
    write_archive(tournament, path)
    with transaction.atomic():
        Hand.objects.filter(table__round__tournament=tournament).delete()  # before their seats' players
        tournament.round_set.all().delete()
        tournament.delete()
    return path
