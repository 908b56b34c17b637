"""The prize list as a PDF for the ceremony: public, like the prize list page."""

from django.utils.translation import gettext_lazy

from scoring.prizes.award import prize_list
from tournaments.pdf import render_pdf

from .base import BaseExporter, no_progress, register


@register
class PrizeListPdf(BaseExporter):
    """Every award in the order handed out, with the money and the kontra pot."""

    identifier = "prizes"
    verbose_name = gettext_lazy("Prize list (PDF)")

    def suffix(self, params):
        return "prizes"

    def render(self, tournament, params, progress=no_progress):
        return render_pdf("prizes/list_pdf.html", {"tournament": tournament, "prizes": prize_list(tournament), "ruleset": tournament.get_ruleset()})
