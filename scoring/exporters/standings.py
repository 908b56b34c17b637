"""Standings exports: an xlsx workbook (openpyxl) and an A4 PDF (WeasyPrint); all hands in long
format as a workbook and as CSV.

The rows are computed once (:func:`export_data`) and rendered to both formats, as pretix's
exporters do. Numbers are written as numbers, never as formulas.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO
from zipfile import ZIP_DEFLATED, ZipFile

from django.db.models import TextField
from django.db.models.functions import Cast
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.writer.excel import ExcelWriter

from scoring.models import Hand
from scoring.services import record_names
from scoring.services.display import describe_parts, prepared_parts
from scoring.standings import Standings, compute_standings
from tournaments.models import Seat, Tournament
from tournaments.pdf import html_to_pdf
from tournaments.problems import phrases

UNPLAYED = "–"  # a round a player did not play, in the workbook as on the page


@dataclass
class ExportData:
    """Everything the exports show: the standings, tables per round and every hand."""

    tournament: Tournament
    standings: Standings
    ruleset: object
    round_tables: dict  # round number -> list of (table number, [(name, seat score or UNPLAYED)])
    hands: list  # (round, table, hand, contract, declarer, partner, description, [(name, score)])
    # (round, table) -> (names, rows, sums): each hand a row [hand, dealer, description, notation,
    # *scores] as the workbook writes it; sums: the score columns' sums (as far as every row reaches)
    table_hands: dict


def export_data(tournament: Tournament, *, long_format: bool = True) -> ExportData:
    """Load and compute what the exports need (a fixed number of queries: the seats, the hands and
    the standings' own). Rows come as tuples (``values_list``), not model instances: at 1,000
    players that is 12,000 hands and 3,000 seats. ``long_format=False``: ``hands`` is left empty
    (the standings workbook does not show it).

    Hands alike are worked out once: each hand's record and score row are read as their stored
    JSON text, and a record with the same text, the same row and the same table size has the same
    contract, words (``Ruleset.describe``, translated but for the players' names) and notation;
    only the names differ from table to table. Each phrase is translated once (:func:`phrases`)."""
    rs = tournament.get_ruleset()
    seats: dict[int, list[str]] = {}
    table_meta: dict[int, tuple[int, int]] = {}
    for table_id, round_number, table_number, name in (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table_id", "table__round__number", "table__number", "registration__player__name")
    ):
        seats.setdefault(table_id, []).append(name)
        table_meta[table_id] = (round_number, table_number)
    by_seat = {tid: dict(enumerate(names)) for tid, names in seats.items()}
    table_hands: dict[tuple[int, int], tuple] = {meta: (seats[tid], []) for tid, meta in table_meta.items()}
    outcomes = {"struck": _("struck"), "manual": _("manual row")}  # translated once, not per hand
    contract_names: dict[str, str] = {}
    fields: dict[str, tuple] = {}
    words = phrases()
    kept: dict = {}  # description parts alike, prepared once (prepared_parts)

    def fields_of(key: str) -> tuple:
        """The record fields of a contract (a Trischaken or a Klop names no declarer)."""
        if key not in fields:
            try:
                fields[key] = rs.fields(rs.contract(key))
            except KeyError:
                fields[key] = ()
        return fields[key]

    def seat_of(record: dict, field: str):
        """The seat ``record[field]`` names (its own numbering), ``None`` for none."""
        value = record.get(field)
        return value if isinstance(value, int) else None

    def words_of(parts) -> list | str:
        """The hand's words as :func:`describe_parts` takes them, or their text if no seat is named."""
        prepared = prepared_parts(parts, words, kept)
        if not prepared:
            return ""
        return prepared[0] if len(prepared) == 1 and prepared[0].__class__ is str else prepared

    def shape_of(record_text: str, scores_text: str, table_size: int) -> tuple:
        """What a hand's record and row say whatever the names: ``(its own seat numbering or None,
        scores, dealer seat, words, notation)``, with ``long_format`` also ``(contract column,
        declarer seat, partner seat)``."""
        record, scores = json.loads(record_text), json.loads(scores_text)  # as the JSONField reads them
        numbering = record.get("seats") or None  # as record_names reads it
        shape = (
            numbering,
            scores,
            seat_of(record, "dealer"),
            words_of(rs.describe(record, scores)),
            rs.format_hand(record, len(numbering) if numbering else table_size),  # in the hand's own numbering
        )
        if not long_format:
            return shape
        key = record.get("contract") or ""
        if key not in contract_names:
            try:
                contract_names[key] = rs.contract(key).name if key else ""
            except KeyError:
                contract_names[key] = key
        return shape + (
            outcomes.get(record.get("outcome"), contract_names[key]),
            seat_of(record, "declarer") if "declarer" in fields_of(key) else None,
            seat_of(record, "partner") if record.get("partner") != record.get("declarer") else None,
        )

    shapes: dict[tuple[str, str, int], tuple] = {}
    scores_of: dict[int, list] = {tid: [] for tid in seats}  # each table's score rows, for its sums
    hands = []
    table_id = None
    for hand_table, hand_number, record_text, scores_text in (
        Hand.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "number")
        .values_list("table_id", "number", Cast("record", TextField()), Cast("scores", TextField()))
    ):
        if hand_table != table_id:  # the hands come table by table
            table_id = hand_table
            names = by_seat.get(table_id, {})
            size = len(names)
            rows = table_hands[table_meta[table_id]][1]
            table_scores = scores_of[table_id]
        key = (record_text, scores_text, size)
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = shape_of(*key)
        numbering, scores, dealer, parts, notation = shape[:5]
        played = names if numbering is None else record_names({"seats": numbering}, names)  # the hand's own numbering
        description = parts if parts.__class__ is str else describe_parts(parts, played, words)
        rows.append([hand_number, "" if dealer is None else played.get(dealer, ""), description, notation, *scores])
        table_scores.append(scores)
        if long_format:
            contract, declarer, partner = shape[5:]
            round_number, table_number = table_meta[table_id]
            hands.append(
                (
                    round_number,
                    table_number,
                    hand_number,
                    contract,
                    "" if declarer is None else played.get(declarer, ""),
                    "" if partner is None else played.get(partner, ""),
                    description,
                    list(zip(seats.get(table_id, []), scores)),
                )
            )
    round_tables: dict[int, list] = {}
    for table_id, (round_number, table_number) in sorted(table_meta.items(), key=lambda kv: kv[1]):
        names, rows = table_hands[(round_number, table_number)]
        rows_scores = scores_of[table_id]
        sums = [sum(column) for column in zip(*rows_scores)]
        table_hands[(round_number, table_number)] = (names, rows, sums)
        if not rows:
            # A table without a hand has not played its round: no score ("–"), as on the standings.
            scores = [UNPLAYED] * len(names)
        elif set(map(len, rows_scores)) == {len(names)}:
            scores = sums  # every row has a score for each seat
        else:
            scores = _seat_totals(rows_scores, len(names))
        round_tables.setdefault(round_number, []).append((table_number, list(zip(names, scores))))
    return ExportData(
        tournament=tournament,
        standings=compute_standings(tournament),
        ruleset=rs,
        round_tables=round_tables,
        hands=hands,
        table_hands=table_hands,
    )


def _seat_totals(rows_scores: list, size: int) -> list[int]:
    """Each of ``size`` seats' sum over score rows of any length (a row longer than the table
    raises ``IndexError``, as a score for no seat is an error)."""
    totals = [0] * size
    for scores in rows_scores:
        for i, score in enumerate(scores):
            totals[i] += score
    return totals


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector paused while an export is built, as for the PDFs
    (:func:`tournaments.pdf.html_to_pdf`): the tens of thousands of rows, tuples and cells an
    export keeps until it is written made the collector scan them again and again (at 1,000
    players, the workbook's hands took 0.47 s instead of 0.26 s). Reference counting still frees
    what it can; cycles go at the next collection after the export."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Book:
    """The workbook in openpyxl's write-only mode: rows stream to the file as they are appended,
    without a Cell object per value kept for the whole workbook (at 1,000 players some 240,000
    values). A sheet's column widths and frozen header are set before its first row; a bold or
    "="-text value goes in as a cell of its own, every other value as itself."""

    BOLD = Font(bold=True)

    def __init__(self):
        self.wb = Workbook(write_only=True)
        self._bold: dict[int, list] = {}  # id(sheet) -> its bold cells, reused from row to row

    def sheet(self, title: str, widths, header=None):
        """A new sheet with its column widths; ``header``: a bold first row, frozen."""
        ws = self.wb.create_sheet(title[:31])
        for i, width in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(i)].width = width
        if header is not None:
            ws.freeze_panes = "A2"  # a coordinate, set before the rows
            self.bold_row(ws, header)
        return ws

    def bold_row(self, ws, values) -> None:
        """A row of bold cells: the headers of every table block (at 1,000 players some 6,800 cells).
        openpyxl writes an appended row at once, so the next bold row of the sheet takes the same
        cells with its own values: styling a cell looks its font up in the workbook's list of
        fonts (hashing it), once per cell, not once per row, and writing it looks its style up
        likewise, once per cell and row (:class:`_StyledCell` does it once). A value other than
        text or a number (a date sets a number format) gets a cell of its own."""
        pool = self._bold.setdefault(id(ws), [])
        while len(pool) < len(values):
            pool.append(_StyledCell(ws, self.BOLD))
        cells = []
        for cell, value in zip(pool, values):
            if cell._value is value:
                pass  # this column's header again ("Hand", "Dealer", …): the cell holds it as it should
            elif value is None or value.__class__ in (str, int, float):
                cell.value = value
                _text(cell)
            else:
                cell = WriteOnlyCell(ws)
                cell.font = self.BOLD
                cell.value = value
            cells.append(cell)
        ws.append(cells)

    @staticmethod
    def append(ws, values) -> None:
        """Append a row; text that starts with "=" stays text (openpyxl would write a formula)."""
        for value in values:
            if value.__class__ is str and value.startswith("="):
                values = [_text(WriteOnlyCell(ws, value=v)) if v.__class__ is str else v for v in values]
                break
        ws.append(values)

    def save(self) -> bytes:
        """The xlsx file; deflated at level 1, not Python's default 6 (what ``Workbook.save``
        uses): at 1,000 players 0.07 s instead of 0.21 s for 11 MB of XML, 1.6 MB instead of 1.2."""
        out = BytesIO()
        with ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1) as archive:
            ExcelWriter(self.wb, archive).save()
        return out.getvalue()


