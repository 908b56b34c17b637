"""The public API's endpoints under ``/api/v1/`` (read-only, everybody; :mod:`scoring.api.base`):
the index, tournaments, a tournament, its standings, rounds and tables, a player's results, cups
and a cup's table (its schema: :mod:`scoring.api.schema`). Each answer shows only what the public
pages show."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from scoring.cups.models import Cup
from scoring.cups.table import cup_standings, cup_version
from scoring.live.player_page import page_version, player_page
from scoring.standings import compute_standings
from scoring.views_public import drawn_round_after
from tournaments.links import absolute
from tournaments.models import Registration, Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import tournament_version

from . import answers
from . import serializers as s
from .base import PublicApiView, list_version

PAGE_SIZE = 50  # tournaments per page of the list
LANG = OpenApiParameter("lang", str, enum=["de", "en", "sl"], description="The answer's language (else Accept-Language).")


class IndexView(PublicApiView):
    """Where everything is: the lists and the schema."""

    @extend_schema(operation_id="index", responses=s.IndexSerializer)
    def get(self, request, *args, **kwargs):
        response = Response({
            "tournaments": absolute(reverse("api:tournaments")),
            "cups": absolute(reverse("api:cups")),
            "schema": absolute(reverse("api:schema")),
        })
        response["Cache-Control"] = "public, max-age=3600"
        return response


class TournamentListView(PublicApiView):
    """Every tournament, newest first, 50 a page (``?page=2``; a page past the end is a 404)."""

    def version_for(self, **kwargs):
        return list_version(Tournament, "data_version")

    def params(self):
        page = whole_number(self.request.query_params.get("page"))
        return {"page": page} if page and page > 1 else {}

    def answer(self, params, **kwargs):
        page = params.get("page", 1)
        queryset = Tournament.objects.select_related("mirror").order_by("-date", "-pk")
        count = queryset.count()
        if page > 1 and (page - 1) * PAGE_SIZE >= count:
            raise Http404
        here = absolute(reverse("api:tournaments"))
        return {
            "count": count,
            "next": f"{here}?page={page + 1}" if page * PAGE_SIZE < count else None,
            "previous": None if page == 1 else (here if page == 2 else f"{here}?page={page - 1}"),
            "results": [answers.tournament_summary(t) for t in queryset[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]],
        }

    @extend_schema(operation_id="tournaments", responses=s.TournamentPageSerializer, parameters=[OpenApiParameter("page", int), LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class TournamentView(PublicApiView):
    """A tournament: what its page shows."""

    def version_for(self, **kwargs):
        return tournament_version(kwargs["pk"])

    def answer(self, params, **kwargs):
        return answers.tournament_detail(get_object_or_404(Tournament, pk=kwargs["pk"]))

    @extend_schema(operation_id="tournament", responses=s.TournamentDetailSerializer, parameters=[LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class StandingsView(PublicApiView):
    """The standings after every round, or ``?after=N`` (a drawn round; 404 for another
    number), as the standings page shows them."""

    def version_for(self, **kwargs):
        return tournament_version(kwargs["pk"])

    def params(self):
        after = whole_number(self.request.query_params.get("after"))
        return {} if after is None else {"after": after}

    def answer(self, params, **kwargs):
        t = get_object_or_404(Tournament, pk=kwargs["pk"])
        after = drawn_round_after(t.pk, str(params["after"]) if "after" in params else None)
        # Ranked here, not taken from cached_standings: its tie-break texts are in the language
        # of whoever ranked first, and this answer is kept per language.
        return answers.standings_data(compute_standings(t, after))

    @extend_schema(operation_id="standings", responses=s.StandingsSerializer, parameters=[OpenApiParameter("after", int), LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class RoundsView(PublicApiView):
    """Every drawn round with its tables: hands played and planned, the seats with their players
    and drawn cards."""

    def version_for(self, **kwargs):
        return tournament_version(kwargs["pk"])

    def answer(self, params, **kwargs):
        t = get_object_or_404(Tournament, pk=kwargs["pk"])
        return {"tournament": t.pk, "rounds": answers.rounds_data(t)}

    @extend_schema(operation_id="rounds", responses=s.RoundsSerializer, parameters=[LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class RoundView(RoundsView):
    """One drawn round with its tables (404 for a round not drawn)."""

    def answer(self, params, **kwargs):
        t = get_object_or_404(Tournament, pk=kwargs["pk"])
        found = answers.rounds_data(t, kwargs["number"])
        if not found:
            raise Http404
        return {"tournament": t.pk, **found[0]}

    @extend_schema(operation_id="round", responses=s.RoundDetailSerializer, parameters=[LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class PlayerView(PublicApiView):
    """A player's results in the tournament (``player_id``: his registration, as in the address
    of his page): rank, total, and each round's table, seat, card, tablemates and hands. Keyed by
    the version of his page (:func:`scoring.live.player_page.page_version`): 404 without a query
    more for a registration of another tournament."""

    def version_for(self, **kwargs):
        return page_version(kwargs["pk"], kwargs["reg"])

    def answer(self, params, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player", "tournament"), pk=kwargs["reg"], tournament_id=kwargs["pk"]
        )
        return answers.player_data(player_page(registration))

    @extend_schema(operation_id="player", responses=s.PlayerSerializer, parameters=[LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class CupListView(PublicApiView):
    """Every cup, newest first."""

    def version_for(self, **kwargs):
        return list_version(Cup, "version")

    def answer(self, params, **kwargs):
        return {"results": [answers.cup_summary(c) for c in Cup.objects.order_by("-created", "-pk")]}

    @extend_schema(operation_id="cups", responses=s.CupListSerializer, parameters=[LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class CupTableView(PublicApiView):
    """A cup's table (``?ranking=<id>``: one of its sub-rankings; 404 for another), keyed by the
    cup's version and its tournaments' data versions."""

    def version_for(self, **kwargs):
        return cup_version(kwargs["pk"])

    def params(self):
        wanted = self.request.query_params.get("ranking", "")
        return {"ranking": whole_number(wanted) or 0} if wanted else {}

    def answer(self, params, **kwargs):
        cup = get_object_or_404(Cup, pk=kwargs["pk"])
        ranking = None
        if "ranking" in params:
            ranking = cup.rankings.filter(pk=params["ranking"]).first()
            if ranking is None:
                raise Http404
        return answers.cup_table_data(cup_standings(cup, ranking))

    @extend_schema(operation_id="cup", responses=s.CupTableSerializer, parameters=[OpenApiParameter("ranking", int), LANG])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
