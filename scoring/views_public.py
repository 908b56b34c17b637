"""Public scoring pages: a table's score sheet (and its private sheet behind the table's token),
the standings and the ruleset's rules page with its notation card (their downloads are in
:mod:`scoring.exporters.views`)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import DetailView, View

from scoring.entry.forms import ConfirmSheetForm, FlagForm, HandForm
from scoring.exporters.notation_card import notation_card
from tournaments.links import absolute
from tournaments.models import Round, Table, Tournament
from tournaments.permissions import Can
from tournaments.posted import whole_number
from tournaments.problems import translate_problem
from tournaments.public_cache import CachedPublicPage, layout_version

from .models import HandFlag
from .services import RoundLocked, build_sheet, confirm_sheet, flag_hand
from .services.tables import SheetChanged, confirmation_state, sheet_page_version, sheet_version
from .standings import compute_standings


def sheet_context(table: Table, form: HandForm | None = None, editing=None, can: Can | None = None, info=None) -> dict:
    """Context of the score sheet. ``can``: what the user may do in the tournament
    (:class:`~tournaments.permissions.Can`); a scorer or above gets, without a form, the entry form
    of the next hand (carrying its hand number, so a second scorer's save of the same hand is
    refused) and the edit links (``can.score`` in the templates); a director also the table's
    commands (``can.direct``). ``info``: the table's :class:`~scoring.services.TableInfo` if the
    caller has it. ``confirmation``: for a scorer or above (the public sheet does not show it), the
    players' last confirmation of the sheet and whether it still holds
    (:class:`~scoring.services.tables.ConfirmationState`, ``None`` if none), shown by
    ``scoring/_confirmation.html``; the private sheet adds its own."""
    sheet = build_sheet(table, info)
    locked = table.round.verified_at is not None  # a verified round's hands do not change
    if form is None and can is not None and can.score and not sheet.complete and not locked:
        form = HandForm(info=sheet.info, dealer=sheet.next_dealer, initial={"number": sheet.next_number})
    return {
        "locked": locked,
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "sheet": sheet,
        "form": form,
        "editing": editing,
        "can": can,
        "catalogue": sheet.info.ruleset.catalogue(),
        "flags": flags_by_hand(table),
        "confirmation": confirmation_state(table) if can is not None and can.score else None,
        "notation_card": notation_card(sheet.info.ruleset) if form is not None else None,
    }


def flags_by_hand(table: Table) -> dict[int, list]:
    """Open flags of the table's hands: ``{hand_id: [HandFlag, ...]}``."""
    flags: dict[int, list] = {}
    for flag in HandFlag.objects.filter(hand__table=table, resolved=False):
        flags.setdefault(flag.hand_id, []).append(flag)
    return flags


class SheetView(CachedPublicPage, DetailView):
    """A table's score sheet: hands, running totals, next dealer and Vorhand; entry for directors."""

    template_name = "scoring/sheet.html"
    queryset = Table.objects.select_related("round__tournament")

    def version_for(self, **kwargs):
        return sheet_page_version(kwargs["pk"])  # this table's hands, not the whole tournament's

    def get_context_data(self, **kwargs):
        return sheet_context(self.object, can=Can(self.request.user, self.object.round.tournament_id))


