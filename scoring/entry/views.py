"""Score entry pages: enter, edit, delete and restore hands, their history, raw rows, flags, a
player leaving, a table ended, a round verified or reopened, the table card.

Thin: the form validates through the ruleset, :mod:`scoring.services` saves. Requests made by htmx
get the sheet partial back (the sheet updates in place), a new hand only what it changed on the
sheet (:func:`render_saved`); others a redirect or the whole page.
A scorer enters, edits and restores hands but never strikes one, nor lifts a strike
(:func:`may_strike`): the hand commands refuse it by name
(:func:`scoring.services.hands.refuse_strike_change`), the form and its preview say so before
saving, and the sheet and the history offer him no edit or restore of a struck hand.
"""

import segno
from django.contrib import messages
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from scoring.entry.forms import HandForm, initial_from_record
from scoring.entry.raw_rows import RawRowsRejected, save_raw_rows
from scoring.models import Hand, HandFlag
from scoring.services import (
    HandRejected,
    delete_hand,
    describe,
    drop_player,
    end_table,
    info_from_seats,
    record_positions,
    reopen_round,
    resolve_flag,
    restore_hand,
    save_hand,
    sheet_after_new_hand,
    table_info,
    verify_round,
)
from scoring.services.hands import strike_lift_refused
from scoring.services.tables import confirmation_state
from scoring.views_public import sheet_context
from tournaments.links import private_link
from tournaments.models import Round, Seat, Table, TournamentRole
from tournaments.permissions import Can, Level, RoleRequiredMixin, has_role, remember_role
from tournaments.posted import whole_number
from tournaments.problems import card_labels
from tournaments.text import text_problem


def preview_context(form: HandForm) -> dict:
    """What the preview under the quick line shows: the hand in words, its notation and row, or
    the refusals (the line's, the form's, and those of the fields that name what they refuse, such
    as a bonus's kontra without the bonus); and for the page's script, which way to keep line and
    fields in step."""
    valid = form.is_valid()
    info = form.info
    built = form.built
    label = describe(built, info.names, info.ruleset, form.scores) if built else ""
    return {
        "form": form,
        "valid": valid,
        "label": label,
        "line": form.line(),
        "scores": form.scores if valid else None,
        "chips": list(zip(info.names.values(), form.scores or [])) if valid else [],
        "errors": [
            *form.errors.get("quick", []),
            *form.non_field_errors(),
            *form.errors.get("outcome", []),
            *form.errors.get("note", []),
            *form.errors.get("reason", []),
            *(e for name, errors in form.errors.items() if name.startswith("bonus_kontra_") for e in errors),
        ],
        "state": {
            "source": "line" if form.uses_line(form.data) else "fields",
            "typed": form.data.get("quick", ""),
            "line": form.line(),
            "fields": form.field_values() if form.uses_line(form.data) else {},
        },
    }


def may_strike(request, tournament_id: int) -> bool:
    """Whether the user may strike a hand in the tournament: a director (or organiser), not a
    scorer (``tournaments.permissions``: striking is the director's decision on the day)."""
    return Can(request.user, tournament_id).direct


