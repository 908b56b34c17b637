"""The big screen (:mod:`scoring.live.screen`): a full-screen page for the hall's projector
that fetches one slide after another, and its prize-giving mode. Public, no login, read-only."""

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from scoring.live.screen import SEATING_ROWS, STANDINGS_ROWS, screen_state, seating_lines
from scoring.prizes.award import prize_list
from scoring.standings import cached_standings
from tournaments.links import player_names_link, qr_png
from tournaments.models import Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import CachedPublicPage

SLIDE_SECONDS = 12  # how long a slide stays: a standings page of 15 rows is read in that time


def seconds(value) -> int:
    """Seconds per slide from the query (``?seconds=20``): 5 to 120, else :data:`SLIDE_SECONDS`."""
    number = whole_number(value)
    return number if number is not None and 5 <= number <= 120 else SLIDE_SECONDS


def screen_params(query) -> dict:
    """The canonical query of a screen page or slide (the page cache's key): ``seconds`` when it
    is not the default, ``mode`` when it is ``prizes``; anything else is left out."""
    params: dict = {}
    chosen = seconds(query.get("seconds"))
    if chosen != SLIDE_SECONDS:
        params["seconds"] = chosen
    if query.get("mode") == "prizes":
        params["mode"] = "prizes"
    return params


class ScreenView(CachedPublicPage, TemplateView):
    """``/t/<id>/screen/``: the page the projector shows; ``?mode=prizes`` the prize-giving, whose
    places are revealed one by one (space, arrow or click; ``js/screen.js``); ``?seconds=N`` how
    long each slide stays."""

    def cache_params(self):
        return screen_params(self.request.GET)

    def get_template_names(self):
        return ["live/screen_prizes.html" if self.request.GET.get("mode") == "prizes" else "live/screen.html"]

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        context = {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "seconds": seconds(self.request.GET.get("seconds")),
        }
        if self.request.GET.get("mode") == "prizes":
            context["prizes"] = prize_list(tournament)
        return context


class SlideView(CachedPublicPage, TemplateView):
    """``/t/<id>/screen/slide/<n>/``: slide ``n`` of the cycle (taken modulo its length), which
    asks for slide ``n + 1`` after ``?seconds``."""

    template_name = "live/_screen_slide.html"

    def cache_params(self):
        return {k: v for k, v in screen_params(self.request.GET).items() if k == "seconds"}

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        state = screen_state(tournament)
        slides = state.slides()
        slide = slides[kwargs["n"] % len(slides)]
        context = {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "state": state,
            "slide": slide,
            "next": (kwargs["n"] + 1) % len(slides),
            "seconds": seconds(self.request.GET.get("seconds")),
        }
        if slide.kind == "standings":
            standings = cached_standings(tournament)
            start = slide.page * STANDINGS_ROWS
            context.update(standings=standings, rows=standings.rows[start : start + STANDINGS_ROWS], ruleset=tournament.get_ruleset())
        elif slide.kind == "seating":
            lines = seating_lines(tournament, state.round)
            context["lines"] = lines[slide.page * SEATING_ROWS : (slide.page + 1) * SEATING_ROWS]
        else:
            context["names_qr"] = qr_png(player_names_link(tournament.pk), scale=6)
            context["names_url"] = player_names_link(tournament.pk)
        return context
