"""Public scoring pages: a table's score sheet, the standings and their exports. Read-only."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.generic import DetailView, View

from tournaments.models import Table, Tournament
from tournaments.permissions import is_director

from . import exports
from .forms import HandForm
from .services import build_sheet
from .standings import compute_standings


def sheet_context(table: Table, form: HandForm | None = None, editing=None) -> dict:
    """Context of the score sheet page; directors get the entry form for the next hand."""
    sheet = build_sheet(table)
    return {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "sheet": sheet,
        "form": form,
        "editing": editing,
        "catalogue": sheet.info.ruleset.catalogue(),
    }


class SheetView(DetailView):
    """A table's score sheet: hands, running totals, next dealer and Vorhand; entry for directors."""

    template_name = "scoring/sheet.html"
    queryset = Table.objects.select_related("round__tournament")

    def get_context_data(self, **kwargs):
        ctx = sheet_context(self.object)
        sheet = ctx["sheet"]
        if is_director(self.request.user) and not sheet.complete:
            ctx["form"] = HandForm(info=sheet.info, dealer=sheet.next_dealer)
        return ctx


def parse_round(value) -> int | None:
    """A round number from the query string (1 up), or ``None`` for anything else."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None


class StandingsView(DetailView):
    """Standings after every round (or ``?after=N``), with the tie-break that separated level players."""

    model = Tournament
    template_name = "scoring/standings.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        after = parse_round(self.request.GET.get("after"))
        ctx["standings"] = compute_standings(self.object, after)
        ctx["drawn_rounds"] = list(self.object.round_set.values_list("number", flat=True))
        ctx["ruleset"] = self.object.get_ruleset()
        return ctx


def _download(content: bytes, content_type: str, tournament: Tournament, suffix: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    name = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class StandingsXlsxView(View):
    def get(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        return _download(
            exports.standings_xlsx(tournament),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            tournament,
            "standings.xlsx",
        )


class StandingsPdfView(View):
    def get(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        return _download(exports.standings_pdf(tournament), "application/pdf", tournament, "standings.pdf")
