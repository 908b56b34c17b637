"""The pages of a cup's organisers beside its settings (:mod:`scoring.cups.roles`): naming
another organiser or taking one off, and the cup's action log. Only the cup's organisers and a
superuser reach them; anonymous users are sent to the login, others get 403."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import ListView

from scoring.cups import roles as cup_roles
from tournaments.posted import whole_number
from tournaments.text import text_problem


class CupOrganiserAddView(cup_roles.CupOrganiserRequiredMixin, View):
    """POST ``username``: name another organiser of the cup (back to the cup's settings, with a
    message saying who was added or why nobody was)."""

    def post(self, request, pk):
        username = request.POST.get("username", "")
        # A user name cannot hold a control or invisible character (and PostgreSQL no null
        # character in a query): refused by name before it reaches the database.
        if problem := text_problem(username.strip(), name_like=True):
            messages.error(request, _("No organiser was added. The user name: %(problem)s") % {"problem": problem})
            return redirect("cups_manage:edit", pk=pk)
        try:
            user = cup_roles.add_organiser(self.cup, username, request.user)
        except cup_roles.CupRefused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, _("%(name)s is an organiser of this cup.") % {"name": user.get_username()})
        return redirect("cups_manage:edit", pk=pk)


class CupOrganiserRemoveView(cup_roles.CupOrganiserRequiredMixin, View):
    """POST ``user`` (a user's id): take an organiser off the cup; never its last one. Who takes
    himself off is sent to the cup's table, which he may still read."""

    def post(self, request, pk):
        try:
            removed = cup_roles.remove_organiser(self.cup, whole_number(request.POST.get("user")), request.user)
        except cup_roles.CupRefused as refused:
            messages.error(request, refused.message)
            return redirect("cups_manage:edit", pk=pk)
        if removed:
            messages.success(request, _("The organiser is taken off this cup."))
        else:
            messages.info(request, _("That user is no organiser of this cup any more."))
        if not cup_roles.may_manage_cup(request.user, self.cup):
            return redirect(self.cup.get_absolute_url())
        return redirect("cups_manage:edit", pk=pk)


class CupLogView(cup_roles.CupOrganiserRequiredMixin, ListView):
    """The cup's action log: who changed what and when, newest first, 100 entries to a page."""

    template_name = "cups/log.html"
    paginate_by = 100
    context_object_name = "entries"

    def get_queryset(self):
        return self.cup.actions.select_related("user").order_by("-created", "-pk")

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "cup": self.cup}
