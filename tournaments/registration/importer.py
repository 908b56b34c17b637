"""Player import from a CSV file or an Excel workbook.

:func:`parse_players` reads the file into an :class:`ImportPreview`: the rows to import and every
rejected row with its line number and reason. :func:`import_players` registers the rows in one
transaction and refuses a preview with problems, so nothing is ever half-imported.

Columns: name, town or club, optional start number. A header row naming the columns (German or
English, any order) is recognised; without one the columns are taken in that order.

A byte-order mark at the start of a CSV file is its encoding and is dropped; a name or club that
holds a control, direction or invisible character (a byte-order mark or zero-width space inside
it, :func:`tournaments.text.text_problem`) is refused, naming its line, column and character.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import actions
from tournaments.models import Player, Registration, Tournament
from tournaments.text import text_problem, visible
from tournaments.versioning import touch

NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Player._meta.get_field("club").max_length
START_NUMBER_MAX = 99999

# Normalised header cells (lower case, no trailing "." or ":", single spaces) per column.
HEADERS = {
    "name": {"name", "namen", "spieler", "spielerin", "spieler/in", "player", "player name"},
    "club": {"ort", "verein", "club", "town", "stadt", "ort/verein", "verein/ort", "town/club", "club/town", "town or club", "ort oder verein"},
    "start_number": {
        "startnummer", "startnr", "start-nr", "start nr", "nr", "nummer", "start number", "start no", "start-no", "no", "number", "#",
    },
}
MAX_COLUMNS = 30  # cells further right are never read
MAX_ROWS = 2000  # players of one list: larger fields are imported in parts
MAX_UNPACKED = 20 * 1024 * 1024  # an .xlsx whose parts unpack past this is refused before it is opened


@dataclass(frozen=True)
class ImportRow:
    """A row to import: ``line`` as in the file (the header is line 1)."""

    line: int
    name: str
    club: str
    start_number: int | None = None


@dataclass(frozen=True)
class RowProblem:
    """Why row ``line`` is rejected; ``line`` is ``None`` for a problem of the whole file."""

    line: int | None
    message: str


@dataclass
class ImportPreview:
    rows: list[ImportRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Nothing rejected and something to import."""
        return not self.problems and bool(self.rows)


@dataclass(frozen=True)
class PlannedRow:
    """What importing ``row`` does: its start number and the existing player reused (or ``None``)."""

    row: ImportRow
    start_number: int
    player: Player | None


class ImportRefused(Exception):
    """The preview has problems (``problems``); nothing was imported."""

    def __init__(self, problems: list[RowProblem]):
        self.problems = problems
        super().__init__("; ".join(f"{p.line}: {p.message}" for p in problems))


class Unreadable(Exception):
    """The file cannot be read; ``message`` says why (the general advice unless given)."""

    def __init__(self, message: str | None = None):
        message = message or _("The file could not be read. Upload a CSV file or an Excel workbook (.xlsx).")
        super().__init__(message)
        self.message = message


# --- reading the file -----------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _decode(content: bytes) -> str:
    """The text of a CSV file: UTF-16 when it starts with UTF-16's byte-order mark (Excel's
    "Unicode text"), else UTF-8, else Windows-1252 (Excel's "CSV" on a German Windows). A leading
    byte-order mark is the encoding, not text: it is dropped (``utf-8-sig``); one further in stays
    and is refused where it stands in a name."""
    try:
        if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            text = content.decode("utf-16")  # the mark says which byte order, and is dropped
        else:
            try:
                text = content.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = content.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise Unreadable from exc
    if _CONTROL.search(text):  # binary data, not text
        raise Unreadable
    return text


def _delimiter(text: str) -> str:
    """``;`` (Excel in German), ``,`` or tab: the one splitting the first lines into most fields;
    ``;`` on a tie, since names like "Huber, Anna" contain commas."""
    sample = [line for line in text.splitlines() if line.strip()][:20]
    best, best_score = ",", -1
    for candidate in (";", ",", "\t"):
        score = sum(len(fields) - 1 for fields in csv.reader(sample, delimiter=candidate))
        if score > best_score:
            best, best_score = candidate, score
    return best


