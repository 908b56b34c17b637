"""Import of last season's cup results from a workbook or a CSV file, so a cup can start mid-season.

The file is in long format, one row per result: ``Tournament | Date | Rank | Name | Club | Total``
(``Away`` optional). A header row naming the columns in German, English or Slovenian, in any
order, is recognised; without one the columns are taken in that order. ``Total`` (the player's
tournament total) is optional, and required when the cup counts Heine points, which are computed
from it (``../shared/rules/tournament-formats.md`` §4).

:func:`parse_results` reads and checks the file into a :class:`CupImportPreview` without writing
anything: every tournament of the file with its rows, the register player each row goes to (or
"new") and its cup points, and every rejected row with its line number and reason.
:func:`import_results` writes the tournaments that passed in one transaction.

**Decisions**:

- *A tournament is imported whole or not at all.* Its field size is the number of its rows (the
  Tirol formula needs ``N``, §4) and shared ranks share the points of the places they occupy, so a
  tournament with a refused row would get wrong points for every other row, and once imported it
  could not be completed later (a tournament already imported is refused). Such a tournament is
  *held back*: its good rows are listed as held back, naming the lines that hold it back.
- *Ranks are competition ranks*: the field size is the number of the tournament's rows; a rank
  above it is refused, and so is a rank that does not follow from the ranks above it (two players
  sharing rank 3 are followed by rank 5: rank 4 in that place is refused).
- *A blank Tournament or Date cell repeats the row above* (merged cells or a name written once
  per block read this way); the preview shows every tournament so formed.
- *A row whose date cannot be read holds back every tournament of that name* (its player is
  missing from one of them).
- *Players* are matched by name (ignoring case and extra spaces) in the register and among the
  players the file creates, in file order: a namesake of the same club first (the oldest of
  duplicates); else the register's only namesake, whatever club the file gives (the preview shows
  his club from the register: the register is the season's list of players, and clubs are
  written in many ways); a row without a club among several namesakes is refused as ambiguous;
  else the row creates a new player (rows of the same name and club, or of the same name without
  a club, are the same new player).
- *Away* (optional column): ``yes``/``ja``/``da``/``x``/``1`` or ``no``/``nein``/``ne``/``0``; a
  tournament is away when one of its rows says so, and refused when its rows disagree.
- A total given to a cup of another method is stored (it is not needed for the points).
- At most :data:`MAX_ROWS` rows per file: a season of 60 tournaments of 80 players.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.cups.models import Cup, CupAction, CupResult
from scoring.cups.points import HEINE, shared_points
from scoring.cups.roles import log_cup
from scoring.cups.table import touch_cup
from tournaments.models import Player, Tournament
from tournaments.registration.importer import Unreadable, character_problems, clean, header_key, read_lines
from tournaments.text import quoted, visible

NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Player._meta.get_field("club").max_length
EVENT_MAX = CupResult._meta.get_field("event").max_length
MAX_ROWS = 5000
TOTAL_LIMIT = 10**9  # a total beyond this is a typing error, not a Tarock score

COLUMNS = ("event", "date", "rank", "name", "club", "total", "away")  # the order without a header
# Normalised header cells (lower case, no trailing "." or ":", single spaces) per column: German,
# English, Slovenian.
HEADERS = {
    "event": {"turnier", "turniername", "bewerb", "tournament", "event", "turnir", "tekmovanje", "prireditev"},
    "date": {"datum", "date", "turnierdatum", "tag", "day"},
    "rank": {"rang", "platz", "platzierung", "endrang", "rank", "place", "position", "pos", "mesto", "uvrstitev", "#"},
    "name": {"name", "namen", "spieler", "spielerin", "spieler/in", "player", "player name", "ime", "igralec", "igralka", "ime in priimek", "priimek in ime"},
    "club": {
        "ort", "verein", "club", "town", "stadt", "ort/verein", "verein/ort", "town/club", "club/town", "town or club",
        "ort oder verein", "klub", "društvo", "drustvo", "kraj",
    },
    "total": {"total", "summe", "gesamt", "punkte", "turnierpunkte", "score", "points", "skupaj", "točke", "tocke", "rezultat"},
    "away": {"auswärts", "auswaerts", "away", "gostovanje", "v gosteh"},
}
YES = {"yes", "y", "ja", "j", "da", "x", "1", "true", "wahr"}
NO = {"no", "n", "nein", "ne", "0", "false", "falsch", "-"}


# --- what the preview holds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why row ``line`` (as in the file, the header is line 1) is refused or held back;
    ``line`` is ``None`` for a problem of the whole file."""

    line: int | None
    message: str