class TableRoleRequiredMixin(RoleRequiredMixin):
    """:class:`~tournaments.permissions.RoleRequiredMixin` for a view of one table (URL argument
    ``table_pk``), in one query: the table's seats with their players (``self.seats``, position
    order), the table with its round and tournament (``self.table``) and the user's role in that
    tournament, which :func:`~tournaments.permissions.role_of` then finds cached for the rest of
    the request. Answers as the mixin does: the login for an anonymous user, 404 for a table that
    does not exist, 403 without ``required_role``."""

    tournament_from = ("table", "table_pk")

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()

        def role(tournament_id):  # the user's role level in the tournament at ``tournament_id``
            mine = TournamentRole.objects.filter(tournament=OuterRef(tournament_id), user=request.user)
            return Subquery(mine.values("level")[:1])

        seats = list(
            Seat.objects.filter(table_id=kwargs["table_pk"])
            .select_related("table__round__tournament", "registration__player", "substitute__player")
            .annotate(user_role=role("table__round__tournament_id"))
            .order_by("position")
        )
        if seats:
            table, user_role = seats[0].table, seats[0].user_role
            for seat in seats:  # one table object for all
                seat.table = table
        else:  # a table without seats: none is drawn so
            table = (
                Table.objects.select_related("round__tournament")
                .annotate(user_role=role("round__tournament_id"))
                .filter(pk=kwargs["table_pk"])
                .first()
            )
            if table is None:
                raise Http404
            user_role = table.user_role
        self.table, self.seats = table, seats
        self.permission_tournament_id = table.round.tournament_id
        remember_role(request.user, self.permission_tournament_id, user_role, mirror=bool(table.round.tournament.mirrored_from))
        if not has_role(request.user, self.permission_tournament_id, self.required_role):
            return self.handle_no_permission()
        return super(RoleRequiredMixin, self).dispatch(request, *args, **kwargs)

    def table_info(self, record: dict | None = None, number: int | None = None):
        """:func:`~scoring.services.table_info` of ``self.table`` from the seats loaded (no query)."""
        tournament = self.table.round.tournament
        return info_from_seats(self.table, self.seats, tournament, tournament.get_ruleset(), record, number)


def render_sheet(request, table, form=None, editing=None, status=200, info=None):
    """The score sheet: its partial for htmx (always 200, so htmx swaps it), else the page."""
    ctx = sheet_context(table, form, editing, can=Can(request.user, table.round.tournament_id), info=info)
    if request.htmx:
        return render(request, "scoring/_sheet.html", ctx)
    return render(request, "scoring/sheet.html", ctx, status=status)


def _save(request, form, table, hand=None):
    """Save the form's hand; on refusal the messages go to the form. Returns the hand or None."""
    try:
        return save_hand(
            table,
            form.record,
            request.user,
            hand=hand,
            expected_number=None if hand else form.cleaned_data.get("number"),
            expected_version=form.cleaned_data.get("version") if hand else None,
            reason=form.change_reason,
            info=form.info,
            settlement=form.settlement,
            may_strike=form.may_strike,
        )
    except HandRejected as rejected:
        for message in rejected.messages:
            form.add_error(None, message)
        return None


def render_saved(request, table, form, hand):
    """htmx's answer to a new hand saved: what changed on the sheet, each part swapped in by its id
    (``hx-swap-oob``) and nothing else (``HX-Reswap: none``): the notices (the saved message, a
    confirmation the hand voided), the hand's row, the totals, the next hand and a fresh form.
    Where the rows carry the earlier hands (radelci marks) or the table is complete (no form),
    the whole sheet, as after an edit. No query but the confirmation's, where there is one."""
    info = form.info
    totals = getattr(hand, "table_totals", None)
    if totals is None or info.uses_history:
        return render_sheet(request, table, info=info)
    sheet = sheet_after_new_hand(info, hand, totals)
    if sheet.complete:
        return render_sheet(request, table, info=info)
    can = Can(request.user, table.round.tournament_id)
    ctx = {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "sheet": sheet,
        "locked": False,  # the save succeeded: the round is open
        "can": can,
        "editing": None,
        "flags": {},  # a hand just entered has none
        "form": HandForm.next_hand(form, sheet.next_dealer, sheet.next_number),
        "catalogue": info.ruleset.catalogue(),
        "confirmation": confirmation_state(table) if can.score and getattr(hand, "table_confirmed", True) else None,
    }
    response = render(request, "entry/_hand_saved.html", ctx)
    response["HX-Reswap"] = "none"
    return response


