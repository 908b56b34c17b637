"""Director pages for tournaments: create and edit, players, registrations, draw, lots.

Thin views: forms validate, :mod:`tournaments.services` acts.
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import CreateView, FormView, ListView, UpdateView, View
from django_tables2 import RequestConfig

from tournaments import actions, roles, services, signals
from tournaments.registration import register as registration
from tournaments.registration.tables import PlayerTable, RegistrationTable

from .forms import DrawForm, PlayerForm, RegisterPlayersForm, SubstituteForm, SwapForm, TournamentForm
from .models import Player, Registration, Tournament
from .permissions import RoleRequiredMixin, SitePermissionRequiredMixin
from .posted import whole_number, whole_numbers
from .text import quoted
from .versioning import touch_players
from .views_public import get_round

PER_PAGE = 100  # the register and a field of 1,000 players stay a page a phone opens


def paginated(request, table):
    """``table`` (django-tables2) paginated by ``?page=``, :data:`PER_PAGE` rows to a page."""
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return table


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


class PlayerListView(SitePermissionRequiredMixin, ListView):
    """The player register: every player with an edit link, and the possible duplicates (same
    name) with a form to merge each group into one player."""

    permission_required = "tournaments.change_player"
    model = Player
    template_name = "tournaments/player_list.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["table"] = paginated(self.request, PlayerTable(Player.objects.all()))
        ctx["form"] = PlayerForm()
        ctx["duplicates"] = registration.duplicate_groups()
        return ctx


class PlayerFormMixin:
    """A player of the register on the shared form page; back to the register when saved."""

    model = Player
    form_class = PlayerForm
    template_name = "tournaments/form.html"

    def get_success_url(self):
        return reverse("tournaments_director:players")


class PlayerUpdateView(SitePermissionRequiredMixin, PlayerFormMixin, UpdateView):
    """Edit a player of the register (name, club); his tournaments follow the change."""

    permission_required = "tournaments.change_player"
    extra_context = {"title": gettext_lazy("Edit player")}

    def form_valid(self, form):
        with transaction.atomic():
            touch_players([self.object.pk])  # his name is on every tournament he played
            before = Player.objects.get(pk=self.object.pk)
            response = super().form_valid(form)
            if form.changed_data:
                changes = ", ".join(f"{f}: {getattr(before, f)} → {getattr(self.object, f)}" for f in form.changed_data)
                actions.log_players([self.object.pk], actions.Action.PLAYER_EDITED, self.request.user, detail=changes)
            return response


class MergePlayersView(SitePermissionRequiredMixin, View):
    """Merge duplicates (POST ``keep`` and ``merge``): the merged player's registrations move to
    the kept one and he leaves the register."""

    permission_required = ("tournaments.change_player", "tournaments.delete_player")
    def post(self, request):
        keep = Player.objects.filter(pk=whole_number(request.POST.get("keep"))).first()
        merged = [p for p in Player.objects.filter(pk__in=whole_numbers(request.POST.getlist("merge"))) if keep is None or p.pk != keep.pk]
        if keep is None or not merged:
            messages.error(request, _("Choose the player to keep and at least one to merge into him."))
            return redirect("tournaments_director:players")
        for player in merged:
            try:
                moved = registration.merge_players(keep, player, request.user)
            except registration.RegistrationRefused as refused:
                messages.error(request, f"{player}: {refused.message}")
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(merged)s is merged into %(kept)s (%(count)s tournament moved).",
                        "%(merged)s is merged into %(kept)s (%(count)s tournaments moved).",
                        moved,
                    )
                    % {"merged": player, "kept": keep, "count": moved},
                )
        return redirect("tournaments_director:players")


class PlayerCreateView(SitePermissionRequiredMixin, PlayerFormMixin, CreateView):
    """Add a player to the register; a name (and club) already there is offered first."""

    permission_required = "tournaments.add_player"
    extra_context = {"title": gettext_lazy("New player")}


class RegistrationsView(RoleRequiredMixin, TournamentMixin, FormView):
    """The tournament's field: registered players; registering more by searching the register as
    you type (``?q=``; htmx asks for the results alone), by a pasted list of names or a new
    player; withdrawing, and removing a registration made by mistake."""

    template_name = "tournaments/registrations.html"
    form_class = RegisterPlayersForm

    def get(self, request, *args, **kwargs):
        if request.htmx and "q" in request.GET:
            return render(request, "tournaments/_player_search.html", self.search_context())
        return super().get(request, *args, **kwargs)

    def search_context(self) -> dict:
        """``query`` (``?q=``) and the register's players it ``found`` who are not registered yet."""
        query = self.request.GET.get("q", "")
        return {"tournament": self.tournament, "query": query, "found": registration.search_players(query, self.tournament)}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "tournament": self.tournament}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        regs = self.tournament.registrations.select_related("player")
        seated = registration.seated_registrations(self.tournament)
        table = RegistrationTable(regs, seated=seated)
        ctx.update(table=paginated(self.request, table), count=regs.count(), **self.search_context())
        return ctx

    def form_valid(self, form):
        """Register the pasted list and the new player at once. A line with a problem refuses the
        whole list (422, nothing registered); names waiting for the director's choice are asked
        about on the page that follows, the others are registered meanwhile."""
        lines = registration.read_names(form.cleaned_data.get("names") or "", form.new_player())
        registration.resolve(self.tournament, lines, form.choices())
        try:
            registered = registration.register_lines(self.tournament, lines, self.request.user)
        except registration.RegistrationRefused as refused:
            form.add_error(None, refused.message)
            return self.render_to_response(self.get_context_data(form=form, lines=lines), status=422)
        self.report(lines, registered)
        names, new_player, pending = registration.waiting(lines)
        if not pending:
            return redirect("tournaments_director:registrations", pk=self.tournament.pk)
        # Ask about the waiting names alone, numbered anew: the others are registered.
        name, club = new_player or ("", "")
        form = self.form_class(initial={"names": names, "new_name": name, "new_club": club}, tournament=self.tournament)
        return self.render_to_response(self.get_context_data(form=form, lines=pending))

    def report(self, lines, registered) -> None:
        """The messages after registering: how many, who was taken from the register by his name
        alone (so the director sees whom), who was registered already, who waits for a choice."""
        waiting = [e for e in lines if e.status == "choose"]
        if registered or not waiting:
            new = sum(1 for e in lines if e.status == "new")
            messages.success(
                self.request,
                ngettext(
                    "%(count)s player registered, %(new)s of them new in the register.",
                    "%(count)s players registered, %(new)s of them new in the register.",
                    len(registered),
                )
                % {"count": len(registered), "new": new},
            )
        taken = [e for e in lines if e.by_name and e.status == "existing"]
        if taken:
            players = get_text_list([self.taken_as(e) for e in taken], _("and"))
            messages.info(
                self.request,
                ngettext(
                    "Taken from the register by the name: %(players)s. If that is somebody else, remove the registration and enter the person as a new player, with town or club.",
                    "Taken from the register by the name: %(players)s. If one of them is somebody else, remove that registration and enter the person as a new player, with town or club.",
                    len(taken),
                )
                % {"players": players},
            )
        already = [e.label for e in lines if e.status == "registered"]
        if already:  # every pasted line is accounted for
            messages.info(self.request, _("Registered already, so not again: %(names)s.") % {"names": ", ".join(already)})
        pasted = [e for e in waiting if e.line is not None]
        if pasted:
            messages.warning(
                self.request,
                ngettext(
                    "%(names)s is in the register more than once, or with another town or club: choose below who it is.",
                    "%(names)s are in the register more than once, or with another town or club: choose below who each is.",
                    len(pasted),
                )
                % {"names": get_text_list([e.label for e in pasted], _("and"))},
            )
        new_player = next((e for e in waiting if e.line is None), None)
        if new_player is not None:  # typed as new, but the register has the name: said so, not "more than once"
            messages.warning(
                self.request,
                _("The name %(name)s is in the register already: choose below who the new player is.")
                % {"name": quoted(new_player.name)},
            )

    @staticmethod
    def taken_as(entry) -> str:
        """"Anna Berger (Imst)", and what was typed if that was not his name: "Anna Berger (Imst)
        for “Berger Anna”"."""
        player = entry.player
        if entry.name == player.name and entry.club in ("", player.club):
            return str(player)
        return _("%(player)s for %(typed)s") % {"player": player, "typed": quoted(entry.label)}


