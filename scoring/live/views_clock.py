"""The director's clock commands for a round: start, pause, resume, add time (POST)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import View

from tournaments import clock
from tournaments.models import Round
from tournaments.permissions import RoleRequiredMixin
from tournaments.posted import whole_number


class ClockView(RoleRequiredMixin, View):
    """POST ``action`` = ``start`` (with ``minutes``), ``pause``, ``resume`` or ``extend`` (with
    ``minutes`` and ``extra_was``, the minutes added so far as the page showed them); back to the
    board."""

    tournament_from = ("round", "pk")

    def post(self, request, pk):
        rnd = get_object_or_404(Round, pk=pk)
        action = request.POST.get("action")
        typed = request.POST.get("minutes", "").strip()
        minutes = whole_number(typed)
        if action in ("start", "extend") and minutes is None:
            messages.error(request, _("“%(value)s” is not a whole number of minutes.") % {"value": typed})
            return redirect("live_director:board", pk=rnd.tournament_id)
        try:
            if action == "start":
                clock.start_clock(rnd, minutes, request.user)
            elif action == "pause":
                clock.pause_clock(rnd, request.user)
            elif action == "resume":
                clock.resume_clock(rnd, request.user)
            elif action == "extend":
                clock.extend_clock(rnd, minutes, request.user, expected_extra=whole_number(request.POST.get("extra_was")))
        except clock.ClockRefused as refused:
            messages.error(request, refused.message)
        return redirect("live_director:board", pk=rnd.tournament_id)