class _StyledCell(Cell):
    """A write-only cell whose style stays as it was made, for :meth:`_Book.bold_row` to reuse row
    after row. openpyxl asks a styled cell for the number of its style each time it writes it and
    finds it by hashing the style into the workbook's list of styles; this cell keeps the number
    it found when it was made. Its ``repr`` is a constant: openpyxl formats it for the error it
    catches when it tries a cell as a value, once per appended cell."""

    __slots__ = ("_style_id",)
    has_style = True  # it has a font

    def __init__(self, worksheet, font: Font):
        super().__init__(worksheet, row=1, column=1)  # as openpyxl's WriteOnlyCell
        self.font = font
        self._style_id = Cell.style_id.fget(self)  # the style added to the workbook's list, once

    @property
    def style_id(self) -> int:
        return self._style_id

    def __repr__(self) -> str:
        return "<_StyledCell>"


def _text(cell):
    """``cell`` with text that starts with "=" kept as text, not a formula."""
    if isinstance(cell.value, str) and cell.value.startswith("="):
        cell.data_type = "s"
    return cell


def _round_hands_sheet(book: _Book, data: ExportData, number: int) -> None:
    """Sheet "Round N hands": each table's hands as on its score sheet, in words and in notation
    (the line the quick entry and raw rows read back, :mod:`variants.notation`), players as
    columns, a sum row per table."""
    blocks = sorted((key, block) for key, block in data.table_hands.items() if key[0] == number)
    widest = max((len(names) for _key, (names, _rows, _sums) in blocks), default=4)
    tws = book.sheet(_("Round %(number)s hands") % {"number": number}, [7, 22, 46, 20] + [14] * widest)
    hand, dealer, description, notation, total = _("Hand"), _("Dealer"), _("Description"), _("Notation"), _("Total")
    table = _("Table %(number)s")
    append = tws.append
    for (_r, table_number), (names, rows, sums) in blocks:
        book.bold_row(tws, [table % {"number": table_number}])
        book.bold_row(tws, [hand, dealer, description, notation, *names])
        if any(name.startswith("=") for name in names):  # a dealer's name that would be a formula
            for row in rows:
                book.append(tws, row)
        else:
            # The text of a row: the dealer (one of the names), the words and the notation.
            for row in rows:
                if row[2].startswith("=") or row[3].startswith("="):
                    book.append(tws, row)
                else:
                    append(row)
        if rows:
            append([None, None, total, None, *sums])
        append([])