class HandCreateView(TableRoleRequiredMixin, View):
    """POST the next hand of a table. A refused hand comes back with what was typed. htmx gets
    what changed on the sheet (:func:`render_saved`), a browser without it the redirect to the
    sheet."""

    required_role = Level.SCORER

    def post(self, request, table_pk):
        table = self.table
        info = self.table_info()
        form = HandForm(request.POST, info=info, may_strike=may_strike(request, table.round.tournament_id))
        if form.is_valid() and (hand := _save(request, form, table)):
            messages.success(request, _("Hand %(number)s saved.") % {"number": hand.number})
            return render_saved(request, table, form, hand) if request.htmx else redirect(table)
        return render_sheet(request, table, form, status=422, info=info)


class HandPreviewView(TableRoleRequiredMixin, View):
    """POST the form as typed: the hand in words and notation, the row it would score, or every
    refusal; for the page, the fields of a typed line and the line of the typed fields. Saves
    nothing. ``?edit=<hand pk>`` previews an edit of that hand (its seats and earlier hands)."""

    required_role = Level.SCORER

    def post(self, request, table_pk):
        table = self.table
        editing = whole_number(request.GET.get("edit"))
        hand = get_object_or_404(Hand, pk=editing, table=table) if editing is not None else None
        info = self.table_info(hand.record, hand.number) if hand else self.table_info()
        form = HandForm(request.POST, info=info, may_strike=may_strike(request, table.round.tournament_id), hand=hand)
        return render(request, "entry/_preview.html", preview_context(form))


def safe_next(request) -> str | None:
    """The ``next`` page posted with a form, if it is a page of this site."""
    target = request.POST.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return None


def gone(request, pk):
    """The answer to a request about hand ``pk`` that is deleted already (a second click, a second
    tab): back to its table with a message, or 404 if it never existed."""
    record = Hand.history.filter(id=pk).select_related("table").first()
    if record is None:
        raise Http404
    messages.info(request, _("Hand %(number)s is deleted already.") % {"number": record.number})
    return redirect(record.table)


class HandEditView(RoleRequiredMixin, View):
    """Edit a stored hand; re-scored under the tournament's edition on save."""

    required_role = Level.SCORER
    tournament_from = ("hand", "pk")

    def get_hand(self, pk):
        return Hand.objects.select_related("table__round__tournament").filter(pk=pk).first()

    def get(self, request, pk):
        hand = self.get_hand(pk)
        if hand is None:
            return gone(request, pk)
        if hand.table.round.verified_at is not None:
            messages.error(request, _("Round %(number)s is verified: reopen it to change its hands.") % {"number": hand.table.round.number})
            return redirect(hand.table)
        strikes = may_strike(request, hand.table.round.tournament_id)
        if not strikes and hand.record.get("outcome") == "struck":
            messages.error(request, strike_lift_refused(hand.number))
            return redirect(hand.table)
        info = table_info(hand.table, hand.record, hand.number)
        line = info.ruleset.format_hand(hand.record, info.size)
        initial = {**initial_from_record(hand.record, info.size, info.ruleset), "version": hand.version, "quick": line, "quick_was": line}
        form = HandForm(info=info, initial=initial, may_strike=strikes, hand=hand)
        return render_sheet(request, hand.table, form, editing=hand)

    def post(self, request, pk):
        hand = self.get_hand(pk)
        if hand is None:
            return gone(request, pk)
        info = table_info(hand.table, hand.record, hand.number)
        form = HandForm(request.POST, info=info, may_strike=may_strike(request, hand.table.round.tournament_id), hand=hand)
        if form.is_valid() and _save(request, form, hand.table, hand):
            messages.success(request, _("Hand %(number)s changed.") % {"number": hand.number})
            return render_sheet(request, hand.table) if request.htmx else redirect(hand.table)
        return render_sheet(request, hand.table, form, editing=hand, status=422)