def _csv_lines(content: bytes) -> list[tuple[int, list[str]]]:
    text = _decode(content)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    lines, previous = [], 0
    try:
        for record in reader:
            lines.append((previous + 1, record[:MAX_COLUMNS]))  # a quoted field may span lines
            previous = reader.line_num
    except csv.Error as exc:
        raise Unreadable from exc
    return lines


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _xlsx_lines(content: bytes) -> list[tuple[int, list[str]]]:
    import zipfile

    import openpyxl

    try:
        unpacked = sum(info.file_size for info in zipfile.ZipFile(io.BytesIO(content)).infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise Unreadable from exc
    if unpacked > MAX_UNPACKED:  # a "zip bomb": a small file that unpacks to gigabytes
        raise Unreadable(
            _("The workbook unpacks to %(mb)s MB, more than the %(max)s MB a list of players or results needs; it was not opened.")
            % {"mb": unpacked // 2**20, "max": MAX_UNPACKED // 2**20}
        )
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # not a zip, not a workbook, broken XML: all unreadable
        raise Unreadable from exc
    try:
        sheet = workbook.worksheets[0]
        return [
            (number, [_cell(v) for v in values])
            for number, values in enumerate(sheet.iter_rows(min_row=1, max_col=MAX_COLUMNS, values_only=True), start=1)
        ]
    except Exception as exc:
        raise Unreadable from exc
    finally:
        workbook.close()


def read_lines(file_name: str, content: bytes) -> list[tuple[int, list[str]]]:
    """``(line, cells)`` of every non-empty line of an uploaded CSV file or (the first sheet of)
    an xlsx workbook, line numbers as the user sees them; raises :class:`Unreadable` for a file
    that is neither, cannot be decoded, or is a workbook unpacking past :data:`MAX_UNPACKED`. The
    player list and the cup results (:mod:`scoring.cups.importer`) are read through it."""
    suffix = file_name.lower().rsplit(".", 1)[-1] if "." in file_name else ""
    if content.startswith(b"PK\x03\x04") and suffix in ("xlsx", "xlsm", "csv", "txt", ""):
        lines = _xlsx_lines(content)  # a workbook, whatever its name says
    elif suffix in ("csv", "txt"):
        lines = _csv_lines(content)
    else:
        raise Unreadable
    return [(number, cells) for number, cells in lines if any(c.strip() for c in cells)]


# --- checking the rows ----------------------------------------------------------------------------


def clean(text: str) -> str:
    """``text`` with its spaces collapsed and trimmed (``" Anna  Berger "`` → ``"Anna Berger"``)."""
    return " ".join(text.split())


def header_key(text: str) -> str:
    """A header cell as the header names are written: cleaned, lower case, no trailing ``.``/``:``."""
    return clean(text).lower().rstrip(".:").strip()


def _header_columns(cells: list[str]) -> dict[str, int] | None:
    """``{column: index}`` if ``cells`` is a header row (some cell names a column), else ``None``."""
    columns = {}
    for index, cell in enumerate(cells):
        key = header_key(cell)
        for column, names in HEADERS.items():
            if key in names and column not in columns:
                columns[column] = index
    return columns or None


def player_key(name: str, club: str) -> tuple[str, str]:
    """Same player: same name and club, ignoring case, extra spaces and invisible characters (a
    player stored with one before they were refused is still found)."""
    return clean(visible(name)).casefold(), clean(visible(club)).casefold()


def character_problems(cells: list[tuple[str, str]]) -> list[str]:
    """``[(column label, text), ...]`` of one row: for each text holding a character no name may
    hold (:func:`tournaments.text.text_problem` with ``name_like``), the message naming its column
    and the character ("Name: Character 1 is an invisible byte-order mark (U+FEFF) …")."""
    return [
        _("%(column)s: %(problem)s") % {"column": label, "problem": problem}
        for label, text in cells
        if (problem := text_problem(text, name_like=True))
    ]


def _start_number(raw: str) -> int | None:
    text = raw.strip()
    if re.fullmatch(r"\d+", text) and 1 <= int(text) <= START_NUMBER_MAX:
        return int(text)
    raise ValueError(text)


def parse_players(uploaded_file_name: str, content: bytes, tournament: Tournament | None = None) -> ImportPreview:
    """Read and check a player list; with ``tournament``, also against its registrations.

    Every rejected row is a :class:`RowProblem` with its line number; empty lines are skipped.
    """
    preview = ImportPreview()
    try:
        lines = read_lines(uploaded_file_name, content)
    except Unreadable as unreadable:
        preview.problems.append(RowProblem(None, unreadable.message))
        return preview
    columns = {"name": 0, "club": 1, "start_number": 2}
    if lines:
        header = _header_columns(lines[0][1])
        if header is not None:
            header_line = lines.pop(0)[0]
            columns = header
            if "name" not in columns:
                preview.problems.append(
                    RowProblem(header_line, _("The header has no name column (Name or Spieler)."))
                )
                return preview
    if len(lines) > MAX_ROWS:  # counted before a row is checked: a huge list costs no more than this
        preview.problems.append(
            RowProblem(
                None,
                _("The list has %(count)s players; at most %(max)s are imported at once. Split the list and import it in parts.")
                % {"count": len(lines), "max": MAX_ROWS},
            )
        )
        return preview

    def cell(cells, column):
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    candidates = []
    for number, cells in lines:
        name, club, raw_number = clean(cell(cells, "name")), clean(cell(cells, "club")), cell(cells, "start_number")
        problems = []
        if not name:
            problems.append(_("The name is missing."))
        elif len(name) > NAME_MAX:
            problems.append(_("The name is longer than %(max)s characters.") % {"max": NAME_MAX})
        if len(club) > CLUB_MAX:
            problems.append(_("The town or club is longer than %(max)s characters.") % {"max": CLUB_MAX})
        problems.extend(character_problems([(_("Name"), name), (_("Town or club"), club)]))
        start = None
        if raw_number.strip():
            try:
                start = _start_number(raw_number)
            except ValueError:
                problems.append(
                    _("The start number “%(value)s” is not a whole number from 1 to %(max)s.")
                    % {"value": raw_number.strip(), "max": START_NUMBER_MAX}
                )
        preview.problems.extend(RowProblem(number, p) for p in problems)
        if not problems:
            candidates.append(ImportRow(number, name, club, start))

    seen_players: dict[tuple[str, str], int] = {}
    seen_numbers: dict[int, int] = {}
    for row in candidates:
        problems = []
        key = player_key(row.name, row.club)
        if key in seen_players:
            problems.append(
                _("%(player)s is in the file twice: also in line %(line)s.")
                % {"player": _player_label(row), "line": seen_players[key]}
            )
        else:
            seen_players[key] = row.line
        if row.start_number is not None:
            if row.start_number in seen_numbers:
                problems.append(
                    _("Start number %(number)s is used twice in the file: also in line %(line)s.")
                    % {"number": row.start_number, "line": seen_numbers[row.start_number]}
                )
            else:
                seen_numbers[row.start_number] = row.line
        preview.problems.extend(RowProblem(row.line, p) for p in problems)
        if not problems:
            preview.rows.append(row)

    if tournament is not None:
        conflicts = tournament_problems(tournament, preview.rows)
        rejected = {p.line for p in conflicts}
        preview.rows = [row for row in preview.rows if row.line not in rejected]
        preview.problems.extend(conflicts)

    if not preview.rows and not preview.problems:
        preview.problems.append(RowProblem(None, _("The file contains no players.")))
    preview.problems.sort(key=lambda p: (p.line or 0))
    return preview


def _player_label(row) -> str:
    return f"{row.name} ({row.club})" if row.club else row.name


def tournament_problems(tournament: Tournament, rows: list[ImportRow]) -> list[RowProblem]:
    """Rows clashing with ``tournament``: start number taken, player already registered."""
    registrations = list(tournament.registrations.select_related("player"))
    by_number = {r.start_number: r for r in registrations}
    registered = {player_key(r.player.name, r.player.club) for r in registrations}
    problems = []
    for row in rows:
        if player_key(row.name, row.club) in registered:
            problems.append(
                RowProblem(row.line, _("%(player)s is already registered in this tournament.") % {"player": _player_label(row)})
            )
        elif row.start_number in by_number:
            problems.append(
                RowProblem(
                    row.line,
                    _("Start number %(number)s is already taken in this tournament by %(player)s.")
                    % {"number": row.start_number, "player": by_number[row.start_number].player},
                )
            )
    return problems


# --- importing ------------------------------------------------------------------------------------


def plan_import(tournament: Tournament, rows: list[ImportRow]) -> list[PlannedRow]:
    """Start number and reused player of every row, in file order.

    A row's own start number is kept; the others get, in file order, the lowest numbers above the
    tournament's highest that no row claims. A player with the same name and club (ignoring case)
    is reused, else created on import.
    """
    taken = set(tournament.registrations.values_list("start_number", flat=True))
    taken |= {row.start_number for row in rows if row.start_number is not None}
    next_number = (tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0) + 1
    players: dict[tuple[str, str], Player] = {}
    for player in Player.objects.order_by("-pk"):  # the oldest of duplicates wins
        players[player_key(player.name, player.club)] = player
    plan = []
    for row in rows:
        number = row.start_number
        if number is None:
            while next_number in taken:
                next_number += 1
            number = next_number
            taken.add(number)
        plan.append(PlannedRow(row, number, players.get(player_key(row.name, row.club))))
    return plan


def import_players(tournament: Tournament, preview: ImportPreview, user=None) -> list[Registration]:
    """Register every row of ``preview`` in ``tournament`` in one transaction, logged as done by
    ``user`` (:mod:`tournaments.actions`).

    Raises :class:`ImportRefused` (nothing written) if the preview has problems, has no rows, or
    clashes with registrations made since it was checked.
    """
    if preview.problems:
        raise ImportRefused(preview.problems)
    if not preview.rows:
        raise ImportRefused([RowProblem(None, _("The file contains no players."))])
    with transaction.atomic():
        touch(tournament.pk)  # locks the row: start numbers, as services.register
        problems = tournament_problems(tournament, preview.rows)
        if problems:
            raise ImportRefused(problems)
        registrations = []
        for planned in plan_import(tournament, preview.rows):
            player = planned.player or Player.objects.create(name=planned.row.name, club=planned.row.club)
            registrations.append(
                Registration.objects.create(tournament=tournament, player=player, start_number=planned.start_number)
            )
        actions.log(
            tournament.pk, actions.Action.REGISTERED, user,
            detail=", ".join(f"{r.player.name} ({r.start_number})" for r in registrations),
        )
    return registrations
