"""The live day's pages for the people who run it: the director's board of rounds × tables
(:mod:`scoring.live.board`), polled while the day goes on."""

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from scoring.live.board import build_board
from tournaments.models import Tournament
from tournaments.permissions import Level, RoleRequiredMixin


class BoardView(RoleRequiredMixin, TemplateView):
    """The director's board: rounds × tables with hands entered, each table's running totals,
    flags, confirmations, ended tables and verification; it reloads itself (htmx polling)."""

    required_role = Level.DIRECTOR
    tournament_from = ("tournament", "pk")

    template_name = "live/board.html"

    def get_template_names(self):
        return ["live/_board.html"] if self.request.htmx else [self.template_name]  # its own polling

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return {**super().get_context_data(**kwargs), "tournament": tournament, "board": build_board(tournament)}