class HandDeleteView(RoleRequiredMixin, View):
    """Delete a hand (POST, with ``reason``); later hands move up so numbers stay gapless."""

    required_role = Level.DIRECTOR
    tournament_from = ("hand", "pk")

    def post(self, request, pk):
        hand = Hand.objects.select_related("table").filter(pk=pk).first()
        if hand is None:
            return gone(request, pk)
        table, number = hand.table, hand.number
        reason = request.POST.get("reason", "").strip()[:100]
        if problem := text_problem(reason):  # a character that cannot be kept in the history
            messages.error(request, _("Hand %(number)s is not deleted. The reason: %(problem)s") % {"number": number, "problem": problem})
            return redirect(table)
        try:
            delete_hand(hand, request.user, reason)
        except HandRejected as refused:
            for message in refused.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
        return redirect(table)


class HandHistoryView(RoleRequiredMixin, TemplateView):
    """Every version of a hand: who, when, why, what it scored. An earlier version can be
    restored while the round is open, and by a scorer only where neither it nor the hand as it is
    now is struck (:func:`scoring.services.hands.refuse_strike_change`); where none can be, the
    page says why instead of offering a button that would be refused."""

    required_role = Level.SCORER
    tournament_from = ("hand", "pk")

    template_name = "entry/hand_history.html"

    def get_context_data(self, **kwargs):
        hand = get_object_or_404(Hand.objects.select_related("table__round__tournament"), pk=kwargs["pk"])
        info = table_info(hand.table)
        strikes = may_strike(self.request, hand.table.round.tournament_id)
        locked = hand.table.round.verified_at is not None
        is_struck = hand.record.get("outcome") == "struck"  # the hand as it is now
        versions = []
        for i, v in enumerate(hand.history.select_related("history_user")):  # the newest, the hand as it is, first
            # restoring it strikes the hand or lifts its strike: the director's call
            struck = v.record.get("outcome") == "struck" or is_struck
            versions.append({
                "version": v,
                "label": describe(v.record, info.names, info.ruleset, v.scores),
                "notation": info.ruleset.format_hand(v.record, len(record_positions(v.record, len(info.seats)))),
                "current": i == 0,
                "struck": struck,
                "restorable": i > 0 and not locked and (strikes or not struck),
            })
        return {
            **super().get_context_data(**kwargs),
            "hand": hand,
            "table": hand.table,
            "versions": versions,
            "locked": locked,
            "may_strike": strikes,
            "lift_refused": strike_lift_refused(hand.number) if is_struck and not strikes and not locked else "",
        }

    def post(self, request, pk):
        hand = get_object_or_404(Hand.objects.select_related("table__round"), pk=pk)
        try:
            old = hand.history.get(history_id=int(request.POST.get("history_id", 0)))
        except (ValueError, Hand.history.model.DoesNotExist):
            messages.error(request, _("That version does not exist."))
            return redirect("entry:hand_history", pk=pk)
        try:
            restore_hand(hand, old.history_id, request.user, may_strike=may_strike(request, hand.table.round.tournament_id))
        except HandRejected as rejected:
            for message in rejected.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Hand %(number)s restored.") % {"number": hand.number})
            return redirect(hand.table)
        return redirect("entry:hand_history", pk=pk)


class EndTableView(RoleRequiredMixin, View):
    """End a late table now: its round counts the hands played so far (POST)."""

    required_role = Level.DIRECTOR
    tournament_from = ("table", "table_pk")

    def post(self, request, table_pk):
        table = get_object_or_404(Table, pk=table_pk)
        try:
            played = end_table(table, request.user)
        except HandRejected as refused:
            for message in refused.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("%(table)s ended after %(hands)s hands.") % {"table": table, "hands": played})
        return redirect(safe_next(request) or table.get_absolute_url())


class ResolveFlagView(RoleRequiredMixin, View):
    """Mark a player's flag as dealt with (POST)."""

    required_role = Level.DIRECTOR
    tournament_from = ("flag", "pk")

    def post(self, request, pk):
        flag = get_object_or_404(HandFlag.objects.select_related("hand__table"), pk=pk)
        resolve_flag(flag, request.user)
        return redirect(flag.hand.table)


