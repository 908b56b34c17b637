"""Public pages of the day's statistics and its pictures: the statistics page and one
SVG address per chart, each served from the cache while its tournament's data version holds
(:class:`~tournaments.public_cache.CachedPublicPage`). Thin: :mod:`scoring.live.statistics` computes,
:mod:`scoring.live.charts` draws."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.generic import DetailView, View

from scoring.live import charts
from scoring.live.statistics import contract_mix, day_statistics, progression
from scoring.services import build_sheet, seat_name
from tournaments.models import Registration, Table, Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import CachedPublicPage, table_version

SVG = "image/svg+xml"


def chosen_player(tournament_id: int, value) -> int | None:
    """The registration id of ``?player=``: ``None`` when absent or not a whole number (the page
    without a chosen player); ``Http404`` for a number that is not a registration of tournament
    ``tournament_id``. One query, made by the render (the cache key holds the whole number as it
    is, :class:`ChosenPlayerParams`, and a 404 is never kept)."""
    number = whole_number(value)
    if number is None:
        return None
    if not Registration.objects.filter(pk=number, tournament_id=tournament_id).exists():
        raise Http404(_("This tournament has no such player."))
    return number


class ChosenPlayerParams:
    """The page cache's canonical query of a page with ``?player=``: the whole number as it is,
    without a query, so a cache hit costs the version query alone; the render checks it once
    (:func:`chosen_player`, 404 for nobody of the tournament)."""

    def cache_params(self):
        chosen = whole_number(self.request.GET.get("player"))
        return {} if chosen is None else {"player": chosen}


class StatisticsView(ChosenPlayerParams, CachedPublicPage, DetailView):
    """The statistics of the day (:func:`scoring.live.statistics.day_statistics`) with the pictures;
    ``?player=<registration id>`` adds that player to the progression chart (404 for a number
    that is none of the tournament's)."""

    model = Tournament
    template_name = "live/statistics.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        chosen = chosen_player(self.object.pk, self.request.GET.get("player"))  # 404 before the work
        ctx = super().get_context_data(**kwargs)
        ctx["stats"] = day_statistics(self.object)
        ctx["chosen"] = chosen
        ctx["registrations"] = self.object.registrations.select_related("player").order_by("player__name", "start_number")
        return ctx


class TournamentChart(CachedPublicPage, View):
    """An SVG chart of a tournament (``pk``), 404 for a tournament that does not exist."""

    def get(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        return HttpResponse(self.draw(tournament), content_type=SVG)

    def draw(self, tournament: Tournament) -> bytes:
        """The chart of ``tournament`` as SVG bytes (each subclass its own)."""
        raise NotImplementedError


class ProgressionChartView(ChosenPlayerParams, TournamentChart):
    """The standings round by round: the top 10 and ``?player=<registration id>`` (404 for a
    number that is none of the tournament's)."""

    def draw(self, tournament):
        """:func:`scoring.live.charts.progression_chart` of the top 10 and the chosen player."""
        return charts.progression_chart(progression(tournament, chosen_player(tournament.pk, self.request.GET.get("player"))))


class ContractsChartView(TournamentChart):
    """The contract mix of the day, won and lost."""

    def draw(self, tournament):
        """:func:`scoring.live.charts.contracts_chart` of the day's hands."""
        return charts.contracts_chart(contract_mix(tournament))


class TableChartView(CachedPublicPage, View):
    """A table's running totals hand by hand, one line per seat."""

    def version_for(self, **kwargs):
        return table_version(kwargs["pk"])

    def get(self, request, pk):
        table = Table.objects.select_related("round__tournament").filter(pk=pk).first()
        if table is None:
            raise Http404("no such table")
        return HttpResponse(table_svg(table), content_type=SVG)


def table_svg(table: Table) -> bytes:
    """The running-totals chart of ``table`` (its score sheet's totals, :func:`build_sheet`)."""
    sheet = build_sheet(table)
    title = _("%(round)s, %(table)s: running totals") % {"round": table.round, "table": table}
    return charts.table_chart(
        title,
        [seat_name(s) for s in sheet.info.seats],
        [row.hand.number for row in sheet.rows],
        [row.totals for row in sheet.rows],
    )
