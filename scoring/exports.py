"""Standings exports: an xlsx workbook (openpyxl) and an A4 PDF (WeasyPrint).

The rows are computed once (:func:`export_data`) and rendered to both formats, as pretix's
exporters do. Numbers are written as numbers, never as formulas.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournaments.models import Seat, Tournament
from tournaments.pdf import html_to_pdf

from .models import Hand
from .services import describe, record_names
from .standings import Standings, compute_standings


@dataclass
class ExportData:
    """Everything the exports show: the standings, tables per round and every hand (long format)."""

    tournament: Tournament
    standings: Standings
    ruleset: object
    round_tables: dict  # round number -> list of (table number, [(name, seat score)])
    hands: list  # (round, table, hand, contract, declarer, partner, description, [(name, score)])
    table_hands: dict  # (round, table) -> (names, [(hand, dealer, description, scores)])


def export_data(tournament: Tournament) -> ExportData:
    """Load and compute what the exports need (a fixed number of queries)."""
    rs = tournament.get_ruleset()
    seats: dict[int, list] = {}
    table_meta: dict[int, tuple[int, int]] = {}
    for seat in Seat.objects.filter(table__round__tournament=tournament).select_related(
        "registration__player", "table__round"
    ).order_by("table__round__number", "table__number", "position"):
        seats.setdefault(seat.table_id, []).append(seat.registration.player.name)
        table_meta[seat.table_id] = (seat.table.round.number, seat.table.number)
    totals: dict[int, list[int]] = {tid: [0] * len(names) for tid, names in seats.items()}
    hands = []
    table_hands: dict[tuple[int, int], tuple[list[str], list]] = {
        meta: (seats[tid], []) for tid, meta in table_meta.items()
    }
    for hand in Hand.objects.filter(table__round__tournament=tournament).order_by(
        "table__round__number", "table__number", "number"
    ):
        names = seats.get(hand.table_id, [])
        for i, s in enumerate(hand.scores):
            totals[hand.table_id][i] += s
        record = hand.record
        contract = record.get("contract") or ""
        try:
            contract = rs.contract(contract).name if contract else ""
        except KeyError:
            pass
        played = record_names(record, dict(enumerate(names)))  # the hand's own seat numbering

        def seat_name(key, played=played, record=record):
            return played.get(record[key], "") if isinstance(record.get(key), int) else ""

        round_number, table_number = table_meta[hand.table_id]
        description = describe(record, dict(enumerate(names)), rs, hand.scores)
        table_hands[(round_number, table_number)][1].append(
            (hand.number, seat_name("dealer"), description, hand.scores)
        )
        hands.append(
            (
                round_number,
                table_number,
                hand.number,
                {"struck": _("struck"), "manual": _("manual row")}.get(record.get("outcome"), contract),
                "" if record.get("contract") == "trischaken" else seat_name("declarer"),
                seat_name("partner") if record.get("partner") != record.get("declarer") else "",
                description,
                list(zip(names, hand.scores)),
            )
        )
    round_tables: dict[int, list] = {}
    for table_id, (round_number, table_number) in sorted(table_meta.items(), key=lambda kv: kv[1]):
        round_tables.setdefault(round_number, []).append(
            (table_number, list(zip(seats[table_id], totals[table_id])))
        )
    return ExportData(
        tournament=tournament,
        standings=compute_standings(tournament),
        ruleset=rs,
        round_tables=round_tables,
        hands=hands,
        table_hands=table_hands,
    )


def _append(ws, values) -> int:
    """Append a row and return its number; text that starts with "=" stays text (openpyxl would
    write a formula). Never reads ``ws.max_row``, which scans every cell of the sheet."""
    ws.append(values)
    row = ws._current_row  # the row append just wrote (openpyxl keeps it; max_row is O(cells))
    for i, value in enumerate(values):
        if isinstance(value, str) and value.startswith("="):
            ws.cell(row=row, column=i + 1).data_type = "s"
    return row


def _bold(ws, row: int, columns: int) -> None:
    for column in range(1, columns + 1):
        ws.cell(row=row, column=column).font = Font(bold=True)


def _header(ws, values) -> None:
    row = _append(ws, values)
    _bold(ws, row, len(values))
    ws.freeze_panes = f"A{row + 1}"  # a coordinate: ws.cell() would create an empty row


def _widths(ws, widths) -> None:
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width


def _round_hands_sheet(wb, data: ExportData, number: int) -> None:
    """Sheet "Round N hands": each table's hands as on its score sheet, players as columns, a sum
    row per table."""
    tws = wb.create_sheet((_("Round %(number)s hands") % {"number": number})[:31])
    widest = max((len(names) for (r, _t), (names, _h) in data.table_hands.items() if r == number), default=4)
    _widths(tws, [7, 22, 46] + [14] * widest)
    for (r, table_number), (names, rows) in sorted(data.table_hands.items()):
        if r != number:
            continue
        _bold(tws, _append(tws, [_("Table %(number)s") % {"number": table_number}]), 1)
        _bold(tws, _append(tws, [_("Hand"), _("Dealer"), _("Description"), *names]), 3 + len(names))
        for hand_number, dealer, description, scores in rows:
            _append(tws, [hand_number, dealer, description, *scores])
        if rows:
            _append(tws, ["", "", _("Total"), *[sum(col) for col in zip(*(row[3] for row in rows))]])
        _append(tws, [])


def standings_xlsx(tournament: Tournament) -> bytes:
    """The standings workbook: "Standings", one sheet per round ("Round N"), "Hands" (long format)."""
    data = export_data(tournament)
    wb = Workbook()
    ws = wb.active
    ws.title = _("Standings")[:31]
    rounds = data.standings.rounds
    victory = bool(getattr(data.standings.tournament.get_ruleset(), "victory_points", None))
    _header(
        ws,
        [_("Rank"), _("No."), _("Name"), _("Town or club")]
        + [_("Round %(number)s") % {"number": n} for n in rounds]
        + ([_("Table points %(round)s") % {"round": n} for n in rounds] if victory else [])
        + ([_("Table points"), _("Game points")] if victory else [_("Total")])
        + [_("Tie-break")],
    )
    for row in data.standings.rows:
        e = row.entry
        name = e.name + (" (" + _("withdrawn") + ")" if e.withdrawn else "")
        # Table points (Bled) are exact fractions; Excel gets them as numbers (1.5, 1.1666…).
        points = [None if v is None else float(v) for v in e.victory] + [float(e.total), e.game_total] if victory else [e.total]
        _append(ws, [row.rank, e.start_number, name, e.club, *e.rounds, *points, row.tiebreak])
    _widths(ws, [7, 6, 28, 22] + [10] * len(rounds) * (2 if victory else 1) + [9] * (2 if victory else 1) + [40])

    for number, tables in sorted(data.round_tables.items()):
        rws = wb.create_sheet((_("Round %(number)s") % {"number": number})[:31])
        _header(rws, [_("Table"), _("Seat"), _("Name"), _("Score")])
        for table_number, players in tables:
            for seat, (name, score) in enumerate(players, start=1):
                _append(rws, [table_number, seat, name, score])
        _widths(rws, [8, 6, 28, 10])
        _round_hands_sheet(wb, data, number)

    hws = wb.create_sheet(_("Hands")[:31])
    _header(
        hws,
        [_("Round"), _("Table"), _("Hand"), _("Contract"), _("Declarer"), _("Partner"), _("Description"), _("Player"), _("Score")],
    )
    for round_number, table_number, hand_number, contract, declarer, partner, description, scores in data.hands:
        for name, score in scores:
            _append(hws, [round_number, table_number, hand_number, contract, declarer, partner, description, name, score])
    _widths(hws, [7, 7, 7, 18, 24, 24, 50, 24, 8])

    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def standings_pdf(tournament: Tournament, after: int | None = None) -> bytes:
    """The standings as an A4 PDF with tournament name, date, venue and ruleset in the header;
    ``after``: the standings after that round (all drawn rounds by default)."""
    html = render_to_string(
        "scoring/standings_pdf.html",
        {"standings": compute_standings(tournament, after), "tournament": tournament, "ruleset": tournament.get_ruleset()},
    )
    return html_to_pdf(html)
