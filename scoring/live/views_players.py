"""The players' own pages: "find my name" among the tournament's players, and each player's page
(:mod:`scoring.live.player_page`), served from the public cache like every public page."""

from django.shortcuts import get_object_or_404
from django.views.generic import DetailView, TemplateView

from scoring.live.player_page import page_version, player_page
from tournaments.models import Registration, Tournament
from tournaments.public_cache import CachedPublicPage


class PlayerNamesView(CachedPublicPage, DetailView):
    """"Find my name": every registered player of the tournament, filtered as you type, each a
    link to his own page. The seating list's QR code leads here."""

    model = Tournament
    template_name = "live/player_names.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        return {
            **super().get_context_data(**kwargs),
            "registrations": self.object.registrations.select_related("player").order_by("player__name", "start_number"),
        }


class PlayerPageView(CachedPublicPage, TemplateView):
    """A player's own page (:mod:`scoring.live.player_page`): this round's table, seat, card and
    tablemates, his hands and running totals, his round scores, rank and its change."""

    template_name = "live/player_page.html"

    def version_for(self, **kwargs):
        return page_version(kwargs["pk"], kwargs["reg"])  # he sees his other tournaments too

    def get_context_data(self, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player", "tournament"), pk=kwargs["reg"], tournament_id=kwargs["pk"]
        )
        return {
            **super().get_context_data(**kwargs),
            "tournament": registration.tournament,
            "page": player_page(registration),
        }
