"""The project's downloads, each a registered exporter (:mod:`scoring.exporters.base`).

Public: the standings (workbook, PDF), all hands in long format (workbook, CSV), the notation card,
a round's seating list (also in large type for the wall) and its table results. Directors only: a
round's table cards and blank score sheets (they carry the tables' private links) and the
certificates.
"""

from __future__ import annotations

import dataclasses

import segno
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.exporters import prints
from scoring.exporters import standings as exports
from scoring.exporters.notation_card import notation_card
from scoring.live import charts
from tournaments.links import player_names_link, private_link, qr_png
from tournaments.models import Table
from tournaments.pdf import html_parts_to_pdf, render_pdf

from .base import CSV, XLSX, Audience, BaseExporter, no_progress, register

PART_TABLES = 10  # tables laid out per part of a long print: the worker's progress steps


@register
class StandingsXlsx(BaseExporter):
    identifier = "standings-xlsx"
    verbose_name = gettext_lazy("Standings (Excel)")
    format = XLSX

    def suffix(self, params):
        return "standings"

    def render(self, tournament, params, progress=no_progress):
        return exports.standings_xlsx(tournament)


@register
class StandingsPdf(BaseExporter):
    """``?after=N``: the standings after round N, a drawn round (404 for another number; all
    rounds when absent or not a number)."""

    identifier = "standings-pdf"
    verbose_name = gettext_lazy("Standings (PDF)")

    def extra_params(self, tournament, query):
        from ..views_public import drawn_round_after

        after = drawn_round_after(tournament.pk, query.get("after"))
        return {} if after is None else {"after": after}

    def suffix(self, params):
        return f"standings-after-round-{params['after']}" if "after" in params else "standings"

    def render(self, tournament, params, progress=no_progress):
        return exports.standings_pdf(tournament, params.get("after"), progress)


@register
class HandsXlsx(BaseExporter):
    """Every hand in long format, a row per hand and player (for pivot tables)."""

    identifier = "hands-xlsx"
    verbose_name = gettext_lazy("All hands, long format (Excel)")
    format = XLSX

    def suffix(self, params):
        return "hands"

    def render(self, tournament, params, progress=no_progress):
        return exports.hands_xlsx(tournament)


@register
class HandsCsv(HandsXlsx):
    identifier = "hands-csv"
    verbose_name = gettext_lazy("All hands, long format (CSV)")
    format = CSV

    def render(self, tournament, params, progress=no_progress):
        return exports.hands_csv(tournament)


@register
class DayReport(BaseExporter):
    """The day report (Tagesbericht): the statistics of the day with the standings'
    progression and the contract mix as charts (:mod:`scoring.live.statistics`, :mod:`scoring.live.charts`)."""

    identifier = "day-report"
    verbose_name = gettext_lazy("Day report (PDF)")

    def render(self, tournament, params, progress=no_progress):
        from scoring.live.statistics import day_statistics, progression

        stats = day_statistics(tournament)
        context = {
            "tournament": tournament,
            "stats": stats,
            "progression_chart": charts.data_uri(charts.progression_chart(progression(tournament))),
            "contracts_chart": charts.data_uri(charts.contracts_chart(stats.contracts)) if stats.ruleset.contracts else "",
        }
        return render_pdf("exporters/day_report_pdf.html", context)


@register
class NotationCard(BaseExporter):
    """The ruleset's notation card on one page, for the scorers' desk."""

    identifier = "notation-card"
    verbose_name = gettext_lazy("Notation card (PDF)")

    def render(self, tournament, params, progress=no_progress):
        card = notation_card(tournament.get_ruleset())
        return render_pdf("exporters/notation_card_pdf.html", {"tournament": tournament, "card": card})


@register
class SeatingList(BaseExporter):
    """The round's seating list: by table, then by player name."""

    identifier = "seating"
    verbose_name = gettext_lazy("Seating list (PDF)")
    per_round = True

    def render(self, tournament, params, progress=no_progress):
        from tournaments.views_public import round_seating

        rnd = self.round(tournament, params)
        names = player_names_link(tournament.pk)
        return render_pdf(
            "exporters/seating_pdf.html",
            {"round": rnd, "tournament": tournament, "names_url": names, "names_qr": qr_png(names), **round_seating(rnd)},
        )


