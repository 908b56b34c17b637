"""Season cups: the public cup table with its sub-rankings and qualifiers, a player's season, and
the pages of the cup's organisers (:mod:`scoring.cups.roles`): its settings and sub-rankings,
its organisers, its action log. The cup table is computed by :mod:`scoring.cups.table` and
served from the cache while neither the cup nor any of its tournaments changed."""

from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import ListView, TemplateView

from scoring.cups import roles as cup_roles
from scoring.cups.exports import counting_text, rules_applied
from scoring.cups.forms import CupForm, RankingFormSet
from scoring.cups.models import Cup
from scoring.cups.table import cup_standings, cup_version, touch_cup
from scoring.member_picker import PICK_LIMIT, label, search_response
from tournaments.models import Player, Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import CachedPublicPage




class CupListView(ListView):
    """Every cup, newest first (public)."""

    model = Cup
    template_name = "cups/list.html"
    context_object_name = "cups"


class CupTableView(CachedPublicPage, TemplateView):
    """A cup's table (``?ranking=<id>``: one of its sub-rankings), the rules it counts by, its
    qualifiers and downloads."""

    template_name = "cups/table.html"

    def version_for(self, **kwargs):
        return cup_version(kwargs["pk"])

    def cache_params(self):
        """The page cache's key holds ``?ranking=`` as a whole number only (404 below for one
        that is not one of the cup's sub-rankings)."""
        wanted = self.request.GET.get("ranking", "")
        return {"ranking": whole_number(wanted) or 0} if wanted else {}

    def get_context_data(self, **kwargs):
        cup = get_object_or_404(Cup, pk=kwargs["pk"])
        ranking = None
        wanted = self.request.GET.get("ranking", "")
        if wanted:
            ranking = cup.rankings.filter(pk=whole_number(wanted) or 0).first()
            if ranking is None:
                raise Http404(_("This cup has no such sub-ranking."))
        standings = cup_standings(cup, ranking)
        return {
            **super().get_context_data(**kwargs),
            "cup": cup,
            "standings": standings,
            "counting": counting_text(cup, standings),
            "rules": rules_applied(cup, standings)[1:],  # the method and counting head the page
            "rankings": list(cup.rankings.all()),
            "can_manage": cup_roles.may_manage_cup(self.request.user, cup),
        }


class CupPlayerView(CachedPublicPage, TemplateView):
    """A player's season in a cup: every tournament, his rank, cup points, counted or not."""

    template_name = "cups/player.html"

    def version_for(self, **kwargs):
        return cup_version(kwargs["pk"])

    def get_context_data(self, **kwargs):
        cup = get_object_or_404(Cup, pk=kwargs["pk"])
        player = get_object_or_404(Player, pk=kwargs["player"])
        standings = cup_standings(cup)
        row = next((r for r in standings.rows if r.player.pk == player.pk), None)
        return {**super().get_context_data(**kwargs), "cup": cup, "player": player, "standings": standings, "row": row,
                "events": {e.key: e for e in standings.events}}


class CupEditView(AccessMixin, TemplateView):
    """Create a cup (no ``pk``) or change one: its settings and sub-rankings on one page, saved
    together or not at all (the page keeps what was typed), with its organisers and the form that
    names another.

    Creating needs ``cups.add_cup`` (the "Organisers" group) and makes the creator the
    cup's organiser; changing a cup needs to be one of its organisers or a superuser
    (:func:`scoring.cups.roles.may_manage_cup`). Anonymous users are sent to the login, others
    get 403. Every change is logged in the cup's action log, in the transaction of the save."""

    template_name = "cups/form.html"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.cup = get_object_or_404(Cup, pk=kwargs["pk"]) if "pk" in kwargs else None
        allowed = request.user.has_perm("cups.add_cup") if self.cup is None else cup_roles.may_manage_cup(request.user, self.cup)
        if not allowed:
            self.raise_exception = True
            return self.handle_no_permission()
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        """The page; ``?q=``: the register's players matching it, as the member picker's JSON
        (:func:`scoring.member_picker.search_response`; the register's own search,
        :func:`tournaments.registration.register.search_players`)."""
        if "q" in request.GET:
            from tournaments.registration.register import search_players

            found = search_players(request.GET["q"], limit=PICK_LIMIT + 1)
            return search_response([(p.pk, label(p.name, p.club)) for p in found[:PICK_LIMIT]], len(found) > PICK_LIMIT)
        return super().get(request, *args, **kwargs)

    def forms(self, data=None):
        cup = self.cup or Cup()
        return CupForm(data, instance=cup), RankingFormSet(data, instance=cup, prefix="ranking", form_kwargs={"search_url": self.request.path})

    def get_context_data(self, **kwargs):
        form, formset = kwargs.get("forms") or self.forms()
        cup = form.instance if form.instance.pk else None
        return {
            **super().get_context_data(**kwargs),
            "form": form,
            "formset": formset,
            "cup": cup,
            "organisers": cup.organisers.order_by("username") if cup else [],
        }

    def post(self, request, **kwargs):
        form, formset = self.forms(request.POST)
        if form.is_valid() and formset.is_valid():
            try:
                with transaction.atomic():
                    creating = form.instance.pk is None
                    cup = form.save()
                    formset.instance = cup
                    formset.save()
                    cup_roles.log_cup_edit(cup, form, formset, request.user, creating)
                    touch_cup(cup.pk)
                    # Its tournaments' pages name the cup: a renamed cup shows there at once.
                    Tournament.objects.filter(cup=cup).update(data_version=F("data_version") + 1, layout_version=F("layout_version") + 1)
            except IntegrityError:  # the same new cup or sub-ranking saved meanwhile (a double click)
                messages.info(request, _("This was saved meanwhile."))
                return redirect("cups:list")
            messages.success(request, _("The cup is saved."))
            return redirect(cup.get_absolute_url())
        return self.render_to_response(self.get_context_data(forms=(form, formset)), status=422)
