"""Director scoring pages: enter, edit and delete hands. Thin: the form validates through the
ruleset, :mod:`scoring.services` saves."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.generic import View

from tournaments.models import Table
from tournaments.permissions import DirectorRequiredMixin

from .forms import HandForm, initial_from_record
from .models import Hand
from .services import HandRejected, delete_hand, save_hand, table_info
from .views_public import sheet_context


class HandCreateView(DirectorRequiredMixin, View):
    """POST the next hand of a table. An invalid hand re-renders the sheet with what was typed."""

    def post(self, request, table_pk):
        table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_pk)
        info = table_info(table)
        form = HandForm(request.POST, info=info)
        if form.is_valid():
            try:
                hand = save_hand(table, form.record, request.user)
            except HandRejected as rejected:
                for message in rejected.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Hand %(number)s saved.") % {"number": hand.number})
                return redirect(table)
        return render(request, "scoring/sheet.html", sheet_context(table, form), status=422)


class HandEditView(DirectorRequiredMixin, View):
    """Edit a stored hand; re-scored under the tournament's edition on save."""

    def get_hand(self, pk):
        return get_object_or_404(Hand.objects.select_related("table__round__tournament"), pk=pk)

    def get(self, request, pk):
        hand = self.get_hand(pk)
        info = table_info(hand.table)
        form = HandForm(info=info, initial=initial_from_record(hand.record, info.size))
        return render(request, "scoring/sheet.html", sheet_context(hand.table, form, editing=hand))

    def post(self, request, pk):
        hand = self.get_hand(pk)
        info = table_info(hand.table)
        form = HandForm(request.POST, info=info)
        if form.is_valid():
            try:
                save_hand(hand.table, form.record, request.user, hand=hand)
            except HandRejected as rejected:
                for message in rejected.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Hand %(number)s changed.") % {"number": hand.number})
                return redirect(hand.table)
        return render(request, "scoring/sheet.html", sheet_context(hand.table, form, editing=hand), status=422)


class HandDeleteView(DirectorRequiredMixin, View):
    """Delete a hand (POST); later hands move up so numbers stay gapless."""

    def post(self, request, pk):
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=pk)
        table = hand.table
        number = hand.number
        delete_hand(hand)
        messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
        return redirect(table)