@dataclass(frozen=True)
class ResultRow:
    """A readable row: the tournament's ``event`` name and ``date``, the player's ``rank``,
    ``name``, ``club``, ``total`` (``None``: not given) and ``away`` (``None``: not given)."""

    line: int
    event: str
    date: datetime.date
    rank: int
    name: str
    club: str
    total: int | None
    away: bool | None


@dataclass
class PlannedResult:
    """What importing ``row`` does: the register ``player`` it goes to (``None``: a new player,
    created on import under ``row.name``/``row.club``), ``other_club`` (the register player's club
    when the file names another one), his cup ``points`` and whether his rank is ``shared``."""

    row: ResultRow
    player: Player | None
    new_key: tuple[str, str] | None
    points: int | None = None
    shared: bool = False
    other_club: str | None = None

    @property
    def is_new(self) -> bool:
        return self.player is None


@dataclass
class EventPlan:
    """A tournament of the file: its ``name`` (as first written), ``date``, ``away``, its
    ``rows`` (planned, in rank order; empty cup points when it is held back), every file line of
    it (``lines``) and the lines that hold it back (``blocking``, with ``reason`` when the whole
    tournament is refused, e.g. already imported)."""

    name: str
    date: datetime.date
    lines: list[int] = field(default_factory=list)
    rows: list[PlannedResult] = field(default_factory=list)
    blocking: list[int] = field(default_factory=list)
    reason: str = ""
    away: bool = False

    @property
    def field_size(self) -> int:
        """The players of the tournament: every row of it in the file."""
        return len(self.lines)

    @property
    def ok(self) -> bool:
        return not self.blocking and not self.reason

    @property
    def key(self) -> tuple[str, datetime.date]:
        return event_key(self.name, self.date)


@dataclass
class CupImportPreview:
    """The checked file: its tournaments (``events``, by date then name), every ``problems`` (by
    line) and the header cells it did not read (``ignored_columns``)."""

    events: list[EventPlan] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> list[EventPlan]:
        return [e for e in self.events if e.ok]

    @property
    def held_back(self) -> list[EventPlan]:
        return [e for e in self.events if not e.ok]

    @property
    def result_count(self) -> int:
        """Results that confirming writes."""
        return sum(len(e.rows) for e in self.accepted)

    @property
    def new_players(self) -> int:
        """Players that confirming creates."""
        return len({p.new_key for e in self.accepted for p in e.rows if p.is_new})

    @property
    def ok(self) -> bool:
        """Something to import (problems elsewhere in the file do not stop the others)."""
        return self.result_count > 0

    def fingerprint(self) -> str:
        """What confirming writes, as text: each accepted row's line, tournament, rank and player
        (register id or "new"), to see at confirm that nothing changed since the preview."""
        parts = [
            f"{p.row.line}|{e.name}|{e.date}|{p.row.rank}|{p.player.pk if p.player else 'new'}|{p.points}"
            for e in self.accepted
            for p in e.rows
        ]
        return "\n".join(parts)


