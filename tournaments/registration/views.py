"""The player register's and a tournament field's pages for the people who run the day: the
register (list, new, edit, merge), a tournament's registrations (search, register, paste a list,
withdraw, remove). Thin views: forms validate, :mod:`tournaments.registration.register` acts; the
player import is :mod:`tournaments.registration.views_import`.
"""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import CreateView, FormView, ListView, UpdateView, View
from django_tables2 import RequestConfig

from tournaments import actions, services
from tournaments.forms import PlayerForm, RegisterPlayersForm
from tournaments.models import Player, Registration, Tournament
from tournaments.permissions import RoleRequiredMixin, SitePermissionRequiredMixin
from tournaments.posted import whole_number, whole_numbers
from tournaments.registration import register as registration
from tournaments.registration.tables import PlayerTable, RegistrationTable
from tournaments.text import quoted
from tournaments.versioning import touch_players
from tournaments.views_director import TournamentMixin

PER_PAGE = 100  # the register and a field of 1,000 players stay a page a phone opens


def paginated(request, table):
    """``table`` (django-tables2) paginated by ``?page=``, :data:`PER_PAGE` rows to a page."""
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return table


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