def standings_xlsx(tournament: Tournament) -> bytes:
    """The standings workbook: "Standings"; per round "Round N" (each table's players and seat
    scores) and "Round N hands" (each table's hands as a block with each hand's notation, players
    as columns). Every hand in long format is its own download (:func:`hands_xlsx`)."""
    with _collector_paused():
        return _standings_xlsx(tournament)


def _standings_xlsx(tournament: Tournament) -> bytes:
    data = export_data(tournament, long_format=False)
    book = _Book()
    rounds = data.standings.rounds
    victory = bool(data.ruleset.victory_points)
    ws = book.sheet(
        _("Standings"),
        [7, 6, 28, 22] + [10] * len(rounds) * (2 if victory else 1) + [9] * (2 if victory else 1) + [40],
        [_("Rank"), _("No."), _("Name"), _("Town or club")]
        + [_("Round %(number)s") % {"number": n} for n in rounds]
        + ([_("Table points %(round)s") % {"round": n} for n in rounds] if victory else [])
        + ([_("Table points"), _("Game points")] if victory else [_("Total")])
        + [_("Tie-break")],
    )
    withdrawn = " (" + _("withdrawn") + ")"
    for row in data.standings.rows:
        e = row.entry
        name = e.name + withdrawn if e.withdrawn else e.name
        # Table points (Bled) are exact fractions; Excel gets them as numbers (1.5, 1.1666…). A
        # round not played is "–", as on the page, never 0.
        points = [UNPLAYED if v is None else float(v) for v in e.victory] + [float(e.total), e.game_total] if victory else [e.total]
        rounds_ = [UNPLAYED if r is None else r for r in e.rounds]
        book.append(ws, [row.rank, e.start_number, name, e.club, *rounds_, *points, row.tiebreak])

    for number, tables in sorted(data.round_tables.items()):
        rws = book.sheet(
            _("Round %(number)s") % {"number": number}, [8, 6, 28, 10], [_("Table"), _("Seat"), _("Name"), _("Score")]
        )
        for table_number, players in tables:
            for seat, (name, score) in enumerate(players, start=1):
                book.append(rws, [table_number, seat, name, score])
        _round_hands_sheet(book, data, number)

    return book.save()


