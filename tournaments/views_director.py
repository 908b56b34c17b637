"""Director pages for tournaments: create and edit, the draw (next round, last round deleted, swap,
substitute, redraw) and lots. The register and the field are :mod:`tournaments.registration.views`.

Thin views: forms validate, :mod:`tournaments.services` acts.
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import CreateView, FormView, UpdateView, View

from tournaments import actions, roles, services, signals
from tournaments.registration import register as registration

from .forms import DrawForm, SubstituteForm, SwapForm, TournamentForm
from .models import Tournament
from .permissions import RoleRequiredMixin, SitePermissionRequiredMixin
from .posted import whole_number
from .views_public import get_round


class TournamentMixin:
    """Loads ``self.tournament`` from the URL's ``pk`` and puts it in the context."""

    def dispatch(self, request, *args, **kwargs):
        self.tournament = get_object_or_404(Tournament, pk=kwargs["pk"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs, tournament=self.tournament)


def cup_changed(tournament: Tournament, old_cup_id: int | None, user) -> None:
    """Tell the apps above that ``tournament``, just saved by ``user``, left cup ``old_cup_id``
    and/or joined its cup now (:data:`tournaments.signals.cup_changed`: the cups' logs); nothing
    when its cup did not change. Call it inside the transaction that saved it."""
    if tournament.cup_id != old_cup_id:
        signals.cup_changed.send(sender=Tournament, tournament=tournament, old_cup_id=old_cup_id, user=user)


class TournamentCreateView(SitePermissionRequiredMixin, CreateView):
    """A new tournament; its creator is its organiser."""

    permission_required = "tournaments.add_tournament"
    model = Tournament
    form_class = TournamentForm
    template_name = "tournaments/form.html"
    extra_context = {"title": gettext_lazy("New tournament")}  # lazy: class attributes are set at import

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "user": self.request.user}

    def form_valid(self, form):
        with transaction.atomic():
            response = super().form_valid(form)
            roles.create_tournament_roles(self.object, self.request.user)
            cup_changed(self.object, None, self.request.user)
        return response


class TournamentUpdateView(RoleRequiredMixin, UpdateView):
    """The tournament's settings; what changed goes to the action log."""

    model = Tournament
    form_class = TournamentForm
    template_name = "tournaments/form.html"
    extra_context = {"title": gettext_lazy("Edit tournament")}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "user": self.request.user}

    def form_valid(self, form):
        with transaction.atomic():
            response = super().form_valid(form)
            if form.changed_data:
                actions.log(self.object.pk, actions.Action.EDITED, self.request.user, detail=", ".join(form.changed_data))
            cup_changed(self.object, form.initial.get("cup"), self.request.user)
        return response


class DrawRoundView(RoleRequiredMixin, TournamentMixin, FormView):
    """Draw the next round's seating (POST); shows the seed field and what will be drawn."""

    template_name = "tournaments/draw.html"
    form_class = DrawForm

    def get_initial(self):
        return {"number": self.next_number()}

    def next_number(self) -> int:
        """The number the next drawn round gets (rounds are drawn in order, 1, 2, …)."""
        return self.tournament.round_set.count() + 1

    def get_context_data(self, **kwargs):
        """``problem``: why nothing can be drawn (no players, a count that cannot be seated, every
        round drawn), shown instead of the Draw button; ``playing``: the sentence naming the
        previous round's tables still playing, for the director to confirm."""
        ctx = super().get_context_data(**kwargs)
        ctx["active"] = self.tournament.registrations.filter(withdrawn=False).count()
        ctx["next_number"] = self.next_number()
        ctx["problem"] = services.draw_problem(self.tournament)
        tables = services.unfinished_tables(self.tournament, self.next_number() - 1)
        ctx["playing"] = services.still_playing(self.next_number() - 1, tables) if tables else ""
        return ctx

    def form_valid(self, form):
        try:
            rnd = services.draw_next_round(
                self.tournament,
                form.cleaned_data.get("seed"),
                self.request.user,
                expected=form.cleaned_data.get("number"),
                unfinished_ok=form.cleaned_data.get("confirm", False),
            )
        except services.AlreadyDone as done:
            messages.info(self.request, done.message)
            return redirect("tournaments:round", pk=self.tournament.pk, number=done.number)
        except services.DrawRefused as refused:
            form.add_error(None, refused.message)
            return self.form_invalid(form)
        # The seed is no news to the director: it is kept with the round, under its seating's
        # "Details of the draw".
        last = self.tournament.round_set.aggregate(m=Max("number"))["m"]
        if last > rnd.number:  # every round at the start
            messages.success(self.request, _("Rounds %(first)s to %(last)s are drawn.") % {"first": rnd.number, "last": last})
        else:
            messages.success(self.request, _("Round %(number)s is drawn.") % {"number": rnd.number})
        return redirect("tournaments:round", pk=self.tournament.pk, number=rnd.number)