@register
class SeatingWall(BaseExporter):
    """The round's seating by table in large type, to hang on the wall."""

    identifier = "seating-wall"
    verbose_name = gettext_lazy("Seating for the wall (PDF)")
    per_round = True

    def render(self, tournament, params, progress=no_progress):
        rnd = self.round(tournament, params)
        tables = prints.wall_seating(rnd)
        return render_pdf("exporters/seating_wall_pdf.html", {"round": rnd, "tournament": tournament, "tables": tables})


class RoundTablesExporter(BaseExporter):
    """A per-round print of one section per table, laid out :data:`PART_TABLES` tables at a time
    so the worker can report "n of m tables"."""

    per_round = True
    template = ""
    items = "tables"  # the attribute of :meth:`data` that lists the tables' sections

    def units(self, tournament, params):
        return Table.objects.filter(round__tournament=tournament, round__number=params["round"]).count()

    def data(self, rnd):
        raise NotImplementedError

    def render(self, tournament, params, progress=no_progress):
        rnd = self.round(tournament, params)
        data = self.data(rnd)
        every = getattr(data, self.items)
        total = len(every)

        def parts():
            if not every:
                yield render_to_string(self.template, {"data": data, "tournament": tournament}), 0
            for start in range(0, total, PART_TABLES):
                chunk = every[start : start + PART_TABLES]
                label = _("%(round)s · tables %(first)s–%(last)s of %(count)s") % {
                    "round": rnd,
                    "first": start + 1,
                    "last": start + len(chunk),
                    "count": total,
                }
                part = dataclasses.replace(data, **{self.items: chunk})
                html = render_to_string(self.template, {"data": part, "tournament": tournament, "part_label": label})
                yield html, len(chunk)

        progress(0, total)
        return html_parts_to_pdf(parts(), lambda done: progress(done, total), total=total)


@register
class TableResults(RoundTablesExporter):
    """Every table of the round with its hands as entered and the totals (public)."""

    identifier = "results"
    verbose_name = gettext_lazy("Table results (PDF)")
    template = "exporters/print_table_results.html"
    heavy_from = 30  # about 0.1 s a table in WeasyPrint (bench/print_bench.py)

    def data(self, rnd):
        return prints.table_results(rnd)


@register
class ScoreSheets(RoundTablesExporter):
    """A blank score sheet per table with the table's private link as a QR code (directors: the
    private links are for the table's players)."""

    identifier = "score-sheets"
    verbose_name = gettext_lazy("Score sheets (PDF)")
    audience = Audience.DIRECTOR
    template = "exporters/print_score_sheets.html"
    items = "sheets"
    heavy_from = 40

    def data(self, rnd):
        return prints.score_sheets(rnd, private_link)


@register
class TableCards(BaseExporter):
    """A table card per table: seats, drawn cards and the private link's QR code. ``?per_page=2``
    or ``4`` cards to an A4 page, to be cut apart (default 1)."""

    identifier = "table-cards"
    verbose_name = gettext_lazy("Table cards (PDF)")
    audience = Audience.DIRECTOR
    per_round = True

    def extra_params(self, tournament, query):
        per_page = prints.parse_per_page(query.get("per_page"))
        return {"per_page": per_page} if per_page != 1 else {}

    def suffix(self, params):
        per_page = params.get("per_page", 1)
        cards = "table-cards" if per_page == 1 else f"table-cards-{per_page}-per-page"
        return f"round-{params['round']}-{cards}"

    def render(self, tournament, params, progress=no_progress):
        from tournaments.views_public import round_seating

        rnd = self.round(tournament, params)
        per_page = params.get("per_page", 1)
        seating = round_seating(rnd)
        for entry in seating["tables"]:
            entry["url"] = private_link(entry["table"].token)
            entry["qr"] = segno.make(entry["url"], error="m").svg_data_uri(scale=3)
        context = {"round": rnd, "tournament": tournament, "per_page": per_page, **seating}
        context["pages"] = prints.card_pages(seating["tables"], per_page)
        return render_pdf("exporters/table_cards_pdf.html", context)


@register
class Certificates(BaseExporter):
    """A certificate for each of the first ``?places=`` places (default 3, at most 20)."""

    identifier = "certificates"
    verbose_name = gettext_lazy("Certificates (PDF)")
    audience = Audience.DIRECTOR

    def extra_params(self, tournament, query):
        return {"places": prints.parse_places(query.get("places"))}

    def suffix(self, params):
        return "certificates"

    def render(self, tournament, params, progress=no_progress):
        context = {
            "tournament": tournament,
            "ruleset": tournament.get_ruleset(),
            "certificates": prints.certificates(tournament, params["places"]),
            "places": params["places"],
        }
        return render_pdf("exporters/print_certificates.html", context)