def long_rows(data: ExportData):
    """The long format: a row per hand and player, ``[round, table, hand, contract, declarer,
    partner, player, score]`` with ``None`` for no declarer or partner, so a pivot table can sum by
    player, contract or declarer. What each hand was in words is in the standings workbook's
    "Round N hands" blocks."""
    for round_number, table_number, hand_number, contract, declarer, partner, _description, scores in data.hands:
        head = [round_number, table_number, hand_number, contract, declarer or None, partner or None]
        for name, score in scores:
            yield [*head, name, score]


def long_header() -> list[str]:
    return [_("Round"), _("Table"), _("Hand"), _("Contract"), _("Declarer"), _("Partner"), _("Player"), _("Score")]


def hands_xlsx(tournament: Tournament) -> bytes:
    """All hands in long format as a workbook of one sheet, "Hands" (:func:`long_rows`). A download
    of its own, not a sheet of the standings workbook: at 1,000 players it is 48,000 rows, three
    quarters of the time a standings workbook holding them took to write."""
    data = export_data(tournament)
    book = _Book()
    hws = book.sheet(_("Hands"), [7, 7, 7, 18, 24, 24, 28, 9], long_header())
    for row in long_rows(data):
        book.append(hws, row)  # None, not "", for a blank: openpyxl writes no cell for it
    return book.save()


def hands_csv(tournament: Tournament) -> bytes:
    """All hands in long format as CSV (:func:`long_rows`): UTF-8 with a byte order mark (so Excel
    reads the accents), comma-separated, one header row, blanks empty. Text is never a formula:
    a value that starts with ``=``, ``+``, ``-`` or ``@`` gets a leading apostrophe."""
    import csv
    import io

    data = export_data(tournament)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(long_header())
    for row in long_rows(data):
        writer.writerow(["'" + v if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") else v for v in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def standings_pdf(tournament: Tournament, after: int | None = None, progress=None) -> bytes:
    """The standings as an A4 PDF with tournament name, date, venue and ruleset in the header;
    ``after``: the standings after that round (all drawn rounds by default). A field of more than
    :data:`tournaments.pdf.CHUNK_ROWS` players is laid out in chunks of pages on several processes
    (:func:`tournaments.pdf.long_table_pdf`, the same pages), calling ``progress(rows, total)`` as
    chunks are done."""
    from scoring.exporters.prints import text_width
    from tournaments.pdf import CHUNK_ROWS, long_table_pdf

    standings = compute_standings(tournament, after)
    html = render_to_string(
        "exporters/standings_pdf.html",
        {"standings": standings, "tournament": tournament, "ruleset": tournament.get_ruleset()},
    )
    if len(standings.rows) <= CHUNK_ROWS:
        return html_to_pdf(html)
    return long_table_pdf(html, text_width, progress=progress)
