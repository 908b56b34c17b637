"""The cup table's exports: a workbook and a one-page poster.

Both render :func:`scoring.cups.table.cup_standings`; the cup points are those of
``../shared/rules/tournament-formats.md`` §4 (computed in :mod:`scoring.cups.points`).

Workbook (:func:`cup_workbook`): sheet "Cup" (rank, player, club, played, a column per tournament
held with the player's cup points there, total, tie-break), a sheet of the same layout per
sub-ranking, and "Results" (every result: tournament, date, rank, field size, player, club, cup
points, counted). Points are numbers, never text: a result not counted is shown in parentheses
and struck through by the cell's number format and font (``(154)``), a shared rank by a ``*``
after the points, so the cells still sum. The rules the table applies (:func:`rules_applied`) are
the notes of its "Total" (counting, final, Ö-Finale) and "Tie-break" (their order) heads and the
workbook's description; a final a qualifier stayed away from is noted on his cell and is "absent"
in the results' rank column.

Poster (:func:`cup_poster_pdf`): the cup table with the cup's name, point method and counting,
the other rules it applies (:func:`rules_applied`) in its note, the tournaments numbered under it,
on A4 landscape, or A3 landscape for more than :data:`A4_EVENTS` tournaments or :data:`A4_ROWS`
players; the type shrinks to fit the page.
**Decision**: a table too long even for A3 at the smallest type (:data:`MIN_FONT_PT`) goes on to a
second page rather than leaving players out.
"""

from __future__ import annotations

import datetime
import re
from io import BytesIO

from django.template.loader import render_to_string
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from scoring.cups.models import Cup
from scoring.cups.table import CupStandings, cup_standings, season
from tournaments.pdf import html_to_pdf

BOLD = Font(bold=True)
STRUCK = Font(strike=True, color="808080")
COUNTED_FORMAT, COUNTED_SHARED_FORMAT = "0", '0"*"'
DROPPED_FORMAT, DROPPED_SHARED_FORMAT = "(0)", '(0"*")'
DATE_FORMAT = "yyyy-mm-dd"

A4_EVENTS = 12  # tournament columns that fit A4 landscape beside the names
A4_ROWS = 40  # players that fit A4 landscape at about 7 pt
MAX_FONT_PT, MIN_FONT_PT, MIN_WIDE_FONT_PT = 10.0, 5.0, 3.5


def tiebreak_text(code: str, place: int = 0) -> str:
    """The words for :attr:`scoring.cups.points.CupRow.tiebreak` (as on the cup table page);
    ``place``: :attr:`~scoring.cups.points.CupRow.tiebreak_place` (which counted result, for
    ``"next_best"``)."""
    if code == "next_best":
        return _("lower counted result no. %(place)s (best first)") % {"place": place}
    return {
        "counted": _("fewer counted results"),
        "best": _("lower best result"),
        "recent": _("worse in the latest tournament"),
        "level": _("level"),
    }.get(code, "")


def row_tiebreak(row) -> str:
    """:func:`tiebreak_text` of a :class:`~scoring.cups.points.CupRow`."""
    return tiebreak_text(row.tiebreak, row.tiebreak_place)


def counting_text(cup: Cup, standings: CupStandings) -> str:
    """"every result counts", "the best half counts: 5 results", "the best half of the 12 planned
    tournaments counts: 6 results", "the best 8 results count" (``tournament-formats.md`` §4)."""
    if cup.counting == "all":
        return _("every result counts")
    if cup.counting == "half":
        count = standings.counts
        if standings.from_planned:
            return ngettext(
                "the best half of the %(planned)s planned tournaments counts: %(count)s result",
                "the best half of the %(planned)s planned tournaments counts: %(count)s results",
                count,
            ) % {"planned": standings.planned, "count": count}
        return ngettext("the best half counts: %(count)s result", "the best half counts: %(count)s results", count) % {"count": count}
    count = cup.counting_rule
    return ngettext("the best %(count)s result counts", "the best %(count)s results count", count) % {"count": count}


def tiebreak_order_text(cup: Cup) -> str:
    """The order that separates level cup totals, as a sentence (the cup's ``cup_tiebreak``)."""
    if cup.cup_tiebreak == Cup.Tiebreak.MORE_RESULTS_FIRST:
        return _("Level totals are separated by more counted results, then the best single result, then the latest tournament.")
    return _(
        "Level totals are separated by the best counted result, then the second best, and so on; then more counted "
        "results; then the latest tournament."
    )


def final_text(cup: Cup, standings: CupStandings) -> str:
    """What the cup's final scores, as a sentence ("" for a cup without negative final ranks)."""
    if not cup.wtc_final_negative:
        return ""
    if cup.final_tournament_id is None:
        return _("Ranks from 51 on in the final score negative points, but the cup names no final yet.")
    name = standings.final.name if standings.final is not None else cup.final_tournament.name
    return _(
        "The final (%(name)s) scores ranks 1–50 like any tournament, ranks from 51 on −(rank − 50); a qualifier who does "
        "not play it scores −(players in the final − 49)."
    ) % {"name": name}


