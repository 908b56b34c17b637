"""The Ö-Finale's downloads: both lists as an xlsx workbook and as a printable PDF.

Both render :func:`scoring.finale.services.gesamtwertung` (with the qualifiers it was computed
from), in the house style of the cup table's exports (:mod:`scoring.cups.exports`): points are
numbers, never text; a shared rank is marked by a ``*`` in the cell's number format, so the
cells still sum; a text typed as ``=…`` stays text.

Workbook (:func:`finale_workbook`): sheet "Gesamtwertung" (rank, player, club, day rank, Schrift,
Vorrundenpunkte, Finalpunkte, total, the cups a player qualified through, what separated him from
the line above), sheet "Qualifiers" (rank, player, club, per cup his season rank and its
Vorrundenpunkte, his Vorrundenpunkte, registered or not), sheet "Finalpunkte" (the table).

PDF (:func:`finale_pdf`): the Gesamtwertung, then the qualifiers' list on a new page, A4.
"""

from __future__ import annotations

import datetime
from io import BytesIO

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from scoring.cups.exports import sheet_title
from scoring.finale.models import OeFinale
from scoring.finale.services import Gesamtwertung, gesamtwertung
from tournaments.pdf import render_pdf

BOLD = Font(bold=True)
GREY = Font(italic=True, color="808080")
RANK_FORMAT, SHARED_FORMAT = "0", '0"*"'


def text_cell(cell):
    """Text that starts with "=" stays text, never a formula (a name typed as "=…")."""
    if isinstance(cell.value, str) and cell.value.startswith("="):
        cell.data_type = "s"
    return cell


def tiebreak_text(row) -> str:
    """What separated a :class:`~scoring.finale.services.FinaleRow` from the line above on the
    same total: ``"day rank: 5 to 6"``, ``"level"`` or ``""``."""
    if row.tiebreak == "day":
        return _("day rank: %(above)s to %(below)s") % {"above": row.above_day_rank, "below": row.day_rank}
    return _("level") if row.tiebreak == "level" else ""


def places_text(qualifier) -> str:
    """``"Tiroler Tarockcup 3. (93), Wiener Tarockcup 12.* (72)"``: the cups a player qualified
    through, his rank there (``*`` shared) and its Vorrundenpunkte; ``"–"`` for no qualifier."""
    if qualifier is None:
        return "–"
    return ", ".join(f"{p.cup_name} {p.rank}.{'*' if p.shared else ''} ({p.points})" for p in qualifier.places)


def status_text(wertung: Gesamtwertung) -> str:
    """What keeps the Gesamtwertung provisional, or ``""`` when it is final."""
    reasons = []
    if not wertung.day_final:
        reasons.append(_("the day is not finished"))
    if wertung.qualifiers.provisional:
        reasons.append(_("a qualifying cup's season is not over"))
    if not wertung.table_entered:
        reasons.append(_("the Finalpunkte table is not entered"))
    return _("Provisional: %(reasons)s.") % {"reasons": "; ".join(reasons)} if reasons else ""


def _header(ws, titles, widths):
    ws.append(titles)
    for cell in ws[1]:
        cell.font = BOLD
        cell.alignment = Alignment(wrap_text=True, vertical="bottom")
    ws.freeze_panes = "D2"
    for index, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width