class VerifyRoundView(RoleRequiredMixin, View):
    """Mark a round verified (POST): its hands are locked. Sets, never toggles."""

    required_role = Level.DIRECTOR
    tournament_from = ("round", "pk")

    def post(self, request, pk):
        rnd = get_object_or_404(Round, pk=pk)
        if verify_round(rnd, request.user):
            messages.success(request, _("%(round)s is verified; its hands are locked.") % {"round": rnd})
        else:
            messages.info(request, _("%(round)s is verified already.") % {"round": rnd})
        return redirect("live_director:board", pk=rnd.tournament_id)


class ReopenRoundView(RoleRequiredMixin, View):
    """Reopen a verified round (POST with ``reason``, kept in the log) so its hands can change."""

    required_role = Level.DIRECTOR
    tournament_from = ("round", "pk")

    def post(self, request, pk):
        rnd = get_object_or_404(Round, pk=pk)
        reason = request.POST.get("reason", "")
        if not reason.strip():
            messages.error(request, _("Say why the round is reopened."))
        elif problem := text_problem(reason.strip()):  # a character that cannot be kept in the log
            messages.error(request, _("%(round)s is not reopened. The reason: %(problem)s") % {"round": rnd, "problem": problem})
        elif reopen_round(rnd, reason, request.user):
            messages.success(request, _("%(round)s is open again.") % {"round": rnd})
        else:
            messages.info(request, _("%(round)s is open already.") % {"round": rnd})
        return redirect(safe_next(request) or reverse("live_director:board", args=[rnd.tournament_id]))


class TableCardView(RoleRequiredMixin, TemplateView):
    """A printable card per table: players, seats, drawn cards and the private link as a QR code."""

    required_role = Level.DIRECTOR
    tournament_from = ("table", "table_pk")

    template_name = "entry/table_card.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=kwargs["table_pk"])
        url = private_link(table.token)
        cards = card_labels(table.round.tournament.get_ruleset())
        seats = [(s, cards.get(s.card, s.card)) for s in table.seats.select_related("registration__player").order_by("position")]
        qr = segno.make(url, error="m").svg_inline(scale=4, dark="#000")
        return {**super().get_context_data(**kwargs), "table": table, "url": url, "qr": qr, "seats": seats}


class RawRowsView(RoleRequiredMixin, View):
    """Transcribe a paper sheet: one hand per line, the numbers as written; all lines or none."""

    required_role = Level.SCORER
    tournament_from = ("table", "table_pk")

    def post(self, request, table_pk):
        table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_pk)
        text = request.POST.get("rows", "")
        try:
            hands = save_raw_rows(
                table, text, request.user, cumulative=bool(request.POST.get("cumulative")),
                may_strike=may_strike(request, table.round.tournament_id),
            )
        except RawRowsRejected as rejected:
            ctx = {**sheet_context(table, can=Can(request.user, table.round.tournament_id)), "raw_text": text, "raw_problems": rejected.problems,
                   "raw_cumulative": bool(request.POST.get("cumulative"))}
            return render(request, "scoring/sheet.html", ctx, status=422)
        messages.success(request, _("%(count)s hands transcribed.") % {"count": len(hands)})
        return redirect(table)


class DropPlayerView(RoleRequiredMixin, View):
    """A player leaves the table mid-round (POST ``seat``): it plays on one seat smaller."""

    required_role = Level.DIRECTOR
    tournament_from = ("table", "table_pk")

    def post(self, request, table_pk):
        table = get_object_or_404(Table, pk=table_pk)
        seat = get_object_or_404(table.seats.select_related("registration__player"), pk=whole_number(request.POST.get("seat")))
        try:
            drop_player(seat, request.user)
        except HandRejected as rejected:
            for message in rejected.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("%(name)s left the table; it plays on without him.") % {"name": seat.registration.player.name})
        return redirect(table)
