"""Printed PDFs of issue 7: blank score sheets and certificates for the director, the table results
of a round for everybody. The data comes from :mod:`scoring.prints`; the templates only render."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.generic import View

from tournaments.models import Tournament
from tournaments.pdf import pdf_response, render_pdf
from tournaments.permissions import DirectorRequiredMixin
from tournaments.views_public import get_round

from . import prints


class ScoreSheetsPdfView(DirectorRequiredMixin, View):
    """A blank score sheet per table of the round, with the table's private link as a QR code.
    Director only: the private links are for the table's players."""

    def get(self, request, pk, number):
        rnd = get_round(pk, number)
        data = prints.score_sheets(
            rnd, lambda token: request.build_absolute_uri(reverse("scoring:private_sheet", args=[token]))
        )
        return pdf_response(
            render_pdf("scoring/print_score_sheets.html", {"data": data, "tournament": rnd.tournament}),
            rnd.tournament,
            f"round-{rnd.number}-score-sheets.pdf",
        )


class TableResultsPdfView(DirectorRequiredMixin, View):
    """Every table of the round with its hands as entered and the totals (public)."""

    def get(self, request, pk, number):
        rnd = get_round(pk, number)
        data = prints.table_results(rnd)
        return pdf_response(
            render_pdf("scoring/print_table_results.html", {"data": data, "tournament": rnd.tournament}),
            rnd.tournament,
            f"round-{rnd.number}-results.pdf",
        )


class CertificatesPdfView(DirectorRequiredMixin, View):
    """A certificate for each of the first ``?places=`` places (default 3, at most 20)."""

    def get(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        places = prints.parse_places(request.GET.get("places"))
        context = {
            "tournament": tournament,
            "ruleset": tournament.get_ruleset(),
            "certificates": prints.certificates(tournament, places),
            "places": places,
        }
        return pdf_response(render_pdf("scoring/print_certificates.html", context), tournament, "certificates.pdf")