class DeleteLastRoundView(RoleRequiredMixin, View):
    """Delete the last round while no hand is entered in it, so it can be drawn again (POST)."""

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        number = request.POST.get("number", "")
        try:
            services.delete_last_round(tournament, request.user, expected=whole_number(number))
            messages.success(request, _("The last round was deleted; draw it again."))
        except services.AlreadyDone as done:
            messages.info(request, done.message)
        except services.DrawRefused as refused:
            messages.error(request, refused.message)
        return redirect(tournament)


class LotsView(RoleRequiredMixin, View):
    """Record the drawn lots of players level after every tie-break (POST ``lot_<registration>``)."""

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        field = forms.IntegerField(required=False, min_value=1, max_value=9999)
        lots = {}
        for reg in tournament.registrations.select_related("player"):
            raw = request.POST.get(f"lot_{reg.pk}")
            if raw is None:
                continue
            try:
                lots[reg] = field.clean(raw.strip())
            except ValidationError:
                messages.error(request, _("A lot must be a whole number from 1 to 9999: “%(value)s”.") % {"value": raw})
                return redirect("scoring:standings", pk=pk)
        registration.record_lots(tournament, lots, request.user)
        messages.success(request, _("Lots recorded."))
        return redirect("scoring:standings", pk=pk)


class SwapView(RoleRequiredMixin, View):
    """Swap two players of a round by hand (POST); refused once hands are entered at their tables."""

    def post(self, request, pk, number):
        rnd = get_round(pk, number)
        form = SwapForm(request.POST, round=rnd)
        if not form.is_valid():
            messages.error(request, _("Choose two players of this round."))
        else:
            try:
                services.swap_players(rnd, form.cleaned_data["first"], form.cleaned_data["second"], request.user)
                messages.success(request, _("Players swapped."))
            except services.DrawRefused as refused:
                messages.error(request, refused.message)
        return redirect("tournaments:round", pk=pk, number=number)


class SubstituteView(RoleRequiredMixin, View):
    """A substitute takes over a seat for the rest of the round (POST)."""

    def post(self, request, pk, number):
        rnd = get_round(pk, number)
        form = SubstituteForm(request.POST, round=rnd)
        if not form.is_valid():
            messages.error(request, _("Choose the seat and a player who does not play this round."))
        else:
            try:
                seat = services.seat_substitute(form.cleaned_data["seat"], form.cleaned_data["substitute"], request.user)
                messages.success(
                    request,
                    _("%(name)s plays from hand %(number)s on.") % {"name": seat.substitute.player.name, "number": seat.substitute_from},
                )
            except services.DrawRefused as refused:
                messages.error(request, refused.message)
        return redirect("tournaments:round", pk=pk, number=number)


class RedrawView(RoleRequiredMixin, View):
    """Draw the last round again with a new seed (POST); every attempt stays in the draw log."""

    def post(self, request, pk, number):
        rnd = get_round(pk, number)
        tournament = rnd.tournament
        seed = request.POST.get("seed", "")
        try:
            new = services.redraw_last_round(tournament, rnd.number, request.user, seed=whole_number(seed))
        except services.AlreadyDone as done:
            messages.info(request, done.message)
            return redirect("tournaments:round", pk=pk, number=number)
        except services.DrawRefused as refused:
            messages.error(request, refused.message)
            return redirect("tournaments:round", pk=pk, number=number)
        messages.success(request, _("Round %(number)s is drawn again.") % {"number": new.number})
        return redirect("tournaments:round", pk=pk, number=new.number)