class PrivateSheetView(View):
    """The table's private link: its sheet for its players, without login; they can confirm the
    sheet (optionally with a name) or flag a hand with a comment. The token opens this one table
    and nothing else. A refused name or comment (a character it may not hold,
    :mod:`tournaments.text`) shows the page again with the message and what was typed (422).

    The page says whether the players' last confirmation still holds; once a hand changed after
    it, it says so and offers "Confirm again" (:func:`~scoring.services.tables.confirmation_states`).

    A confirmation is of the sheet the page showed: the page carries its version
    (``sheet_version`` in the context, a hidden field of the confirm form). When a hand changed
    after the page was made (the director edited the flagged hand while the players still had
    the page open), or a page from before pages carried it is posted, nothing is saved: the page
    comes again with the sheet as it is now, its version, a message to check it and confirm again
    and the name as typed (409).

    "Your name" stays filled in after a confirmation: the name this browser last confirmed with
    is kept in its session (:data:`NAME_KEY`) and offered on every private sheet it opens, so a
    player who confirms round after round (at other tables, through other links) types it once.
    It is the browser's, never the table's: a tablemate on his own phone does not see it. An
    empty name confirmed forgets it."""

    template_name = "scoring/private_sheet.html"
    NAME_KEY = "sheet_confirmation_name"

    def get_table(self, token):
        return get_object_or_404(Table.objects.select_related("round__tournament"), token=token)

    def page_context(self, table, confirm_form, flag_form=None) -> dict:
        """The page's context. The sheet's version is read before the sheet: a hand changed in
        between makes the page's version an older one (a confirmation is refused, the players
        look again), never a newer one than the hands it shows."""
        version = sheet_version(table)
        return {
            **sheet_context(table),
            "confirmation": confirmation_state(table),
            "sheet_version": version,
            "flag_form": FlagForm(table=table) if flag_form is None else flag_form,
            "confirm_form": confirm_form,
        }

    def get(self, request, token):
        table = self.get_table(token)
        confirm_form = ConfirmSheetForm(initial={"name": request.session.get(self.NAME_KEY, "")})
        return render(request, self.template_name, self.page_context(table, confirm_form))

    def post(self, request, token):
        table = self.get_table(token)
        confirming = "confirm" in request.POST
        confirm_form = ConfirmSheetForm(request.POST if confirming else None, initial={"name": request.session.get(self.NAME_KEY, "")})
        form = FlagForm(None if confirming else request.POST, table=table)
        try:
            if confirming and confirm_form.is_valid():
                data = confirm_form.cleaned_data
                confirmation = confirm_sheet(table, data["name"], data["sheet_version"])
                if confirmation.name:
                    request.session[self.NAME_KEY] = confirmation.name
                else:
                    request.session.pop(self.NAME_KEY, None)
                messages.success(request, _("Thank you: the sheet is confirmed."))
            elif not confirming and form.is_valid():
                flag_hand(form.cleaned_data["hand"], form.cleaned_data["comment"])
                messages.success(request, _("The tournament director will look at hand %(number)s.") % {"number": form.cleaned_data["hand"].number})
            else:
                return render(request, self.template_name, self.page_context(table, confirm_form, form), status=422)
        except SheetChanged:
            confirm_form.add_error(None, _("The sheet changed since you opened it: check it and confirm it again."))
            return render(request, self.template_name, self.page_context(table, confirm_form, form), status=409)
        except RoundLocked:
            messages.error(request, _("This round is verified: the sheet can no longer be confirmed or flagged."))
        return redirect("scoring:private_sheet", token=token)


def drawn_round_after(tournament_id: int, value) -> int | None:
    """``?after=`` of the standings (page and PDF) as a round number of tournament
    ``tournament_id``: ``None`` when absent or not a whole number (the standings after every
    round); ``Http404`` for a number that is not one of its drawn rounds (``after=999``). One
    query, in the render only: the page's cache key holds the whole number as it is
    (:meth:`StandingsView.cache_params`, a 404 is never kept), the PDF's file name only a drawn
    round."""
    number = whole_number(value)
    if number is None:
        return None
    if not Round.objects.filter(tournament_id=tournament_id, number=number).exists():
        raise Http404(_("This tournament has no round %(number)s drawn.") % {"number": number})
    return number


class StandingsView(CachedPublicPage, DetailView):
    """Standings after every round (or ``?after=N``, a drawn round: 404 for another number), with
    the tie-break that separated level players."""

    model = Tournament
    template_name = "scoring/standings.html"
    context_object_name = "tournament"

    def cache_params(self):
        """The page cache's key holds ``?after=`` as a whole number only, without a query (a
        cache hit costs the version query alone); the render answers 404 for one that is not a
        drawn round (:func:`drawn_round_after`), and a 404 is never kept."""
        after = whole_number(self.request.GET.get("after"))
        return {} if after is None else {"after": after}

    def get_queryset(self):
        return Tournament.objects.select_related("mirror")  # a mirror's note names its version

    def get_context_data(self, **kwargs):
        after = drawn_round_after(self.object.pk, self.request.GET.get("after"))  # before any ranking
        ctx = super().get_context_data(**kwargs)
        ctx["standings"] = compute_standings(self.object, after)
        ctx["drawn_rounds"] = list(self.object.round_set.values_list("number", flat=True))
        ctx["ruleset"] = self.object.get_ruleset()
        ctx["can"] = Can(self.request.user, self.object.pk)
        if ctx["can"].direct:  # the director is shown how a club's site embeds these standings
            ctx["widget_url"] = absolute(reverse("api:widget", args=[self.object.pk]))
        return ctx


class RulesView(CachedPublicPage, DetailView):
    """Contracts and bonuses of the tournament's ruleset edition, from its catalogue."""

    model = Tournament
    template_name = "scoring/rules.html"
    context_object_name = "tournament"

    def version_for(self, **kwargs):
        return layout_version(kwargs["pk"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rs = self.object.get_ruleset()
        ctx["ruleset"] = rs
        ctx["notation_card"] = notation_card(rs)
        ctx["summary"] = [translate_problem(line) for line in rs.rules_summary()]
        ctx["options"] = rs.options_in_force()
        ctx["contracts"] = [
            {
                "contract": c,
                "bonuses": rs.allowed_bonuses(c.key),
                "bird": rs.bonus(c.bird) if c.bird and c.bird != "any" else None,
            }
            for c in rs.contracts
        ]
        return ctx