class RegisterPlayerView(RoleRequiredMixin, View):
    """Register one player of the register found by the search (POST ``player``)."""

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        player = get_object_or_404(Player, pk=whole_number(request.POST.get("player")))
        reg = services.register(tournament, player, request.user)
        messages.success(request, _("%(name)s is registered with start number %(number)s.") % {"name": player.name, "number": reg.start_number})
        return redirect("tournaments_director:registrations", pk=pk)


class RemoveRegistrationView(RoleRequiredMixin, View):
    """Remove a registration made by mistake (POST), only before the player is seated."""

    def post(self, request, pk, reg):
        entry = Registration.objects.filter(pk=reg, tournament_id=pk).select_related("player").first()
        if entry is None:
            messages.info(request, _("That registration is removed already."))
        else:
            try:
                registration.remove_registration(entry, request.user)
                messages.success(request, _("%(name)s is no longer registered.") % {"name": entry.player.name})
            except registration.RegistrationRefused as refused:
                messages.error(request, refused.message)
        return redirect("tournaments_director:registrations", pk=pk)


class WithdrawView(RoleRequiredMixin, View):
    """Withdraw a player (POST ``withdrawn=1``) or reinstate him (``withdrawn=0``). Sets, never
    toggles, so a double click withdraws once. A withdrawn player keeps his played rounds."""

    def post(self, request, pk, reg):
        entry = get_object_or_404(Registration, pk=reg, tournament_id=pk)
        wanted = request.POST.get("withdrawn")
        if wanted in ("0", "1"):
            registration.set_withdrawn(entry, wanted == "1", request.user)
        return redirect("tournaments_director:registrations", pk=pk)


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