def oe_finale_text(cup: Cup) -> str:
    """Which Ö-Finale Vorrundenpunkte table the cup's season ranks carry, as a sentence (""
    for none; ``koenigrufen-raiffeisen.md`` §6.9)."""
    if not cup.oe_finale_table:
        return ""
    return _(
        "Tarock-Österreich-Finale: the season ranks 1–%(ranks)s carry Vorrundenpunkte by the table of %(ranks)s ranks "
        "(120 for the cup winner); a rank past it does not qualify."
    ) % {"ranks": cup.oe_finale_table}


def rules_applied(cup: Cup, standings: CupStandings) -> list[str]:
    """The counting rules the cup table applies, one sentence each: the point method and how many
    results count from what, the order of level totals, the final's negative ranks and the
    Ö-Finale table (the last two only where the cup has them)."""
    first = f"{cup.get_method_display()}: {counting_text(cup, standings)}."
    return [text for text in (first, tiebreak_order_text(cup), final_text(cup, standings), oe_finale_text(cup)) if text]


def _text(cell):
    """Text that starts with "=" stays text, never a formula (a name typed as "=…")."""
    if isinstance(cell.value, str) and cell.value.startswith("="):
        cell.data_type = "s"
    return cell


_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


def sheet_title(name: str, taken: set[str]) -> str:
    """``name`` as a sheet title: at most 31 characters, without ``[]:*?/\\``, unique among
    ``taken`` (ignoring case, as Excel does) by a number in parentheses; added to ``taken``."""
    base = _SHEET_FORBIDDEN.sub("-", name).strip("' ") or _("Ranking")
    title, n = base[:31], 1
    while title.casefold() in taken:
        n += 1
        suffix = f" ({n})"
        title = base[: 31 - len(suffix)] + suffix
    taken.add(title.casefold())
    return title


def event_heading(event) -> str:
    """``"3. Cup Hall, 2026-11-21"``: the tournament's number in the season, name and date."""
    return f"{event.order}. {event.name}, {formats.date_format(event.date, 'SHORT_DATE_FORMAT')}"


def _table_sheet(wb: Workbook, title: str, standings: CupStandings) -> None:
    """A sheet of the cup table (see the module's docstring)."""
    ws = wb.create_sheet(title)
    events = standings.events
    header = [_("Rank"), _("Player"), _("Town or club"), _("Played")] + [event_heading(e) for e in events] + [_("Total"), _("Tie-break")]
    ws.append(header)
    for cell in ws[1]:
        cell.font = BOLD
        cell.alignment = Alignment(wrap_text=True, vertical="bottom")
    ws.freeze_panes = "E2"
    first_event = 5
    rules = rules_applied(standings.cup, standings)
    ws.cell(1, first_event + len(events)).comment = Comment(" ".join([rules[0], *rules[2:]]), "")
    ws.cell(1, first_event + len(events) + 1).comment = Comment(rules[1], "")
    for i, row in enumerate(standings.rows, start=2):
        ws.cell(i, 1, row.rank)
        _text(ws.cell(i, 2, row.player.name))
        _text(ws.cell(i, 3, row.player.club))
        ws.cell(i, 4, row.played)
        mine = {r.key: r for r in row.results}
        for j, event in enumerate(events):
            result = mine.get(event.key)
            if result is None:
                continue
            cell = ws.cell(i, first_event + j, result.points)
            if result.absent:
                cell.comment = Comment(_("qualified for the final and did not play it"), "")
            if result.key in row.counted:
                cell.number_format = COUNTED_SHARED_FORMAT if result.shared else COUNTED_FORMAT
            else:
                cell.number_format = DROPPED_SHARED_FORMAT if result.shared else DROPPED_FORMAT
                cell.font = STRUCK
        ws.cell(i, first_event + len(events), row.total).font = BOLD
        ws.cell(i, first_event + len(events) + 1, row_tiebreak(row))
    widths = [7, 28, 22, 8] + [12] * len(events) + [9, 26]
    for index, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width
    if not standings.rows:
        ws.append([_("No tournament of this cup is finished yet.")])