class ImportRefused(Exception):
    """Nothing was imported: ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- reading cells ----------------------------------------------------------------------------------


def event_key(name: str, date: datetime.date) -> tuple[str, datetime.date]:
    """Same tournament: the same name (ignoring case and extra spaces) on the same date."""
    return clean(name).casefold(), date


def name_key(name: str) -> str:
    """Same player name: ignoring case, extra spaces and invisible characters (a player stored
    with one before they were refused is still matched)."""
    return clean(visible(name)).casefold()


_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]00:00(?::00)?)?")
_DOTTED = re.compile(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})")


def parse_date(text: str) -> datetime.date:
    """``2026-11-21`` (also as a workbook's date cell) or ``21.11.2026``; raises ``ValueError``."""
    text = text.strip()
    if found := _ISO.fullmatch(text):
        year, month, day = found.groups()
    elif found := _DOTTED.fullmatch(text):
        day, month, year = found.groups()
    else:
        raise ValueError(text)
    return datetime.date(int(year), int(month), int(day))  # ValueError for 31.02.


def parse_rank(text: str) -> int:
    """A whole number from 1, optionally written ``3.``; raises ``ValueError``."""
    text = text.strip().removesuffix(".")
    if re.fullmatch(r"\d+", text) and int(text) >= 1:
        return int(text)
    raise ValueError(text)


def parse_total(text: str) -> int:
    """A whole number, negative too (``-12``, ``−12``, ``+12``); raises ``ValueError``."""
    text = text.strip().replace("\u2212", "-")
    if re.fullmatch(r"[+-]?\d+", text) and abs(int(text)) < TOTAL_LIMIT:
        return int(text)
    raise ValueError(text)


def parse_away(text: str) -> bool | None:
    """``True``/``False`` from the Away column, ``None`` when blank; raises ``ValueError``."""
    key = text.strip().casefold()
    if not key:
        return None
    if key in YES:
        return True
    if key in NO:
        return False
    raise ValueError(text)


def _header(cells: list[str]) -> tuple[dict[str, int], list[str]] | None:
    """``({column: index}, [cells not read])`` if ``cells`` is a header row, else ``None``."""
    columns, ignored = {}, []
    for index, cell in enumerate(cells):
        key = header_key(cell)
        found = next((c for c, names in HEADERS.items() if key in names and c not in columns), None)
        if found is not None:
            columns[found] = index
        elif cell.strip():
            ignored.append(cell.strip())
    return (columns, ignored) if columns else None


def lines_text(lines: list[int]) -> str:
    """``[2, 3, 4, 7]`` → ``"2–4, 7"``."""
    parts, start = [], None
    for i, line in enumerate(lines):
        if start is None:
            start = line
        if i + 1 == len(lines) or lines[i + 1] != line + 1:
            parts.append(str(start) if start == line else f"{start}–{line}")
            start = None
    return ", ".join(parts)


# --- checking -------------------------------------------------------------------------------------


def parse_results(cup: Cup, file_name: str, content: bytes) -> CupImportPreview:
    """Read and check a file of results for ``cup`` (see the module's docstring); writes nothing.

    Returns the preview: every tournament with its planned rows (or held back) and every problem
    with its line. A file that cannot be read, lacks a required column or has more than
    :data:`MAX_ROWS` rows gives one problem with ``line=None`` and no tournaments.
    """
    preview = CupImportPreview()
    try:
        lines = read_lines(file_name, content)
    except Unreadable as unreadable:
        preview.problems.append(Problem(None, unreadable.message))
        return preview
    columns = {column: i for i, column in enumerate(COLUMNS)}
    if lines and (header := _header(lines[0][1])) is not None:
        header_line = lines.pop(0)[0]
        columns, preview.ignored_columns = header
        missing = [label for column, label in _required_labels().items() if column not in columns]
        if missing:
            preview.problems.append(
                Problem(header_line, _("The header has no column for: %(columns)s.") % {"columns": ", ".join(missing)})
            )
            return preview
        if cup.method == HEINE and "total" not in columns:
            preview.problems.append(
                Problem(header_line, _("This cup counts Heine points, which come from each player's tournament total: the file needs a Total column."))
            )
            return preview
    if len(lines) > MAX_ROWS:
        preview.problems.append(
            Problem(None, _("The file has %(count)s rows; at most %(max)s are imported at once. Import the season in parts.")
                    % {"count": len(lines), "max": MAX_ROWS})
        )
        return preview
    if not lines:
        preview.problems.append(Problem(None, _("The file contains no results.")))
        return preview

    rows, unreadable_dates = _read_rows(cup, lines, columns, preview.problems)
    events = _group(rows)
    for name, line in unreadable_dates:  # a row of it is missing: its field size is not known
        for event in events.values():
            if name_key(event.name) == name_key(name):
                event.blocking.append(line)
    _check_events(cup, events, preview.problems)
    _plan_players(events, preview.problems)
    for event in events.values():
        _points(cup, event)
    preview.events = sorted(events.values(), key=lambda e: (e.date, name_key(e.name)))
    for event in preview.held_back:
        if event.reason:
            continue
        good = [line for line in event.lines if line not in event.blocking]
        if good:
            preview.problems.append(
                Problem(
                    good[0],
                    ngettext(
                        "Line %(lines)s of “%(event)s” (%(date)s) is correct but held back: a tournament is imported whole (refused: %(blocking)s).",
                        "Lines %(lines)s of “%(event)s” (%(date)s) are correct but held back: a tournament is imported whole (refused: %(blocking)s).",
                        len(good),
                    )
                    % {"lines": lines_text(good), "event": event.name, "date": event.date.isoformat(), "blocking": _lines_named(sorted(set(event.blocking)))},
                )
            )
    preview.problems.sort(key=lambda p: p.line or 0)
    return preview


def _lines_named(lines: list[int]) -> str:
    """``"line 5"``, ``"lines 3–4"``."""
    return ngettext("line %(lines)s", "lines %(lines)s", len(lines)) % {"lines": lines_text(lines)}


def _required_labels() -> dict[str, str]:
    return {"event": _("Tournament"), "date": _("Date"), "rank": _("Rank"), "name": _("Name")}


def _read_rows(cup, lines, columns, problems) -> tuple[list[ResultRow], list[tuple[str, int]]]:
    """Each line checked on its own: the readable rows, and ``(tournament name, line)`` of the
    rows whose date cannot be read. Problems go to ``problems``."""

    def cell(cells, column):
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    rows, unreadable_dates = [], []
    event, raw_date = "", ""
    for number, cells in lines:
        event = clean(cell(cells, "event")) or event  # blank: as the row above
        raw_date = cell(cells, "date").strip() or raw_date
        name, club = clean(cell(cells, "name")), clean(cell(cells, "club"))
        raw_rank, raw_total, raw_away = cell(cells, "rank").strip(), cell(cells, "total").strip(), cell(cells, "away")
        found = []
        if not event:
            found.append(_("The tournament is missing."))
        elif len(event) > EVENT_MAX:
            found.append(_("The tournament's name is longer than %(max)s characters.") % {"max": EVENT_MAX})
        date = None
        if not raw_date:
            found.append(_("The date is missing."))
        else:
            try:
                date = parse_date(raw_date)
            except ValueError:
                found.append(_("The date “%(value)s” cannot be read: write it as 2026-11-21 or 21.11.2026.") % {"value": raw_date})
                if event:
                    unreadable_dates.append((event, number))
        rank = None
        if not raw_rank:
            found.append(_("The rank is missing."))
        else:
            try:
                rank = parse_rank(raw_rank)
            except ValueError:
                found.append(_("The rank “%(value)s” is not a whole number from 1.") % {"value": raw_rank})
        if not name:
            found.append(_("The name is missing."))
        elif len(name) > NAME_MAX:
            found.append(_("The name is longer than %(max)s characters.") % {"max": NAME_MAX})
        if len(club) > CLUB_MAX:
            found.append(_("The town or club is longer than %(max)s characters.") % {"max": CLUB_MAX})
        found.extend(character_problems([(_("Tournament"), event), (_("Name"), name), (_("Town or club"), club)]))
        total = None
        if raw_total:
            try:
                total = parse_total(raw_total)
            except ValueError:
                found.append(_("The total “%(value)s” is not a whole number.") % {"value": raw_total})
        elif cup.method == HEINE:
            found.append(_("The total is missing: this cup's Heine points are computed from it."))
        try:
            away = parse_away(raw_away)
        except ValueError:
            away = None
            found.append(_("“%(value)s” in the Away column is neither yes nor no.") % {"value": raw_away.strip()})
        problems.extend(Problem(number, message) for message in found)
        if event and date is not None:  # a row of a known tournament, good or not
            rows.append((ResultRow(number, event, date, rank or 0, name, club, total, away), not found))
    return rows, unreadable_dates


def _group(rows) -> dict[tuple, EventPlan]:
    """The tournaments of the file by :func:`event_key`; a refused row blocks its tournament."""
    events: dict[tuple, EventPlan] = {}
    for row, good in rows:
        event = events.setdefault(event_key(row.event, row.date), EventPlan(row.event, row.date))
        event.lines.append(row.line)
        if good:
            event.rows.append(PlannedResult(row, None, None))
        else:
            event.blocking.append(row.line)
    return events


def already_imported(cup: Cup) -> set[tuple[str, datetime.date]]:
    """The :func:`event_key` of every tournament imported into ``cup`` so far."""
    return {event_key(n, d) for n, d in CupResult.objects.filter(cup=cup).values_list("event", "date").distinct()}


def _check_events(cup, events, problems) -> None:
    """Per tournament: ranks within the field and in sequence, the away flag, and whether it is
    already in the cup (imported before, or kept here)."""
    imported = already_imported(cup)
    kept = {event_key(n, d) for n, d in Tournament.objects.filter(cup=cup).values_list("name", "date")}
    for key, event in events.items():
        if key in imported or key in kept:
            event.reason = (
                _("“%(event)s” of %(date)s is already imported into this cup.") if key in imported
                else _("“%(event)s” of %(date)s is a tournament of this cup kept here: its results come from its own standings.")
            ) % {"event": event.name, "date": event.date.isoformat()}
            problems.append(
                Problem(
                    event.lines[0],
                    event.reason + " "
                    + ngettext("Line %(lines)s is not imported.", "Lines %(lines)s are not imported.", len(event.lines)) % {"lines": lines_text(event.lines)},
                )
            )
            continue
        size = event.field_size
        at_rank = Counter(planned.row.rank for planned in event.rows)
        above, expected = 0, {}  # competition ranking: rank = 1 + the players ranked above
        for rank in sorted(at_rank):
            expected[rank] = above + 1
            above += at_rank[rank]
        complete = not event.blocking  # every row's rank is known
        for planned in event.rows:
            rank = planned.row.rank
            if rank > size:
                message = ngettext(
                    "Rank %(rank)s is above the %(count)s player of “%(event)s” (%(date)s): the field is the tournament's rows in the file.",
                    "Rank %(rank)s is above the %(count)s players of “%(event)s” (%(date)s): the field is the tournament's rows in the file.",
                    size,
                ) % {"rank": rank, "count": size, "event": event.name, "date": event.date.isoformat()}
            elif complete and rank != expected[rank]:
                message = ngettext(
                    "Rank %(rank)s does not follow: %(above)s player is ranked above it, so the next rank is %(expected)s.",
                    "Rank %(rank)s does not follow: %(above)s players are ranked above it, so the next rank is %(expected)s.",
                    expected[rank] - 1,
                ) % {"rank": rank, "above": expected[rank] - 1, "expected": expected[rank]}
            else:
                continue
            problems.append(Problem(planned.row.line, message))
            event.blocking.append(planned.row.line)
        said = {p.row.away for p in event.rows if p.row.away is not None}
        if said == {True, False}:
            yes = [p.row.line for p in event.rows if p.row.away is True]
            no = [p.row.line for p in event.rows if p.row.away is False]
            problems.append(
                Problem(no[0], _("“%(event)s” is marked away in %(yes)s and not away in %(no)s.")
                        % {"yes": _lines_named(yes), "no": _lines_named(no), "event": event.name})
            )
            event.blocking.extend(no)
        event.away = True in said


def _plan_players(events, problems) -> None:
    """The player of every row (see the module's docstring), in file order; a player twice in one
    tournament, or a name among namesakes without a club, is refused."""
    names = {name_key(p.row.name) for e in events.values() for p in e.rows}
    # name -> [(register player or None for one the file creates, identity, club as written)]
    pool: dict[str, list[tuple[Player | None, tuple, str]]] = {}
    for player in Player.objects.order_by("pk"):  # the oldest of duplicates first
        if name_key(player.name) in names:
            pool.setdefault(name_key(player.name), []).append((player, ("p", player.pk), player.club))
    planned_rows = sorted(
        ((event, planned) for event in events.values() if not event.reason for planned in event.rows),
        key=lambda item: item[1].row.line,
    )
    seen: dict[tuple, dict[tuple, int]] = {}
    for event, planned in planned_rows:
        row = planned.row
        key, club = name_key(row.name), clean(row.club).casefold()
        namesakes = pool.get(key, [])
        same_club = [n for n in namesakes if clean(n[2]).casefold() == club]
        if same_club:
            found = same_club[0]
        elif len(namesakes) == 1 and (namesakes[0][0] is not None or not club):
            found = namesakes[0]  # the register's one namesake; one the file creates only for no club
        elif namesakes and not club:
            clubs = ", ".join(sorted({n[2] or "–" for n in namesakes}))
            problems.append(Problem(row.line, _("There are several players named %(name)s (%(clubs)s): give the club.") % {"name": row.name, "clubs": clubs}))
            event.blocking.append(row.line)
            continue
        else:
            found = (None, ("new", key, club), row.club)
            pool.setdefault(key, []).append(found)
        player, who, known_club = found
        planned.player, planned.new_key = player, (None if player else who)
        if player is not None and club and clean(known_club).casefold() != club:
            planned.other_club = known_club
        players = seen.setdefault(event.key, {})
        if who in players:
            problems.append(
                Problem(row.line, _("%(player)s is in “%(event)s” twice: also in line %(line)s.")
                        % {"player": row.name, "event": event.name, "line": players[who]})
            )
            event.blocking.append(row.line)
        else:
            players[who] = row.line


def _points(cup: Cup, event: EventPlan) -> None:
    """The cup points of an accepted tournament's rows (``tournament-formats.md`` §4, shared ranks
    sharing the points of their places); rows in rank order."""
    event.rows.sort(key=lambda p: (p.row.rank, p.row.line))
    if not event.ok:
        return
    sharing = Counter(p.row.rank for p in event.rows)
    for planned in event.rows:
        planned.points = shared_points(cup.method, planned.row.rank, sharing[planned.row.rank], event.field_size, planned.row.total)
        planned.shared = sharing[planned.row.rank] > 1


# --- importing ------------------------------------------------------------------------------------


def import_results(cup: Cup, preview: CupImportPreview, user=None) -> tuple[int, int]:
    """Write every accepted tournament of ``preview`` into ``cup`` in one transaction, creating
    the new players, bump the cup's version (:func:`~scoring.cups.table.touch_cup`) and log it
    in the cup's action log as ``user``'s. Returns ``(results written, players created)``.

    Raises :class:`ImportRefused`, nothing written, when there is nothing to import or one of its
    tournaments was imported meanwhile (a second confirm, a double click: checked after the first
    write of the transaction, which makes a concurrent confirm wait for this one to commit; the
    unique constraint on ``(cup, event, date, player)`` is the last guard).
    """
    if not preview.ok:
        raise ImportRefused(_("Nothing to import: every row of the file is refused or held back."))
    try:
        with transaction.atomic():
            # The cup's version first: this UPDATE locks the cup's row (PostgreSQL) or the database
            # (SQLite) until commit, so a second confirm waits here and then sees the first's rows.
            touch_cup(cup.pk)
            imported = already_imported(cup)
            again = [e for e in preview.accepted if e.key in imported]
            if again:
                raise ImportRefused(_imported_meanwhile(again))
            created: dict[tuple, Player] = {}
            results = []
            for event in preview.accepted:
                for planned in event.rows:
                    player = planned.player
                    if player is None:
                        player = created.get(planned.new_key)
                        if player is None:
                            player = created[planned.new_key] = Player.objects.create(name=planned.row.name, club=planned.row.club)
                    results.append(
                        CupResult(
                            cup=cup, event=event.name, date=event.date, away=event.away, player=player,
                            rank=planned.row.rank, field_size=event.field_size, total=planned.row.total,
                        )
                    )
            CupResult.objects.bulk_create(results, batch_size=500)
            log_cup(cup, CupAction.Action.RESULTS_IMPORTED, user, detail=_imported_detail(preview.accepted))
    except IntegrityError as exc:  # the same tournament written meanwhile by another request
        raise ImportRefused(_imported_meanwhile(preview.accepted)) from exc
    return len(results), len(created)


def _imported_meanwhile(events: list[EventPlan]) -> str:
    return _("Nothing was imported: %(events)s was imported meanwhile (a second click?). The cup table shows it.") % {
        "events": ", ".join(f"{quoted(e.name)} ({e.date.isoformat()})" for e in events)
    }


def _imported_detail(events: list[EventPlan]) -> str:
    """The cup log's line of an import: "Herbstturnier (2025-10-04): 15; Frühjahr (2026-03-01): 12"."""
    return "; ".join(f"{e.name} ({e.date.isoformat()}): {len(e.rows)}" for e in events)


def remove_results(cup: Cup, event: str, date: datetime.date, user=None) -> int:
    """Remove the results imported into ``cup`` for tournament ``event`` held on ``date``, bump
    the cup's version and log it in the cup's action log as ``user``'s, in one transaction.
    Returns how many results were removed (0: there were none, nothing is logged). The players
    the import registered stay in the register."""
    with transaction.atomic():
        removed, _by_model = CupResult.objects.filter(cup=cup, event=event, date=date).delete()
        if removed:
            touch_cup(cup.pk)
            log_cup(cup, CupAction.Action.RESULTS_REMOVED, user, detail=f"{event} ({date.isoformat()}): {removed}")
    return removed
