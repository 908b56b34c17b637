"""Prizes: the director sets the money and the categories; everyone sees the prize
list (:mod:`scoring.prizes.award`), as a page, a PDF for the ceremony and the big screen's prize-giving."""

from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import DetailView, TemplateView

from scoring.member_picker import MemberChoiceField, MemberPicker, search, search_response
from scoring.prizes.award import parse_shares, prize_list
from scoring.prizes.models import PrizeCategory, PrizeFund
from tournaments import actions
from tournaments.models import ActionLog, Registration, Tournament
from tournaments.permissions import Can, Level, RoleRequiredMixin
from tournaments.public_cache import CachedPublicPage
from tournaments.text import CleanTextFormMixin
from tournaments.versioning import touch

REGISTRATION_NAME = ("player__name", "player__club")  # how a registration is named and searched


def last_prizes_change(tournament_id: int) -> ActionLog | None:
    """The action log entry of the last change of the tournament's prizes, if any."""
    return ActionLog.objects.filter(tournament_id=tournament_id, action=ActionLog.Action.PRIZES_CHANGED).order_by("-pk").first()


def double_click(last: ActionLog | None, user) -> bool:
    """Whether ``last`` (:func:`last_prizes_change`) was ``user``'s own, seconds ago: the first of
    a double click, whose second must not be taken for another director's change."""
    import datetime

    from django.utils import timezone

    return last is not None and last.user_id == user.pk and last.created > timezone.now() - datetime.timedelta(seconds=10)


class Stale(Exception):
    """The prizes changed since the page that posted was shown; ``last``: that change."""

    def __init__(self, last: ActionLog | None):
        super().__init__(last)
        self.last = last


class PrizeFundForm(CleanTextFormMixin, forms.ModelForm):
    """Entry fee, share paid out, amount per kontra, currency (checked as a name,
    :mod:`tournaments.text`: it is printed beside every amount)."""

    name_like_fields = ("currency",)

    class Meta:
        model = PrizeFund
        fields = ["entry_fee", "payout_percent", "kontra_amount", "currency"]

    def clean_payout_percent(self):
        value = self.cleaned_data["payout_percent"]
        if not 0 <= value <= 100:
            raise forms.ValidationError(_("Write a percent from 0 to 100, not %(value)s.") % {"value": value})
        return value

    def clean(self):
        cleaned = super().clean()
        for name in ("entry_fee", "kontra_amount"):
            if cleaned.get(name) is not None and cleaned[name] < 0:
                self.add_error(name, _("An amount is 0 or more."))
        return cleaned