def _gesamtwertung_sheet(wb: Workbook, title: str, wertung: Gesamtwertung) -> None:
    ws = wb.create_sheet(title)
    _header(ws, [_("Rank"), _("Player"), _("Town or club"), _("Day rank"), _("Schrift"), _("Vorrundenpunkte"),
                 _("Finalpunkte"), _("Total"), _("Qualified through"), _("Tie-break")],
            [7, 28, 22, 9, 9, 15, 12, 9, 40, 18])
    for i, row in enumerate(wertung.rows, start=2):
        ws.cell(i, 1, row.rank).number_format = SHARED_FORMAT if row.shared else RANK_FORMAT
        text_cell(ws.cell(i, 2, row.name))
        text_cell(ws.cell(i, 3, row.club))
        if row.day_rank is not None:
            ws.cell(i, 4, row.day_rank).number_format = SHARED_FORMAT if row.day_shared else RANK_FORMAT
            ws.cell(i, 5, row.day_total)
        ws.cell(i, 6, row.vorrundenpunkte)
        ws.cell(i, 7, row.finalpunkte)
        ws.cell(i, 8, row.total).font = BOLD
        cell = text_cell(ws.cell(i, 9, places_text(row.qualifier) if row.qualifier else _("no qualifier")))
        if row.qualifier is None:
            cell.font = GREY
        ws.cell(i, 10, tiebreak_text(row))
    note = status_text(wertung)
    if note:
        ws.cell(len(wertung.rows) + 3, 1, note).font = GREY
    if not wertung.rows:
        ws.append([_("Nobody is ranked yet.")])


def _qualifiers_sheet(wb: Workbook, title: str, wertung: Gesamtwertung) -> None:
    ws = wb.create_sheet(title)
    found = wertung.qualifiers
    cups = [c for c in found.cups if c.table]
    titles = [_("Rank"), _("Player"), _("Town or club")]
    for c in cups:
        titles += [_("%(cup)s: rank") % {"cup": c.cup.name}, _("%(cup)s: Vorrundenpunkte") % {"cup": c.cup.name}]
    titles += [_("Vorrundenpunkte"), _("Registered")]
    _header(ws, titles, [7, 28, 22] + [12, 15] * len(cups) + [15, 11])
    yes, no = _("yes"), _("no")
    for i, q in enumerate(found.rows, start=2):
        ws.cell(i, 1, q.rank).number_format = SHARED_FORMAT if q.shared else RANK_FORMAT
        text_cell(ws.cell(i, 2, q.player.name))
        text_cell(ws.cell(i, 3, q.player.club))
        mine = {p.cup_id: p for p in q.places}
        for j, c in enumerate(cups):
            place = mine.get(c.cup.pk)
            if place is not None:
                ws.cell(i, 4 + 2 * j, place.rank).number_format = SHARED_FORMAT if place.shared else RANK_FORMAT
                ws.cell(i, 5 + 2 * j, place.points)
        ws.cell(i, 4 + 2 * len(cups), q.vorrundenpunkte).font = BOLD
        ws.cell(i, 5 + 2 * len(cups), yes if q.registered else no)
    if not found.rows:
        ws.append([_("Nobody has qualified yet.")])


def _finalpunkte_sheet(wb: Workbook, title: str, finale: OeFinale) -> None:
    ws = wb.create_sheet(title)
    _header(ws, [_("Day rank"), _("Finalpunkte")], [10, 12])
    ws.freeze_panes = "A2"
    for rank, value in enumerate(finale.finalpunkte or (), start=1):
        ws.append([rank, value])
    if not finale.finalpunkte:
        ws.append([_("The Finalpunkte table is not entered yet.")])


def finale_workbook(finale: OeFinale) -> bytes:
    """Both lists and the Finalpunkte table as an xlsx workbook (see the module's docstring)."""
    wertung = gesamtwertung(finale)
    wb = Workbook()
    wb.remove(wb.active)
    wb.properties.title = f"{finale.tournament.name} – {_('Gesamtwertung')}"
    taken: set[str] = set()
    _gesamtwertung_sheet(wb, sheet_title(_("Gesamtwertung"), taken), wertung)
    _qualifiers_sheet(wb, sheet_title(_("Qualifiers"), taken), wertung)
    _finalpunkte_sheet(wb, sheet_title(_("Finalpunkte"), taken), finale)
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def finale_pdf(finale: OeFinale) -> bytes:
    """The Gesamtwertung and the qualifiers' list as an A4 PDF (see the module's docstring)."""
    wertung = gesamtwertung(finale)
    return render_pdf("finale/finale_pdf.html", {
        "finale": finale, "tournament": finale.tournament, "wertung": wertung, "found": wertung.qualifiers,
        "cups": [c for c in wertung.qualifiers.cups if c.table], "status": status_text(wertung), "today": datetime.date.today(),
    })