def _results_sheet(wb: Workbook, title: str, standings: CupStandings) -> None:
    """Every result of the season, by tournament then rank."""
    ws = wb.create_sheet(title)
    ws.append([_("Tournament"), _("Date"), _("Rank"), _("Players"), _("Player"), _("Town or club"), _("Cup points"), _("Counted")])
    for cell in ws[1]:
        cell.font = BOLD
    ws.freeze_panes = "A2"
    counted = {row.player.pk: row.counted for row in standings.rows}
    yes, no = _("yes"), _("no")
    for i, (event, player, result) in enumerate(standings.results, start=2):
        _text(ws.cell(i, 1, event.name))
        date = ws.cell(i, 2, event.date)
        if isinstance(event.date, datetime.date):
            date.number_format = DATE_FORMAT
        ws.cell(i, 3, _("absent") if result.absent else result.rank)
        ws.cell(i, 4, event.field)
        _text(ws.cell(i, 5, player.name))
        _text(ws.cell(i, 6, player.club))
        ws.cell(i, 7, result.points)
        ws.cell(i, 8, yes if result.key in counted[player.pk] else no)
    for index, width in enumerate([30, 12, 7, 9, 28, 22, 11, 10], start=1):
        ws.column_dimensions[get_column_letter(index)].width = width


def cup_workbook(cup: Cup) -> bytes:
    """The cup table as an xlsx workbook (see the module's docstring); sheet names translated,
    one sheet per sub-ranking named after it (shortened and numbered where Excel needs it)."""
    wb = Workbook()
    wb.remove(wb.active)
    wb.properties.title = cup.name
    held = season(cup)  # ranked once for the cup and again for each sub-ranking, read once
    standings = cup_standings(cup, held=held)
    wb.properties.description = " ".join(rules_applied(cup, standings))
    taken: set[str] = set()
    cup_title, results_title = sheet_title(_("Cup"), taken), sheet_title(_("Results"), taken)
    _table_sheet(wb, cup_title, standings)
    for ranking in cup.rankings.all():
        _table_sheet(wb, sheet_title(ranking.name, taken), cup_standings(cup, ranking, held=held))
    _results_sheet(wb, results_title, standings)
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def poster_layout(events: int, rows: int, text_widths: tuple[int, int, int] = (30, 20, 0)) -> dict:
    """Page and type size of the poster for ``events`` tournament columns and ``rows`` players:
    ``{"page": "A4 landscape" | "A3 landscape", "font_pt": float}``; ``text_widths``: the longest
    name, club and tie-break text in characters.

    A3 for more than :data:`A4_EVENTS` tournaments or :data:`A4_ROWS` players. The type is the
    largest, at most :data:`MAX_FONT_PT`, at which the table fits the page's width and its header
    and ``rows`` lines its height (after margins, heading, note and the list of tournaments, three
    to a line); a line is 1.2 × the type plus 0.7 mm, a character some 0.6 × the type, a points
    cell ``(200)*`` 3.2 × the type plus 1 mm. **Decision**: the height gives way first: never below
    :data:`MIN_FONT_PT` for it, the rest flows on to another page; the width never (a column off
    the page would be lost), down to :data:`MIN_WIDE_FONT_PT`, some 65 tournaments on A3. An
    estimate: WeasyPrint lays the table out itself."""
    a3 = events > A4_EVENTS or rows > A4_ROWS
    page_height, page_width = (297, 420) if a3 else (210, 297)
    pt = 0.3528  # mm
    available = page_height - 2 * 10 - 23 - 3 * -(-events // 3) - 3  # margins, heading and note, legend
    fit_height = (available / (rows + 1) - 0.7) / (1.2 * pt)
    name, club, tiebreak = text_widths
    ems = 0.6 * (name + club + tiebreak) + 3 * 0.6 * 3 + 4 * 0.6 + 3.2 * events  # rank, played, total; points
    fit_width = (page_width - 2 * 10 - 2 * (7 + (1 if tiebreak else 0)) - 1.0 * events) / (ems * pt)
    font = max(MIN_FONT_PT, min(MAX_FONT_PT, fit_height))
    font = min(font, max(MIN_WIDE_FONT_PT, fit_width))
    return {"page": "A3 landscape" if a3 else "A4 landscape", "font_pt": round(font, 1)}


def cup_poster_pdf(cup: Cup) -> bytes:
    """The cup table as a poster (see the module's docstring): a PDF of one page for the usual
    season."""
    standings = cup_standings(cup)
    rows = []
    for row in standings.rows:
        mine = {r.key: r for r in row.results}
        cells = [(mine.get(e.key), mine.get(e.key) is not None and e.key in row.counted) for e in standings.events]
        rows.append({"row": row, "cells": cells, "tiebreak": row_tiebreak(row)})
    widths = tuple(
        max((len(text) for text in texts), default=0)
        for texts in (
            [r["row"].player.name for r in rows] + [_("Player")],
            [r["row"].player.club for r in rows] + [_("Town or club")],
            [r["tiebreak"] for r in rows] + [_("Tie-break")],
        )
    )
    layout = poster_layout(len(standings.events), len(standings.rows), widths)
    html = render_to_string(
        "cups/poster_pdf.html",
        {
            "cup": cup,
            "standings": standings,
            "rows": rows,
            "counting": counting_text(cup, standings),
            "rules": rules_applied(cup, standings)[1:],  # the method and counting head the poster
            "layout": layout,
            "today": datetime.date.today(),
        },
    )
    return html_to_pdf(html)
