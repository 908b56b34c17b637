"""Season cups: the public cup table with its sub-rankings and qualifiers, a player's season, and
the pages of the cup's organisers (:mod:`scoring.cups.roles`): its settings and sub-rankings,
its organisers, its action log. The cup table is computed by :mod:`scoring.cups.table` and
served from the cache while neither the cup nor any of its tournaments changed."""

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import ListView, TemplateView

from scoring.cups import roles as cup_roles
from scoring.cups.models import Cup, CupRanking
from scoring.cups.table import cup_standings, cup_version, touch_cup
from scoring.member_picker import PICK_LIMIT, MemberChoiceField, MemberPicker, label, search_response
from tournaments.models import Player, Tournament
from tournaments.posted import whole_number
from tournaments.public_cache import CachedPublicPage
from tournaments.text import CleanTextFormMixin
from variants import registry


def ruleset_choices():
    """``(key, label)`` of every registered ruleset (a cup is of one ruleset, any edition)."""
    seen = {}
    for rs in registry.all_rulesets():
        seen.setdefault(rs.key, rs.name)
    return sorted(seen.items(), key=lambda item: item[1])


class CupForm(CleanTextFormMixin, forms.ModelForm):
    """A cup's settings; ``counting`` must read as ``all``, ``half`` or a number from 1; the name
    holds no control, direction or invisible character (:mod:`tournaments.text`)."""

    name_like_fields = ("name",)

    ruleset = forms.ChoiceField(label=gettext_lazy("Ruleset"), choices=ruleset_choices)

    class Meta:
        model = Cup
        fields = ["name", "ruleset", "method", "counting", "final_top", "final_min_played"]

    def clean_counting(self):
        value = self.cleaned_data["counting"].strip().casefold()
        if value in ("all", "half") or (value.isdigit() and int(value) >= 1):
            return value
        raise forms.ValidationError(
            _("“%(value)s” is not a counting rule: write “all”, “half” or a number of results from 1.") % {"value": self.cleaned_data["counting"]}
        )

    def clean_ruleset(self):
        value = self.cleaned_data["ruleset"]
        if self.instance.pk and value != self.instance.ruleset and self.instance.tournaments.exists():
            raise forms.ValidationError(_("Its tournaments are played under another ruleset: a cup keeps the ruleset of its tournaments."))
        return value


class CupRankingForm(CleanTextFormMixin, forms.ModelForm):
    """A sub-ranking: a club, picked players, or the away tournaments; its name and club are
    checked as names (:mod:`tournaments.text`). Its players are picked from the register with a
    search (:class:`~scoring.member_picker.MemberPicker`): only those chosen are rendered."""

    name_like_fields = ("name", "club")

    class Meta:
        model = CupRanking
        fields = ["name", "club", "members", "away_only"]
        widgets = {"members": MemberPicker(("name", "club"))}
        field_classes = {"members": MemberChoiceField}

    def __init__(self, *args, search_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        members.queryset = Player.objects.all()
        members.widget.search_url = search_url
        members.help_text = _("Find and pick its players (women, youth, guests …), or name a club, or count the away tournaments only.")


RankingFormSet = forms.inlineformset_factory(Cup, CupRanking, form=CupRankingForm, extra=1, can_delete=True)


class CupListView(ListView):
    """Every cup, newest first (public)."""

    model = Cup
    template_name = "cups/list.html"
    context_object_name = "cups"


class CupTableView(CachedPublicPage, TemplateView):
    """A cup's table (``?ranking=<id>``: one of its sub-rankings), its qualifiers and downloads."""

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
        return {
            **super().get_context_data(**kwargs),
            "cup": cup,
            "standings": cup_standings(cup, ranking),
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