class PrizeCategoryForm(CleanTextFormMixin, forms.ModelForm):
    """One category; ``shares`` must read as percents (:func:`~scoring.prizes.award.parse_shares`), and
    a group category needs its club or its members. Its name, prize and club are checked as names
    (:mod:`tournaments.text`: no control, direction or invisible character). The members are
    picked with a search (:class:`~scoring.member_picker.MemberPicker`): only those chosen are
    rendered, never the whole field."""

    name_like_fields = ("name", "description", "club")

    class Meta:
        model = PrizeCategory
        fields = ["order", "kind", "name", "places", "shares", "amount", "description", "club", "members"]
        widgets = {
            "order": forms.NumberInput(attrs={"size": 3}), "places": forms.NumberInput(attrs={"size": 3}),
            "members": MemberPicker(REGISTRATION_NAME),
        }
        field_classes = {"members": MemberChoiceField}

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        members.queryset = Registration.objects.filter(tournament=tournament)
        members.widget.search_url = reverse("prizes_director:settings", args=[tournament.pk]) if tournament else ""
        members.help_text = _("For a group: find and pick its players, or name their club above.")
        self.fields["order"].required = False

    def clean_order(self):
        """An empty order is 0: categories of equal order keep the order they were added in."""
        return self.cleaned_data.get("order") or 0

    def clean_shares(self):
        text = self.cleaned_data["shares"].strip()
        try:
            parse_shares(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error
        return text

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("amount") is not None and cleaned["amount"] < 0:
            self.add_error("amount", _("An amount is 0 or more."))
        if cleaned.get("places") is not None and cleaned["places"] < 1:
            self.add_error("places", _("A category has at least one place."))
        shares = parse_shares(cleaned.get("shares") or "") if "shares" not in self.errors else ()
        if cleaned.get("places") and len(shares) > cleaned["places"]:
            self.add_error("shares", _("%(shares)s shares for %(places)s places: give one share per place.") % {"shares": len(shares), "places": cleaned["places"]})
        kind = cleaned.get("kind")
        if kind == PrizeCategory.Kind.GROUP and not cleaned.get("club", "").strip() and not cleaned.get("members"):
            self.add_error("club", _("A group category needs its club or its ticked members."))
        if kind == PrizeCategory.Kind.GROUP and cleaned.get("club", "").strip() and cleaned.get("members"):
            self.add_error("club", _("Name the group's club or tick its members, not both."))
        # What a kind does not use is refused, never kept unused (nothing typed is silently dropped).
        if kind not in (PrizeCategory.Kind.PLACES, PrizeCategory.Kind.GROUP):
            if cleaned.get("shares"):
                self.add_error("shares", _("Shares of the prize money are for places and group categories."))
            if cleaned.get("places") not in (None, 1):
                self.add_error("places", _("This kind of prize has no places to count."))
        if kind != PrizeCategory.Kind.GROUP and (cleaned.get("club", "").strip() or cleaned.get("members")):
            self.add_error("club", _("A club or members are for a group category."))
        return cleaned


class BaseCategoryFormSet(forms.BaseInlineFormSet):
    """The categories of one tournament: no two of them share a name (the prize list names them)."""

    def clean(self):
        super().clean()
        seen = {}
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            name = (form.cleaned_data.get("name") or "").strip()
            if name.casefold() in seen:
                form.add_error("name", _("“%(name)s” names another category already: give each category its own name.") % {"name": name})
            seen[name.casefold()] = form


CategoryFormSet = forms.inlineformset_factory(
    Tournament, PrizeCategory, form=PrizeCategoryForm, formset=BaseCategoryFormSet, extra=1, can_delete=True
)


def prizes_seen(tournament_id: int) -> int:
    """The last change of the tournament's prizes (its action log entry's id, 0 if none): the
    settings page carries it, so a save from a page shown before another change is refused."""
    last = last_prizes_change(tournament_id)
    return last.pk if last else 0


class PrizeSettingsView(RoleRequiredMixin, TemplateView):
    """The director's prize settings: the fund and every category on one page, saved together
    (nothing is saved while any field is refused; the page keeps what was typed)."""

    required_role = Level.DIRECTOR
    template_name = "prizes/settings.html"

    def get(self, request, *args, **kwargs):
        """The page; ``?q=``: the tournament's registrations matching it, as the member picker's
        JSON (:func:`scoring.member_picker.search_response`)."""
        if "q" in request.GET:
            found, more = search(Registration.objects.filter(tournament_id=kwargs["pk"]), REGISTRATION_NAME, request.GET["q"])
            return search_response(found, more)
        return super().get(request, *args, **kwargs)

    def forms(self, tournament, data=None):
        fund = PrizeFund.objects.filter(tournament=tournament).first() or PrizeFund(tournament=tournament)
        return (
            PrizeFundForm(data, instance=fund, prefix="fund"),
            CategoryFormSet(data, instance=tournament, prefix="cat", form_kwargs={"tournament": tournament}),
        )

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        fund_form, formset = kwargs.get("forms") or self.forms(tournament)
        return {
            **super().get_context_data(**kwargs), "tournament": tournament, "fund_form": fund_form, "formset": formset,
            "seen": kwargs["seen"] if "seen" in kwargs else prizes_seen(tournament.pk), "stale": kwargs.get("stale", False),
        }

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        fund_form, formset = self.forms(tournament, request.POST)
        if fund_form.is_valid() and formset.is_valid():
            try:
                with transaction.atomic():
                    touch(tournament.pk)  # locks the tournament: one save at a time
                    last = last_prizes_change(tournament.pk)
                    if str(last.pk if last else 0) != request.POST.get("seen", ""):
                        raise Stale(last)
                    fund_form.save()
                    formset.save()
                    actions.log(tournament.pk, actions.Action.PRIZES_CHANGED, request.user,
                                detail=", ".join(c.name for c in tournament.prize_categories.all()))
            except Stale as stale:
                if not double_click(stale.last, request.user):  # another tab or director saved since this page was shown
                    return self.render_to_response(
                        self.get_context_data(forms=(fund_form, formset), seen=request.POST.get("seen", ""), stale=True), status=409
                    )
                messages.info(request, _("These prizes were saved meanwhile; here they are as they are now."))
            except IntegrityError:  # the same new category saved meanwhile (a double click)
                messages.info(request, _("These prizes were saved meanwhile; here they are as they are now."))
            else:
                messages.success(request, _("The prizes are saved."))
            return redirect("prizes_director:settings", pk=pk)
        return self.render_to_response(self.get_context_data(forms=(fund_form, formset)), status=422)


class PrizeListView(CachedPublicPage, DetailView):
    """The prize list as the standings give it now, with the money; public."""

    model = Tournament
    template_name = "prizes/list.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "prizes": prize_list(self.object), "can": Can(self.request.user, self.object.pk)}
