"""The standings widget: a small standalone page of a tournament's live standings for an
``<iframe>`` on a club's own site (``/t/<id>/widget/``): no script, its style from a static file,
refreshing itself every minute (``<meta http-equiv="refresh">``), with a link to the full
standings on this site.

``?top=N``: the players ranked N or better (default :data:`DEFAULT_TOP`, at most
:data:`MAX_TOP`; everyone sharing the Nth place is shown; nobody before the first hand is
entered, when the whole field is level at 0); ``?lang=de``: its language (else the visitor's, as
on every page). Served from the public page cache by the tournament's data version
with its ``ETag`` (:class:`~tournaments.public_cache.CachedPublicPage`).

Any site may frame it: it is exempt from ``X-Frame-Options`` and its Content-Security-Policy says
``frame-ancestors *`` (every other page of the site keeps ``'none'``). Being decorated, it is never
answered before the middleware (:mod:`config.conditional`), whose headers would forbid framing.
"""

from __future__ import annotations

from csp.decorators import csp_replace
from django.urls import reverse
from django.utils import translation
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.generic import DetailView

from scoring.standings import cached_standings
from tournaments.links import absolute
from tournaments.models import Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import CachedPublicPage

from .base import chosen_language

DEFAULT_TOP = 10
MAX_TOP = 100
REFRESH_SECONDS = 60


def top_of(value) -> int:
    """``?top=`` as the number of places shown: a whole number from 1 to :data:`MAX_TOP`, else
    :data:`DEFAULT_TOP`."""
    top = whole_number(value)
    return DEFAULT_TOP if top is None else max(1, min(top, MAX_TOP))


def played(row) -> bool:
    """Whether the standings row has a score in some round."""
    return any(score is not None for score in row.entry.rounds)


class WidgetView(CachedPublicPage, DetailView):
    """The widget's page (see the module's docstring)."""

    model = Tournament
    template_name = "api/widget.html"
    context_object_name = "tournament"

    def cache_params(self):
        params: dict[str, int | str] = {}
        top = top_of(self.request.GET.get("top"))
        if top != DEFAULT_TOP:
            params["top"] = top
        language = chosen_language(self.request.GET.get("lang"))
        if language:
            params["lang"] = language
        return params

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.object
        top = top_of(self.request.GET.get("top"))
        standings = cached_standings(t)
        ctx.update(
            standings=standings,
            # Before the first hand everybody is level at 0: "no results yet" rather than a
            # field ranked first together.
            rows=[row for row in standings.rows if row.rank <= top] if any(map(played, standings.rows)) else [],
            ruleset=t.get_ruleset(),
            full_url=absolute(reverse("scoring:standings", args=[t.pk])),
            refresh=REFRESH_SECONDS,
        )
        return ctx


_page = WidgetView.as_view()


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
def widget(request, *args, **kwargs):
    """:class:`WidgetView`, in the language of ``?lang=`` when it names one."""
    language = chosen_language(request.GET.get("lang"))
    if language is None:
        return _page(request, *args, **kwargs)
    with translation.override(language):
        response = _page(request, *args, **kwargs)
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
    response["Content-Language"] = language
    return response
